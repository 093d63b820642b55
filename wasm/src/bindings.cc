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

#include "metrics/recorder.h"
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

// A column as a typed array: 64-bit columns become Float64Array, exact below 2^53 (104 days in
// nanoseconds, 9 PB of sequence space), which the scenario schema's limits keep them under, and
// directly usable for plotting; like series.json, an infinite ssthresh becomes -1.
template <class T>
val ColumnArray(const std::vector<T>& column, bool infinite) {
  if constexpr (sizeof(T) == 8) {
    std::vector<double> doubles;
    doubles.reserve(column.size());
    for (T v : column) {
      doubles.push_back(infinite && static_cast<int64_t>(v) >= tcb::TcpConfig::kInfiniteSsthresh ? -1.0
                                                                                                  : static_cast<double>(v));
    }
    return CopyColumn(doubles);
  } else {
    return CopyColumn(column);
  }
}

template <class Strings>
val StringArray(const Strings& strings) {
  val out = val::array();
  for (const auto& s : strings) out.call<void>("push", std::string(s));
  return out;
}

// Every column of a table, by its key (sim-core/trace/columns.json).
#define TCB_COLUMN_ARRAY(member, type, key, csv_name, csv, infinite, indexes) \
  table.set(key, ColumnArray(buffer.member, infinite));

val TcpTable(const tcb::TcpSeries& buffer) {
  val table = val::object();
  TCB_TCP_COLUMNS(TCB_COLUMN_ARRAY)
  return table;
}
val QueueTable(const tcb::QueueSeries& buffer) {
  val table = val::object();
  TCB_QUEUE_COLUMNS(TCB_COLUMN_ARRAY)
  return table;
}
val GroupTable(const tcb::GroupSeries& buffer) {
  val table = val::object();
  TCB_GROUP_COLUMNS(TCB_COLUMN_ARRAY)
  return table;
}

val SeriesColumns(const tcb::Recorder& recorder) {
  val series = val::object();
  series.set("tcp", TcpTable(recorder.tcp_series()));
  series.set("queue", QueueTable(recorder.queue_series()));
  series.set("group", GroupTable(recorder.group_series()));
  return series;
}

val TraceColumns(const tcb::PacketTrace& buffer) {
  val table = val::object();
  table.set("eventNames", StringArray(tcb::PacketEventNames()));
  TCB_TRACE_COLUMNS(TCB_COLUMN_ARRAY)
  return table;
}
#undef TCB_COLUMN_ARRAY

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
