// The summary of a run (scenario.schema.json's counterpart, result.schema.json) and its resultHash:
// the SHA-256 of the canonical serialisation (sorted keys, no whitespace, shortest round-trip
// doubles) of the summary without the hash itself.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/simulation.h"
#include "metrics/run_totals.h"
#include "net/network.h"
#include "workload/flow_registry.h"

namespace tcb {

// Every flow's, transfer's and page's record, kept for the summary's arrays (the scenario's
// record.flowRecords); a long run that opens millions of flows does without.
class FlowRecordArchive final : public FlowObserver, public MemoryPart {
 public:
  // Charges each record kept, and the summary JSON it will become, to `budget` (not owned; null:
  // not accounted).
  explicit FlowRecordArchive(MemoryBudget* budget = nullptr);

  void OnFlowRecord(const FlowRecord& r) override;
  void OnTransferRecord(size_t transfer, const TransferRecord& t) override;
  void OnPageRecord(size_t page, const PageRecord& p) override;

  // By id or index; complete once the flow registry has finished.
  const std::vector<FlowRecord>& flows() const { return flows_; }
  const std::vector<TransferRecord>& transfers() const { return transfers_; }
  const std::vector<PageRecord>& pages() const { return pages_; }

  // MemoryPart.
  Bytes MemoryBytes() const override { return charged_bytes_; }
  std::string DescribeMemory() const override;

 private:
  void Charge(Bytes bytes);

  std::vector<FlowRecord> flows_;
  std::vector<TransferRecord> transfers_;
  std::vector<PageRecord> pages_;
  MemoryBudget* budget_;  // Not owned; may be null.
  Bytes charged_bytes_ = 0;
  MemoryBudget::Registration memory_registration_;
};

struct SummaryInputs {
  std::string scenario_name;
  uint64_t seed = 0;
  const Simulation* sim = nullptr;
  const Network* network = nullptr;
  const RunTotals* totals = nullptr;           // Finished.
  const FlowRecordArchive* records = nullptr;  // Null: no flows, transfers and pages arrays.
  SimTime stop;
  bool stopped_idle = false;
};

nlohmann::json BuildSummary(const SummaryInputs& in);
// Adds "resultHash" to `summary` and returns it.
std::string AddResultHash(nlohmann::json& summary);
// Jain's fairness index (sum x)^2 / (n sum x^2); 1 for an empty or all-zero set.
double JainIndex(const std::vector<double>& xs);

}  // namespace tcb
