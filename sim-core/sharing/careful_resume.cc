// Careful Resume.
#include "sharing/careful_resume.h"

#include <algorithm>

#include "core/enum_names.h"
#include "sharing/path_observer.h"
#include "tcp/bbr.h"

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
      : ForwardingControl(config, sender),
        scheme_(scheme),
        key_(key),
        entry_(entry),
        bbr_(dynamic_cast<BbrOps*>(&ops())) {
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
    // §4.3 "Completed sending all unvalidated packets": the jump window is full (less than one
    // segment of it unused). (Over BBR, rounds delimit the phases: Appendix C.)
    if (phase_ == CrPhase::kUnvalidated && bbr_ == nullptr && flight_size() + config().mss > tcb().cwnd) {
      EndUnvalidated(now);
    }
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
    // §4.6: persistent congestion (an RTO) ends Careful Resume; saved parameters that a jump was
    // made with are not to be trusted again.
    if (phase_ == CrPhase::kUnvalidated || phase_ == CrPhase::kValidating || phase_ == CrPhase::kSafeRetreat) {
      entry_.saved.reset();
    }
    if (phase_ != CrPhase::kNormal) Finish(Outcome::kTimeout);
  }

  void OnRttSample(SimTime now, SimTime rtt) override {
    ForwardingControl::OnRttSample(now, rtt);
    observer_.OnRttSample(rtt);
    last_rtt_ = rtt;
    // §4.3 "Pacing transmission": the pacing rate follows the current RTT.
    if (phase_ == CrPhase::kUnvalidated && bbr_ == nullptr) SetSchemePacingRate(UnvalidatedRateBps());
    if (phase_ == CrPhase::kUnvalidated && entry_.saved) {
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
  void Count(Outcome outcome) { ++entry_.outcomes[static_cast<size_t>(outcome)]; }

  // Enters `phase`. §4.3 "Pacing transmission": every packet sent in the Unvalidated Phase is
  // paced at jump_cwnd per current RTT, by the connection's one pacing clock (over BBR, by BBR's
  // own pacing rate: Appendix C.1).
  void SetPhase(CrPhase phase) {
    phase_ = phase;
    SetSchemePacingRate(phase == CrPhase::kUnvalidated && bbr_ == nullptr ? UnvalidatedRateBps() : 0);
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
    if (bbr_ != nullptr && phase_ != CrPhase::kNormal && phase_ != CrPhase::kReconnaissance) {
      return AfterAckBbr(now, ack, congestion);
    }
    switch (phase_) {
      case CrPhase::kNormal:
        return;
      case CrPhase::kReconnaissance:
        if (congestion) return Finish(Outcome::kCongestion);  // §4.2 "Detected congestion".
        if (ack.ack >= initial_data_end_) ConfirmPath(now);
        return;
      case CrPhase::kUnvalidated:
        if (congestion) return EnterSafeRetreat(now, Outcome::kRetreated);  // §4.3 "Detected congestion".
        // §4.3 "Tracking PipeSize" and the jump window held while unvalidated.
        pipe_size_ += ack.newly_acked;
        tcb().cwnd = std::max(tcb().cwnd, jump_cwnd_);
        // §4.3: an ACK for the first unvalidated packet, or more than one RTT in the phase, ends it.
        if (ack.ack > first_unvalidated_ || now - unvalidated_since_ > CurrentRtt()) EndUnvalidated(now);
        return;
      case CrPhase::kValidating:
        if (congestion) return EnterSafeRetreat(now, Outcome::kRetreated);  // §4.4 "Detected congestion".
        pipe_size_ += ack.newly_acked;  // §4.4 "Tracking PipeSize"; cwnd grows by normal CC.
        // §4.4: the last unvalidated packet acknowledged without congestion: done.
        if (ack.ack > last_unvalidated_) Finish(Outcome::kValidated);
        return;
      case CrPhase::kSafeRetreat:
        pipe_size_ += ack.newly_acked;  // §4.5 "Tracking PipeSize".
        tcb().cwnd = std::min(tcb().cwnd, retreat_cwnd_);  // §4.5 "Maintaining CWND".
        if (ack.ack > last_unvalidated_) {
          // §4.5: leaving Safe Retreat, ssthresh = PipeSize * Beta at most.
          tcb().ssthresh = std::max(static_cast<Bytes>(static_cast<double>(pipe_size_) * scheme_.config_.cr_beta),
                                    2 * config().mss);
          Finish(retreat_reason_);
        }
        return;
    }
  }

  // RFC 9959 Appendix C over BBR: the Unvalidated Phase is the first round of "carefully
  // resuming", the Validating Phase the second (C.2: BBR's own rules for leaving Startup validate
  // the rate), and Safe Retreat is Drain entered while the flag is still set (C.3).
  void AfterAckBbr(SimTime now, const AckInfo& ack, bool congestion) {
    pipe_size_ += ack.newly_acked;
    if (phase_ != CrPhase::kSafeRetreat &&
        (congestion || (bbr_->carefully_resuming() && bbr_->mode() == BbrOps::Mode::kDrain))) {
      return EnterSafeRetreat(now, Outcome::kRetreated);
    }
    switch (phase_) {
      case CrPhase::kUnvalidated:
        // The first unvalidated packet is acknowledged: the round the jump started is over.
        if (bbr_->round_count() <= bbr_->careful_resume_round()) return;
        // §4.3 "Check flight_size", which Appendix C leaves as it is: a sender that did not use
        // the jump stops carefully resuming (BBR's window follows its own model).
        if (flight_size() < config().InitialWindowBytes() || flight_size() <= pipe_size_) {
          bbr_->StopCarefulResume();
          return Finish(Outcome::kRateLimited);
        }
        last_unvalidated_ = sender().snd_max() - 1;
        SetPhase(CrPhase::kValidating);
        return;
      case CrPhase::kValidating:
        // C.1: the flag is reset two rounds after it was set, "i.e., after all the packets sent in
        // the first round of 'carefully resuming' have been received and acknowledged": whichever
        // BBR's round count or the ACK of the last of them shows first (a sender with nothing more
        // to send ends no further round). Without congestion: validated.
        if (bbr_->carefully_resuming() && ack.ack > last_unvalidated_) bbr_->StopCarefulResume();
        if (!bbr_->carefully_resuming()) Finish(Outcome::kValidated);
        return;
      case CrPhase::kSafeRetreat:
        // C.3: "This flag is cleared upon exiting the Drain state."
        if (!bbr_->carefully_resuming()) Finish(retreat_reason_);
        return;
      default:
        return;
    }
  }

  // §4.2 "Path confirmed": every check, then the jump when there is data to use it.
  void ConfirmPath(SimTime now) {
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
    if (bbr_ != nullptr) {
      // Appendix C.1: "The probing rate is configured to 1/2 of the bottleneck bandwidth, derived
      // from the CWND calculation specified in the saved CC parameters": jump_cwnd per current RTT
      // (§4.3's pacing rate), which is saved_cwnd / 2 per saved_rtt on an unchanged path. BBR jumps
      // only from Startup and only to a rate above its own.
      const double probing_bw = UnvalidatedRateBps() / 8;
      if (!bbr_->StartCarefulResume(tcb(), probing_bw, sent_log()->delivered())) {
        return Finish(Outcome::kNothingToGain);
      }
    } else {
      if (jump_cwnd_ <= tcb().cwnd) return Finish(Outcome::kNothingToGain);
      tcb().cwnd = jump_cwnd_;
    }
    entry_.saved->in_use = true;
    holds_saved_ = true;
    jumped_ = true;
    pipe_size_ = flight_size();
    first_unvalidated_ = sender().snd_nxt();
    unvalidated_since_ = now;
    SetPhase(CrPhase::kUnvalidated);
  }

  // §4.3 "Check flight_size", on any of the events that end the Unvalidated Phase.
  void EndUnvalidated(SimTime) {
    const Bytes flight = flight_size();
    last_unvalidated_ = sender().snd_max() - 1;
    if (flight < config().InitialWindowBytes() || flight <= pipe_size_) {
      // Rate-limited: the jump was not used. cwnd = PipeSize, never below IW without congestion.
      tcb().cwnd = std::max(pipe_size_, config().InitialWindowBytes());
      return Finish(Outcome::kRateLimited);
    }
    tcb().cwnd = flight;
    SetPhase(CrPhase::kValidating);
  }

  // §4.5: the jump met congestion: delete the saved parameters, cwnd = PipeSize / 2 (at least two
  // segments, as QUIC's minimum window), and keep it there until the unvalidated packets are
  // acknowledged.
  void EnterSafeRetreat(SimTime, Outcome reason) {
    retreat_reason_ = reason;
    entry_.saved.reset();
    holds_saved_ = false;
    if (bbr_ != nullptr) {
      // Appendix C.3: over BBR, Safe Retreat is Drain while the flag is set; BBR's window follows
      // its model, not PipeSize (an immediate exit if BBR no longer resumes).
      bbr_->RetreatCarefulResume();
      SetPhase(CrPhase::kSafeRetreat);
      return;
    }
    retreat_cwnd_ = std::max(pipe_size_ / 2, 2 * config().mss);
    tcb().cwnd = std::min(tcb().cwnd, retreat_cwnd_);
    // Loss recovery lasts until the last packet sent in the Unvalidated or Validating Phase is
    // acknowledged.
    last_unvalidated_ = sender().snd_max() - 1;
    SetPhase(CrPhase::kSafeRetreat);
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
  BbrOps* bbr_;  // The connection's window rule when it is BBR (Appendix C), else null. Not owned.
  CrPhase phase_ = CrPhase::kNormal;
  PathObserver observer_;
  SimTime last_rtt_;
  SeqNo initial_data_end_ = 0;
  bool holds_saved_ = false;
  bool jumped_ = false;
  Bytes jump_cwnd_ = 0;
  Bytes pipe_size_ = 0;
  Bytes retreat_cwnd_ = 0;
  SeqNo first_unvalidated_ = 0;
  SeqNo last_unvalidated_ = 0;
  SimTime unvalidated_since_;
  Outcome retreat_reason_ = Outcome::kRetreated;
};

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
