// BDP resumption.
#include "sharing/bdp_resume.h"

#include <algorithm>

#include "sharing/path_observer.h"
#include "tcp/pacer.h"

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
    // The resumed window: cwnd = saved bandwidth x saved min RTT, paced at the saved bandwidth
    // until one such window has left (the BDP frame draft's "paced ... initial window").
    const Bytes window = scheme_.ResumedWindow(*saved_, tcb().cwnd);
    if (window <= tcb().cwnd) return;
    tcb().cwnd = window;
    paced_left_ = window;
    ++entry_.resumed;
  }

  void OnSegmentSent(SimTime now, const SentSegment& segment) override {
    ForwardingControl::OnSegmentSent(now, segment);
    if (paced_left_ > 0) {
      pacer_.OnSent(now, segment.bytes, saved_->bandwidth_bps);
      paced_left_ -= segment.bytes;
    }
  }
  SimTime NextSendTime(SimTime now) const override {
    return paced_left_ > 0 ? pacer_.NextSendTime(now) : ForwardingControl::NextSendTime(now);
  }
  double pacing_rate_bps() const override {
    return paced_left_ > 0 ? saved_->bandwidth_bps : ForwardingControl::pacing_rate_bps();
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
  Pacer pacer_;
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
