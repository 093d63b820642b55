// The JavaScript face of sim-core (embind), used by the worker in wasm/src/worker-core.ts: validation,
// presets, the paper catalogue, schemas, runs, and experiments (whose runs the Simulator spreads
// over its workers). No C++ exception crosses into JavaScript: every failure comes back as
// {error: {kind, ...}}, which the worker turns into a rejected promise.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "experiment/experiment.h"
#include "experiment/grid.h"
#include "experiment/report.h"
#include "metrics/recorder.h"
#include "metrics/statistics.h"
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

// The rows of a run exceed what the caller allows the series and trace to take (RunOptions'
// maxRecordedBytes): reported as out of memory, with the limit.
class RecordedTooLarge : public std::runtime_error {
 public:
  explicit RecordedTooLarge(double limit_bytes)
      : std::runtime_error("out of memory: the run's series and packet trace need more than " +
                           std::to_string(static_cast<uint64_t>(limit_bytes) >> 20) + " MiB (maxRecordedBytes)") {}
};

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
  } catch (const RecordedTooLarge& e) {
    return Error("memory", e.what());
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

// The typed array a column arrives in (ColumnArray): 64-bit columns as Float64Array.
template <class T>
const char* ArrayType() {
  if constexpr (sizeof(T) == 8) {
    return "Float64Array";
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return "Int32Array";
  } else {
    static_assert(std::is_same_v<T, uint8_t>, "trace/columns.json types: int64, uint64, int32, uint8");
    return "Uint8Array";
  }
}

// One column as it arrives: typed arrays of consecutive rows, joined into one when the run ends.
// Joining drops each part as it is copied, so that at most one column is held twice.
class ColumnParts {
 public:
  void Add(val part) { parts_.call<void>("push", part); rows_ += part["length"].as<size_t>(); }

  val Join(const char* type) {
    val out = val::global(type).new_(static_cast<double>(rows_));
    const size_t n = parts_["length"].as<size_t>();
    double offset = 0;
    for (size_t i = 0; i < n; ++i) {
      const val part = parts_[i];
      out.call<void>("set", part, offset);
      offset += part["length"].as<double>();
      parts_.set(i, val::undefined());
    }
    parts_ = val::array();
    return out;
  }

 private:
  val parts_ = val::array();
  size_t rows_ = 0;
};

// Every table of a run (sim-core/trace/columns.json) as its rows are recorded: each block the
// recorder hands over is copied out of the module's memory at once (so that the module holds one
// block per table, not the run's rows), and the tables are joined into one typed array per
// column, by its key, when the run ends.
class JsTables final : public tcb::RecorderBlocks {
 public:
  explicit JsTables(double max_bytes) : max_bytes_(max_bytes) {}

#define TCB_PARTS_MEMBER(member, type, key, csv_name, csv, infinite, indexes) ColumnParts member;
#define TCB_ADD_PART(member, type, key, csv_name, csv, infinite, indexes) \
  parts.member.Add(ColumnArray(rows.member, infinite));                  \
  bytes += rows.size() * sizeof(type);
#define TCB_JOIN(member, type, key, csv_name, csv, infinite, indexes) table.set(key, parts.member.Join(ArrayType<type>()));

  void Take(const tcb::PacketTrace& rows) override { Timed([&] { Count(Add(trace_, rows)); }); }
  void Take(const tcb::TcpSeries& rows) override { Timed([&] { Count(Add(tcp_, rows)); }); }
  void Take(const tcb::QueueSeries& rows) override { Timed([&] { Count(Add(queue_, rows)); }); }
  void Take(const tcb::GroupSeries& rows) override { Timed([&] { Count(Add(group_, rows)); }); }

  val Series() {
    val series = val::object();
    series.set("tcp", Join(tcp_));
    series.set("queue", Join(queue_));
    series.set("group", Join(group_));
    return series;
  }

  val Trace() {
    val table = Join(trace_);
    table.set("eventNames", StringArray(tcb::PacketEventNames()));
    return table;
  }

  // Wall time spent copying blocks out during the run, which the run's wall time leaves out.
  double copy_seconds() const { return copy_seconds_; }

 private:
  // Per table: a ColumnParts per column, adding a block's columns to them, and joining them.
#define TCB_TABLE_PARTS(Parts, Table, COLUMNS)            \
  struct Parts {                                          \
    COLUMNS(TCB_PARTS_MEMBER)                             \
  };                                                      \
  static size_t Add(Parts& parts, const tcb::Table& rows) { \
    size_t bytes = 0;                                     \
    COLUMNS(TCB_ADD_PART)                                 \
    return bytes;                                         \
  }                                                       \
  static val Join(Parts& parts) {                         \
    val table = val::object();                            \
    COLUMNS(TCB_JOIN)                                     \
    return table;                                         \
  }
  TCB_TABLE_PARTS(TraceParts, PacketTrace, TCB_TRACE_COLUMNS)
  TCB_TABLE_PARTS(TcpParts, TcpSeries, TCB_TCP_COLUMNS)
  TCB_TABLE_PARTS(QueueParts, QueueSeries, TCB_QUEUE_COLUMNS)
  TCB_TABLE_PARTS(GroupParts, GroupSeries, TCB_GROUP_COLUMNS)
#undef TCB_TABLE_PARTS
#undef TCB_PARTS_MEMBER
#undef TCB_ADD_PART
#undef TCB_JOIN

  template <class Body>
  void Timed(Body&& body) {
    const auto started = std::chrono::steady_clock::now();
    body();
    copy_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  void Count(size_t bytes) {
    bytes_ += static_cast<double>(bytes);
    if (bytes_ > max_bytes_) throw RecordedTooLarge(max_bytes_);
  }

  double max_bytes_;
  double bytes_ = 0;
  double copy_seconds_ = 0;
  TraceParts trace_;
  TcpParts tcp_;
  QueueParts queue_;
  GroupParts group_;
};

// validate(text) -> {scenario: normalised JSON text} | {error}
val Validate(const std::string& text) {
  return Guarded([&] {
    val out = val::object();
    out.set("scenario", tcb::ParseScenarioText(text).document.dump());
    return out;
  });
}

// planGrid(request text {scenario, grid, replications}) -> {plan: JSON text as `tcpsim grid` prints
// it} | {error}, the error's path in the request's terms ("$.grid['/tcp/flavor'][1]").
val PlanGrid(const std::string& text) {
  return Guarded([&] {
    val out = val::object();
    out.set("plan", tcb::PlanGridText(text).dump());
    return out;
  });
}

// run(text, {seed?, trace?, progressEveryEvents?, maxRecordedBytes}, progress(nowS, durationS))
//   -> {summary: JSON text as `tcpsim run` prints it, flows, links, groups, series?, trace?,
//       wallSeconds: the run's wall time, measured as `tcpsim run --stats` does, without copying the
//       rows out} | {error}; rows beyond maxRecordedBytes (as typed arrays) fail as out of memory
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
    // The series and trace leave the module's memory block by block as they are recorded.
    JsTables tables(options["maxRecordedBytes"].isUndefined() ? std::numeric_limits<double>::infinity()
                                                              : options["maxRecordedBytes"].as<double>());
    run_options.record_blocks = &tables;
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
    out.set("wallSeconds", wall.count() - tables.copy_seconds());
    out.set("summary", run.PrintedSummary().dump());
    std::vector<std::string> flow_names;
    for (const tcb::FlowLabel& f : run.flows) flow_names.push_back(f.name);
    out.set("flows", StringArray(flow_names));
    out.set("links", StringArray(run.links));
    out.set("groups", StringArray(run.recorder->group_labels()));
    if (run.trace >= tcb::TraceLevel::kSeries) out.set("series", tables.Series());
    if (run.trace >= tcb::TraceLevel::kFull) out.set("trace", tables.Trace());
    return out;
  });
}

// An experiment parsed and expanded once, for one mode. The library has no threads: like `tcpsim
// reproduce`, the caller runs the plan's runs by index (any worker, any order; the Simulator spreads
// them over its workers, each holding a session of its own) and hands every record back, in run
// order, to Report. The report is then the CLI's, to the bit.
class ExperimentSession {
 public:
  // `text`: a built-in experiment's name, or an experiment document. Errors are kept for Status.
  ExperimentSession(const std::string& text, bool quick) {
    status_ = Guarded([&] {
      const std::optional<std::string_view> builtin = tcb::ExperimentText(text);
      experiment_ = tcb::ParseExperimentText(builtin ? std::string(*builtin) : text);
      plan_ = tcb::Expand(*experiment_, quick ? tcb::ExperimentMode::kQuick : tcb::ExperimentMode::kFull);
      double max_duration_s = 0;
      for (const tcb::RunSpec& spec : plan_.runs) max_duration_s = std::max(max_duration_s, spec.scenario->duration.seconds());
      val out = val::object();
      out.set("runs", static_cast<double>(plan_.runs.size()));
      out.set("experiment", experiment_->document.dump());
      out.set("maxDurationS", max_duration_s);
      out.set("replications", plan_.replications);
      return out;
    });
  }

  // {runs, experiment: the validated document as JSON text, maxDurationS: the longest run's simulated
  // duration, replications: of each variant and point in this mode} | {error}
  val Status() const { return status_; }

  // Run `index`'s scenario document with its seed, for a caller that runs it elsewhere (`tcpsim run
  // --trace summary` gives the summary Record reads) -> {scenario: JSON text} | {error}
  val RunScenarioDocument(double index) const {
    return Guarded([&] {
      if (!experiment_) throw std::logic_error("the experiment did not parse");
      if (!(index >= 0 && index < static_cast<double>(plan_.runs.size())) || index != static_cast<double>(static_cast<size_t>(index))) {
        throw std::invalid_argument("no run " + std::to_string(index) + " in a plan of " + std::to_string(plan_.runs.size()));
      }
      val out = val::object();
      out.set("scenario", plan_.runs[static_cast<size_t>(index)].ScenarioDocument().dump());
      return out;
    });
  }

  // What the experiment keeps of a run, from its complete summary (a level other than "none")
  // -> {metrics, resultHash} | {error}
  val Record(const std::string& summary) const {
    return Guarded([&] {
      if (!experiment_) throw std::logic_error("the experiment did not parse");
      return RecordValue(tcb::RecordRun(*experiment_, nlohmann::json::parse(summary)));
    });
  }

  // Runs [from, to) of the plan; progress(done) after each. -> {records: [{metrics, resultHash}]} | {error}
  val RunRange(double from, double to, val progress) {
    return Guarded([&] {
      if (!experiment_) throw std::logic_error("the experiment did not parse");
      const size_t begin = static_cast<size_t>(from);
      const size_t end = std::min(static_cast<size_t>(to), plan_.runs.size());
      val records = val::array();
      for (size_t i = begin; i < end; ++i) {
        records.call<void>("push", RecordValue(tcb::RecordRun(*experiment_, tcb::RunSpecSummary(plan_.runs[i]))));
        progress(static_cast<double>(i + 1 - begin));
      }
      val out = val::object();
      out.set("records", records);
      return out;
    });
  }

  // The report of every run's record, in run order -> {report: JSON text as `tcpsim reproduce --json`
  // prints it, text: the tables it prints without --json} | {error}
  val Report(val records) {
    return Guarded([&] {
      if (!experiment_) throw std::logic_error("the experiment did not parse");
      const size_t n = records["length"].as<size_t>();
      if (n != plan_.runs.size()) throw std::invalid_argument("the report needs a record for every run");
      std::vector<tcb::RunRecord> runs(n);
      for (size_t i = 0; i < n; ++i) {
        const val r = records[i];
        const size_t metrics = r["metrics"]["length"].as<size_t>();
        for (size_t m = 0; m < metrics; ++m) {
          const val v = r["metrics"][m];
          runs[i].metrics.push_back(v.isNull() ? std::nullopt : std::optional<double>(v.as<double>()));
        }
        runs[i].result_hash = r["resultHash"].as<std::string>();
      }
      const nlohmann::json report = tcb::BuildReport(*experiment_, plan_, runs);
      val out = val::object();
      out.set("report", report.dump(2) + "\n");
      out.set("text", tcb::FormatReport(report));
      return out;
    });
  }

 private:
  static val RecordValue(const tcb::RunRecord& record) {
    val metrics = val::array();
    for (const std::optional<double>& m : record.metrics) metrics.call<void>("push", m ? val(*m) : val::null());
    val out = val::object();
    out.set("metrics", metrics);
    out.set("resultHash", record.result_hash);
    return out;
  }

  val status_ = val::undefined();
  std::optional<tcb::Experiment> experiment_;
  tcb::ExperimentPlan plan_;
};

// summarizeSamples(text {"samples": [[values...]...], "level": 0.95}) -> {stats: JSON text
// [{n, mean, sd, halfWidth}...]} | {error}: per sample, sim-core's Summarize (summing in the order
// given) and ConfidenceHalfWidth (Student-t), as an experiment's report computes its cells; null
// where there is no value (mean below one value, sd and halfWidth below two).
val SummarizeSamples(const std::string& text) {
  return Guarded([&] {
    const nlohmann::json request = nlohmann::json::parse(text);
    const double level = request.value("level", 0.95);
    if (!(level > 0.0 && level < 1.0)) throw tcb::ScenarioError("$.level", "must be between 0 and 1");
    nlohmann::json stats = nlohmann::json::array();
    for (const nlohmann::json& sample : request.at("samples")) {
      const tcb::SampleSummary s = tcb::Summarize(sample.get<std::vector<double>>());
      const std::optional<double> half = tcb::ConfidenceHalfWidth(s, level);
      stats.push_back({{"n", s.n},
                       {"mean", s.n > 0 ? nlohmann::json(s.mean) : nlohmann::json(nullptr)},
                       {"sd", s.n > 1 ? nlohmann::json(s.sd) : nlohmann::json(nullptr)},
                       {"halfWidth", half ? nlohmann::json(*half) : nlohmann::json(nullptr)}});
    }
    val out = val::object();
    out.set("stats", stats.dump());
    return out;
  });
}

val ExperimentNames() { return StringArray(tcb::ExperimentNames()); }

val ExperimentText(const std::string& name) {
  const auto text = tcb::ExperimentText(name);
  return text ? val(std::string(*text)) : val::null();
}

std::string ExperimentSchema() { return tcb::ExperimentSchemaDocument().dump(); }
std::string ReportSchema() { return tcb::ReportSchemaDocument().dump(); }

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
  emscripten::function("planGrid", &PlanGrid);
  emscripten::function("summarizeSamples", &SummarizeSamples);
  emscripten::function("presetNames", &PresetNames);
  emscripten::function("presetText", &PresetText);
  emscripten::function("papers", &Papers);
  emscripten::function("scenarioSchema", &ScenarioSchema);
  emscripten::function("resultSchema", &ResultSchema);
  emscripten::function("heapStats", &HeapStats);
  emscripten::function("experimentNames", &ExperimentNames);
  emscripten::function("experimentText", &ExperimentText);
  emscripten::function("experimentSchema", &ExperimentSchema);
  emscripten::function("reportSchema", &ReportSchema);
  emscripten::class_<ExperimentSession>("ExperimentSession")
      .constructor<const std::string&, bool>()
      .function("status", &ExperimentSession::Status)
      .function("runRange", &ExperimentSession::RunRange)
      .function("runScenario", &ExperimentSession::RunScenarioDocument)
      .function("record", &ExperimentSession::Record)
      .function("report", &ExperimentSession::Report);
}
