// A CongestionControl that forwards everything to the controller it wraps and tells an application
// when a new data segment has left: the moment a sender's unsent data shrinks, which is when a
// server writing against a low-water mark (Linux's TCP_NOTSENT_LOWAT) may be woken to write more.
// Applications wrap the controller a host's sharing scheme made for them, so the scheme, the sender
// and the tap never know of each other.
//
// Every method of CongestionControl is forwarded; a method added to that interface must be added
// here too (a default implementation would otherwise hide the wrapped controller's).
#pragma once

#include <functional>
#include <memory>

#include "tcp/congestion_control.h"

namespace tcb {

class SentSegmentTap final : public CongestionControl {
 public:
  SentSegmentTap(std::unique_ptr<CongestionControl> inner, std::function<void()> on_new_segment)
      : inner_(std::move(inner)), on_new_segment_(std::move(on_new_segment)) {}

  void OnEstablished(SimTime now, bool syn_lost) override { inner_->OnEstablished(now, syn_lost); }
  void OnSendStart(SimTime now, bool first, Bytes pending) override { inner_->OnSendStart(now, first, pending); }
  // Tells the application after the wrapped controller has seen the segment. The application must
  // not write from inside this call: the sender is in the middle of sending.
  void OnSegmentSent(SimTime now, const SentSegment& segment) override {
    inner_->OnSegmentSent(now, segment);
    if (!segment.retransmission && segment.bytes > 0) on_new_segment_();
  }
  bool OnAck(SimTime now, const AckInfo& ack) override { return inner_->OnAck(now, ack); }
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override { inner_->OnDuplicateAck(now, ack); }
  void OnRetransmissionTimeout(SimTime now) override { inner_->OnRetransmissionTimeout(now); }
  void OnRttSample(SimTime now, SimTime rtt) override { inner_->OnRttSample(now, rtt); }
  void OnClosed(SimTime now) override { inner_->OnClosed(now); }

  bool CanSend(Bytes bytes) override { return inner_->CanSend(bytes); }
  SimTime NextSendTime(SimTime now) const override { return inner_->NextSendTime(now); }
  bool AvoidsHandshake() const override { return inner_->AvoidsHandshake(); }

  Bytes cwnd() const override { return inner_->cwnd(); }
  Bytes ssthresh() const override { return inner_->ssthresh(); }
  const RttEstimator& rtt() const override { return inner_->rtt(); }
  bool in_recovery() const override { return inner_->in_recovery(); }
  double pacing_rate_bps() const override { return inner_->pacing_rate_bps(); }
  void DescribeState(TcpSeriesRow& row) const override { inner_->DescribeState(row); }

 private:
  std::unique_ptr<CongestionControl> inner_;
  std::function<void()> on_new_segment_;
};

}  // namespace tcb
