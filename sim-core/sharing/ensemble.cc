// The ensemble core.
#include "sharing/ensemble.h"

#include <algorithm>
#include <utility>

namespace tcb {

// ---- EnsembleMember ----------------------------------------------------------------------------

EnsembleMember::EnsembleMember(EnsembleGroup& group, SenderHandle& sender, const TcpConfig& config,
                               const ConnectionTraits& traits, bool avoids_handshake)
    : group_(group),
      sender_(sender),
      config_(config),
      traits_(traits),
      avoids_handshake_(avoids_handshake),
      own_rtt_(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto) {}

void EnsembleMember::OnSendStart(SimTime, bool first, Bytes) { group_.MemberSendStart(*this, first); }
void EnsembleMember::OnSegmentSent(SimTime, const SentSegment& segment) { group_.MemberSent(*this, segment); }
bool EnsembleMember::OnAck(SimTime, const AckInfo& ack) { return group_.MemberAck(*this, ack); }
void EnsembleMember::OnDuplicateAck(SimTime, const AckInfo& ack) { group_.MemberDuplicateAck(*this, ack); }
void EnsembleMember::OnRetransmissionTimeout(SimTime) { group_.MemberTimeout(*this); }
void EnsembleMember::OnRttSample(SimTime, SimTime rtt) { group_.MemberRttSample(*this, rtt); }
void EnsembleMember::OnClosed(SimTime) { group_.Leave(*this); }

void EnsembleMember::GivePriority() {
  if (priority_) return;
  priority_ = true;
  ++group_.prioritized_;
}

bool EnsembleMember::CanSend(Bytes) {
  group_.Pump();
  return false;
}

Bytes EnsembleMember::cwnd() const {
  const EnsembleGroup& group = group_;
  const double total = group.total_share();
  const Bytes window = group.tcb().cwnd;
  return total > 0 ? static_cast<Bytes>(static_cast<double>(window) * share_ / total) : window;
}

Bytes EnsembleMember::ssthresh() const { return std::as_const(group_).tcb().ssthresh; }

double EnsembleMember::pacing_rate_bps() const {
  const EnsembleGroup& group = group_;
  const double total = group.total_share();
  const double rate = group.pacer().window_rate_bps(group.tcb().mss);
  return total > 0 ? rate * share_ / total : rate;
}

const RttEstimator& EnsembleMember::rtt() const { return group_.RttOf(*this); }

// ---- EnsembleGroup -----------------------------------------------------------------------------

EnsembleGroup::EnsembleGroup(const SharingEnvironment& env, std::string scheme, std::string key,
                             const TcpConfig& config)
    : SharingGroup(env, std::move(scheme), std::move(key)),
      config_(config),
      tcb_(config),
      ops_(MakeCongestionOps(config)) {}

double EnsembleGroup::total_share() const {
  // Summed again, in member order, only after a share changed: each member's window and pacing
  // rate (recorded at series level on every change) divide by it.
  if (total_share_stale_) {
    double total = 0;
    for (const EnsembleMember* m : members_) total += m->share_;
    total_share_ = total;
    total_share_stale_ = false;
  }
  return total_share_;
}

void EnsembleGroup::Join(EnsembleMember& member, FlowId flow, double share, bool preempts) {
  members_.push_back(&member);
  AddFlow(flow);
  member.share_ = share;
  total_share_stale_ = true;
  scheduler_.Add(&member, share, preempts);
  OnJoined(member);
  Record();
}

void EnsembleGroup::Leave(EnsembleMember& member) {
  members_.erase(std::remove(members_.begin(), members_.end(), &member), members_.end());
  total_share_stale_ = true;
  if (member.priority_) {
    member.priority_ = false;
    --prioritized_;
  }
  scheduler_.Remove(&member);
  outstanding_.RemoveOwner(&member);
  OnLeft(member);
  Record();
  Pump();
}

void EnsembleGroup::SetShare(EnsembleMember& m, double share) {
  m.share_ = share;
  total_share_stale_ = true;
  scheduler_.SetTickets(&m, share);
}

void EnsembleGroup::MemberSendStart(EnsembleMember& m, bool first) {
  const bool idle = active_before_ && InFlight() == 0 && Now() - last_active_ > RttOf(m).rto();
  active_before_ = true;
  if (idle) OnResumeAfterIdle(m, first);
}

void EnsembleGroup::OnResumeAfterIdle(EnsembleMember&, bool) {
  // RFC 5681 §4.1: restart window = min(IW, cwnd), as ConnectionControl::OnSendStart() does for
  // one connection.
  if (!config_.slow_start_restart) return;
  tcb_.cwnd = std::min(tcb_.cwnd, config_.InitialWindowBytes());
  Record();
}

bool EnsembleGroup::MemberAck(EnsembleMember& m, const AckInfo& ack) {
  last_active_ = Now();
  m.highest_echo_ = std::max(m.highest_echo_, ack.echo_uid);
  return OnAck(m, ack, true);
}

void EnsembleGroup::MemberDuplicateAck(EnsembleMember& m, const AckInfo& ack) {
  last_active_ = Now();
  m.highest_echo_ = std::max(m.highest_echo_, ack.echo_uid);
  OnAck(m, ack, false);
}

void EnsembleGroup::Pump() {
  if (pumping_) return;
  pumping_ = true;
  BeforePump();
  const SimTime now = Now();
  while (InFlight() + tcb_.mss <= tcb_.cwnd) {
    const SimTime paced = pacer_.NextSendTime(now);
    if (paced > now) {
      env().sim->events().Schedule(*this, paced);
      break;
    }
    // A member with a retransmission waiting goes first (the last such member, if several).
    EnsembleMember* m = nullptr;
    if (prioritized_ > 0) {
      for (EnsembleMember* c : members_) {
        if (c->priority_ && c->ready()) m = c;
      }
    }
    if (m != nullptr) {
      m->priority_ = false;
      --prioritized_;
    } else {
      m = scheduler_.Next([](EnsembleMember* c) { return c->ready(); });
    }
    if (m == nullptr) break;
    if (m->sender_.SendNewSegment() == 0) continue;
    ++m->grants_;
    OnGranted(*m);
    pacer_.OnWindowSegmentSent(now);
  }
  pumping_ = false;
}

void EnsembleGroup::Record() const {
  if (!recording()) return;
  RecordState(Now(), tcb_.cwnd, tcb_.ssthresh, tcb_.rtt.srtt(), tcb_.rtt.rttvar(), InFlight(),
                       members_.size());
}

nlohmann::json EnsembleGroup::Describe() const {
  nlohmann::json j = SharingGroup::Describe();
  DescribeMore(j);
  return j;
}

}  // namespace tcb
