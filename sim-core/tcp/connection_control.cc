// One connection's congestion control and loss recovery.
#include "tcp/connection_control.h"

#include <algorithm>

namespace tcb {

ConnectionControl::ConnectionControl(const TcpConfig& config, SenderHandle& sender)
    : config_(config),
      tcb_(config),
      ops_(MakeCongestionOps(config, sender.RandomStream("window-rule"))),
      sender_(sender) {
  if (SackRecovery() || config_.rack || ops_->NeedsSentLog()) log_ = std::make_unique<SentLog>();
  // RACK-TLP marks losses for SACK-based recovery (the scenario parser requires one with it).
  rack_on_ = config_.rack && SackRecovery();
}

void ConnectionControl::OnEstablished(SimTime now, bool syn_lost) {
  // RFC 5681 §3.1: after a lost SYN or SYN-ACK the initial window is one segment.
  tcb_.cwnd = syn_lost ? tcb_.mss : config_.InitialWindowBytes();
  ops_->Init(tcb_, now);
}

void ConnectionControl::OnSendStart(SimTime, bool first, Bytes) {
  // RFC 5681 §4.1: restart window = min(IW, cwnd) after an idle period. With slow-start restart
  // off ("nssr", as in SunOS per TCP/SPAND §6.2) the window is kept. A rule that sets the window
  // itself (BBR) handles the restart (Linux's tcp_slow_start_after_idle_check() skips
  // tcp_cwnd_restart() for a congestion control with cong_control).
  if (!first && config_.slow_start_restart && !ops_->ControlsWindow()) {
    tcb_.cwnd = std::min(tcb_.cwnd, config_.InitialWindowBytes());
  }
}

Resumption ConnectionControl::AdjustNetworkParameters(NetworkParams params) {
  params.total_delivered = log_ != nullptr ? log_->delivered() : 0;
  return ops_->AdjustNetworkParameters(tcb_, params);
}

void ConnectionControl::SetState(SimTime now, CongestionState state) {
  if (state == state_) return;
  state_ = state;
  // A timeout's loss episode ends once what was outstanding at the timeout is acknowledged.
  if (state == CongestionState::kOpen) timer_resent_ = false;
  ops_->OnStateChange(tcb_, now, state);
}

Bytes ConnectionControl::InFlight() const {
  return log_ != nullptr && SackRecovery() ? log_->in_flight() : sender_.flight_size();
}

double ConnectionControl::pacing_rate_bps() const {
  if (scheme_pacing_bps_ > 0) return scheme_pacing_bps_;
  const double own = ops_->PacingRateBps(tcb_);
  if (own > 0) return own;
  if (config_.pacing == PacingMode::kRate && tcb_.rtt.has_sample()) {
    return LinuxPacingRateBps(tcb_.cwnd, tcb_.ssthresh, InFlight(), tcb_.rtt.srtt());
  }
  return 0;
}

SimTime ConnectionControl::NextSendTime(SimTime now) const {
  return pacing_rate_bps() > 0 ? pacer_.NextSendTime(now) : now;
}

void ConnectionControl::OnSegmentSent(SimTime now, const SentSegment& segment) {
  // Linux's CA_EVENT_TX_START (tcp_event_data_sent()): new data leaves with nothing in flight.
  if (!segment.retransmission && segment.seq == sender_.snd_una() && sent_any_) {
    ops_->OnSendingResumed(tcb_, now, last_sent_);
  }
  sent_any_ = true;
  last_sent_ = now;
  if (log_ != nullptr) {
    log_->OnSent(now, segment.seq, segment.bytes);
    // The delivery-rate estimator's application-limited test (draft-cheng-iccrg-delivery-rate-
    // estimation §3.4): the application has nothing more to send, nothing lost awaits
    // retransmission, and the window is not full.
    if (sender_.unsent_bytes() < tcb_.mss && log_->lost_bytes() == 0 && log_->in_flight() < tcb_.cwnd) {
      log_->MarkAppLimited(log_->in_flight());
    }
  }
  if (tcb_.in_recovery && config_.recovery == LossRecovery::kPrr) prr_.OnSent(segment.bytes);
  // tcp_write_xmit(): after sending new data, the window limits the sender once what is in flight
  // fills it.
  if (!segment.retransmission) NoteWindowUse(InFlight() >= tcb_.cwnd);
  pacer_.OnSent(now, segment.bytes, pacing_rate_bps());
  // RFC 8985 §7.2: (re)start the PTO after sending new data that was not itself a probe, unless
  // RACK's reordering timer is waiting.
  if (rack_on_ && !segment.retransmission && !sending_probe_ && timer_ != ControlTimer::kReorder &&
      ProbeAllowed()) {
    ArmProbe(now, /*after_ack=*/false);
  }
}

AckSample ConnectionControl::Sample(SimTime now, const AckInfo& ack) {
  AckSample s;
  s.now = now;
  s.delivered = ack.newly_acked;
  if (log_ == nullptr) return s;
  s.prior_in_flight = log_->in_flight();
  const AckDelivery& d = log_->OnAck(now, sender_.snd_una(), ack.sack_blocks, ack.sack_count);
  ack_newly_acked_ = d.newly_acked;
  ack_newly_sacked_ = d.newly_sacked;
  if (rack_on_) {
    s.lost = RackDetectLoss(now, &d);
  } else if (SackRecovery()) {
    s.lost = MarkLostSegments();
  }
  s.delivered = d.newly_delivered();
  s.has_rtt = d.has_rtt;
  s.rtt = d.rtt;
  s.rate = &d.rate;
  s.total_delivered = log_->delivered();
  s.in_flight = log_->in_flight();
  s.app_limited = log_->app_limited();
  s.log = log_.get();
  if (s.delivered > 0) ops_->OnAckSample(tcb_, s);
  return s;
}

void ConnectionControl::GrowWindow(SimTime now, Bytes acked, Bytes flight_before) {
  // RFC 7661 §4.3 (when enabled): an ACK that finds the window not in use does not grow it.
  if (config_.cwnd_validation && !WindowInUse(tcb_, flight_before)) return;
  // RFC 9438 §5.8 for CUBIC: no growth while application-limited.
  if (ops_->GrowsOnlyWhenCwndLimited() && !CwndLimited()) return;
  ops_->IncreaseWindow(tcb_, now, acked);
  // Growth beyond what the receiver allows would never be used; keeping cwnd bounded keeps it meaningful.
  tcb_.cwnd = std::min(tcb_.cwnd, std::max(config_.receive_window, tcb_.mss));
}

void ConnectionControl::NoteWindowUse(bool cwnd_limited) {
  // tcp_cwnd_validate(): remember that the window limited the sender for the rest of the current
  // window of data; while it does not, track the most in flight; a new window starts afresh.
  const Bytes in_flight = InFlight();
  if (sender_.snd_una() >= cwnd_usage_seq_ || cwnd_limited || (!cwnd_limited_ && in_flight > max_in_flight_)) {
    cwnd_limited_ = cwnd_limited;
    max_in_flight_ = in_flight;
    cwnd_usage_seq_ = sender_.snd_nxt();
  }
}

bool ConnectionControl::CwndLimited() const {
  // tcp_is_cwnd_limited(): "If in slow start, ensure cwnd grows to twice what was ACKed."
  return cwnd_limited_ || (tcb_.cwnd < tcb_.ssthresh && tcb_.cwnd < 2 * max_in_flight_);
}

bool ConnectionControl::CanSend(Bytes bytes) {
  bool allowed;
  if (SackRecovery() && (tcb_.in_recovery || state_ == CongestionState::kLoss)) {
    // RFC 6675 §5 step (C): send while cwnd - pipe >= 1 SMSS. After a timeout too: the go-back
    // skips SACKed data, which has left the network, so the window counts the pipe (Linux's
    // tcp_packets_in_flight() in the Loss state; RFC 6675 §5.1 uses the SACK information).
    allowed = tcb_.cwnd - log_->in_flight() >= bytes;
  } else {
    allowed = sender_.snd_nxt() + bytes <= sender_.snd_una() + tcb_.cwnd;
  }
  // The sender has new data the window does not let out: cwnd-limited (tcp_write_xmit()'s
  // tcp_cwnd_test() finding no quota).
  if (!allowed) NoteWindowUse(true);
  return allowed;
}

bool ConnectionControl::OnAck(SimTime now, const AckInfo& ack) {
  const AckSample sample = Sample(now, ack);
  const bool rule_sets_window = ops_->ControlsWindow();
  if (state_ == CongestionState::kLoss && ack.ack - 1 >= tcb_.recover) SetState(now, CongestionState::kOpen);
  if (rack_on_) ProcessTlpAck(now, ack, sample, /*advanced=*/true);
  if (!tcb_.in_recovery) {
    tcb_.dupacks = 0;
    if (rack_on_ && RackStartsRecovery()) {
      StartRackRecovery(now, sample);
      ArmRackTimers(now, /*schedule_probe=*/false);
      return true;
    }
    if (rule_sets_window) {
      ops_->ControlWindow(tcb_, sample);
    } else {
      GrowWindow(now, ack.newly_acked, sender_.flight_size() + ack.newly_acked);
    }
    if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/true);
    return true;
  }
  switch (config_.recovery) {
    case LossRecovery::kGoBackN:  // Tahoe has no fast recovery.
    case LossRecovery::kReno:
      // RFC 5681 §3.2 step 6: the next ACK of new data ends fast recovery and deflates the window.
      tcb_.in_recovery = false;
      tcb_.dupacks = 0;
      if (!rule_sets_window) tcb_.cwnd = tcb_.ssthresh;
      SetState(now, CongestionState::kOpen);
      if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
      return true;
    case LossRecovery::kSackRfc6675:
    case LossRecovery::kPrr:
      // RFC 6675 §5: recovery ends when the ACK covers RecoveryPoint; until then each ACK may
      // release retransmissions of lost segments.
      if (ack.ack - 1 >= tcb_.recover) {
        tcb_.in_recovery = false;
        tcb_.dupacks = 0;
        // RFC 9937 §6 too: recovery ends with cwnd = ssthresh.
        if (!rule_sets_window) tcb_.cwnd = tcb_.ssthresh;
        SetState(now, CongestionState::kOpen);
        if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
      } else {
        // RFC 9937 §6.2: an ACK that advances snd_una and marks nothing lost is a "safeACK".
        UpdateRecoveryWindow(sample, /*safe_ack=*/sample.lost == 0);
        SendSackRetransmissions();
      }
      if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/true);
      return true;
    case LossRecovery::kNewReno:
      break;
  }
  // NewReno, RFC 6582 §3.2 step 3.
  if (ack.ack - 1 >= tcb_.recover) {
    // Full acknowledgement: deflate to min(ssthresh, max(FlightSize, SMSS) + SMSS) and leave recovery.
    if (!rule_sets_window) {
      tcb_.cwnd = std::min(tcb_.ssthresh, std::max(sender_.flight_size(), tcb_.mss) + tcb_.mss);
    }
    tcb_.in_recovery = false;
    tcb_.dupacks = 0;
    SetState(now, CongestionState::kOpen);
    if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
    return true;
  }
  // Partial acknowledgement: retransmit the first unacknowledged segment, deflate by the amount
  // acknowledged, add back one SMSS if at least one SMSS was acknowledged, stay in recovery.
  RetransmitLost(ack.ack);
  if (rule_sets_window) {
    ops_->ControlWindow(tcb_, sample);
  } else {
    tcb_.cwnd = std::max(tcb_.cwnd - ack.newly_acked, tcb_.mss);
    if (ack.newly_acked >= tcb_.mss) tcb_.cwnd += tcb_.mss;
  }
  // RFC 6582 §3.2 step 3 and §4 ("impatient" variant): only the first partial ACK resets the timer.
  const bool restart = tcb_.first_partial_ack;
  tcb_.first_partial_ack = false;
  return restart;
}

void ConnectionControl::OnDuplicateAck(SimTime now, const AckInfo& ack) {
  const AckSample sample = Sample(now, ack);
  const bool rule_sets_window = ops_->ControlsWindow();
  ++tcb_.dupacks;
  if (rack_on_) ProcessTlpAck(now, ack, sample, /*advanced=*/false);
  if (tcb_.in_recovery) {
    if (SackRecovery()) {
      UpdateRecoveryWindow(sample, /*safe_ack=*/false);
      SendSackRetransmissions();
    } else if (rule_sets_window) {
      ops_->ControlWindow(tcb_, sample);
    } else if (config_.recovery != LossRecovery::kGoBackN) {
      // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 1: each further duplicate inflates cwnd by SMSS.
      tcb_.cwnd += tcb_.mss;
    }
    if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/false);
    return;
  }
  if (rack_on_) {
    // RFC 8985 §6.2 step 5: RACK's marks, not a count of duplicate ACKs, start recovery (as in
    // Linux's tcp_time_to_recover() with RACK on).
    if (RackStartsRecovery()) {
      StartRackRecovery(now, sample);
    } else {
      if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
      if (config_.right_edge_recovery && tcb_.dupacks < config_.dupack_threshold) sender_.SendNewSegment();
    }
    ArmRackTimers(now, /*schedule_probe=*/false);
    return;
  }
  // RFC 6675 §5: with SACK, the first unacknowledged segment may be deemed lost before DupThresh
  // duplicates arrive (IsLost(HighACK + 1)).
  const bool sack_says_lost = SackRecovery() && !log_->empty() && log_->records().front().lost;
  if (tcb_.dupacks < config_.dupack_threshold && !sack_says_lost) {
    if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
    // Balakrishnan et al. §4: send one new segment beyond the right edge for an early duplicate.
    if (config_.right_edge_recovery) sender_.SendNewSegment();
    return;
  }
  if ((tcb_.dupacks > config_.dupack_threshold && !sack_says_lost) ||
      // RFC 6582 §3.2 step 2 (and RFC 6675 §5 step 4): enter recovery only if the ACK covers more
      // than "recover", so that one window of losses (or the segments resent after a timeout)
      // causes one reduction. Classic Reno (RFC 5681) has no such check. 4.3BSD-Tahoe lacked it
      // too; ns-2 adds it to Tahoe as its default "bugfix", and so do we.
      (config_.recovery != LossRecovery::kReno && ack.ack - 1 <= tcb_.recover)) {
    if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
    return;
  }

  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.recover = sender_.snd_max() - 1;
  switch (config_.recovery) {
    case LossRecovery::kGoBackN:
      // Tahoe: retransmit and slow-start from the first unacknowledged segment (go-back-N).
      tcb_.cwnd = tcb_.mss;
      tcb_.dupacks = 0;
      SetState(now, CongestionState::kLoss);
      sender_.GoBackN();
      RetransmitLost(ack.ack);
      return;
    case LossRecovery::kSackRfc6675:
    case LossRecovery::kPrr:
      EnterSackRecovery(now, sample);
      return;
    case LossRecovery::kReno:
    case LossRecovery::kNewReno:
      // RFC 5681 §3.2 steps 2-3: retransmit, then cwnd = ssthresh + 3*SMSS for the three segments
      // that left the network.
      RetransmitLost(ack.ack);
      tcb_.in_recovery = true;
      tcb_.first_partial_ack = true;
      SetState(now, CongestionState::kRecovery);
      if (rule_sets_window) {
        ops_->ControlWindow(tcb_, sample);
      } else {
        tcb_.cwnd = tcb_.ssthresh + 3 * tcb_.mss;
      }
      return;
  }
}

void ConnectionControl::RetransmitLost(SeqNo seq) {
  if (log_ != nullptr) {
    if (SentRecord* r = log_->Find(seq); r != nullptr && !r->lost) log_->MarkLost(*r);
  }
  sender_.RetransmitNow(seq);
}

Bytes ConnectionControl::MarkLostSegments() {
  const SackScoreboard& sb = sender_.scoreboard();
  Bytes marked = 0;
  // IsLost() holds for a prefix of the unSACKed segments (the lower a segment, the more is SACKed
  // above it), so marking starts at the first segment neither SACKed nor lost and stops at the first
  // it does not hold for.
  const auto records = log_->records();
  for (size_t i = log_->FirstUnmarked(); i < records.size(); ++i) {
    SentRecord& r = records[i];
    if (r.sacked || r.lost) continue;
    if (!sb.IsLost(r.seq, config_.dupack_threshold, tcb_.mss)) break;
    // A segment NextSeg() rule (3) or (4) has already resent keeps its retransmission in flight:
    // rule (1) resends only segments above HighRxt.
    log_->MarkOriginalLost(r);
    marked += r.bytes();
  }
  return marked;
}

void ConnectionControl::EnterSackRecovery(SimTime now, const AckSample& sample) {
  // RFC 6675 §5 step 4: RecoveryPoint = HighData (set by the caller), cwnd = ssthresh, retransmit
  // the first segment presumed dropped, then let pipe govern what follows. RFC 9937 §6.1: PRR
  // starts with RecoverFS (the data outstanding, less what was SACKed before this ACK) and sets
  // cwnd on this ACK already (§6.2).
  tcb_.in_recovery = true;
  SetState(now, CongestionState::kRecovery);
  // RFC 8985 §7.4: recovery's own reduction ends a TLP episode (Linux's tcp_init_cwnd_reduction()).
  tlp_in_flight_ = false;
  if (config_.recovery == LossRecovery::kPrr) {
    prr_.Start(Prr::RecoverFs(sender_.snd_max() - sender_.snd_una(), log_->sacked_bytes(), ack_newly_sacked_,
                              ack_newly_acked_));
  }
  if (ops_->ControlsWindow()) {
    ops_->ControlWindow(tcb_, sample);
  } else if (config_.recovery == LossRecovery::kPrr) {
    UpdateRecoveryWindow(sample, /*safe_ack=*/false);
  } else {
    tcb_.cwnd = tcb_.ssthresh;
  }
  if (rack_on_) {
    SendSackRetransmissions();
    // RFC 6675 §5 (4.3) for RACK's marks: the first segment RACK found lost goes out even when
    // cwnd - pipe allowed nothing (RFC 9937 §6.2 makes PRR allow it anyway).
    for (const SentRecord& r : log_->records()) {
      if (!r.lost || r.sacked) continue;
      if (!r.retrans_in_flight) sender_.RetransmitNow(r.seq, r.bytes());
      break;
    }
    return;
  }
  // RFC 6675 §5 (4.3): retransmit the first unacknowledged segment, whatever cwnd - pipe says (it is
  // lost by IsLost(), or by DupThresh duplicates without SACK blocks), and set HighRxt and
  // RescueRxt to its end; then step (C).
  SentRecord& head = log_->records().front();
  const SeqNo head_end = head.end;
  if (!head.retrans_in_flight) {
    if (!head.lost) log_->MarkLost(head);
    sender_.RetransmitNow(head.seq, head.bytes());
  }
  high_rxt_ = rescue_rxt_ = head_end;
  SendSackRetransmissions();
}

void ConnectionControl::UpdateRecoveryWindow(const AckSample& sample, bool safe_ack) {
  if (ops_->ControlsWindow()) {
    // The rule sets the window in recovery too (Linux's cong_control runs instead of PRR).
    ops_->ControlWindow(tcb_, sample);
  } else if (config_.recovery == LossRecovery::kPrr) {
    // RFC 9937 §6.2: an ACK that delivered nothing leaves cwnd as it is.
    if (const auto cwnd = prr_.OnAck(sample.delivered, log_->in_flight(), tcb_.ssthresh, tcb_.mss, safe_ack)) {
      tcb_.cwnd = *cwnd;
    }
  }
}

void ConnectionControl::SendSackRetransmissions() {
  // RFC 6675 §5 step (C), (C.1)-(C.5); pipe is the SentLog's in_flight().
  while (tcb_.cwnd - log_->in_flight() >= tcb_.mss) {
    const NextSegment next = NextSeg();
    if (next.rule == 0) return;
    sender_.RetransmitNow(next.seq, next.bytes);
    if (next.rule == 4) {
      // Rule (4): RescueRxt = RecoveryPoint, so one rescue per recovery; HighRxt stays.
      rescue_rxt_ = tcb_.recover + 1;
    } else {
      high_rxt_ = std::max(high_rxt_, next.seq + next.bytes);  // (C.2)
    }
  }
}

ConnectionControl::NextSegment ConnectionControl::NextSeg() const {
  const auto records = log_->records();
  // Rule (1): the lowest segment deemed lost (IsLost(), or RACK's marks) not yet retransmitted; the
  // SentLog counts such bytes, so the records are searched only when there is one.
  if (log_->awaiting_retransmission() > 0) {
    for (const SentRecord& r : records) {
      if (r.lost && !r.sacked && !r.retrans_in_flight) return {1, r.seq, r.bytes()};
    }
  }
  // Rule (2): new data, if the application has some and the receive window allows it; the sender
  // sends it through CanSend() when this controller returns.
  if (sender_.NextSegmentBytes() > 0) return {};
  // Rules (3) and (4) are SHOULDs for recovery driven by IsLost(). With RACK-TLP (RFC 8985) the
  // loss marks are RACK's: rule (3) would resend the holes RACK is giving their reordering window
  // (§6.2), and the lost tail that rule (4) rescues is the tail loss probe's (§7).
  if (rack_on_) return {};
  // Rule (3): the lowest unSACKed segment above HighRxt (1.a) and below the highest octet covered by
  // any received SACK (1.b). Records are in sequence order: the search starts at HighRxt and ends
  // at the highest SACK.
  const SeqNo highest_sack = sender_.scoreboard().HighestSacked(sender_.snd_una());
  for (size_t i = log_->FirstEndingAbove(high_rxt_); i < records.size() && records[i].end <= highest_sack; ++i) {
    const SentRecord& r = records[i];
    if (r.seq >= high_rxt_ && !r.sacked && !r.retrans_in_flight && !r.lost) return {3, r.seq, r.bytes()};
  }
  // Rule (4): once per recovery (HighACK > RescueRxt), one segment holding the highest outstanding
  // unSACKed byte. We resend it only from above the highest SACK, the tail no SACK can reveal
  // (below it, rule (3) has resent every hole above HighRxt). It stays in pipe like any
  // retransmission in flight, one segment more than RFC 6675's SetPipe() counts.
  if (sender_.snd_una() > rescue_rxt_ && !log_->empty()) {
    const SentRecord& top = log_->records().back();
    if (!top.sacked && !top.retrans_in_flight && top.seq >= highest_sack) return {4, top.seq, top.bytes()};
  }
  return {};
}

void ConnectionControl::OnRetransmissionTimeout(SimTime now) {
  // RFC 5681 §3.1: the window rule's ssthresh and a loss window of one segment; RFC 6582 §3.2
  // step 4: after a timeout, "recover" is the highest sequence number sent.
  if (!timer_resent_) {
    const Bytes rule_ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
    // A timeout that ends a fast recovery keeps the recovery's smaller ssthresh: that recovery
    // already reduced it for this window of data, and FlightSize now counts what the recovery sent
    // besides (with NewReno's inflated window, far more than the path holds). RFC 5681 §3.1 eq. (4)
    // asks for "no more than" max(FlightSize / 2, 2 * SMSS), so the smaller value is within it;
    // Linux does not reduce again either (net/ipv4/tcp_input.c tcp_enter_loss(): "Reduce ssthresh
    // if it has not yet been made inside this window", only from Open or Disorder).
    tcb_.ssthresh = tcb_.in_recovery ? std::min(tcb_.ssthresh, rule_ssthresh) : rule_ssthresh;
  }
  // RFC 5681 §3.1: eq. (4) applies when "the given segment has not yet been resent by way of the
  // retransmission timer"; when the timer expires again for it, "the value of ssthresh is held
  // constant". Linux's tcp_enter_loss() likewise calls the congestion control's ssthresh() only
  // once per loss episode, so a rule's own state (CUBIC's W_max) keeps the first timeout's window
  // rather than the loss window of one segment. FlightSize, which still counts everything sent
  // before the go-back, would otherwise raise ssthresh at each backed-off timeout.
  timer_resent_ = true;
  tcb_.cwnd = tcb_.mss;
  tcb_.in_recovery = false;
  tcb_.dupacks = 0;
  tcb_.recover = sender_.snd_max() - 1;
  if (log_ != nullptr) log_->OnRetransmissionTimeout();
  SetState(now, CongestionState::kLoss);
  if (rack_on_) {
    // RTO recovery: no probe and no reordering wait (everything outstanding is now lost), and the
    // TLP episode is over (Linux's tcp_retransmit_timer()).
    timer_ = ControlTimer::kNone;
    sender_.StopControlTimer();
    tlp_in_flight_ = false;
  }
}

// ---- RACK-TLP (RFC 8985) ----

Bytes ConnectionControl::RackDetectLoss(SimTime now, const AckDelivery* delivery) {
  // RFC 8985 §6.2 step 1: RACK.min_RTT is the SentLog's windowed minimum (Linux's tcp_min_rtt()).
  if (delivery != nullptr) rack_.OnDelivered(now, delivery->segments, log_->min_rtt());
  Rack::Context c;
  c.now = now;
  c.min_rtt = log_->min_rtt();
  c.has_srtt = tcb_.rtt.has_sample();
  c.srtt = tcb_.rtt.srtt();
  c.in_recovery = tcb_.in_recovery || state_ == CongestionState::kLoss;
  c.dupthresh = config_.dupack_threshold;
  const Rack::Detection d = rack_.DetectLoss(*log_, c);
  rack_timeout_ = d.timeout;
  return d.newly_lost;
}

bool ConnectionControl::RackStartsRecovery() const {
  // In RTO recovery (kLoss) the sender goes back to snd_una and resends everything anyway; a
  // second reduction for the same window would follow RFC 6582's "recover" check no more.
  return !tcb_.in_recovery && state_ != CongestionState::kLoss && log_->lost_bytes() > 0;
}

void ConnectionControl::StartRackRecovery(SimTime now, const AckSample& sample) {
  // RFC 6675 §5 step 4 (4.1, 4.2): RecoveryPoint = HighData and the window rule's ssthresh.
  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.recover = sender_.snd_max() - 1;
  EnterSackRecovery(now, sample);
}

void ConnectionControl::ProcessTlpAck(SimTime now, const AckInfo& ack, const AckSample& sample, bool advanced) {
  // RFC 8985 §7.4 (as Linux's tcp_process_tlp_ack()), without D-SACK, which our receiver does not
  // send: a probe of new data ends its episode once acknowledged; after a retransmitted probe, a
  // pure duplicate ACK says the original and the probe both arrived (no loss), and an ACK beyond
  // TLP.end_seq that the probe repaired a loss, which calls for a congestion response.
  if (!tlp_in_flight_ || ack.ack < tlp_end_seq_) return;
  if (!tlp_is_retrans_) {
    tlp_in_flight_ = false;
  } else if (ack.ack > tlp_end_seq_) {
    tlp_in_flight_ = false;
    // A reduction as on entering and leaving fast recovery at once (Linux: CWR state, then
    // tcp_end_cwnd_reduction()): ssthresh from the window rule over the flight before this ACK,
    // cwnd = ssthresh.
    tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size() + ack.newly_acked);
    if (!ops_->ControlsWindow()) tcb_.cwnd = tcb_.ssthresh;
  } else if (!advanced && sample.delivered == 0) {
    tlp_in_flight_ = false;
  }
}

bool ConnectionControl::ProbeAllowed() const {
  // At most one probe unacknowledged (RFC 8985 §7.3, Linux's tlp_high_seq): while it is, the RTO
  // timer alone guards the tail.
  return rack_on_ && sender_.snd_max() > sender_.snd_una() && state_ == CongestionState::kOpen &&
         !tcb_.in_recovery && log_->sacked_bytes() == 0 && !tlp_in_flight_;
}

void ConnectionControl::ArmProbe(SimTime now, bool after_ack) {
  SimTime until_rto = tcb_.rtt.rto();
  if (!after_ack) {
    const SimTime deadline = sender_.RetransmissionDeadline();
    until_rto = deadline == SimTime::Infinite() ? deadline : Max(deadline - now, SimTime::Zero());
  }
  const bool one_segment = sender_.flight_size() <= tcb_.mss;
  timer_ = ControlTimer::kProbe;
  sender_.SetControlTimer(now + ProbeTimeout(tcb_.rtt.has_sample(), tcb_.rtt.srtt(), one_segment, until_rto));
}

void ConnectionControl::ArmRackTimers(SimTime now, bool schedule_probe) {
  // RFC 8985 §6.2 step 5: the reordering timer, for the latest deadline still ahead.
  if (rack_timeout_ > SimTime::Zero()) {
    timer_ = ControlTimer::kReorder;
    sender_.SetControlTimer(now + rack_timeout_);
    return;
  }
  const bool allowed = ProbeAllowed();
  if (schedule_probe && allowed) {
    // RFC 8985 §7.2: an ACK that cumulatively acknowledged new data restarts the PTO.
    ArmProbe(now, /*after_ack=*/true);
  } else if (timer_ == ControlTimer::kReorder || (timer_ == ControlTimer::kProbe && !allowed)) {
    timer_ = ControlTimer::kNone;
    sender_.StopControlTimer();
  }
}

void ConnectionControl::OnControlTimer(SimTime now) {
  if (!rack_on_) return;
  const ControlTimer fired = timer_;
  timer_ = ControlTimer::kNone;
  if (fired == ControlTimer::kProbe) {
    SendProbe();
    return;
  }
  if (fired != ControlTimer::kReorder) return;
  // RFC 8985 §6.3: the reordering timer expired; detect losses again and repair them.
  ack_newly_acked_ = ack_newly_sacked_ = 0;
  const Bytes lost = RackDetectLoss(now, nullptr);
  if (lost > 0) {
    if (RackStartsRecovery()) {
      // As Linux's tcp_rack_reo_timeout(): recovery starts as if one segment had been delivered,
      // so that PRR sets the window and lets the fast retransmit out.
      AckSample s;
      s.now = now;
      s.delivered = tcb_.mss;
      s.prior_in_flight = s.in_flight = log_->in_flight();
      s.lost = lost;
      s.total_delivered = log_->delivered();
      s.app_limited = log_->app_limited();
      StartRackRecovery(now, s);
    } else if (tcb_.in_recovery) {
      SendSackRetransmissions();
    }
  }
  ArmRackTimers(now, /*schedule_probe=*/false);
}

void ConnectionControl::SendProbe() {
  if (!ProbeAllowed()) return;
  // RFC 8985 §7.3 TLP_send_probe(): a new segment if the application has one and the receive
  // window allows it, whatever cwnd says; else the highest-sequence segment sent so far again.
  sending_probe_ = true;
  bool sent = false;
  bool retransmission = false;
  if (sender_.NextSegmentBytes() > 0) {
    sent = sender_.SendNewSegment() > 0;
  } else if (!log_->empty()) {
    const SentRecord& last = log_->records().back();
    sender_.RetransmitNow(last.seq, last.bytes());
    sent = retransmission = true;
  }
  sending_probe_ = false;
  if (!sent) return;
  tlp_in_flight_ = true;
  tlp_is_retrans_ = retransmission;
  tlp_end_seq_ = sender_.snd_max();
  // RFC 8985 §7.3: after a probe the RTO timer, not another PTO, guards the tail.
  sender_.RestartRetransmissionTimer();
}

}  // namespace tcb
