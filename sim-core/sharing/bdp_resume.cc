// BDP resumption.
#include "sharing/bdp_resume.h"

#include <algorithm>

#include "sharing/path_observer.h"
#include "tcp/bbr.h"

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
    if (auto* bbr = dynamic_cast<BbrOps*>(&ops())) {
      // A rate-based rule resumes by its model, as Google QUIC's BBR takes the cached network
      // parameters (quiche bbr_sender.cc BbrSender::AdjustNetworkParameters()): the window from
      // the saved bandwidth and minimum RTT, paced at least at the saved rate while in Startup.
      if (bbr->AdjustNetworkParameters(tcb(), saved_->bandwidth_bps / 8, saved_->min_rtt, tcb().cwnd,
                                       scheme_.config_.bdp_max_window)) {
        ++entry_.resumed;
      }
      return;
    }
    // The resumed window: cwnd = saved bandwidth x saved min RTT, paced at the saved bandwidth
    // until one such window has left (the BDP frame draft's "paced ... initial window").
    const Bytes window = scheme_.ResumedWindow(*saved_, tcb().cwnd);
    if (window <= tcb().cwnd) return;
    tcb().cwnd = window;
    paced_left_ = window;
    SetSchemePacingRate(saved_->bandwidth_bps);
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
