// Tahoe, Reno, NewReno and SACK loss recovery for one connection (RFC 5681, RFC 6582, RFC 6675),
// over a Tcb whose window follows the connection's CongestionOps, with Balakrishnan et al.'s
// right-edge recovery as an option.
#pragma once

#include <memory>

#include "tcp/congestion_control.h"
#include "tcp/congestion_ops.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"

namespace tcb {

class RenoControl final : public CongestionControl {
 public:
  RenoControl(const TcpConfig& config, SenderHandle& sender)
      : config_(config), tcb_(config), ops_(MakeCongestionOps(config)), sender_(sender) {}

  void OnEstablished(SimTime now, bool syn_lost) override;
  void OnSendStart(SimTime now, bool first, Bytes pending) override;
  void OnSegmentSent(SimTime, const SentSegment&) override {}
  bool OnAck(SimTime now, const AckInfo& ack) override;
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override;
  void OnRetransmissionTimeout(SimTime now) override;
  void OnRttSample(SimTime, SimTime rtt) override { tcb_.rtt.AddSample(rtt); }
  void OnClosed(SimTime) override {}
  bool CanSend(Bytes bytes) override;

  Bytes cwnd() const override { return tcb_.cwnd; }
  Bytes ssthresh() const override { return tcb_.ssthresh; }
  const RttEstimator& rtt() const override { return tcb_.rtt; }
  bool in_recovery() const override { return tcb_.in_recovery; }

  // Sharing schemes that initialise or redistribute a connection's state (RFC 9040, the TCBI
  // controllers) set it here.
  Tcb& tcb() { return tcb_; }
  const Tcb& tcb() const { return tcb_; }
  const TcpConfig& config() const { return config_; }

 private:
  // The window rule's growth, capped by the receive window.
  void GrowWindow(SimTime now, Bytes acked, Bytes flight_before);
  void EnterSackRecovery(SeqNo ack);
  // RFC 6675 SetPipe(): bytes estimated in the network.
  Bytes Pipe() const;
  // RFC 6675 NextSeg() rule 1: the first lost, unSACKed, not yet retransmitted byte, or -1.
  SeqNo NextLostHole() const;
  // RFC 6675 §5 step (C): retransmit lost holes while cwnd - pipe allows a segment.
  void SendSackRetransmissions();

  TcpConfig config_;
  Tcb tcb_;
  std::unique_ptr<CongestionOps> ops_;
  SenderHandle& sender_;
};

}  // namespace tcb
