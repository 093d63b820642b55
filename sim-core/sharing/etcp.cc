// Ensemble-TCP.
#include "sharing/etcp.h"

#include <algorithm>

namespace tcb {

// ---- The ensemble control block ----------------------------------------------------------------

class EtcpScheme::Ecb final : public EventSource {
 public:
  Ecb(const SharingConfig& scheme, const SharingEnvironment& env, std::string key,
      const TcpConfig& config)
      : scheme_(scheme),
        env_(env),
        key_(std::move(key)),
        mss_(config.mss),
        receive_window_(config.receive_window),
        initial_window_(config.InitialWindowBytes()),
        initial_ssthresh_(config.initial_ssthresh),
        dupthresh_(config.dupack_threshold),
        cwnd_validation_(config.cwnd_validation),
        rtt_(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto) {
    if (env_.recorder != nullptr) id_ = env_.recorder->RegisterGroup("etcp " + key_);
    Reset();
  }

  // §3.1 case 1: "initialized to the same values they would have for a new standard TCB".
  void Reset() {
    cwnd_ = initial_window_;
    ssthresh_ = initial_ssthresh_;
    pacing_ = false;
    outstanding_.Clear();
    has_state_ = false;
  }

  // Whether the ECB existed before (active or cached): what handshake avoidance needs (§5: the
  // T/TCP connection cache lives in the ECB).
  bool seen_before() const { return incarnations_ > 0; }
  void Join(Member* m, FlowId flow, double tickets, bool preempts);
  void Leave(Member* m);
  void Sent(Member* m, const SentSegment& s);
  void Ack(Member* m, const AckInfo& ack, bool new_data);
  void Timeout(Member* m);
  void IdleRestart();
  void AddRttSample(SimTime rtt) {
    rtt_.AddSample(rtt);
    has_state_ = true;
    Record();
  }
  // Hands send opportunities to members in scheduler order while the window (and pacing) allow.
  void Pump();
  void OnEvent() override { Pump(); }  // The pacing timer.

  Bytes cwnd() const { return cwnd_; }
  Bytes ssthresh() const { return ssthresh_; }
  const RttEstimator& rtt() const { return rtt_; }
  Bytes in_flight() const { return outstanding_.bytes(); }
  bool pacing() const { return pacing_; }
  // One MSS every pace interval while pacing, else 0.
  double pacing_rate_bps() const {
    return pacing_ && pace_interval_.ns() > 0 ? static_cast<double>(mss_) * 8.0 / pace_interval_.seconds() : 0.0;
  }
  double total_tickets() const;
  nlohmann::json Describe() const;
  StrideScheduler<Member>& scheduler() { return scheduler_; }

 private:
  // Pacing spreads one window over one RTT: a packet every srtt / (cwnd / mss).
  void StartPacing();
  bool AllHalfClosed() const;
  void FastRetransmit(Member* m);
  void Record() const;

  const SharingConfig& scheme_;
  SharingEnvironment env_;
  std::string key_;
  int32_t id_ = -1;
  Bytes mss_;
  Bytes receive_window_;
  Bytes initial_window_;
  Bytes initial_ssthresh_;
  int dupthresh_;
  bool cwnd_validation_;

  // Fig. 1: aggregate congestion and RTT state, the outstanding list, the members, the pacing flag.
  Bytes cwnd_ = 0;
  Bytes ssthresh_ = 0;
  RttEstimator rtt_;
  OutstandingList<Member> outstanding_;
  std::vector<Member*> members_;
  StrideScheduler<Member> scheduler_;
  bool pacing_ = false;
  SimTime pace_interval_;
  SimTime next_paced_send_;
  uint64_t paced_from_uid_ = 0;  // ACKs for packets after this one mean the ACK clock runs.
  Bytes paced_left_ = 0;         // Of the window being paced out.

  bool has_state_ = false;  // Measured anything worth caching.
  SimTime cached_at_;
  SimTime last_decrease_;   // TCP-INT's decr_ts: one window reduction per window of data.
  uint64_t last_sent_uid_ = 0;
  bool pumping_ = false;

  std::vector<FlowId> flows_;
  int incarnations_ = 0;  // Times the ECB went from no connections to some.
  int cached_reuses_ = 0;
};

// ---- A member connection -----------------------------------------------------------------------

class EtcpScheme::Member final : public CongestionControl {
 public:
  Member(Ecb& ecb, SenderHandle& sender, const SharingConfig& scheme, const ConnectionTraits& traits,
         bool ecb_existed)
      : ecb_(ecb), sender_(sender), scheme_(scheme), traits_(traits), ecb_existed_(ecb_existed) {}

  void OnEstablished(SimTime, bool) override { established_ = true; }
  void OnSendStart(SimTime, bool first, Bytes) override {
    // §3.1: "E-TCP will also use pacing during slow-start restart".
    if (!first) ecb_.IdleRestart();
  }
  void OnSegmentSent(SimTime, const SentSegment& s) override { ecb_.Sent(this, s); }
  bool OnAck(SimTime, const AckInfo& ack) override {
    ecb_.Ack(this, ack, true);
    return true;
  }
  void OnDuplicateAck(SimTime, const AckInfo& ack) override { ecb_.Ack(this, ack, false); }
  void OnRetransmissionTimeout(SimTime) override { ecb_.Timeout(this); }
  void OnRttSample(SimTime, SimTime rtt) override { ecb_.AddRttSample(rtt); }
  void OnClosed(SimTime) override { ecb_.Leave(this); }
  // Members never send on their own: the ensemble scheduler pulls their segments (§3.4).
  bool CanSend(Bytes) override {
    ecb_.Pump();
    return false;
  }
  bool AvoidsHandshake() const override { return ecb_existed_ && scheme_.handshake_avoidance; }

  // A member's window is its share of the ensemble's, by tickets (for the outputs).
  Bytes cwnd() const override {
    const double total = ecb_.total_tickets();
    return total > 0 ? static_cast<Bytes>(static_cast<double>(ecb_.cwnd()) * tickets_ / total) : ecb_.cwnd();
  }
  Bytes ssthresh() const override { return ecb_.ssthresh(); }
  // Like the window, the ensemble's pacing rate is shown as this member's share of it.
  double pacing_rate_bps() const override {
    const double total = ecb_.total_tickets();
    return total > 0 ? ecb_.pacing_rate_bps() * tickets_ / total : ecb_.pacing_rate_bps();
  }
  const RttEstimator& rtt() const override { return ecb_.rtt(); }
  bool in_recovery() const override { return in_recovery_; }

  bool ready() const { return established_ && sender_.NextSegmentBytes() > 0; }
  bool half_closed() const { return sender_.write_closed() && sender_.unsent_bytes() == 0; }
  void OnGranted() {
    ++packets_sent_;
    if (scheme_.tickets == TicketPolicy::kDecay && traits_.tickets <= 0) {
      tickets_ = DecayedTickets(packets_sent_);
      ecb_.scheduler().SetTickets(this, tickets_);
    }
  }

  SenderHandle& sender_handle() { return sender_; }
  int dupacks_ = 0;
  bool in_recovery_ = false;
  bool retransmit_first_ = false;  // After a timeout: its next segment skips the scheduler.
  double tickets_ = 1;

 private:
  Ecb& ecb_;
  SenderHandle& sender_;
  const SharingConfig& scheme_;
  ConnectionTraits traits_;
  bool ecb_existed_;
  bool established_ = false;
  int64_t packets_sent_ = 0;
};

// ---- Ecb methods -------------------------------------------------------------------------------

double EtcpScheme::Ecb::total_tickets() const {
  double total = 0;
  for (const Member* m : members_) total += m->tickets_;
  return total;
}

void EtcpScheme::Ecb::Join(Member* m, FlowId flow, double tickets, bool preempts) {
  const bool existed = seen_before();
  const SimTime now = env_.sim->Now();
  if (members_.empty()) {
    ++incarnations_;
    if (has_state_ && scheme_.cache && now - cached_at_ <= scheme_.cache_lifetime) {
      // §3.1 case 2, a cached ECB: reuse its state, skip slow start, and pace the first packets
      // from the cached RTT and window until the ACK clock is going.
      ++cached_reuses_;
      ssthresh_ = std::min(ssthresh_, cwnd_);
      StartPacing();
    } else if (existed) {
      Reset();  // Expired (or caching is off): as new.
    }
  }
  // §3.1 case 3, an active ECB: the newcomer simply joins; pacing and the list are unchanged.
  members_.push_back(m);
  flows_.push_back(flow);
  m->tickets_ = tickets;
  scheduler_.Add(m, tickets, preempts);
  Record();
}

void EtcpScheme::Ecb::Leave(Member* m) {
  members_.erase(std::remove(members_.begin(), members_.end(), m), members_.end());
  scheduler_.Remove(m);
  outstanding_.RemoveOwner(m);
  // §3.2: the last connection to close turns the ECB into a cached one.
  if (members_.empty()) {
    cached_at_ = env_.sim->Now();
    pacing_ = false;
    outstanding_.Clear();
  }
  Record();
  Pump();
}

void EtcpScheme::Ecb::Sent(Member* m, const SentSegment& s) {
  // §3.3: appended to the list with a zero skipped-ACK counter; a retransmission moves to the end.
  outstanding_.Sent(m, s.seq, s.bytes, s.uid, env_.sim->Now());
  last_sent_uid_ = s.uid;
  Record();
}

void EtcpScheme::Ecb::Ack(Member* m, const AckInfo& ack, bool new_data) {
  const SimTime now = env_.sim->Now();
  const Bytes flight_before = outstanding_.bytes();
  // §3.3: "All ACK'ed packets are then removed from the list" (removed first here, so that the
  // packets this ACK covers do not count as skipped by it).
  outstanding_.Acked(m, ack.ack);
  if (new_data) {
    // Standard per-connection rules: a new ACK ends Reno's recovery (deflating the window once no
    // member is recovering) and resets the count.
    m->dupacks_ = 0;
    m->in_recovery_ = false;
    // §3.3: "An incoming ACK on any connection increases the aggregate cwnd" (RFC 5681 AIMD on
    // the aggregate), with cwnd validation only while the window is in use (RFC 7661 §4.3). The
    // ensemble "will only be as aggressive as a single standard TCP connection", whose window the
    // receive window bounds, so the aggregate stops growing at one connection's receive window.
    if (!cwnd_validation_ || flight_before + mss_ >= cwnd_) {
      if (cwnd_ < ssthresh_) {
        cwnd_ += std::min(ack.newly_acked, mss_);
      } else {
        cwnd_ += std::max<Bytes>(1, mss_ * mss_ / cwnd_);
      }
    }
    cwnd_ = std::min(cwnd_, receive_window_);
    has_state_ = true;
    // §3.1: pacing lasts "until the acknowledgment (ACK) clock is going": an ACK for a paced packet
    // arrives while the window is full, so that from now on ACKs release packets, or the whole
    // window has been paced out (Pump). Stopping at the first such ACK with part of the window
    // unsent would send that part as one burst, which pacing is there to avoid (§4.2); that happens
    // whenever the cached srtt exceeds the current RTT.
    if (pacing_ && ack.echo_uid > paced_from_uid_ && outstanding_.bytes() + mss_ > cwnd_) {
      pacing_ = false;
    }
  }
  // §3.3: every packet sent before the ACK'ed one counts a skipped ACK, and each connection with
  // such a packet counts one more duplicate ACK (once per ACK, as a real duplicate ACK would).
  for (Member* owner : outstanding_.CountLaterAck(ack.echo_uid, now)) ++owner->dupacks_;
  // "Standard TCP per-connection ACK rules are performed, which may trigger retransmits."
  for (Member* member : std::vector<Member*>(members_)) {
    if (member->dupacks_ >= dupthresh_ && !member->in_recovery_ &&
        member->sender_handle().flight_size() > 0) {
      FastRetransmit(member);
    }
  }
  Record();
  Pump();
}

void EtcpScheme::Ecb::FastRetransmit(Member* m) {
  const SimTime now = env_.sim->Now();
  SenderHandle& sender = m->sender_handle();
  // Reno's halving, applied to the aggregate (§3.3), once per window of data: only a loss of a
  // packet sent after the last reduction reduces again (TCP-INT's decr_ts, which E-TCP adopts).
  SimTime lost_sent_at = now;
  for (const auto& e : outstanding_.entries()) {
    if (e.owner == m && e.seq == sender.snd_una()) lost_sent_at = e.sent_at;
  }
  if (lost_sent_at > last_decrease_ || last_decrease_ == SimTime::Zero()) {
    ssthresh_ = std::max(outstanding_.bytes() / 2, 2 * mss_);
    cwnd_ = ssthresh_;
    last_decrease_ = now;
  }
  m->in_recovery_ = true;
  // §3.3: a retransmission does not wait for the scheduler.
  sender.RetransmitNow(sender.snd_una());
}

void EtcpScheme::Ecb::Timeout(Member* m) {
  // Reno's timeout on the aggregate; §3.3: "If a retransmission timer expires, all packets are
  // removed from the list."
  ssthresh_ = std::max(outstanding_.bytes() / 2, 2 * mss_);
  cwnd_ = mss_;
  last_decrease_ = env_.sim->Now();
  outstanding_.Clear();
  for (Member* member : members_) {
    member->dupacks_ = 0;
    member->in_recovery_ = false;
  }
  // §3.3: "if a connection needs to retransmit a packet, it is given priority".
  m->retransmit_first_ = true;
  Record();
}

void EtcpScheme::Ecb::IdleRestart() {
  if (outstanding_.empty()) StartPacing();
}

void EtcpScheme::Ecb::StartPacing() {
  if (!rtt_.has_sample() || cwnd_ <= mss_) return;  // Nothing to pace from.
  pacing_ = true;
  paced_left_ = cwnd_;
  pace_interval_ = SimTime::Nanoseconds(rtt_.srtt().ns() * mss_ / cwnd_);
  next_paced_send_ = env_.sim->Now();
  paced_from_uid_ = last_sent_uid_;
}

bool EtcpScheme::Ecb::AllHalfClosed() const {
  if (members_.empty()) return false;
  for (const Member* m : members_) {
    if (!m->half_closed()) return false;
  }
  return true;
}

void EtcpScheme::Ecb::Pump() {
  if (pumping_) return;
  pumping_ = true;
  // §4.2: when every member is half-closed, pacing keeps a newcomer from bursting a whole window.
  if (scheme_.pace_half_closed && !pacing_ && AllHalfClosed() && !outstanding_.empty()) StartPacing();
  const SimTime now = env_.sim->Now();
  while (outstanding_.bytes() + mss_ <= cwnd_) {
    if (pacing_ && now < next_paced_send_) {
      env_.sim->events().Schedule(*this, next_paced_send_);
      break;
    }
    Member* m = nullptr;
    for (Member* c : members_) {
      if (c->retransmit_first_ && c->ready()) m = c;
    }
    if (m != nullptr) {
      m->retransmit_first_ = false;
    } else {
      m = scheduler_.Next([](Member* c) { return c->ready(); });
    }
    if (m == nullptr) break;
    if (m->sender_handle().SendNewSegment() == 0) continue;
    m->OnGranted();
    if (pacing_) {
      next_paced_send_ = now + pace_interval_;
      paced_left_ -= mss_;
      if (paced_left_ <= 0) pacing_ = false;
    }
  }
  pumping_ = false;
}

void EtcpScheme::Ecb::Record() const {
  if (env_.recorder == nullptr || !env_.recorder->series()) return;
  env_.recorder->RecordGroup(env_.sim->Now(), id_, cwnd_, ssthresh_, rtt_.srtt(), rtt_.rttvar(),
                             outstanding_.bytes(), static_cast<int32_t>(members_.size()));
}

nlohmann::json EtcpScheme::Ecb::Describe() const {
  return {{"id", id_},
          {"scheme", "etcp"},
          {"key", key_},
          {"flows", flows_},
          {"incarnations", incarnations_},
          {"cachedReuses", cached_reuses_}};
}

// ---- The scheme --------------------------------------------------------------------------------

EtcpScheme::EtcpScheme(const SharingConfig& config, const SharingEnvironment& env)
    : config_(config), env_(env) {}

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
  const uint64_t key = GroupKey(config_.scope, context);
  auto it = ecbs_.find(key);
  if (it == ecbs_.end()) {
    it = ecbs_.emplace(key, std::make_unique<Ecb>(config_, env_, DescribeGroupKey(config_.scope, context), config)).first;
  }
  Ecb& ecb = *it->second;
  const double tickets = InitialTickets(config_.tickets, context.traits);
  // §4 html-pre: "HTML-carrying connections hold an infinite number of tickets".
  const bool preempts = config_.tickets == TicketPolicy::kHtmlPre && context.traits.content == ContentType::kHtml;
  auto member = std::make_unique<Member>(ecb, sender, config_, context.traits, ecb.seen_before());
  ecb.Join(member.get(), context.flow, tickets, preempts);
  return member;
}

void EtcpScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [key, ecb] : ecbs_) groups.push_back(ecb->Describe());
}

}  // namespace tcb
