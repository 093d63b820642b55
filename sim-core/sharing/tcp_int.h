// TCP-INT (Balakrishnan, Padmanabhan, Seshan, Stemm and Katz, "TCP Behavior of a Busy Internet
// Server", §5): integrated congestion control and loss recovery over the connections from
// one host to another. One structure per destination host keeps one congestion window (cwnd,
// ssthresh, count, decr_ts) and the list of outstanding packets in send order with a counter of ACKs
// for later packets (pkts, later_acks); losses are found in that list by the retransmission-candidate
// rules, at most one retransmission pending per connection; new packets go round robin. In the proxy
// case ("weighted"), the host's window is managed as if its connections operated independently: each
// keeps a window of its own, grown and shrunk like that of `weight` connections, and the host's
// window is their sum, while sending and loss recovery stay integrated.
//
// The seed copy lost its stop-words and most numbers. Where a threshold is missing we use the
// standard values and say so at the rule: 3 later ACKs (TCP's duplicate-ACK threshold) and a 200 ms
// delayed-ACK bound (RFC 1122's usual timer).
// The per-host structure is an EnsembleGroup (sharing/ensemble.h); this file holds TCP-INT's policy.
#pragma once

#include <memory>

#include "sharing/ensemble.h"

namespace tcb {

class TcpIntHost;

class TcpIntScheme final : public EnsembleScheme<TcpIntHost> {
 public:
  // Out of line, where the group's type is complete.
  TcpIntScheme(const SharingConfig& config, const SharingEnvironment& env);
  ~TcpIntScheme() override;

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
};

}  // namespace tcb
