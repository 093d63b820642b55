// Tahoe, Reno and NewReno congestion control and loss recovery for one connection (RFC 5681,
// RFC 6582), over a Tcb.
#pragma once

#include "tcp/congestion_control.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"

namespace tcb {

class RenoControl final : public CongestionControl {
 public:
  RenoControl(const TcpConfig& config, SenderHandle& sender)
      : config_(config), tcb_(config), sender_(sender) {}

  void OnEstablished(SimTime now, bool syn_lost) override;
  void OnSegmentSent(SimTime, SeqNo, Bytes, bool) override {}
  bool OnNewAck(SimTime now, SeqNo ack, Bytes acked) override;
  void OnDuplicateAck(SimTime now, SeqNo ack) override;
  void OnRetransmissionTimeout(SimTime now) override;
  void OnRttSample(SimTime, SimTime rtt) override { tcb_.rtt.AddSample(rtt); }
  void OnIdleRestart(SimTime now) override;
  void OnClosed(SimTime) override {}

  Bytes cwnd() const override { return tcb_.cwnd; }
  Bytes ssthresh() const override { return tcb_.ssthresh; }
  const RttEstimator& rtt() const override { return tcb_.rtt; }
  bool in_recovery() const override { return tcb_.in_recovery; }

  const Tcb& tcb() const { return tcb_; }

 private:
  // RFC 5681 §3.1: slow start below ssthresh, congestion avoidance above, capped by the receive window.
  void GrowWindow(Bytes acked);
  // RFC 5681 eq. (4): ssthresh = max(FlightSize / 2, 2 * SMSS).
  Bytes HalfFlight() const;

  TcpConfig config_;
  Tcb tcb_;
  SenderHandle& sender_;
};

}  // namespace tcb
