// tcpsim serve.
#include "cli/serve.h"

#include <chrono>
#include <iostream>
#include <map>
#include <new>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace tcb::cli {

namespace {

using nlohmann::json;

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

json Answer(const std::string& line, ScenarioCache& scenarios) {
  json request;
  try {
    request = json::parse(line);
  } catch (const json::parse_error& e) {
    return Error(nullptr, "request", std::string("the request is not JSON: ") + e.what());
  }
  if (!request.is_object()) return Error(nullptr, "request", "a request is a JSON object");
  const json id = request.value("id", json());
  for (const auto& [key, value] : request.items()) {
    if (key != "id" && key != "scenario" && key != "seed" && key != "trace") {
      return Error(id, "request", "unknown field \"" + key + "\"");
    }
  }
  if (!request.contains("scenario")) return Error(id, "request", "missing field \"scenario\"");
  RunOptions options;
  if (request.contains("seed")) {
    const json& seed = request["seed"];
    if (!seed.is_number_unsigned()) return Error(id, "request", "\"seed\" must be a non-negative integer");
    options.seed = seed.get<uint64_t>();
  }
  options.trace = TraceLevel::kSummary;
  if (request.contains("trace")) {
    const json& trace = request["trace"];
    TraceLevel level;
    if (!trace.is_string() || !ParseTraceLevel(trace.get<std::string>(), &level) || level > TraceLevel::kSummary) {
      return Error(id, "request", "\"trace\" must be \"none\" or \"summary\" (series and traces need tcpsim run -o)");
    }
    options.trace = level;
  }
  const json& scenario = request["scenario"];
  const std::string text = scenario.is_string() ? scenario.get<std::string>() : scenario.dump();
  try {
    const Scenario& parsed = scenarios.Get(text);
    const auto started = std::chrono::steady_clock::now();
    const RunOutput run = RunScenario(parsed, options);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
    json summary = run.PrintedSummary();
    const json events = summary["run"]["events"];
    return {{"id", id}, {"ok", true}, {"summary", std::move(summary)}, {"wallSeconds", wall.count()},
            {"events", events}};
  } catch (const ScenarioError& e) {
    json out = Error(id, "scenario", e.what());
    out["error"]["path"] = e.path();
    out["error"]["problem"] = e.problem();
    return out;
  } catch (const std::bad_alloc&) {
    return Error(id, "memory", "out of memory");
  } catch (const std::exception& e) {
    return Error(id, "internal", e.what());
  }
}

}  // namespace

void ServeStreams(std::istream& in, std::ostream& out) {
  ScenarioCache scenarios;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out << Answer(line, scenarios).dump() << '\n';
    out.flush();
  }
}

int Serve(const std::vector<std::string>& args) {
  if (!args.empty()) throw UsageError{"serve takes no argument"};
  ServeStreams(std::cin, std::cout);
  return 0;
}

}  // namespace tcb::cli
