// Careful Resume.
#include "sharing/careful_resume.h"

#include <algorithm>

#include "core/enum_names.h"
#include "sharing/path_observer.h"

namespace tcb {

namespace {
constexpr std::string_view kOutcomeNames[] = {"noSavedParameters", "expired", "inUse", "rttTooSmall", "pathChanged",
                                              "congestion", "nothingToGain", "rateLimited", "validated",
                                              "retreated", "timeout"};
static_assert(std::size(kOutcomeNames) == static_cast<size_t>(CarefulResumeScheme::Outcome::kCount));
}  // namespace

// The phase names are the series column's labels (trace/columns.json).
std::string_view CrPhaseName(CrPhase phase) { return EnumName(kTcpCrPhaseLabels, phase); }

class CarefulResumeScheme::Member final : public ForwardingControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, CarefulResumeScheme& scheme, uint64_t key, Entry& entry)
      : ForwardingControl(config, sender), scheme_(scheme), key_(key), entry_(entry) {
    const SimTime now = scheme_.env_.sim->Now();
    if (!entry_.saved) {
      Count(Outcome::kNoSavedParameters);
    } else if (now - entry_.saved->saved_at > scheme_.config_.cache_lifetime) {
      // §4.2 "Lifetime of saved CC parameters": expired parameters are deleted and not used.
      entry_.saved.reset();
      Count(Outcome::kExpired);
    } else {
      phase_ = CrPhase::kReconnaissance;
    }
  }
  ~Member() override {
    Release();
    entry_.group.Remove(this);
  }

  void OnEstablished(SimTime now, bool syn_lost) override {
    ForwardingControl::OnEstablished(now, syn_lost);
    // §4.2: Reconnaissance sends the initial window with normal CC; the path is confirmed once all
    // of it is acknowledged (data starts at sequence number 1).
    initial_data_end_ = 1 + config().InitialWindowBytes();
  }

  void OnSegmentSent(SimTime now, const SentSegment& segment) override {
    ForwardingControl::OnSegmentSent(now, segment);
    if (jump_ != nullptr) jump_->OnSegmentSent(now);
  }

  bool OnAck(SimTime now, const AckInfo& ack) override {
    const bool was_in_recovery = in_recovery();
    const bool restart = ForwardingControl::OnAck(now, ack);
    observer_.OnAck(now, ack.newly_acked, sent_log());
    AfterAck(now, ack, was_in_recovery);
    return restart;
  }

  void OnDuplicateAck(SimTime now, const AckInfo& ack) override {
    const bool was_in_recovery = in_recovery();
    ForwardingControl::OnDuplicateAck(now, ack);
    observer_.OnAck(now, 0, sent_log());
    AfterAck(now, ack, was_in_recovery);
  }

  void OnRetransmissionTimeout(SimTime now) override {
    ForwardingControl::OnRetransmissionTimeout(now);
    if (phase_ == CrPhase::kSafeRetreat) {
      // The jump's congestion was already detected and retreated from: a timeout while draining
      // ends Safe Retreat, with its ssthresh (§4.5: "On leaving the Safe Retreat Phase, the
      // ssthresh MUST be set to no larger than the most recently measured PipeSize * Beta").
      jump_->LeaveSafeRetreat();
      return Finish(retreat_reason_);
    }
    // §4.6: persistent congestion (an RTO) ends Careful Resume; saved parameters that a jump was
    // made with are not to be trusted again.
    if (phase_ == CrPhase::kUnvalidated || phase_ == CrPhase::kValidating) entry_.saved.reset();
    if (phase_ != CrPhase::kNormal) Finish(Outcome::kTimeout);
  }

  void OnRttSample(SimTime now, SimTime rtt) override {
    ForwardingControl::OnRttSample(now, rtt);
    observer_.OnRttSample(rtt);
    last_rtt_ = rtt;
    if (phase_ != CrPhase::kUnvalidated) return;
    jump_->OnRttSample();
    if (entry_.saved) {
      // §4.3 "Confirming the path during transmission" with §5.2's bounds: an RTT below half or
      // above ten times saved_rtt means the path changed.
      if (rtt <= entry_.saved->saved_rtt / 2 || rtt > entry_.saved->saved_rtt * 10) {
        EnterSafeRetreat(now, Outcome::kPathChanged);
      }
    }
  }

  void OnClosed(SimTime now) override {
    ForwardingControl::OnClosed(now);
    // §4.1 Observing: the capacity used (bytes acknowledged in one RTT) and the minimum RTT are
    // saved for the endpoint; a capacity under four initial windows is not worth resuming.
    if (observer_.has_rtt() && observer_.bytes_per_rtt() >= 4 * config().InitialWindowBytes()) {
      scheme_.Save(key_, SavedPath{observer_.bytes_per_rtt(), observer_.min_rtt(), now, false});
    }
    Release();
    entry_.group.Remove(this);
  }

  void DescribeState(TcpSeriesRow& row) const override {
    ForwardingControl::DescribeState(row);
    row.cr_phase = static_cast<uint8_t>(phase_);
  }

  CrPhase phase() const { return phase_; }

 private:
  // How the jump is taken, paced, validated and retreated from, after the phases before it
  // (Reconnaissance, the checks of §4.2), which are the same for every window rule.
  class Jump {
   public:
    explicit Jump(Member& m) : m_(m) {}
    virtual ~Jump() = default;
    virtual void OnSegmentSent(SimTime) {}
    virtual void OnRttSample() {}
    // An ACK in the Unvalidated, Validating or Safe Retreat Phase; `congestion`: it started loss
    // recovery.
    virtual void AfterAck(SimTime now, const AckInfo& ack, bool congestion) = 0;
    // The Safe Retreat Phase begins (the saved parameters are already deleted).
    virtual void Retreat() = 0;
    // The Safe Retreat Phase ends: its acknowledgements, or a timeout while draining.
    virtual void LeaveSafeRetreat() {}
    // The scheme's pacing rate in `phase`, in bits per second; 0 leaves pacing to the connection.
    virtual double PacingRateBps(CrPhase) const { return 0; }

   protected:
    Member& m_;
  };
  class WindowJump;
  class RateJump;

  void Count(Outcome outcome) { ++entry_.outcomes[static_cast<size_t>(outcome)]; }

  // Enters `phase`, with the jump's pacing in it.
  void SetPhase(CrPhase phase) {
    phase_ = phase;
    SetSchemePacingRate(jump_ != nullptr ? jump_->PacingRateBps(phase) : 0);
  }

  // Leaves Careful Resume for normal CC.
  void Finish(Outcome outcome) {
    Count(outcome);
    SetPhase(CrPhase::kNormal);
    Release();
    // §4.6: once no longer using Careful Resume, the sender may start observing the path afresh.
    if (jumped_) observer_ = PathObserver();
  }
  void Release() {
    if (holds_saved_ && entry_.saved) entry_.saved->in_use = false;
    holds_saved_ = false;
  }

  void AfterAck(SimTime now, const AckInfo& ack, bool was_in_recovery) {
    const bool congestion = !was_in_recovery && in_recovery();
    switch (phase_) {
      case CrPhase::kNormal:
        return;
      case CrPhase::kReconnaissance:
        if (congestion) return Finish(Outcome::kCongestion);  // §4.2 "Detected congestion".
        if (ack.ack >= initial_data_end_) ConfirmPath(now);
        return;
      default:
        return jump_->AfterAck(now, ack, congestion);
    }
  }

  // §4.2 "Path confirmed": every check, then the jump when there is data to use it.
  void ConfirmPath(SimTime now);

  // §4.5: the jump met congestion: delete the saved parameters and retreat as the jump's kind does.
  void EnterSafeRetreat(SimTime, Outcome reason) {
    retreat_reason_ = reason;
    entry_.saved.reset();
    holds_saved_ = false;
    jump_->Retreat();
    SetPhase(CrPhase::kSafeRetreat);
  }

  // §4.3-§4.5 "Tracking PipeSize": PipeSize starts at the flight_size of the jump and grows by the
  // unvalidated data each ACK acknowledges: Appendix B's example, where 29 packets are in flight at
  // the jump and "the first 34 unvalidated packets" are acknowledged, has "PipeSize ... equal to 63
  // (29 + 34)". The acknowledgements of what was in flight before the jump are already counted.
  void TrackPipeSize(const AckInfo& ack) {
    const SeqNo from = std::max(ack.ack - ack.newly_acked, first_unvalidated_);
    if (ack.ack > from) pipe_size_ += ack.ack - from;
  }

  // §5.4: the Unvalidated Phase paces jump_cwnd per current RTT (ITT = RTT x MPS / jump_cwnd).
  double UnvalidatedRateBps() const {
    const SimTime rtt = CurrentRtt();
    return rtt > SimTime::Zero() ? static_cast<double>(jump_cwnd_) * 8 / rtt.seconds() : 0;
  }
  // "current RTT: a sample measurement of the current RTT measured using the most recent ACK".
  SimTime CurrentRtt() const { return last_rtt_ > SimTime::Zero() ? last_rtt_ : tcb().rtt.srtt(); }

  CarefulResumeScheme& scheme_;
  uint64_t key_;
  Entry& entry_;
  CrPhase phase_ = CrPhase::kNormal;
  std::unique_ptr<Jump> jump_;  // Set by the jump (ConfirmPath()).
  PathObserver observer_;
  SimTime last_rtt_;
  SeqNo initial_data_end_ = 0;
  bool holds_saved_ = false;
  bool jumped_ = false;
  Bytes jump_cwnd_ = 0;
  Bytes pipe_size_ = 0;
  SeqNo first_unvalidated_ = 0;
  SeqNo last_unvalidated_ = 0;
  SimTime unvalidated_since_;
  Outcome retreat_reason_ = Outcome::kRetreated;
};

// RFC 9959 §4.3-§4.5 for a window rule that leaves its window to the connection (Reno, CUBIC): cwnd
// = jump_cwnd, paced at jump_cwnd per current RTT; the phases end on the events the RFC lists.
class CarefulResumeScheme::Member::WindowJump final : public Jump {
 public:
  using Jump::Jump;

  void OnSegmentSent(SimTime now) override {
    if (m_.phase_ != CrPhase::kUnvalidated) return;
    // §4.3 "Completed sending all unvalidated packets": the jump window is full (less than one
    // segment of it unused); or "Limiting time in the Unvalidated Phase", which Appendix B's first
    // example checks "each time a packet is sent", so that a rate-limited sender leaves the phase
    // after one RTT although no ACK arrives to tell it.
    if (m_.flight_size() + m_.config().mss > m_.tcb().cwnd || now - m_.unvalidated_since_ > m_.CurrentRtt()) {
      EndUnvalidated(now);
    }
  }

  void OnRttSample() override {
    // §4.3 "Pacing transmission": the pacing rate follows the current RTT.
    m_.SetSchemePacingRate(m_.UnvalidatedRateBps());
  }

  double PacingRateBps(CrPhase phase) const override {
    // §4.3 "Pacing transmission": every packet sent in the Unvalidated Phase is paced at jump_cwnd
    // per current RTT, by the connection's one pacing clock.
    return phase == CrPhase::kUnvalidated ? m_.UnvalidatedRateBps() : 0;
  }

  void AfterAck(SimTime now, const AckInfo& ack, bool congestion) override {
    Tcb& tcb = m_.tcb();
    switch (m_.phase_) {
      case CrPhase::kUnvalidated:
        if (congestion) return m_.EnterSafeRetreat(now, Outcome::kRetreated);  // §4.3 "Detected congestion".
        m_.TrackPipeSize(ack);
        // Appendix A: in the Unvalidated Phase "CWND is not increased": the jump window stays as
        // it is whatever the window rule's own growth (slow start) made of this ACK.
        tcb.cwnd = m_.jump_cwnd_;
        // §4.3: an ACK for the first unvalidated packet, or more than one RTT in the phase, ends it.
        if (ack.ack > m_.first_unvalidated_ || now - m_.unvalidated_since_ > m_.CurrentRtt()) EndUnvalidated(now);
        return;
      case CrPhase::kValidating:
        if (congestion) return m_.EnterSafeRetreat(now, Outcome::kRetreated);  // §4.4 "Detected congestion".
        m_.TrackPipeSize(ack);  // §4.4; cwnd grows by normal CC.
        // §4.4: the last unvalidated packet acknowledged without congestion: done.
        if (ack.ack > m_.last_unvalidated_) m_.Finish(Outcome::kValidated);
        return;
      case CrPhase::kSafeRetreat:
        m_.TrackPipeSize(ack);  // §4.5.
        tcb.cwnd = std::min(tcb.cwnd, retreat_cwnd_);  // §4.5 "Maintaining CWND".
        if (ack.ack > m_.last_unvalidated_) {
          LeaveSafeRetreat();
          m_.Finish(m_.retreat_reason_);
        }
        return;
      default:
        return;
    }
  }

  // §4.5: "the ssthresh MUST be set to no larger than the most recently measured PipeSize * Beta":
  // the smaller of the ssthresh that loss recovery or a timeout set and PipeSize * Beta (at least
  // two segments, RFC 5681's least ssthresh).
  void LeaveSafeRetreat() override {
    const auto bound = static_cast<Bytes>(static_cast<double>(m_.pipe_size_) * m_.scheme_.config_.cr_beta);
    m_.tcb().ssthresh = std::min(m_.tcb().ssthresh, std::max(bound, 2 * m_.config().mss));
  }

  // §4.5: cwnd = PipeSize / 2 (at least two segments, as QUIC's minimum window), kept there until
  // the unvalidated packets are acknowledged.
  void Retreat() override {
    retreat_cwnd_ = std::max(m_.pipe_size_ / 2, 2 * m_.config().mss);
    m_.tcb().cwnd = std::min(m_.tcb().cwnd, retreat_cwnd_);
    // Loss recovery lasts until the last packet sent in the Unvalidated or Validating Phase is
    // acknowledged.
    m_.last_unvalidated_ = m_.sender().snd_max() - 1;
  }

 private:
  // §4.3 "Check flight_size", on any of the events that end the Unvalidated Phase.
  void EndUnvalidated(SimTime) {
    const Bytes flight = m_.flight_size();
    m_.last_unvalidated_ = m_.sender().snd_max() - 1;
    if (flight < m_.config().InitialWindowBytes() || flight <= m_.pipe_size_) {
      // Rate-limited: the jump was not used. cwnd = PipeSize, never below IW without congestion.
      m_.tcb().cwnd = std::max(m_.pipe_size_, m_.config().InitialWindowBytes());
      return m_.Finish(Outcome::kRateLimited);
    }
    m_.tcb().cwnd = flight;
    m_.SetPhase(CrPhase::kValidating);
  }

  Bytes retreat_cwnd_ = 0;
};

// RFC 9959 Appendix C for a rule that sizes its own window (BBR): the Unvalidated Phase is the
// first round of "carefully resuming", the Validating Phase the second (C.2: the rule's own rules
// for leaving Startup validate the rate), and Safe Retreat is the rule's Drain entered while the
// flag is still set (C.3).
class CarefulResumeScheme::Member::RateJump final : public Jump {
 public:
  using Jump::Jump;

  void AfterAck(SimTime now, const AckInfo& ack, bool congestion) override {
    m_.TrackPipeSize(ack);
    const RateResumption state = m_.rate_resumption();
    if (m_.phase_ != CrPhase::kSafeRetreat && (congestion || state == RateResumption::kDraining)) {
      return m_.EnterSafeRetreat(now, Outcome::kRetreated);
    }
    switch (m_.phase_) {
      case CrPhase::kUnvalidated:
        // The first unvalidated packet is acknowledged: the round the jump started is over.
        if (state == RateResumption::kFirstRound) return;
        // §4.3 "Check flight_size", which Appendix C leaves as it is: a sender that did not use
        // the jump stops carefully resuming (the rule's window follows its own model).
        if (m_.flight_size() < m_.config().InitialWindowBytes() || m_.flight_size() <= m_.pipe_size_) {
          m_.EndRateResumption(/*retreat=*/false);
          return m_.Finish(Outcome::kRateLimited);
        }
        m_.last_unvalidated_ = m_.sender().snd_max() - 1;
        m_.SetPhase(CrPhase::kValidating);
        return;
      case CrPhase::kValidating:
        // C.1: the flag is reset two rounds after it was set, "i.e., after all the packets sent in
        // the first round of 'carefully resuming' have been received and acknowledged": whichever
        // the rule's round count or the ACK of the last of them shows first (a sender with nothing
        // more to send ends no further round). Without congestion: validated.
        if (state != RateResumption::kOff && ack.ack > m_.last_unvalidated_) m_.EndRateResumption(/*retreat=*/false);
        if (m_.rate_resumption() == RateResumption::kOff) m_.Finish(Outcome::kValidated);
        return;
      case CrPhase::kSafeRetreat:
        // C.3: "This flag is cleared upon exiting the Drain state."
        if (state == RateResumption::kOff) m_.Finish(m_.retreat_reason_);
        return;
      default:
        return;
    }
  }

  // Appendix C.3: Safe Retreat is Drain while the flag is set; the rule's window follows its model,
  // not PipeSize (an immediate exit if the rule no longer resumes).
  void Retreat() override { m_.EndRateResumption(/*retreat=*/true); }
};

void CarefulResumeScheme::Member::ConfirmPath(SimTime now) {
  const SavedPath& saved = *entry_.saved;
  if (observer_.has_rtt() && observer_.min_rtt() <= saved.saved_rtt / 2) return Finish(Outcome::kRttTooSmall);
  if (observer_.has_rtt() && observer_.min_rtt() > saved.saved_rtt * 10) return Finish(Outcome::kPathChanged);
  // §5.2 "rate-limited": without more data than cwnd allows there is nothing to jump with; stay
  // in Reconnaissance until there is.
  if (sender().unsent_bytes() <= std::max<Bytes>(tcb().cwnd - flight_size(), 0)) return;
  if (saved.in_use) return Finish(Outcome::kInUse);  // §4.2 "Using saved_cwnd".
  // §4.3: jump_cwnd = min(max_jump, saved_cwnd / 2); PipeSize starts at flight_size.
  jump_cwnd_ = saved.saved_cwnd / 2;
  if (scheme_.config_.cr_max_jump > 0) jump_cwnd_ = std::min(jump_cwnd_, scheme_.config_.cr_max_jump);
  // The window rule takes the jump: a rule that leaves its window to the connection jumps to
  // jump_cwnd, paced here; one that sizes its own (BBR) paces at the probing rate, jump_cwnd per
  // current RTT, which Appendix C.1 calls "1/2 of the bottleneck bandwidth, derived from the CWND
  // calculation specified in the saved CC parameters" (on an unchanged path, saved_cwnd / 2 per
  // saved_rtt), and jumps only from Startup and only to a rate above its own.
  NetworkParams params;
  params.bandwidth = UnvalidatedRateBps() / 8;
  params.rtt = saved.saved_rtt;
  params.window = jump_cwnd_;
  params.careful = true;
  switch (AdjustNetworkParameters(params)) {
    case Resumption::kNone:
      return Finish(Outcome::kNothingToGain);
    case Resumption::kWindow:
      jump_ = std::make_unique<WindowJump>(*this);
      break;
    case Resumption::kRate:
      jump_ = std::make_unique<RateJump>(*this);
      break;
  }
  entry_.saved->in_use = true;
  holds_saved_ = true;
  jumped_ = true;
  pipe_size_ = flight_size();
  first_unvalidated_ = sender().snd_nxt();
  unvalidated_since_ = now;
  SetPhase(CrPhase::kUnvalidated);
}

std::unique_ptr<CongestionControl> CarefulResumeScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                               const ConnectionContext& context) {
  const uint64_t key = GroupKey(config_.scope, context);
  Entry& entry = EntryFor(key, context);
  return Join(entry, std::make_unique<Member>(config, sender, *this, key, entry), context.flow);
}

const SavedPath* CarefulResumeScheme::Saved(uint64_t key) const {
  const Entry* e = FindEntry(key);
  return e != nullptr && e->saved ? &*e->saved : nullptr;
}

void CarefulResumeScheme::Save(uint64_t key, const SavedPath& path) {
  // §4.1 "Updating saved CC parameters": one set per endpoint, replaced by a later observation; a
  // set in use by a resuming connection stays in use.
  Entry& e = EntryAt(key);
  const bool in_use = e.saved && e.saved->in_use;
  e.saved = path;
  e.saved->in_use = in_use;
}

void CarefulResumeScheme::DescribeEntry(const Entry& e, nlohmann::json& group) const {
  nlohmann::json outcomes = nlohmann::json::object();
  for (size_t i = 0; i < std::size(kOutcomeNames); ++i) outcomes[std::string(kOutcomeNames[i])] = e.outcomes[i];
  group["carefulResume"] = outcomes;
}

}  // namespace tcb
