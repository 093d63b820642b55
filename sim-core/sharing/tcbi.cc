// MV-TCBI and FS-TCBI.
#include "sharing/tcbi.h"

#include <algorithm>

namespace tcb {

class TcbiScheme::Member final : public RecordedMemberControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, const SharingConfig& scheme, Set& set,
         FlowId flow)
      : RecordedMemberControl(config, sender), scheme_(scheme), set_(set), flow_(flow) {}

  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    Join(scheme_, set_, *this);
    set_.members.Add(this, flow_);
    Record(now);
  }
  void OnRttSample(SimTime now, SimTime rtt) override {
    ForwardingControl::OnRttSample(now, rtt);
    if (joined()) UpdateAggregate(set_, tcb().rtt.srtt(), tcb().rtt.rttvar());
    Record(now);
  }
  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    set_.members.Remove(this);
    Record(now);
  }

 private:
  bool joined() const {
    const auto& m = set_.members.members();
    return std::find(m.begin(), m.end(), this) != m.end();
  }
  void Record(SimTime now) const override { set_.members.Record(now, set_.srtt, set_.rttvar); }

  const SharingConfig& scheme_;
  Set& set_;
  FlowId flow_;
};

void TcbiScheme::Join(const SharingConfig& config, Set& set, ForwardingControl& newcomer) {
  const Bytes mss = newcomer.tcb().mss;
  // Savorić et al. §3: the "standard values" when the set is empty are 2 and 64 segments.
  const Bytes initial_cwnd = config.tcbi_initial_cwnd * mss;
  const Bytes initial_ssthresh = config.tcbi_initial_ssthresh * mss;
  const std::vector<ForwardingControl*>& others = set.members.members();
  const int64_t n = static_cast<int64_t>(others.size());
  Bytes cwnd_sum = 0, ssthresh_sum = 0;
  for (const ForwardingControl* m : others) {
    cwnd_sum += m->cwnd();
    ssthresh_sum += std::min(m->ssthresh(), TcpConfig::kInfiniteSsthresh);
  }

  if (config.scheme == SchemeKind::kMvTcbi) {
    // §3.1: the newcomer gets the mean of the existing members; they are left unaffected.
    newcomer.tcb().cwnd = n > 0 ? cwnd_sum / n : initial_cwnd;
    newcomer.tcb().ssthresh = n > 0 ? ssthresh_sum / n : initial_ssthresh;
    if (set.has_aggregate) newcomer.tcb().rtt.Set(set.srtt, set.rttvar);
    return;
  }
  // §3.2: everyone, newcomer included, gets (sum + standard initial value) / (n + 1), and the
  // aggregated srtt and rttvar.
  const Bytes cwnd_share = (cwnd_sum + initial_cwnd) / (n + 1);
  const Bytes ssthresh_share = (ssthresh_sum + initial_ssthresh) / (n + 1);
  newcomer.tcb().cwnd = cwnd_share;
  newcomer.tcb().ssthresh = ssthresh_share;
  for (ForwardingControl* m : others) {
    m->tcb().cwnd = cwnd_share;
    m->tcb().ssthresh = ssthresh_share;
  }
  if (set.has_aggregate) {
    newcomer.tcb().rtt.Set(set.srtt, set.rttvar);
    for (ForwardingControl* m : others) m->tcb().rtt.Set(set.srtt, set.rttvar);
  }
}

void TcbiScheme::UpdateAggregate(Set& set, SimTime srtt, SimTime rttvar) {
  const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(set.members.members().size()));
  if (!set.has_aggregate) {
    set.srtt = srtt;
    set.rttvar = rttvar;
    set.has_aggregate = true;
    return;
  }
  // §3.1: aggregate = (n - 1)/n * aggregate + 1/n * new, after every member's change.
  set.srtt = SimTime::Nanoseconds(((n - 1) * set.srtt.ns() + srtt.ns()) / n);
  set.rttvar = SimTime::Nanoseconds(((n - 1) * set.rttvar.ns() + rttvar.ns()) / n);
}

TcbiScheme::Set& TcbiScheme::SetFor(uint64_t key, const ConnectionContext& context) {
  return FindOrCreate(sets_, key, [&] {
    const char* name = config_.scheme == SchemeKind::kMvTcbi ? "mv-tcbi" : "fs-tcbi";
    return Set(TcbGroup(env_, name, DescribeGroupKey(config_.scope, context)));
  });
}

std::unique_ptr<CongestionControl> TcbiScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                      const ConnectionContext& context) {
  Set& set = SetFor(GroupKey(config_.scope, context), context);
  return std::make_unique<Member>(config, sender, config_, set, context.flow);
}

void TcbiScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [key, set] : sets_) {
    nlohmann::json g = set.members.Describe();
    g["aggregateSrttS"] = set.has_aggregate ? nlohmann::json(set.srtt.seconds()) : nlohmann::json(nullptr);
    groups.push_back(std::move(g));
  }
}

}  // namespace tcb
