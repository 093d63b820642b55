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

void ConnectionControl::SetState(SimTime now, CongestionState state) {
  if (state == state_) return;
  state_ = state;
  ops_->OnStateChange(tcb_, now, state);
}

Bytes ConnectionControl::InFlight() const {
  return log_ != nullptr && SackRecovery() ? log_->in_flight() : sender_.flight_size();
}

double ConnectionControl::pacing_rate_bps() const {
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
  pacer_.OnSent(now, segment.bytes, pacing_rate_bps());
}

AckSample ConnectionControl::Sample(SimTime now, const AckInfo& ack) {
  AckSample s;
  s.now = now;
  s.delivered = ack.newly_acked;
  if (log_ == nullptr) return s;
  s.prior_in_flight = log_->in_flight();
  const AckDelivery& d = log_->OnAck(now, sender_.snd_una(), ack.sack_blocks, ack.sack_count);
  if (SackRecovery()) s.lost = MarkLostSegments();
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
  ops_->IncreaseWindow(tcb_, now, acked);
  // Growth beyond what the receiver allows would never be used; keeping cwnd bounded keeps it meaningful.
  tcb_.cwnd = std::min(tcb_.cwnd, std::max(config_.receive_window, tcb_.mss));
}

bool ConnectionControl::CanSend(Bytes bytes) {
  if (SackRecovery() && tcb_.in_recovery) {
    // RFC 6675 §5 step (C): send while cwnd - pipe >= 1 SMSS.
    return tcb_.cwnd - log_->in_flight() >= bytes;
  }
  return sender_.snd_nxt() + bytes <= sender_.snd_una() + tcb_.cwnd;
}

bool ConnectionControl::OnAck(SimTime now, const AckInfo& ack) {
  const AckSample sample = Sample(now, ack);
  const bool rule_sets_window = ops_->ControlsWindow();
  if (state_ == CongestionState::kLoss && ack.ack - 1 >= tcb_.recover) SetState(now, CongestionState::kOpen);
  if (!tcb_.in_recovery) {
    tcb_.dupacks = 0;
    if (rule_sets_window) {
      ops_->ControlWindow(tcb_, sample);
    } else {
      GrowWindow(now, ack.newly_acked, sender_.flight_size() + ack.newly_acked);
    }
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
        // RFC 6937 §3 too: "At the end of recovery: cwnd = ssthresh".
        if (!rule_sets_window) tcb_.cwnd = tcb_.ssthresh;
        SetState(now, CongestionState::kOpen);
        if (rule_sets_window) ops_->ControlWindow(tcb_, sample);
      } else {
        UpdateRecoveryWindow(sample);
        SendSackRetransmissions();
      }
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
  if (tcb_.in_recovery) {
    if (SackRecovery()) {
      UpdateRecoveryWindow(sample);
      SendSackRetransmissions();
    } else if (rule_sets_window) {
      ops_->ControlWindow(tcb_, sample);
    } else if (config_.recovery != LossRecovery::kGoBackN) {
      // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 1: each further duplicate inflates cwnd by SMSS.
      tcb_.cwnd += tcb_.mss;
    }
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
  // above it), so marking stops at the first segment it does not hold for.
  for (SentRecord& r : log_->records()) {
    if (r.sacked || r.lost) continue;
    if (!sb.IsLost(r.seq, config_.dupack_threshold, tcb_.mss)) break;
    log_->MarkLost(r);
    marked += r.bytes();
  }
  return marked;
}

void ConnectionControl::EnterSackRecovery(SimTime now, const AckSample& sample) {
  // RFC 6675 §5 step 4: RecoveryPoint = HighData (set by the caller), cwnd = ssthresh, retransmit
  // the first segment presumed dropped, then let pipe govern what follows. RFC 6937 §3: PRR starts
  // with RecoverFS = snd.nxt - snd.una and sets cwnd on this ACK already.
  tcb_.in_recovery = true;
  SetState(now, CongestionState::kRecovery);
  if (config_.recovery == LossRecovery::kPrr) prr_.Start(sender_.snd_max() - sender_.snd_una());
  if (ops_->ControlsWindow()) {
    ops_->ControlWindow(tcb_, sample);
  } else if (config_.recovery == LossRecovery::kPrr) {
    UpdateRecoveryWindow(sample);
  } else {
    tcb_.cwnd = tcb_.ssthresh;
  }
  SendSackRetransmissions();
  SentRecord& head = log_->records().front();
  if (!head.retrans_in_flight) {
    // cwnd - pipe allowed nothing yet, or nothing was marked lost (DupThresh duplicates without
    // SACK blocks): RFC 6675 §5 (4.3) retransmits the first unacknowledged segment regardless.
    if (!head.lost) log_->MarkLost(head);
    sender_.RetransmitNow(head.seq, head.bytes());
  }
}

void ConnectionControl::UpdateRecoveryWindow(const AckSample& sample) {
  if (ops_->ControlsWindow()) {
    // The rule sets the window in recovery too (Linux's cong_control runs instead of PRR).
    ops_->ControlWindow(tcb_, sample);
  } else if (config_.recovery == LossRecovery::kPrr) {
    tcb_.cwnd = prr_.OnAck(sample.delivered, log_->in_flight(), tcb_.ssthresh, tcb_.mss);
  }
}

void ConnectionControl::SendSackRetransmissions() {
  while (tcb_.cwnd - log_->in_flight() >= tcb_.mss) {
    // RFC 6675 NextSeg() rule 1: the lowest segment deemed lost and not yet retransmitted. New data
    // (rule 2) goes through CanSend().
    const SentRecord* hole = nullptr;
    for (const SentRecord& r : log_->records()) {
      if (r.lost && !r.retrans_in_flight && !r.sacked) {
        hole = &r;
        break;
      }
    }
    if (hole == nullptr) return;
    sender_.RetransmitNow(hole->seq, hole->bytes());
  }
}

void ConnectionControl::OnRetransmissionTimeout(SimTime now) {
  // RFC 5681 §3.1: the window rule's ssthresh and a loss window of one segment; RFC 6582 §3.2
  // step 4: after a timeout, "recover" is the highest sequence number sent.
  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.cwnd = tcb_.mss;
  tcb_.in_recovery = false;
  tcb_.dupacks = 0;
  tcb_.recover = sender_.snd_max() - 1;
  if (log_ != nullptr) log_->OnRetransmissionTimeout();
  SetState(now, CongestionState::kLoss);
}

}  // namespace tcb
