// A controller that runs a connection's own Tahoe/Reno/NewReno/SACK control and lets a sharing
// scheme step in at chosen moments: the schemes that initialise, redistribute or cache a TCB but
// leave its congestion control to the connection (RFC 9040, MV/FS-TCBI, TCP/SPAND).
#pragma once

#include <memory>

#include "tcp/connection_control.h"

namespace tcb {

class ForwardingControl : public CongestionControl {
 public:
  ForwardingControl(const TcpConfig& config, SenderHandle& sender)
      : inner_(std::make_unique<ConnectionControl>(config, sender)), sender_(sender) {}

  void OnEstablished(SimTime now, bool syn_lost) override { inner_->OnEstablished(now, syn_lost); }
  void OnSendStart(SimTime now, bool first, Bytes pending) override {
    inner_->OnSendStart(now, first, pending);
  }
  void OnSegmentSent(SimTime now, const SentSegment& segment) override {
    inner_->OnSegmentSent(now, segment);
  }
  bool OnAck(SimTime now, const AckInfo& ack) override { return inner_->OnAck(now, ack); }
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override { inner_->OnDuplicateAck(now, ack); }
  void OnRetransmissionTimeout(SimTime now) override { inner_->OnRetransmissionTimeout(now); }
  void OnRttSample(SimTime now, SimTime rtt) override { inner_->OnRttSample(now, rtt); }
  void OnClosed(SimTime now) override { inner_->OnClosed(now); }
  void OnControlTimer(SimTime now) override { inner_->OnControlTimer(now); }
  bool CanSend(Bytes bytes) override { return inner_->CanSend(bytes); }
  SimTime NextSendTime(SimTime now) const override { return inner_->NextSendTime(now); }
  double pacing_rate_bps() const override { return inner_->pacing_rate_bps(); }
  void DescribeState(TcpSeriesRow& row) const override { inner_->DescribeState(row); }

  Bytes cwnd() const override { return inner_->cwnd(); }
  Bytes ssthresh() const override { return inner_->ssthresh(); }
  const RttEstimator& rtt() const override { return inner_->rtt(); }
  bool in_recovery() const override { return inner_->in_recovery(); }

  // The connection's own TCB, for the scheme to read and set.
  Tcb& tcb() { return inner_->tcb(); }
  const Tcb& tcb() const { return inner_->tcb(); }
  const TcpConfig& config() const { return inner_->config(); }
  CongestionState state() const { return inner_->state(); }
  // See ConnectionControl::AdjustNetworkParameters() and CongestionOps' resumption hooks.
  Resumption AdjustNetworkParameters(const NetworkParams& params) { return inner_->AdjustNetworkParameters(params); }
  RateResumption rate_resumption() const { return inner_->rate_resumption(); }
  void EndRateResumption(bool retreat) { inner_->EndRateResumption(retreat); }
  // See ConnectionControl::SetSchemePacingRate().
  void SetSchemePacingRate(double rate_bps) { inner_->SetSchemePacingRate(rate_bps); }
  // The connection's per-segment log when its recovery keeps one (SACK), else null.
  const SentLog* sent_log() const { return inner_->sent_log(); }
  SenderHandle& sender() { return sender_; }
  Bytes flight_size() const { return sender_.flight_size(); }

 private:
  std::unique_ptr<ConnectionControl> inner_;
  SenderHandle& sender_;
};

// A member of a set whose shared state is recorded as a group series (RFC 9040's ensemble
// sharing, MV/FS-TCBI): besides what the scheme records itself, the set is recorded after every
// ACK and every timeout, the events that move a member's window.
class RecordedMemberControl : public ForwardingControl {
 public:
  using ForwardingControl::ForwardingControl;

  bool OnAck(SimTime now, const AckInfo& ack) override {
    const bool restart = ForwardingControl::OnAck(now, ack);
    Record(now);
    return restart;
  }
  void OnRetransmissionTimeout(SimTime now) override {
    ForwardingControl::OnRetransmissionTimeout(now);
    Record(now);
  }

 protected:
  // Records the set's shared state at `now`.
  virtual void Record(SimTime now) const = 0;
};

}  // namespace tcb
