// The JavaScript face of sim-core (embind), used by the worker in wasm/src/worker.ts: validation,
// presets, the paper catalogue, schemas and runs. No C++ exception crosses into JavaScript: every failure comes back as
// {error: {kind, ...}}, which the worker turns into a rejected promise.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <chrono>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "metrics/trace.h"
#include "scenario/papers.h"
#include "scenario/presets.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "tcp/tcp_config.h"

namespace {

using emscripten::val;

val Error(const char* kind, const std::string& message) {
  val error = val::object();
  error.set("kind", kind);
  error.set("message", message);
  val out = val::object();
  out.set("error", error);
  return out;
}

// Runs `body`, turning exceptions into the error object the worker expects. A ScenarioError carries
// the CLI's JSON path and problem; bad_alloc means the module reached its maximum memory.
template <class Body>
val Guarded(Body&& body) {
  try {
    return body();
  } catch (const tcb::ScenarioError& e) {
    val out = Error("scenario", e.what());
    out["error"].set("path", e.path());
    out["error"].set("problem", e.problem());
    return out;
  } catch (const std::bad_alloc&) {
    const size_t maximum_mib = emscripten_get_heap_max() >> 20;
    return Error("memory", "out of memory: the run needs more than the module's maximum of " +
                               std::to_string(maximum_mib) + " MiB");
  } catch (const std::exception& e) {
    return Error("internal", e.what());
  }
}

// typed_memory_view is a view into the wasm heap; slice() copies it into a buffer of its own, which
// the worker can transfer to the main thread and which outlives the run.
template <class T>
val CopyColumn(const std::vector<T>& column) {
  return val(emscripten::typed_memory_view(column.size(), column.data())).call<val>("slice");
}

// 64-bit columns become Float64Array: exact below 2^53 (104 days in nanoseconds, 9 PB of sequence
// space), which the scenario schema's limits keep them under, and directly usable for plotting.
template <class T>
val CopyColumnAsDouble(const std::vector<T>& column) {
  std::vector<double> doubles(column.begin(), column.end());
  return CopyColumn(doubles);
}

// Like series.json: an infinite ssthresh (TcpConfig::kInfiniteSsthresh) is written as -1.
val CopySsthresh(const std::vector<int64_t>& column) {
  std::vector<double> doubles;
  doubles.reserve(column.size());
  for (int64_t s : column) doubles.push_back(s >= tcb::TcpConfig::kInfiniteSsthresh ? -1.0 : static_cast<double>(s));
  return CopyColumn(doubles);
}

template <class Strings>
val StringArray(const Strings& strings) {
  val out = val::array();
  for (const auto& s : strings) out.call<void>("push", std::string(s));
  return out;
}

// The columns TcpSeries and GroupSeries share: a window's state over time.
template <class WindowSeries>
val WindowColumns(const WindowSeries& s) {
  val table = val::object();
  table.set("timeNs", CopyColumnAsDouble(s.time_ns));
  table.set("cwndBytes", CopyColumnAsDouble(s.cwnd));
  table.set("ssthreshBytes", CopySsthresh(s.ssthresh));
  table.set("srttNs", CopyColumnAsDouble(s.srtt_ns));
  table.set("rttvarNs", CopyColumnAsDouble(s.rttvar_ns));
  table.set("inFlightBytes", CopyColumnAsDouble(s.in_flight));
  return table;
}

val SeriesColumns(const tcb::Recorder& recorder) {
  val tcp = WindowColumns(recorder.tcp_series());
  tcp.set("flow", CopyColumn(recorder.tcp_series().flow));
  tcp.set("pacingBps", CopyColumnAsDouble(recorder.tcp_series().pacing_bps));

  const tcb::QueueSeries& q = recorder.queue_series();
  val queue = val::object();
  queue.set("timeNs", CopyColumnAsDouble(q.time_ns));
  queue.set("link", CopyColumn(q.link));
  queue.set("packets", CopyColumn(q.packets));
  queue.set("bytes", CopyColumnAsDouble(q.bytes));

  val group = WindowColumns(recorder.group_series());
  group.set("group", CopyColumn(recorder.group_series().group));
  group.set("members", CopyColumn(recorder.group_series().members));

  val series = val::object();
  series.set("tcp", tcp);
  series.set("queue", queue);
  series.set("group", group);
  return series;
}

val TraceColumns(const tcb::PacketTrace& t) {
  std::vector<std::string_view> event_names;
  for (int e = static_cast<int>(tcb::PacketEvent::kSend); e <= static_cast<int>(tcb::PacketEvent::kReceive); ++e) {
    event_names.push_back(tcb::PacketEventName(static_cast<tcb::PacketEvent>(e)));
  }
  val trace = val::object();
  trace.set("eventNames", StringArray(event_names));
  trace.set("timeNs", CopyColumnAsDouble(t.time_ns));
  trace.set("event", CopyColumn(t.event));
  trace.set("flow", CopyColumn(t.flow));
  trace.set("link", CopyColumn(t.link));
  trace.set("seq", CopyColumnAsDouble(t.seq));
  trace.set("payload", CopyColumn(t.payload));
  trace.set("ack", CopyColumnAsDouble(t.ack));
  trace.set("window", CopyColumnAsDouble(t.window));
  trace.set("flags", CopyColumn(t.flags));
  trace.set("fromInitiator", CopyColumn(t.from_initiator));
  trace.set("uid", CopyColumnAsDouble(t.uid));
  return trace;
}

// validate(text) -> {scenario: normalised JSON text} | {error}
val Validate(const std::string& text) {
  return Guarded([&] {
    val out = val::object();
    out.set("scenario", tcb::ParseScenarioText(text).document.dump());
    return out;
  });
}

// run(text, {seed?, trace?, progressEveryEvents?}, progress(nowS, durationS))
//   -> {summary: JSON text as `tcpsim run` prints it, flows, links, groups, series?, trace?,
//       wallSeconds: the run's wall time, measured as `tcpsim run --stats` does} | {error}
val Run(const std::string& text, val options, val progress) {
  return Guarded([&] {
    const tcb::Scenario scenario = tcb::ParseScenarioText(text);
    tcb::RunOptions run_options;
    if (!options["seed"].isUndefined()) {
      const double seed = options["seed"].as<double>();
      // The schema's range for seeds: integers a JavaScript number holds exactly.
      if (!(seed >= 0 && seed <= 9007199254740991.0) || seed != static_cast<double>(static_cast<uint64_t>(seed))) {
        throw tcb::ScenarioError("seed", "must be a non-negative integer up to 2^53 - 1");
      }
      run_options.seed = static_cast<uint64_t>(seed);
    }
    if (!options["trace"].isUndefined()) {
      const std::string level = options["trace"].as<std::string>();
      tcb::TraceLevel parsed;
      if (!tcb::ParseTraceLevel(level, &parsed)) {
        throw tcb::ScenarioError("trace", "must be none, summary, series or full (got \"" + level + "\")");
      }
      run_options.trace = parsed;
    }
    if (!options["progressEveryEvents"].isUndefined()) {
      run_options.progress_every_events = options["progressEveryEvents"].as<uint32_t>();
    }
    // Cancellation terminates the worker (a running module cannot see an AbortSignal), so the
    // callback only reports.
    run_options.on_progress = [&progress](tcb::SimTime now, tcb::SimTime duration) {
      progress(now.seconds(), duration.seconds());
      return true;
    };

    const auto started = std::chrono::steady_clock::now();
    const tcb::RunOutput run = tcb::RunScenario(scenario, run_options);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
    val out = val::object();
    out.set("wallSeconds", wall.count());
    out.set("summary", run.PrintedSummary().dump());
    std::vector<std::string> flow_names;
    for (const tcb::FlowLabel& f : run.flows) flow_names.push_back(f.name);
    out.set("flows", StringArray(flow_names));
    out.set("links", StringArray(run.links));
    out.set("groups", StringArray(run.recorder->group_labels()));
    if (run.trace >= tcb::TraceLevel::kSeries) out.set("series", SeriesColumns(*run.recorder));
    if (run.trace >= tcb::TraceLevel::kFull) out.set("trace", TraceColumns(run.recorder->packet_trace()));
    return out;
  });
}

val PresetNames() { return StringArray(tcb::PresetNames()); }

val PresetText(const std::string& name) {
  const auto text = tcb::PresetText(name);
  return text ? val(std::string(*text)) : val::null();
}

std::string Papers() { return tcb::PaperCatalogue().dump(); }

std::string ScenarioSchema() { return tcb::ScenarioSchemaDocument().dump(); }
std::string ResultSchema() { return tcb::ResultSchemaDocument().dump(); }

// The module's linear memory (which only grows) and the bytes malloc has handed out and not taken
// back: what a leak between runs would show.
val HeapStats() {
  val out = val::object();
  out.set("memoryBytes", static_cast<double>(__builtin_wasm_memory_size(0)) * 65536);
  out.set("allocatedBytes", static_cast<double>(mallinfo().uordblks));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(tcbsim) {
  emscripten::function("validate", &Validate);
  emscripten::function("run", &Run);
  emscripten::function("presetNames", &PresetNames);
  emscripten::function("presetText", &PresetText);
  emscripten::function("papers", &Papers);
  emscripten::function("scenarioSchema", &ScenarioSchema);
  emscripten::function("resultSchema", &ResultSchema);
  emscripten::function("heapStats", &HeapStats);
}
