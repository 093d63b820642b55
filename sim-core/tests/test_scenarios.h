// Helpers for tests that run whole scenarios: build a scenario from JSON, run it, pick at results.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/recorder.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace tcb::testing {

using nlohmann::json;

// A single-link scenario from "server" to "client" with one traffic item.
inline json SingleLinkScenario(double mbps, double delay_ms, json queue, json tcp, json item) {
  return json{{"schemaVersion", 1},
              {"durationS", 120},
              {"tcp", std::move(tcp)},
              {"topology",
               {{"kind", "single-link"},
                {"link", {{"bandwidthMbps", mbps}, {"delayMs", delay_ms}, {"queue", std::move(queue)}}}}},
              {"traffic", json::array({std::move(item)})}};
}

inline RunOutput RunDoc(const json& doc, TraceLevel trace = TraceLevel::kSummary) {
  RunOptions options;
  options.trace = trace;
  return RunScenario(ParseScenario(doc), options);
}

// Times (ns) of the packet events of one kind, optionally of one direction.
inline std::vector<int64_t> EventTimes(const RunOutput& run, PacketEvent event, int from_initiator = -1) {
  const PacketTrace& t = run.recorder->packet_trace();
  std::vector<int64_t> out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.event[i] != static_cast<uint8_t>(event)) continue;
    if (from_initiator >= 0 && t.from_initiator[i] != from_initiator) continue;
    out.push_back(t.time_ns[i]);
  }
  return out;
}

inline const json& Flow(const RunOutput& run, size_t i) { return run.summary["flows"][i]; }

// A GoogleTest parameter name from a preset or scenario name ("dumbbell-bulk" -> "dumbbell_bulk").
inline std::string TestName(std::string name) {
  for (char& c : name) {
    if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9')) c = '_';
  }
  return name;
}

}  // namespace tcb::testing
