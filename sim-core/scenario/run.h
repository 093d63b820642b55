// Runs a scenario: builds the network and the applications, runs the event loop with progress and
// cancellation, and collects the summary, series, packet trace and link captures.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/recorder.h"
#include "net/link_capture.h"
#include "scenario/scenario.h"

namespace tcb {

struct RunOptions {
  std::optional<uint64_t> seed;                // Overrides the scenario's.
  std::optional<TraceLevel> trace;             // Overrides the scenario's.
  std::vector<std::string> extra_pcap_links;   // Captured in addition to the scenario's.
  // Called every `progress_every_events` events with the simulated time reached and the duration;
  // returning false cancels the run (RunScenario then throws RunCancelled).
  std::function<bool(SimTime now, SimTime duration)> on_progress;
  uint64_t progress_every_events = 1 << 16;
  // When set, the series and packet trace are handed to it in blocks of `record_block_rows` rows as
  // they are recorded, the rest before RunScenario returns, and RunOutput::recorder keeps none of
  // them (its tables are empty). Not owned.
  RecorderBlocks* record_blocks = nullptr;
  size_t record_block_rows = 1 << 16;
  // The most the run's growing parts (packets, queues, connections, records, series and trace) may
  // hold (core/memory_budget.h); beyond it RunScenario throws MemoryLimitExceeded naming the part
  // that grew. 0: no limit.
  Bytes max_memory_bytes = 0;
};

class RunCancelled : public std::runtime_error {
 public:
  RunCancelled() : std::runtime_error("run cancelled") {}
};

// What exporters need to name flows and links.
struct FlowLabel {
  std::string name;
  Protocol protocol = Protocol::kTcp;
  uint32_t from_address = 0;  // Initiator or source.
  uint32_t to_address = 0;
  uint16_t from_port = 0;
  uint16_t to_port = 0;
  Bytes mss = 0;  // TCP: announced in the SYNs of captures.
};

struct RunOutput {
  nlohmann::json summary;  // Complete, with resultHash, whatever the trace level.
  std::string result_hash;
  TraceLevel trace = TraceLevel::kSummary;
  std::unique_ptr<Recorder> recorder;  // Series and packet trace, as the level asks.
  std::vector<FlowLabel> flows;        // Indexed by flow id.
  std::vector<std::string> links;      // Link direction names, indexed by link id.
  std::vector<std::pair<std::string, LinkCapture>> captures;  // Per captured link name.
  // The most TCP connections that existed at once: finished ones are destroyed as the run goes.
  size_t peak_live_connections = 0;
  // The most the run's memory account held (core/memory_budget.h).
  Bytes memory_peak_bytes = 0;

  // The summary as printed: without per-flow, per-transfer and per-link arrays at level "none".
  nlohmann::json PrintedSummary() const;
};

RunOutput RunScenario(const Scenario& scenario, const RunOptions& options = {});

}  // namespace tcb
