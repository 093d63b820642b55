// Linux's TCP metrics cache.
#include "sharing/tcp_metrics.h"

#include <algorithm>
#include <cstdlib>

namespace tcb {

class LinuxTcpMetricsScheme::Member final : public ForwardingControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, LinuxTcpMetricsScheme& scheme, uint64_t key, Entry& entry)
      : ForwardingControl(config, sender), scheme_(scheme), key_(key), entry_(entry) {}
  ~Member() override { entry_.group.Remove(this); }

  // tcp_init_metrics(), run when the connection is established.
  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    const SharingConfig& c = scheme_.config_;
    // The route's initcwnd (tcp_init_cwnd()), unless the handshake lost a segment (RFC 5681 §3.1).
    if (c.metrics_initcwnd > 0 && !syn_lost) tcb().cwnd = c.metrics_initcwnd * tcb().mss;
    // A locked cwnd metric clamps the window (tp->snd_cwnd_clamp).
    if (c.metrics_cwnd_lock > 0) tcb().cwnd = std::min(tcb().cwnd, Clamp());
    const TcpMetricsEntry* m = scheme_.Lookup(key_, now);
    if (m == nullptr) return;
    // ssthresh only when net.ipv4.tcp_no_ssthresh_metrics_save is 0; otherwise it stays at its
    // initial (infinite) value.
    const Bytes ssthresh = c.metrics_no_ssthresh_save ? 0 : m->ssthresh;
    if (ssthresh > 0) {
      tcb().ssthresh = c.metrics_cwnd_lock > 0 ? std::min(ssthresh, Clamp()) : ssthresh;
      ++entry_.restored_ssthresh;
    }
    // "Use the per-dst cached values to seed the RTO but keep the RTT estimator variables intact":
    // if the cached RTT exceeds the handshake's, RTO = crtt + max(2 * crtt, rto_min).
    const SimTime crtt = SimTime::Nanoseconds(m->rtt8.ns() / 8);
    const SimTime srtt = tcb().rtt.has_sample() ? tcb().rtt.srtt() : SimTime::Zero();
    if (crtt > srtt) {
      const RttEstimator& rtt = tcb().rtt;
      if (rtt.rules() == RtoRules::kLinux) {
        // With Linux's RTO rules, in the kernel's jiffies: "crtt /= 8 * USEC_PER_SEC / HZ" (whole
        // jiffies, rounded down), the minimum RTO in jiffies too.
        const Jiffies& j = rtt.jiffies();
        const int64_t crtt_j = crtt.ns() / j.tick().ns();
        tcb().rtt.SeedRto(j.Time(crtt_j + std::max(2 * crtt_j, j.FromTime(rtt.min_rto()))));
      } else {
        tcb().rtt.SeedRto(crtt + Max(crtt * 2, rtt.min_rto()));
      }
      ++entry_.seeded_rto;
    }
  }

  bool OnAck(SimTime now, const AckInfo& ack) override {
    const bool restart = ForwardingControl::OnAck(now, ack);
    ApplyClamp();
    return restart;
  }
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override {
    ForwardingControl::OnDuplicateAck(now, ack);
    ApplyClamp();
  }
  void OnRetransmissionTimeout(SimTime now) override {
    ForwardingControl::OnRetransmissionTimeout(now);
    backoff_ = true;  // icsk_backoff, until a valid RTT sample (Karn) ends it.
  }
  void OnRttSample(SimTime now, SimTime rtt) override {
    ForwardingControl::OnRttSample(now, rtt);
    backoff_ = false;
  }

  // tcp_update_metrics(), run when the connection finishes.
  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    entry_.group.Remove(this);
    const SharingConfig& c = scheme_.config_;
    if (c.metrics_no_save) return;  // net.ipv4.tcp_nometrics_save.
    TcpMetricsEntry* m = scheme_.Lookup(key_, now);
    if (backoff_ || !tcb().rtt.has_sample()) {
      // "This session failed to estimate rtt ... Reset our results."
      if (m != nullptr) m->rtt8 = SimTime::Zero();
      return;
    }
    if (m == nullptr) {
      m = &entry_.metrics;
      *m = TcpMetricsEntry{};
      m->exists = true;
    }
    const int64_t srtt8 = tcb().rtt.srtt().ns() * 8;
    const int64_t mdev4 = tcb().rtt.rttvar().ns() * 4;
    // "If newly calculated rtt larger than stored one, store new one. Otherwise, use EWMA."
    int64_t delta = m->rtt8.ns() - srtt8;
    m->rtt8 = SimTime::Nanoseconds(delta <= 0 ? srtt8 : m->rtt8.ns() - (delta >> 3));
    // RTTVAR: the larger of the RTT change and mdev, or a quarter of the way down to it.
    delta = std::abs(delta) >> 1;
    if (delta < mdev4) delta = mdev4;
    int64_t var = m->rttvar4.ns();
    var = delta >= var ? delta : var - ((var - delta) >> 2);
    m->rttvar4 = SimTime::Nanoseconds(var);

    const Tcb& t = tcb();
    const bool save_ssthresh = !c.metrics_no_ssthresh_save;
    if (t.ssthresh >= TcpConfig::kInfiniteSsthresh) {
      // tcp_in_initial_slowstart(): "Slow start still did not finish."
      if (save_ssthresh && m->ssthresh > 0 && t.cwnd / 2 > m->ssthresh) m->ssthresh = t.cwnd / 2;
      if (t.cwnd > m->cwnd) m->cwnd = t.cwnd;
    } else if (t.cwnd >= t.ssthresh && state() == CongestionState::kOpen) {
      // "Cong. avoidance phase, cwnd is reliable."
      if (save_ssthresh) m->ssthresh = std::max(t.cwnd / 2, t.ssthresh);
      m->cwnd = (m->cwnd + t.cwnd) / 2;
    } else {
      // "Else slow start did not finish, cwnd is non-sense, ssthresh may be also invalid."
      m->cwnd = (m->cwnd + t.ssthresh) / 2;
      if (save_ssthresh && m->ssthresh > 0 && t.ssthresh > m->ssthresh) m->ssthresh = t.ssthresh;
    }
    m->stamp = now;
  }

 private:
  Bytes Clamp() const { return scheme_.config_.metrics_cwnd_lock * tcb().mss; }
  void ApplyClamp() {
    if (scheme_.config_.metrics_cwnd_lock > 0) tcb().cwnd = std::min(tcb().cwnd, Clamp());
  }

  LinuxTcpMetricsScheme& scheme_;
  uint64_t key_;
  Entry& entry_;
  bool backoff_ = false;
};

TcpMetricsEntry* LinuxTcpMetricsScheme::Lookup(uint64_t key, SimTime now) {
  Entry* e = FindEntry(key);
  if (e == nullptr || !e->metrics.exists) return nullptr;
  TcpMetricsEntry& m = e->metrics;
  // tcpm_check_stamp(): an entry older than TCP_METRICS_TIMEOUT (one hour) is refilled from the
  // route, which here holds nothing but the locks: the learnt values are gone.
  if (now - m.stamp > config_.cache_lifetime) {
    m = TcpMetricsEntry{};
    m.exists = true;
    m.stamp = now;
  }
  return &m;
}

std::unique_ptr<CongestionControl> LinuxTcpMetricsScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                                 const ConnectionContext& context) {
  const uint64_t key = GroupKey(config_.scope, context);
  Entry& entry = EntryFor(key, context);
  return Join(entry, std::make_unique<Member>(config, sender, *this, key, entry), context.flow);
}

void LinuxTcpMetricsScheme::DescribeEntry(const Entry& e, nlohmann::json& group) const {
  const TcpMetricsEntry& m = e.metrics;
  // What `ip tcp_metrics show` would print for the destination at the end of the run.
  group["tcpMetrics"] = {{"rttUs", m.rtt8.ns() / 8 / 1000},       {"rttvarUs", m.rttvar4.ns() / 4 / 1000},
                         {"ssthreshBytes", m.ssthresh},          {"cwndBytes", m.cwnd},
                         {"restoredSsthresh", e.restored_ssthresh}, {"seededRto", e.seeded_rto}};
}

}  // namespace tcb
