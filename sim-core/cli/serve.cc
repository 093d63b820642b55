// tcpsim serve.
#include "cli/serve.h"

#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/memory_budget.h"
#include "json/json_depth.h"
#include "json/json_pointer.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace tcb::cli {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A batch runs one scenario with many seeds: parsed scenarios are kept by their text, a few at a
// time, so that a point's replications parse it once.
class ScenarioCache {
 public:
  const Scenario& Get(const std::string& text) {
    auto it = cache_.find(text);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kEntries) cache_.clear();
    return cache_.emplace(text, ParseScenarioText(text)).first->second;
  }

 private:
  static constexpr size_t kEntries = 16;
  std::map<std::string, Scenario> cache_;
};

json Error(const json& id, const char* kind, const std::string& message) {
  return {{"id", id}, {"ok", false}, {"error", {{"kind", kind}, {"message", message}}}};
}

// One run to answer: its id and options.
struct RunRequest {
  json id;
  RunOptions options;
};

// A request line read: the runs it asks for, or the error each of them (or the line) gets.
struct Request {
  std::vector<RunRequest> runs;
  std::string scenario_text;
  // "values": pointers into the summary whose values the answer carries before the summary.
  std::vector<std::string> value_pointers;
  std::optional<std::string> error;  // kind "request"
};

// "seed" of a request or of one of its runs; false when it is not a non-negative integer.
bool ReadSeed(const json& object, RunOptions* options) {
  if (!object.contains("seed")) return true;
  const json& seed = object["seed"];
  if (!seed.is_number_unsigned()) return false;
  options->seed = seed.get<uint64_t>();
  return true;
}

Request ReadRequest(const std::string& line, const ServeOptions& serve) {
  Request out;
  json request;
  // A request wraps a scenario: one level more than a scenario may nest.
  if (JsonDepth(line, kMaxJsonDepth + 1) > kMaxJsonDepth + 1) {
    out.runs.push_back({json(), {}});
    out.error = "the request nests arrays and objects more than " + std::to_string(kMaxJsonDepth + 1) + " levels deep";
    return out;
  }
  try {
    request = json::parse(line);
  } catch (const json::parse_error& e) {
    out.runs.push_back({json(), {}});
    out.error = std::string("the request is not JSON: ") + e.what();
    return out;
  }
  if (!request.is_object()) {
    out.runs.push_back({json(), {}});
    out.error = "a request is a JSON object";
    return out;
  }
  // The runs first, so that every error below is answered once for each run asked for.
  RunOptions common;
  if (request.contains("runs")) {
    const json& runs = request["runs"];
    if (!runs.is_array() || runs.empty()) {
      out.runs.push_back({request.value("id", json()), common});
      out.error = "\"runs\" must be a non-empty array of {\"id\", \"seed\"?}";
      return out;
    }
    for (const json& run : runs) out.runs.push_back({run.is_object() ? run.value("id", json()) : json(), common});
  } else {
    out.runs.push_back({request.value("id", json()), common});
  }
  auto fail = [&](std::string message) {
    out.error = std::move(message);
    return out;
  };
  for (const auto& [key, value] : request.items()) {
    if (key != "id" && key != "scenario" && key != "seed" && key != "trace" && key != "runs" && key != "values" &&
        key != "maxMemoryMb") {
      return fail("unknown field \"" + key + "\"");
    }
  }
  if (request.contains("runs") && (request.contains("id") || request.contains("seed"))) {
    return fail("a request with \"runs\" gives each run's \"id\" and \"seed\" there");
  }
  if (!request.contains("scenario")) return fail("missing field \"scenario\"");
  common.max_memory_bytes = serve.max_memory_bytes;
  if (request.contains("maxMemoryMb")) {
    const json& mb = request["maxMemoryMb"];
    if (!mb.is_number_unsigned() || mb.get<uint64_t>() < 1 || mb.get<uint64_t>() > static_cast<uint64_t>(kMaxMemoryMb)) {
      return fail("\"maxMemoryMb\" must be a whole number of mebibytes from 1 to " + std::to_string(kMaxMemoryMb));
    }
    common.max_memory_bytes = static_cast<Bytes>(mb.get<uint64_t>()) << 20;
  }
  common.trace = TraceLevel::kSummary;
  if (request.contains("trace")) {
    const json& trace = request["trace"];
    TraceLevel level;
    if (!trace.is_string() || !ParseTraceLevel(trace.get<std::string>(), &level) || level > TraceLevel::kSummary) {
      return fail("\"trace\" must be \"none\" or \"summary\" (series and traces need tcpsim run -o)");
    }
    common.trace = level;
  }
  if (!ReadSeed(request, &common)) return fail("\"seed\" must be a non-negative integer");
  if (request.contains("values")) {
    const json& values = request["values"];
    if (!values.is_array()) return fail("\"values\" must be an array of JSON pointers into the summary");
    for (const json& pointer : values) {
      if (!pointer.is_string() || !ParseJsonPointer(pointer.get<std::string>())) {
        return fail("\"values\" must be an array of JSON pointers into the summary");
      }
      out.value_pointers.push_back(pointer.get<std::string>());
    }
  }
  if (request.contains("runs")) {
    const json& runs = request["runs"];
    for (size_t k = 0; k < runs.size(); ++k) {
      RunOptions options = common;
      if (!runs[k].is_object()) return fail("each of \"runs\" is an object {\"id\", \"seed\"?}");
      for (const auto& [key, value] : runs[k].items()) {
        if (key != "id" && key != "seed") return fail("unknown field \"" + key + "\" in \"runs\"");
      }
      if (!ReadSeed(runs[k], &options)) return fail("\"seed\" must be a non-negative integer");
      out.runs[k].options = options;
    }
  } else {
    out.runs[0].options = common;
  }
  const json& scenario = request["scenario"];
  out.scenario_text = scenario.is_string() ? scenario.get<std::string>() : scenario.dump();
  return out;
}

std::string Answer(const RunRequest& run, const Request& request, ScenarioCache& scenarios) {
  try {
    const Scenario& parsed = scenarios.Get(request.scenario_text);
    const auto started = Clock::now();
    const RunOutput output = RunScenario(parsed, run.options);
    const std::chrono::duration<double> wall = Clock::now() - started;
    const json summary = output.PrintedSummary();
    // The summary last (see serve.h), the rest as nlohmann prints it.
    std::string answer = "{\"id\":" + run.id.dump() + ",\"ok\":true,\"wallSeconds\":" + json(wall.count()).dump() +
                         ",\"events\":" + summary["run"]["events"].dump();
    if (!request.value_pointers.empty()) {
      json values = json::array();
      for (const std::string& pointer : request.value_pointers) {
        const json* value = FindInSummary(summary, pointer);
        values.push_back(value ? *value : json());
      }
      answer += ",\"values\":" + values.dump();
    }
    return answer + ",\"summary\":" + summary.dump() + "}";
  } catch (const ScenarioError& e) {
    json out = Error(run.id, "scenario", e.what());
    out["error"]["path"] = e.path();
    out["error"]["problem"] = e.problem();
    return out.dump();
  } catch (const MemoryLimitExceeded& e) {
    json out = Error(run.id, "memory", e.what());
    out["error"]["limitBytes"] = e.limit();
    return out.dump();
  } catch (const std::bad_alloc&) {
    // The process's own limit (the RLIMIT_AS its caller set) ran out before the run's account.
    return Error(run.id, "memory", "out of memory: the process could not allocate more").dump();
  } catch (const std::exception& e) {
    return Error(run.id, "internal", e.what()).dump();
  }
}

// The answers not yet written, gathered here rather than in `out`: a stream buffer writes a string
// longer than its free space (an answer of a few kB) to the file at once, so that every answer
// would be a write and wake the caller. The run loop flushes them when it would wait for input; a
// thread of its own writes those that have waited `interval` meanwhile, so that a run's answer
// reaches the caller within `interval` of its end even while a long run follows it.
class AnswerWriter {
 public:
  AnswerWriter(std::ostream& out, std::chrono::milliseconds interval)
      : out_(out), interval_(interval), thread_([this] { WriteLate(); }) {}
  AnswerWriter(const AnswerWriter&) = delete;
  AnswerWriter& operator=(const AnswerWriter&) = delete;
  ~AnswerWriter() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  // Adds an answer; writes the answers gathered once the oldest has waited the interval.
  void Add(const std::string& answer) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = Clock::now();
    if (pending_.empty()) oldest_ = now;
    pending_ += answer;
    pending_ += '\n';
    if (now - oldest_ >= interval_) {
      WriteLocked();
    } else {
      wake_.notify_one();
    }
  }

  void Flush() {
    const std::lock_guard<std::mutex> lock(mutex_);
    WriteLocked();
  }

 private:
  void WriteLocked() {
    if (!pending_.empty()) out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
    out_.flush();
    pending_.clear();
  }

  void WriteLate() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (pending_.empty()) {
        wake_.wait(lock);
      } else if (Clock::now() - oldest_ >= interval_) {
        WriteLocked();
      } else {
        wake_.wait_until(lock, oldest_ + interval_);
      }
    }
  }

  std::ostream& out_;
  const std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string pending_;
  Clock::time_point oldest_;
  bool done_ = false;
  std::thread thread_;  // Last: it starts once everything above is initialised.
};

}  // namespace

void ServeStreams(std::istream& in, std::ostream& out, std::chrono::milliseconds flush_interval,
                  const ServeOptions& options) {
  ScenarioCache scenarios;
  AnswerWriter answers(out, flush_interval);
  // Whether the next request has (at least begun to) arrive: then answering it does not wait for
  // the caller, and the answers so far may wait for the writer.
  auto input_waiting = [&in] { return in.rdbuf()->in_avail() > 0; };
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const Request request = ReadRequest(line, options);
    for (size_t k = 0; k < request.runs.size(); ++k) {
      const RunRequest& run = request.runs[k];
      answers.Add(request.error ? Error(run.id, "request", *request.error).dump() : Answer(run, request, scenarios));
      if (k + 1 == request.runs.size() && !input_waiting()) answers.Flush();
    }
  }
  answers.Flush();
}

std::string ServeHelp() {
  std::string text = R"(usage: tcpsim serve [--max-memory-mb N] [--parent-pid PID] < requests.ndjson

A persistent runner: reads requests, one JSON document per line, on stdin and answers each run
with one line on stdout, in order, until stdin ends. A run's summary is the one `tcpsim run`
prints at the same trace level, to the bit.

Request, one run:
  {"id": any, "scenario": {...} | "<JSON text>", "seed"?: N, "trace"?: "none" | "summary",
   "values"?: ["<JSON pointer into the summary>", ...], "maxMemoryMb"?: N}
Request, several runs of one scenario (a grid point's replications), one answer per run:
  {"scenario": ..., "trace"?: ..., "values"?: [...], "runs": [{"id": any, "seed"?: N}, ...]}
Answer:
  {"id": ..., "ok": true, "wallSeconds": S, "events": N, "values"?: [...], "summary": {...}}
  {"id": ..., "ok": false, "error": {"kind": "scenario" | "request" | "memory" | "internal",
   "message": "...", "path"?: "$...", "problem"?: "...", "limitBytes"?: N}}
"values" holds the summary's value at each pointer asked for (null where there is none). The
summary comes last, so that a caller can store its text without parsing it. Bad input answers
with an error and the process serves on. A run that needs more memory than its limit ("maxMemoryMb",
else --max-memory-mb) ends with kind "memory", naming the part of the scenario that grew.
--parent-pid PID ends the process when PID ends (Linux). Answers are flushed whenever it would wait for input,
and at least every @FLUSH_MS@ ms while runs are waiting.

Example: a 100 kB transfer over a 10 Mb/s, 20 ms link, then a request whose scenario is invalid:
  $ printf '%s\n' '{"id":1,"values":["/run/meanCompletionTimeS"],"scenario":{"schemaVersion":1,"topology":{"kind":"single-link","link":{"bandwidthMbps":10,"delayMs":20}},"traffic":[{"type":"bulk","from":"server","to":"client","bytes":100000}]}}' '{"id":2,"scenario":{"schemaVersion":1}}' | tcpsim serve
  {"id":1,"ok":true,"wallSeconds":0.0002,"events":142,"values":[0.314064],"summary":{...}}
  {"error":{"kind":"scenario","message":"$: missing required field \"topology\"","path":"$",...},"id":2,"ok":false}
)";
  const std::string flush = "@FLUSH_MS@";
  text.replace(text.find(flush), flush.size(), std::to_string(kServeFlushInterval.count()));
  return text;
}

int Serve(const std::vector<std::string>& args) {
  ServeOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError{a + " needs a value"};
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << ServeHelp();
      return 0;
    }
    if (a == "--max-memory-mb") {
      options.max_memory_bytes = ParseMaxMemoryMb(value());
    } else if (a == "--parent-pid") {
      DieWithParent(value());
    } else {
      throw UsageError{"serve takes --max-memory-mb N, --parent-pid PID and --help only (got \"" + a + "\")"};
    }
  }
  ServeStreams(std::cin, std::cout, kServeFlushInterval, options);
  return 0;
}

}  // namespace tcb::cli
