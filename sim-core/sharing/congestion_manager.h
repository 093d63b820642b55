// The Congestion Manager (RFC 3124, Balakrishnan and Seshan), the newest relative of the seed papers'
// schemes: the flows to one destination form a macroflow (§2) with one TCP-style AIMD window and one
// RTT estimate; a scheduler grants the macroflow's sends to its flows (round robin by default, §4.3,
// weighted here), and each flow keeps its own reliability and loss recovery and reports to the CM
// what it sent, what arrived and what was lost (cm_update, §4.1), transient losses halving the window
// at most once per round trip and persistent ones (timeouts) shrinking it to one segment.
// The macroflow is an EnsembleGroup (sharing/ensemble.h); this file holds the CM's policy.
#pragma once

#include <memory>

#include "sharing/ensemble.h"

namespace tcb {

class CmMacroflow;

class CongestionManagerScheme final : public EnsembleScheme<CmMacroflow> {
 public:
  // Out of line, where the group's type is complete.
  CongestionManagerScheme(const SharingConfig& config, const SharingEnvironment& env);
  ~CongestionManagerScheme() override;

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
};

}  // namespace tcb
