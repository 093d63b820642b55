// Ensemble-TCP.
#include "sharing/etcp.h"

#include <algorithm>
#include <vector>

namespace tcb {

// ---- The ensemble control block ----------------------------------------------------------------

class EtcpEcb final : public EnsembleGroup {
 public:
  EtcpEcb(const SharingConfig& scheme, const SharingEnvironment& env, std::string key, const TcpConfig& config)
      : EnsembleGroup(env, "etcp", std::move(key), config), scheme_(scheme) {}

  // Whether the ECB existed before (active or cached): what handshake avoidance needs (§5: the
  // T/TCP connection cache lives in the ECB).
  bool seen_before() const { return incarnations_ > 0; }

 protected:
  void OnJoined(EnsembleMember& m) override;
  void OnLeft(EnsembleMember& m) override;
  void OnResumeAfterIdle(EnsembleMember&, bool first) override {
    // §3.1: "E-TCP will also use pacing during slow-start restart": pacing, instead of the
    // restart, brings the ensemble's window back after idle, for a member that resumes or a
    // newcomer to an idle active ECB alike. A newcomer that has just activated the ECB was dealt
    // with on joining (a cached ECB already paces; a new or expired one starts as a new TCB).
    if (pacer().pacing_window() || (first && members().size() == 1)) return;
    StartPacing();
  }
  void OnSegmentSent(EnsembleMember& m, const SentSegment& s) override {
    // §3.3: appended to the list with a zero skipped-ACK counter; a retransmission moves to the end.
    outstanding().Sent(&m, s.seq, s.bytes, s.uid, Now());
    last_sent_uid_ = s.uid;
    Record();
  }
  bool OnAck(EnsembleMember& m, const AckInfo& ack, bool new_data) override;
  void OnRetransmissionTimeout(EnsembleMember& m) override;
  void OnRttSample(EnsembleMember& m, SimTime rtt) override {
    has_state_ = true;
    EnsembleGroup::OnRttSample(m, rtt);
  }
  void BeforePump() override {
    // §4.2: when every member is half-closed, pacing keeps a newcomer from bursting a whole window.
    if (scheme_.pace_half_closed && !pacer().pacing_window() && AllHalfClosed() && !outstanding().empty()) StartPacing();
  }
  void OnGranted(EnsembleMember& m) override {
    if (scheme_.tickets == TicketPolicy::kDecay && m.traits().tickets <= 0) {
      SetShare(m, EtcpScheme::DecayedTickets(m.grants()));
    }
  }
  void DescribeMore(nlohmann::json& j) const override {
    j["incarnations"] = incarnations_;
    j["cachedReuses"] = cached_reuses_;
  }

 private:
  // §3.1 case 1: "initialized to the same values they would have for a new standard TCB".
  void Reset();
  void FastRetransmit(EnsembleMember& m);
  // Pacing spreads one window over one RTT: a packet every srtt / (cwnd / mss).
  void StartPacing();
  bool AllHalfClosed() const;

  const SharingConfig& scheme_;
  bool has_state_ = false;  // Measured anything worth caching.
  SimTime cached_at_;
  SimTime last_decrease_;   // TCP-INT's decr_ts: one window reduction per window of data.
  uint64_t last_sent_uid_ = 0;
  // The last packet sent before pacing began: ACKs of later ones tell that the ACK clock runs.
  uint64_t paced_after_uid_ = 0;
  int incarnations_ = 0;  // Times the ECB went from no connections to some.
  int cached_reuses_ = 0;
  std::vector<EnsembleMember*> skipped_owners_;  // OnAck's, kept for its capacity.
};

void EtcpEcb::Reset() {
  mutable_tcb().cwnd = config().InitialWindowBytes();
  mutable_tcb().ssthresh = config().initial_ssthresh;
  pacer().StopWindow();
  outstanding().Clear();
  has_state_ = false;
}

void EtcpEcb::OnJoined(EnsembleMember&) {
  if (members().size() != 1) return;  // §3.1 case 3, an active ECB: the newcomer simply joins.
  const bool existed = seen_before();
  ++incarnations_;
  if (has_state_ && scheme_.cache && Now() - cached_at_ <= scheme_.cache_lifetime) {
    // §3.1 case 2, a cached ECB: reuse its state, skip slow start, and pace the first packets
    // from the cached RTT and window until the ACK clock is going.
    ++cached_reuses_;
    mutable_tcb().ssthresh = std::min(tcb().ssthresh, tcb().cwnd);
    StartPacing();
  } else if (existed) {
    Reset();  // Expired (or caching is off): as new.
  }
}

void EtcpEcb::OnLeft(EnsembleMember&) {
  // §3.2: the last connection to close turns the ECB into a cached one.
  if (members().empty()) {
    cached_at_ = Now();
    pacer().StopWindow();
    outstanding().Clear();
  }
}

bool EtcpEcb::OnAck(EnsembleMember& m, const AckInfo& ack, bool new_data) {
  const SimTime now = Now();
  const Bytes flight_before = outstanding().bytes();
  // §3.3: "All ACK'ed packets are then removed from the list" (removed first here, so that the
  // packets this ACK covers do not count as skipped by it).
  outstanding().Acked(&m, ack.ack);
  if (new_data) {
    // Standard per-connection rules: a new ACK ends Reno's recovery (deflating the window once no
    // member is recovering) and resets the count.
    m.ClearDuplicates();
    m.LeaveRecovery();
    // §3.3: "An incoming ACK on any connection increases the aggregate cwnd" (by the window rule,
    // RFC 5681 AIMD by default), with cwnd validation only while the window is in use (RFC 7661
    // §4.3). The ensemble "will only be as aggressive as a single standard TCP connection", whose
    // window the receive window bounds, so the aggregate stops growing at one connection's
    // receive window.
    if (!config().cwnd_validation || WindowInUse(tcb(), flight_before)) IncreaseWindow(ack.newly_acked);
    mutable_tcb().cwnd = std::min(tcb().cwnd, config().receive_window);
    has_state_ = true;
    // §3.1: pacing lasts "until the acknowledgment (ACK) clock is going": an ACK for a paced packet
    // arrives while the window is full, so that from now on ACKs release packets, or the whole
    // window has been paced out (Pump). Stopping at the first such ACK with part of the window
    // unsent would send that part as one burst, which pacing is there to avoid (§4.2); that happens
    // whenever the cached srtt exceeds the current RTT.
    if (pacer().pacing_window() && ack.echo_uid > paced_after_uid_ && outstanding().bytes() + tcb().mss > tcb().cwnd) {
      pacer().StopWindow();
    }
  }
  // §3.3: every packet sent before the ACK'ed one counts a skipped ACK, and each connection with
  // such a packet counts one more duplicate ACK (once per ACK, as a real duplicate ACK would).
  outstanding().CountLaterAck(ack.echo_uid, now, &skipped_owners_);
  for (EnsembleMember* owner : skipped_owners_) owner->CountDuplicate();
  // "Standard TCP per-connection ACK rules are performed, which may trigger retransmits."
  for (EnsembleMember* member : std::vector<EnsembleMember*>(members())) {
    if (member->dupacks() >= config().dupack_threshold && !member->in_recovery() &&
        member->sender().flight_size() > 0) {
      FastRetransmit(*member);
    }
  }
  Record();
  Pump();
  return true;
}

void EtcpEcb::FastRetransmit(EnsembleMember& m) {
  const SimTime now = Now();
  SenderHandle& sender = m.sender();
  // The window rule's reduction (Reno's halving by default), applied to the aggregate (§3.3), once
  // per window of data: only a loss of a packet sent after the last reduction reduces again
  // (TCP-INT's decr_ts, which E-TCP adopts).
  SimTime lost_sent_at = now;
  for (const auto& e : outstanding().entries()) {
    if (e.owner == &m && e.seq == sender.snd_una()) lost_sent_at = e.sent_at;
  }
  if (lost_sent_at > last_decrease_ || last_decrease_ == SimTime::Zero()) {
    mutable_tcb().ssthresh = SsThreshAfterLoss(outstanding().bytes());
    mutable_tcb().cwnd = tcb().ssthresh;
    last_decrease_ = now;
  }
  m.EnterRecovery(sender.snd_max() - 1);
  // §3.3: a retransmission does not wait for the scheduler.
  sender.RetransmitNow(sender.snd_una());
}

void EtcpEcb::OnRetransmissionTimeout(EnsembleMember& m) {
  // Reno's timeout on the aggregate; §3.3: "If a retransmission timer expires, all packets are
  // removed from the list."
  mutable_tcb().ssthresh = SsThreshAfterLoss(outstanding().bytes());
  mutable_tcb().cwnd = tcb().mss;
  NoteTimeout();
  last_decrease_ = Now();
  outstanding().Clear();
  for (EnsembleMember* member : members()) {
    member->ClearDuplicates();
    member->LeaveRecovery();
  }
  // §3.3: "if a connection needs to retransmit a packet, it is given priority".
  m.GivePriority();
  Record();
}

void EtcpEcb::StartPacing() {
  if (!tcb().rtt.has_sample() || tcb().cwnd <= tcb().mss) return;  // Nothing to pace from.
  pacer().PaceWindow(Now(), SimTime::Nanoseconds(tcb().rtt.srtt().ns() * tcb().mss / tcb().cwnd),
                     (tcb().cwnd + tcb().mss - 1) / tcb().mss);
  paced_after_uid_ = last_sent_uid_;
}

bool EtcpEcb::AllHalfClosed() const {
  if (members().empty()) return false;
  for (const EnsembleMember* m : members()) {
    if (!m->half_closed()) return false;
  }
  return true;
}

// ---- The scheme --------------------------------------------------------------------------------

EtcpScheme::EtcpScheme(const SharingConfig& config, const SharingEnvironment& env)
    : EnsembleScheme(config, env) {}

EtcpScheme::~EtcpScheme() = default;

double EtcpScheme::InitialTickets(TicketPolicy policy, const ConnectionTraits& traits) {
  if (traits.tickets > 0) return traits.tickets;
  switch (policy) {
    case TicketPolicy::kFair: return 1;  // §4 "Fair: Each connection holds one ticket."
    case TicketPolicy::kDecay: return DecayedTickets(0);
    case TicketPolicy::kContent:
    case TicketPolicy::kHtmlPre:
      // §4 "Content-dependent: ... HTML 12, Java 6, image 3, FTP 1." Other content: 1.
      switch (traits.content) {
        case ContentType::kHtml: return 12;
        case ContentType::kJava: return 6;
        case ContentType::kImage: return 3;
        case ContentType::kFtp:
        case ContentType::kOther: return 1;
      }
  }
  return 1;
}

double EtcpScheme::DecayedTickets(int64_t packets_sent) {
  // §4 "Ticket decay: Connections start with 16 tickets. After sending the 5th, 10th, 20th and 40th
  // packet, half of a connection's tickets decay."
  double tickets = 16;
  for (int64_t threshold : {5, 10, 20, 40}) {
    if (packets_sent >= threshold) tickets /= 2;
  }
  return tickets;
}

std::unique_ptr<CongestionControl> EtcpScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                      const ConnectionContext& context) {
  EtcpEcb& ecb = GroupFor(config, context);
  auto member = std::make_unique<EnsembleMember>(ecb, sender, config, context.traits,
                                                 ecb.seen_before() && config_.handshake_avoidance);
  // §4 html-pre: "HTML-carrying connections hold an infinite number of tickets".
  const bool preempts = config_.tickets == TicketPolicy::kHtmlPre && context.traits.content == ContentType::kHtml;
  ecb.Join(*member, context.flow, InitialTickets(config_.tickets, context.traits), preempts);
  return member;
}

}  // namespace tcb
