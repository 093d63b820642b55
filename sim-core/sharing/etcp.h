// Ensemble-TCP (Eggert, Heidemann and Touch, "Effects of Ensemble-TCP"): the connections to one peer
// form an ensemble whose ensemble control block (ECB, Fig. 1) holds one congestion window, ssthresh
// and RTT estimate, a list of outstanding packets in send order with skipped-ACK counters (§3.3),
// and a stride scheduler that hands the window out one packet at a time by tickets (§3.4, §4). An
// ECB outlives its last connection as a cached ECB (§3.1-3.2): a new ensemble on it skips slow
// start, paces its first window until the ACK clock runs, and avoids the handshake (§5). The ECB
// is an EnsembleGroup (sharing/ensemble.h); this file holds E-TCP's policy.
#pragma once

#include <memory>

#include "sharing/ensemble.h"

namespace tcb {

class EtcpEcb;

class EtcpScheme final : public EnsembleScheme<EtcpEcb> {
 public:
  // Out of line, where the group's type is complete.
  EtcpScheme(const SharingConfig& config, const SharingEnvironment& env);
  ~EtcpScheme() override;

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;

  // E-TCP §4's ticket policies; per-connection tickets in the scenario override them.
  static double InitialTickets(TicketPolicy policy, const ConnectionTraits& traits);
  // Ticket decay: 16 tickets, halved after the 5th, 10th, 20th and 40th packet.
  static double DecayedTickets(int64_t packets_sent);
};

}  // namespace tcb
