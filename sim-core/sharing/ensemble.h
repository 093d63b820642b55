// The ensemble core shared by the schemes that give a group of connections one window (E-TCP,
// TCP-INT, the Congestion Manager): an EnsembleGroup owns the group's Tcb and window rules, its
// members, the scheduler that hands the window out, the list of outstanding packets in send order,
// a pacer, and the loop that pulls segments from members while the window allows. Each member
// connection gets an EnsembleMember, whose CanSend() answers no: the group sends for it. A scheme
// derives its group from EnsembleGroup and writes only its policy: how it detects and answers
// losses, what it caches, when it paces.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sharing/outstanding_list.h"
#include "sharing/sharing_config.h"
#include "sharing/sharing_group.h"
#include "sharing/stride_scheduler.h"
#include "tcp/congestion_ops.h"
#include "tcp/pacer.h"
#include "tcp/tcb.h"

namespace tcb {

class EnsembleGroup;

// A member connection's controller: it reports every event to its group and never sends on its
// own. It keeps what stays per connection in every group scheme: the connection's loss-recovery
// state (duplicate ACKs, recovery and its end), its share of the window (E-TCP's tickets, the
// weights of TCP-INT and the Congestion Manager), and an RTT estimator for schemes that do not
// share RTT.
class EnsembleMember final : public CongestionControl {
 public:
  EnsembleMember(EnsembleGroup& group, SenderHandle& sender, const TcpConfig& config,
                 const ConnectionTraits& traits, bool avoids_handshake);

  void OnEstablished(SimTime, bool) override { established_ = true; }
  void OnSendStart(SimTime now, bool first, Bytes pending) override;
  void OnSegmentSent(SimTime now, const SentSegment& segment) override;
  bool OnAck(SimTime now, const AckInfo& ack) override;
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override;
  void OnRetransmissionTimeout(SimTime now) override;
  void OnRttSample(SimTime now, SimTime rtt) override;
  void OnClosed(SimTime now) override;
  // The group's scheduler pulls the member's segments (E-TCP §3.4, TCP-INT's round robin, the
  // Congestion Manager's cmapp_send()): asking only gives the group a chance to send.
  bool CanSend(Bytes bytes) override;
  bool AvoidsHandshake() const override { return avoids_handshake_; }

  // The member's share of the group's window and pacing rate (for the outputs).
  Bytes cwnd() const override;
  Bytes ssthresh() const override;
  double pacing_rate_bps() const override;
  const RttEstimator& rtt() const override;
  bool in_recovery() const override { return in_recovery_; }

  // For the group's policy.
  SenderHandle& sender() { return sender_; }
  const SenderHandle& sender() const { return sender_; }
  const ConnectionTraits& traits() const { return traits_; }
  // The connection's own options (members of one group may differ, e.g. in MSS).
  const TcpConfig& config() const { return config_; }
  // Established, with a segment the sender would send now.
  bool ready() const { return established_ && sender_.NextSegmentBytes() > 0; }
  bool half_closed() const { return sender_.write_closed() && sender_.unsent_bytes() == 0; }
  double share() const { return share_; }
  // Segments the group's scheduler has sent for this member.
  int64_t grants() const { return grants_; }

  int dupacks() const { return dupacks_; }
  void CountDuplicate() { ++dupacks_; }
  void ClearDuplicates() { dupacks_ = 0; }
  // Loss recovery of this connection, until the ACK passes `recover` (the policy's test).
  void EnterRecovery(SeqNo recover) {
    in_recovery_ = true;
    recover_ = recover;
  }
  void LeaveRecovery() { in_recovery_ = false; }
  SeqNo recover() const { return recover_; }
  void set_recover(SeqNo recover) { recover_ = recover; }
  // The member's next segment leaves before any scheduled one (E-TCP §3.3: "if a connection needs
  // to retransmit a packet, it is given priority").
  void GivePriority();
  bool has_priority() const { return priority_; }
  // The latest of this connection's packets that one of its own ACKs echoed.
  uint64_t highest_echo() const { return highest_echo_; }
  RttEstimator& own_rtt() { return own_rtt_; }
  const RttEstimator& own_rtt() const { return own_rtt_; }

 private:
  friend class EnsembleGroup;

  EnsembleGroup& group_;
  SenderHandle& sender_;
  const TcpConfig& config_;  // The endpoint's, which outlives its controller.
  ConnectionTraits traits_;
  bool avoids_handshake_;
  bool established_ = false;
  double share_ = 1;
  int64_t grants_ = 0;
  int dupacks_ = 0;
  bool in_recovery_ = false;
  SeqNo recover_ = -1;
  bool priority_ = false;
  uint64_t highest_echo_ = 0;
  RttEstimator own_rtt_;
};

class EnsembleGroup : public SharingGroup, public EventSource {
 public:
  EnsembleGroup(const SharingEnvironment& env, std::string scheme, std::string key, const TcpConfig& config);
  ~EnsembleGroup() override = default;

  // A new member with `share` of the window (stride-scheduler tickets or weights); `preempts`: it
  // goes before every member that does not (E-TCP §4's html-pre).
  void Join(EnsembleMember& member, FlowId flow, double share, bool preempts = false);
  // The member closed.
  void Leave(EnsembleMember& member);
  // Hands send opportunities to members in scheduler order while the window, and the pacer when it
  // paces a window, allow. Re-entrant calls (a send that triggers another CanSend) return at once.
  void Pump();
  void OnEvent() override { Pump(); }  // The pacer's timer.

  const Tcb& tcb() const { return tcb_; }
  const TcpConfig& config() const { return config_; }
  const Pacer& pacer() const { return pacer_; }
  double total_share() const;
  // The group's entry in the summary's "groups".
  nlohmann::json Describe() const;

  // The member-facing events, which a scheme's policy handles (see the hooks below).
  void MemberSendStart(EnsembleMember& m, bool first);
  void MemberSent(EnsembleMember& m, const SentSegment& s) {
    last_active_ = Now();
    OnSegmentSent(m, s);
  }
  bool MemberAck(EnsembleMember& m, const AckInfo& ack);
  void MemberDuplicateAck(EnsembleMember& m, const AckInfo& ack);
  void MemberTimeout(EnsembleMember& m) { OnRetransmissionTimeout(m); }
  void MemberRttSample(EnsembleMember& m, SimTime rtt) { OnRttSample(m, rtt); }
  virtual const RttEstimator& RttOf(const EnsembleMember&) const { return tcb_.rtt; }

 protected:
  // ---- The scheme's policy ----
  // Data starts on member `m` (its first, `first`, or its first after an idle period) while the
  // group itself has been idle: nothing in flight, and nothing sent or acknowledged for longer than
  // the member's RTO. RFC 5681 §4.1's test, applied to the group's window, which is the one "TCP"
  // whose window the rule restarts: the members' own tests see only their own silence, and a
  // newcomer's first data would otherwise send the group's whole window, however old, in one burst.
  // By default, with slow-start restart on (tcp.slowStartRestart, "ssr"), the window restarts at
  // min(IW, cwnd); with "nssr" it is kept.
  virtual void OnResumeAfterIdle(EnsembleMember& m, bool first);
  virtual void OnSegmentSent(EnsembleMember& m, const SentSegment& s) = 0;
  // An ACK of new data (`new_data`; returns whether to restart the member's retransmission timer,
  // RFC 6298 §5.3) or a duplicate ACK (the result is not used). The member's highest echoed packet is
  // already up to date.
  virtual bool OnAck(EnsembleMember& m, const AckInfo& ack, bool new_data) = 0;
  virtual void OnRetransmissionTimeout(EnsembleMember& m) = 0;
  // By default the group shares one RTT estimate (E-TCP's ECB, the Congestion Manager).
  virtual void OnRttSample(EnsembleMember&, SimTime rtt) {
    tcb_.rtt.AddSample(rtt);
    Record();
  }
  // After a member joined (it is already in members()) or left (it no longer is).
  virtual void OnJoined(EnsembleMember&) {}
  virtual void OnLeft(EnsembleMember&) {}
  // Bytes the group has in the network, against which the window is checked.
  virtual Bytes InFlight() const { return outstanding_.bytes(); }
  // Called at the start of every Pump.
  virtual void BeforePump() {}
  // The scheduler sent a segment for `m`.
  virtual void OnGranted(EnsembleMember&) {}
  virtual void DescribeMore(nlohmann::json&) const {}

  // ---- For policies ----
  Tcb& mutable_tcb() { return tcb_; }
  CongestionOps& ops() { return *ops_; }
  OutstandingList<EnsembleMember>& outstanding() { return outstanding_; }
  const OutstandingList<EnsembleMember>& outstanding() const { return outstanding_; }
  Pacer& pacer() { return pacer_; }
  const std::vector<EnsembleMember*>& members() const { return members_; }
  // Changes a member's share (E-TCP's ticket decay).
  void SetShare(EnsembleMember& m, double share);
  // Grows the group's window by the window rule for `acked` bytes.
  void IncreaseWindow(Bytes acked) { ops_->IncreaseWindow(tcb_, Now(), acked); }
  // The window rule's ssthresh after a congestion event with `flight` bytes outstanding.
  Bytes SsThreshAfterLoss(Bytes flight) { return ops_->SsThresh(tcb_, Now(), flight); }
  // Tells the window rule that a retransmission timeout cut the group's window to one segment
  // (RFC 9438 §4.8: CUBIC's next congestion avoidance stage starts with K = 0 and W_max at its
  // start); RFC 5681's rule keeps no state of it.
  void NoteTimeout() { ops_->OnStateChange(tcb_, Now(), CongestionState::kLoss); }
  // Writes the group's window, RTT and flight to the series (at series level only).
  void Record() const;

 private:
  friend class EnsembleMember;  // Its GivePriority() counts it in prioritized_.

  TcpConfig config_;
  Tcb tcb_;
  std::unique_ptr<CongestionOps> ops_;
  std::vector<EnsembleMember*> members_;  // Live members. Not owned.
  StrideScheduler<EnsembleMember> scheduler_;
  OutstandingList<EnsembleMember> outstanding_;
  Pacer pacer_;  // Paces a window (Pacer::PaceWindow) when the policy asks.
  bool pumping_ = false;
  // Members with priority (EnsembleMember::GivePriority): the pump looks for them only while any.
  int prioritized_ = 0;
  // The members' shares summed (total_share()), until one changes.
  mutable double total_share_ = 0;
  mutable bool total_share_stale_ = true;
  // The group's last segment sent or ACK received (RFC 5681 §4.1's idle test).
  SimTime last_active_;
  bool active_before_ = false;  // The group has sent before.
};

// A scheme whose groups are EnsembleGroups of type `Group`, one per scope key, kept for the run.
template <class Group>
class EnsembleScheme : public SharingScheme {
 public:
  EnsembleScheme(const SharingConfig& config, const SharingEnvironment& env) : config_(config), env_(env) {}

  void Describe(nlohmann::json& groups) const override {
    for (const auto& [key, group] : groups_) groups.push_back(group->Describe());
  }

 protected:
  // The group of the connection described by `context`, made on its first connection.
  Group& GroupFor(const TcpConfig& config, const ConnectionContext& context) {
    return *FindOrCreate(groups_, GroupKey(config_.scope, context), [&] {
      return std::make_unique<Group>(config_, env_, DescribeGroupKey(config_.scope, context), config);
    });
  }

  // The connection as a new member of its group, with the connection's weight as its share (the
  // Congestion Manager's and TCP-INT's Attach; E-TCP's members join with tickets instead).
  std::unique_ptr<CongestionControl> JoinWithWeight(const TcpConfig& config, SenderHandle& sender,
                                                    const ConnectionContext& context) {
    Group& group = GroupFor(config, context);
    auto member = std::make_unique<EnsembleMember>(group, sender, config, context.traits, false);
    group.Join(*member, context.flow, context.traits.weight);
    return member;
  }

  SharingConfig config_;
  SharingEnvironment env_;

 private:
  std::map<uint64_t, std::unique_ptr<Group>> groups_;
};

}  // namespace tcb
