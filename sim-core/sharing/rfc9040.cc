// RFC 9040 temporal and ensemble sharing.
#include "sharing/rfc9040.h"

#include <algorithm>

namespace tcb {

// ---- Temporal sharing ------------------------------------------------------------------------

class Rfc9040TemporalScheme::Member final : public ForwardingControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, Rfc9040TemporalScheme& scheme, uint64_t key,
         TcbGroup& group, SimTime now)
      : ForwardingControl(config, sender), scheme_(scheme), key_(key), group_(group) {
    cached_ = scheme_.Lookup(key_, now, config.InitialWindowBytes());
    // RFC 9040 Table 1: RTT and RTTVAR come from the cache when the connection opens, before its
    // handshake adds the first sample of its own.
    if (cached_ && cached_->has_rtt) tcb().rtt.Set(cached_->srtt, cached_->rttvar);
  }

  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    if (!cached_) return;
    // RFC 9040 Table 3: ssthresh and cwnd from the (aged) cache.
    tcb().ssthresh = cached_->ssthresh;
    tcb().cwnd = cached_->cwnd;
  }

  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    CachedTcb closing;
    closing.mss = tcb().mss;
    closing.cwnd = tcb().cwnd;
    closing.ssthresh = tcb().ssthresh;
    closing.has_rtt = tcb().rtt.has_sample();
    closing.srtt = tcb().rtt.srtt();
    closing.rttvar = tcb().rtt.rttvar();
    scheme_.Store(key_, now, closing);
    group_.Remove(this);
  }
  ~Member() override { group_.Remove(this); }

  bool started_from_cache() const { return cached_.has_value(); }

 private:
  Rfc9040TemporalScheme& scheme_;
  uint64_t key_;
  TcbGroup& group_;  // The users of the cache entry (for the outputs).
  std::optional<CachedTcb> cached_;
};

std::unique_ptr<CongestionControl> Rfc9040TemporalScheme::Attach(const TcpConfig& config,
                                                                  SenderHandle& sender,
                                                                  const ConnectionContext& context) {
  const uint64_t key = GroupKey(config_.scope, context);
  Entry& entry = EntryFor(key, context);
  auto member = std::make_unique<Member>(config, sender, *this, key, entry.group, env_.sim->Now());
  if (member->started_from_cache()) ++entry.hits;
  return Join(entry, std::move(member), context.flow);
}

std::optional<CachedTcb> Rfc9040TemporalScheme::Lookup(uint64_t key, SimTime now,
                                                       Bytes initial_window) const {
  const Entry* found = FindEntry(key);
  if (found == nullptr || !found->valid) return std::nullopt;
  const Entry& e = *found;
  const SimTime idle = now - e.stored_at;
  // A cached entry expires after its lifetime (RFC 9040 §8.2: cached state goes stale).
  if (idle > config_.cache_lifetime) return std::nullopt;
  CachedTcb value = e.value;
  if (config_.age_cwnd && value.has_rtt && value.srtt.ns() > 0) {
    // RFC 7661 §4.4 / Handley et al.: halve the window for every RTT of idleness, but never below
    // the initial window.
    const int64_t idle_rtts = idle / value.srtt;
    const Bytes floor = std::min(value.cwnd, initial_window);
    value.cwnd = idle_rtts >= 62 ? floor : std::max(value.cwnd >> idle_rtts, floor);
  }
  return value;
}

void Rfc9040TemporalScheme::Store(uint64_t key, SimTime now, const CachedTcb& closing) {
  Entry& e = EntryAt(key);
  // RFC 9040 Table 3: on close, cached = merge(current, cached). "latest" keeps the closing
  // connection's values; "mean" averages the last N closes; "ewma" smooths with a weight.
  switch (config_.merge) {
    case MergeRule::kLatest:
      e.value = closing;
      break;
    case MergeRule::kMean: {
      e.recent.push_back(closing);
      while (static_cast<int>(e.recent.size()) > config_.merge_window) e.recent.pop_front();
      CachedTcb mean = closing;
      Bytes cwnd = 0, ssthresh = 0;
      int64_t srtt = 0, rttvar = 0;
      int rtts = 0;
      for (const CachedTcb& c : e.recent) {
        cwnd += c.cwnd;
        ssthresh += c.ssthresh;
        if (c.has_rtt) {
          srtt += c.srtt.ns();
          rttvar += c.rttvar.ns();
          ++rtts;
        }
      }
      const int64_t n = static_cast<int64_t>(e.recent.size());
      mean.cwnd = cwnd / n;
      mean.ssthresh = ssthresh / n;
      mean.has_rtt = rtts > 0;
      if (rtts > 0) {
        mean.srtt = SimTime::Nanoseconds(srtt / rtts);
        mean.rttvar = SimTime::Nanoseconds(rttvar / rtts);
      }
      e.value = mean;
      break;
    }
    case MergeRule::kEwma: {
      if (!e.valid) {
        e.value = closing;
        break;
      }
      const double w = config_.ewma_weight;
      auto blend = [w](int64_t old_value, int64_t new_value) {
        return static_cast<int64_t>((1 - w) * static_cast<double>(old_value) + w * static_cast<double>(new_value) + 0.5);
      };
      e.value.cwnd = blend(e.value.cwnd, closing.cwnd);
      e.value.ssthresh = blend(std::min(e.value.ssthresh, TcpConfig::kInfiniteSsthresh),
                               std::min(closing.ssthresh, TcpConfig::kInfiniteSsthresh));
      if (closing.has_rtt && e.value.has_rtt) {
        e.value.srtt = SimTime::Nanoseconds(blend(e.value.srtt.ns(), closing.srtt.ns()));
        e.value.rttvar = SimTime::Nanoseconds(blend(e.value.rttvar.ns(), closing.rttvar.ns()));
      } else if (closing.has_rtt) {
        e.value.srtt = closing.srtt;
        e.value.rttvar = closing.rttvar;
        e.value.has_rtt = true;
      }
      e.value.mss = closing.mss;
      break;
    }
  }
  e.valid = true;
  e.stored_at = now;
  if (e.group.recording()) e.group.RecordState(now, e.value.cwnd, e.value.ssthresh, e.value.srtt, e.value.rttvar, 0, 0);
}

void Rfc9040TemporalScheme::DescribeEntry(const Entry& e, nlohmann::json& group) const {
  group["cacheHits"] = e.hits;
  if (e.valid) {
    group["cached"] = {{"cwndBytes", e.value.cwnd},
                       {"ssthreshBytes", std::min(e.value.ssthresh, TcpConfig::kInfiniteSsthresh)},
                       {"srttS", e.value.has_rtt ? nlohmann::json(e.value.srtt.seconds()) : nlohmann::json(nullptr)},
                       {"storedAtS", e.stored_at.seconds()}};
  }
}

// ---- Ensemble sharing ------------------------------------------------------------------------

class Rfc9040EnsembleScheme::Member final : public RecordedMemberControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, Group& group, const SharingEnvironment& env)
      : RecordedMemberControl(config, sender), group_(group), env_(env) {}

  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    // RFC 9040 Table 5: a new member of a live ensemble starts from the others' state. RTT and
    // RTTVAR are the shared estimate (below). The window is its share of the ensemble's aggregate
    // as if split among n + 1 connections, sum(cwnd) / (n + 1), and ssthresh is the others' mean
    // (sum / n); the RFC leaves f(sum, N) open and says why it must not add a full window.
    Bytes cwnd_sum = 0, ssthresh_sum = 0;
    int n = 0, finite = 0;
    for (ForwardingControl* m : group_.members.members()) {
      if (m == this || !static_cast<Member*>(m)->established_) continue;
      ++n;
      cwnd_sum += m->cwnd();
      if (m->ssthresh() < TcpConfig::kInfiniteSsthresh) {
        ssthresh_sum += m->ssthresh();
        ++finite;
      }
    }
    established_ = true;
    if (n > 0) {
      tcb().cwnd = std::max(cwnd_sum / (n + 1), tcb().mss);
      if (finite > 0) tcb().ssthresh = std::max(ssthresh_sum / finite, 2 * tcb().mss);
    }
    Record(now);
  }
  // RFC 9040 Table 7: every member's samples update the one shared RTT estimate.
  void OnRttSample(SimTime now, SimTime rtt) override {
    group_.rtt.AddSample(rtt);
    Record(now);
  }
  const RttEstimator& rtt() const override { return group_.rtt; }
  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    group_.members.Remove(this);
    if (group_.members.members().empty()) {
      // Ensemble sharing keeps nothing once the last member is gone (temporal sharing would).
      group_.rtt = RttEstimator(config().rto_granularity, config().min_rto, config().max_rto,
                                config().initial_rto);
    }
    Record(now);
  }

 private:
  void Record(SimTime now) const override {
    group_.members.Record(now, group_.rtt.srtt(), group_.rtt.rttvar());
  }

  Group& group_;
  SharingEnvironment env_;
  bool established_ = false;
};

Rfc9040EnsembleScheme::Group& Rfc9040EnsembleScheme::GroupFor(uint64_t key, const TcpConfig& config,
                                                               const ConnectionContext& context) {
  return FindOrCreate(groups_, key, [&] {
    return Group(TcbGroup(env_, "rfc9040-ensemble", DescribeGroupKey(config_.scope, context)), config);
  });
}

std::unique_ptr<CongestionControl> Rfc9040EnsembleScheme::Attach(const TcpConfig& config,
                                                                  SenderHandle& sender,
                                                                  const ConnectionContext& context) {
  Group& group = GroupFor(GroupKey(config_.scope, context), config, context);
  auto member = std::make_unique<Member>(config, sender, group, env_);
  group.members.Add(member.get(), context.flow);
  return member;
}

void Rfc9040EnsembleScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [key, g] : groups_) groups.push_back(g.members.Describe());
}

}  // namespace tcb
