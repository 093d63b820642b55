// BDP resumption.
#include "sharing/bdp_resume.h"

#include <algorithm>

#include "sharing/path_observer.h"

namespace tcb {

class BdpResumeScheme::Member final : public ForwardingControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, BdpResumeScheme& scheme, Entry& entry)
      : ForwardingControl(config, sender), scheme_(scheme), entry_(entry) {
    const SimTime now = scheme_.env_.sim->Now();
    if (entry_.saved && now - entry_.saved->saved_at <= scheme_.config_.cache_lifetime) saved_ = entry_.saved;
  }
  ~Member() override { entry_.group.Remove(this); }

  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    if (!saved_ || syn_lost) return;
    // The window rule takes the saved parameters (quiche's AdjustNetworkParameters()): a rule that
    // leaves its window to the connection starts from cwnd = saved bandwidth x saved min RTT,
    // paced here at the saved bandwidth until one such window has left (the paced initial window
    // of Google QUIC's resumption); a rate-based rule (BBR) seeds its model and paces itself.
    NetworkParams params;
    params.bandwidth = saved_->bandwidth_bps / 8;
    params.rtt = saved_->min_rtt;
    params.window = scheme_.ResumedWindow(*saved_, tcb().cwnd);
    params.max_window = scheme_.config_.bdp_max_window;
    switch (AdjustNetworkParameters(params)) {
      case Resumption::kNone:
        return;
      case Resumption::kWindow:
        paced_left_ = tcb().cwnd;
        SetSchemePacingRate(saved_->bandwidth_bps);
        break;
      case Resumption::kRate:
        break;
    }
    ++entry_.resumed;
  }

  void OnSegmentSent(SimTime now, const SentSegment& segment) override {
    // The connection's pacing clock charges the segment at the saved rate while the resumed
    // window leaves, then returns to the connection's own pacing.
    ForwardingControl::OnSegmentSent(now, segment);
    if (paced_left_ > 0) {
      paced_left_ -= segment.bytes;
      if (paced_left_ <= 0) SetSchemePacingRate(0);
    }
  }

  bool OnAck(SimTime now, const AckInfo& ack) override {
    const bool restart = ForwardingControl::OnAck(now, ack);
    observer_.OnAck(now, ack.newly_acked, sent_log());
    return restart;
  }
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override {
    ForwardingControl::OnDuplicateAck(now, ack);
    observer_.OnAck(now, 0, sent_log());
  }
  void OnRttSample(SimTime now, SimTime rtt) override {
    ForwardingControl::OnRttSample(now, rtt);
    observer_.OnRttSample(rtt);
  }
  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    // The closing connection's observation replaces the saved one (one set per endpoint).
    if (observer_.has_rtt() && observer_.bandwidth_bps() > 0) {
      entry_.saved = SavedBdp{observer_.bandwidth_bps(), observer_.min_rtt(), now};
    }
    entry_.group.Remove(this);
  }

 private:
  BdpResumeScheme& scheme_;
  Entry& entry_;
  std::optional<SavedBdp> saved_;
  PathObserver observer_;
  Bytes paced_left_ = 0;
};

Bytes BdpResumeScheme::ResumedWindow(const SavedBdp& saved, Bytes initial_window) const {
  const Bytes bdp = static_cast<Bytes>(saved.bandwidth_bps / 8 * saved.min_rtt.seconds());
  Bytes window = std::max(bdp, initial_window);
  if (config_.bdp_max_window > 0) window = std::min(window, config_.bdp_max_window);
  return window;
}

std::unique_ptr<CongestionControl> BdpResumeScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                           const ConnectionContext& context) {
  Entry& entry = EntryFor(GroupKey(config_.scope, context), context);
  return Join(entry, std::make_unique<Member>(config, sender, *this, entry), context.flow);
}

void BdpResumeScheme::DescribeEntry(const Entry& e, nlohmann::json& group) const {
  group["bdpResume"] = {{"resumed", e.resumed},
                        {"savedBandwidthBps", e.saved ? e.saved->bandwidth_bps : 0.0},
                        {"savedMinRttNs", e.saved ? e.saved->min_rtt.ns() : 0}};
}

}  // namespace tcb
