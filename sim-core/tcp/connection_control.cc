// One connection's congestion control and loss recovery.
#include "tcp/connection_control.h"

#include <algorithm>

namespace tcb {

ConnectionControl::ConnectionControl(const TcpConfig& config, SenderHandle& sender)
    : config_(config),
      tcb_(config),
      ops_(MakeCongestionOps(config, sender.RandomStream("window-rule"))),
      recovery_(MakeRecoveryOps(config)),
      sender_(sender),
      context_(tcb_, sender, *ops_, config_) {
  if (recovery_->UsesSack() || config_.rack || ops_->NeedsSentLog()) log_ = std::make_unique<SentLog>();
  context_.log = log_.get();
  // RACK-TLP marks losses for SACK-based recovery (the scenario parser requires one with it).
  rack_on_ = config_.rack && recovery_->UsesSack();
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
  recovery_->OnSent(context_, segment.bytes);
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
  s.newly_cumulative = d.newly_acked;
  s.newly_sacked = d.newly_sacked;
  s.lost = rack_on_ ? RackDetectLoss(now, &d) : recovery_->MarkLost(context_);
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
  const bool allowed = recovery_->WindowAllows(context_, bytes);
  // The sender has new data the window does not let out: cwnd-limited (tcp_write_xmit()'s
  // tcp_cwnd_test() finding no quota).
  if (!allowed) NoteWindowUse(true);
  return allowed;
}

bool ConnectionControl::OnAck(SimTime now, const AckInfo& ack) {
  const AckSample sample = Sample(now, ack);
  if (tcb_.state == CongestionState::kLoss && ack.ack - 1 >= tcb_.recover) SetState(now, CongestionState::kOpen);
  if (rack_on_) ProcessTlpAck(now, ack, sample, /*advanced=*/true);
  if (!tcb_.in_recovery()) {
    tcb_.dupacks = 0;
    if (rack_on_ && RackStartsRecovery()) {
      StartRecovery(now, sample);
      ArmRackTimers(now, /*schedule_probe=*/false);
      return true;
    }
    if (ops_->ControlsWindow()) {
      ops_->ControlWindow(tcb_, sample);
    } else {
      GrowWindow(now, ack.newly_acked, sender_.flight_size() + ack.newly_acked);
    }
    if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/true);
    return true;
  }
  const bool restart = recovery_->OnAck(context_, now, ack, sample);
  if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/true);
  return restart;
}

void ConnectionControl::OnDuplicateAck(SimTime now, const AckInfo& ack) {
  const AckSample sample = Sample(now, ack);
  const bool rule_sets_window = ops_->ControlsWindow();
  ++tcb_.dupacks;
  if (rack_on_) ProcessTlpAck(now, ack, sample, /*advanced=*/false);
  if (tcb_.in_recovery()) {
    recovery_->OnDuplicateAck(context_, sample);
    if (rack_on_) ArmRackTimers(now, /*schedule_probe=*/false);
    return;
  }
  if (rack_on_) {
    // RFC 8985 §6.2 step 5: RACK's marks, not a count of duplicate ACKs, start recovery (as in
    // Linux's tcp_time_to_recover() with RACK on).
    if (RackStartsRecovery()) {
      StartRecovery(now, sample);
    } else {
      if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
      if (config_.right_edge_recovery && tcb_.dupacks < config_.dupack_threshold) sender_.SendNewSegment();
    }
    ArmRackTimers(now, /*schedule_probe=*/false);
    return;
  }
  const bool head_lost = recovery_->HeadIsLost(context_);
  if (tcb_.dupacks < config_.dupack_threshold && !head_lost) {
    if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
    // Balakrishnan et al. §4: send one new segment beyond the right edge for an early duplicate.
    if (config_.right_edge_recovery) sender_.SendNewSegment();
    return;
  }
  if ((tcb_.dupacks > config_.dupack_threshold && !head_lost) ||
      // RFC 6582 §3.2 step 2 (and RFC 6675 §5 step 4): enter recovery only if the ACK covers more
      // than "recover", so that one window of losses (or the segments resent after a timeout)
      // causes one reduction. Classic Reno (RFC 5681) has no such check.
      (recovery_->ChecksRecoverPoint() && ack.ack - 1 <= tcb_.recover)) {
    if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
    return;
  }
  StartRecovery(now, sample);
}

void ConnectionControl::StartRecovery(SimTime now, const AckSample& sample) {
  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.recover = sender_.snd_max() - 1;
  // RFC 8985 §7.4: recovery's own reduction ends a TLP episode (Linux's tcp_init_cwnd_reduction()).
  if (recovery_->UsesSack()) tlp_in_flight_ = false;
  recovery_->Enter(context_, now, sample);
}

void ConnectionControl::OnRetransmissionTimeout(SimTime now) {
  // RFC 5681 §3.1: the window rule's ssthresh and a loss window of one segment; RFC 6582 §3.2
  // step 4: after a timeout, "recover" is the highest sequence number sent.
  if (!context_.timer_resent) {
    const Bytes rule_ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
    // A timeout that ends a fast recovery keeps the recovery's smaller ssthresh: that recovery
    // already reduced it for this window of data, and FlightSize now counts what the recovery sent
    // besides (with NewReno's inflated window, far more than the path holds). RFC 5681 §3.1 eq. (4)
    // asks for "no more than" max(FlightSize / 2, 2 * SMSS), so the smaller value is within it;
    // Linux does not reduce again either (net/ipv4/tcp_input.c tcp_enter_loss(): "Reduce ssthresh
    // if it has not yet been made inside this window", only from Open or Disorder).
    tcb_.ssthresh = tcb_.in_recovery() ? std::min(tcb_.ssthresh, rule_ssthresh) : rule_ssthresh;
  }
  // RFC 5681 §3.1: eq. (4) applies when "the given segment has not yet been resent by way of the
  // retransmission timer"; when the timer expires again for it, "the value of ssthresh is held
  // constant". Linux's tcp_enter_loss() likewise calls the congestion control's ssthresh() only
  // once per loss episode, so a rule's own state (CUBIC's W_max) keeps the first timeout's window
  // rather than the loss window of one segment. FlightSize, which still counts everything sent
  // before the go-back, would otherwise raise ssthresh at each backed-off timeout.
  context_.timer_resent = true;
  tcb_.cwnd = tcb_.mss;
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
  c.in_recovery = tcb_.state != CongestionState::kOpen;
  c.dupthresh = config_.dupack_threshold;
  const Rack::Detection d = rack_.DetectLoss(*log_, c);
  rack_timeout_ = d.timeout;
  return d.newly_lost;
}

bool ConnectionControl::RackStartsRecovery() const {
  // In RTO recovery (kLoss) the sender goes back to snd_una and resends everything anyway; a
  // second reduction for the same window would follow RFC 6582's "recover" check no more.
  return tcb_.state == CongestionState::kOpen && log_->lost_bytes() > 0;
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
  return rack_on_ && sender_.snd_max() > sender_.snd_una() && tcb_.state == CongestionState::kOpen &&
         log_->sacked_bytes() == 0 && !tlp_in_flight_;
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
      StartRecovery(now, s);
    } else if (tcb_.in_recovery()) {
      recovery_->SendRetransmissions(context_);
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
