// The summary of a run (scenario.schema.json's counterpart, result.schema.json) and its resultHash:
// the SHA-256 of the canonical serialisation (sorted keys, no whitespace, shortest round-trip
// doubles) of the summary without the hash itself.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/simulation.h"
#include "net/network.h"
#include "workload/flow_registry.h"

namespace tcb {

struct SummaryInputs {
  std::string scenario_name;
  uint64_t seed = 0;
  const Simulation* sim = nullptr;
  const Network* network = nullptr;
  const FlowRegistry* flows = nullptr;
  SimTime stop;
  bool stopped_idle = false;
  std::vector<std::string> fairness_items;  // Empty: every TCP flow.
  std::vector<std::string> items;           // Every traffic item, in scenario order.
  bool flow_records = true;                 // Include the flows, transfers and pages arrays.
};

nlohmann::json BuildSummary(const SummaryInputs& in);
// Adds "resultHash" to `summary` and returns it.
std::string AddResultHash(nlohmann::json& summary);
// Jain's fairness index (sum x)^2 / (n sum x^2); 1 for an empty or all-zero set.
double JainIndex(const std::vector<double>& xs);

}  // namespace tcb
