// The Congestion Manager (RFC 3124, Balakrishnan and Seshan), the newest relative of the seed papers'
// schemes: the flows to one destination form a macroflow (§2) with one TCP-style AIMD window and one
// RTT estimate; a scheduler grants the macroflow's sends to its flows (round robin by default, §4.3,
// weighted here), and each flow keeps its own reliability and loss recovery and reports to the CM
// what it sent, what arrived and what was lost (cm_update, §4.1), transient losses halving the window
// at most once per round trip and persistent ones (timeouts) shrinking it to one segment.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "sharing/sharing_config.h"
#include "sharing/stride_scheduler.h"

namespace tcb {

class CongestionManagerScheme final : public SharingScheme {
 public:
  CongestionManagerScheme(const SharingConfig& config, const SharingEnvironment& env);
  ~CongestionManagerScheme() override;

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
  void Describe(nlohmann::json& groups) const override;

  class Macroflow;
  class Flow;

 private:
  SharingConfig config_;
  SharingEnvironment env_;
  std::map<uint64_t, std::unique_ptr<Macroflow>> macroflows_;
};

}  // namespace tcb
