// SACK-based loss recovery.
#include "tcp/sack_recovery.h"

#include <algorithm>

namespace tcb {

Bytes SackRecovery::MarkLost(RecoveryContext& c) {
  if (rack_) return 0;  // RFC 8985 §6.2: RACK's marks replace IsLost()'s.
  const SackScoreboard& sb = c.sender.scoreboard();
  SentLog& log = *c.log;
  Bytes marked = 0;
  // IsLost() holds for a prefix of the unSACKed segments (the lower a segment, the more is SACKed
  // above it), so marking starts at the first segment neither SACKed nor lost and stops at the first
  // it does not hold for.
  const auto records = log.records();
  for (size_t i = log.FirstUnmarked(); i < records.size(); ++i) {
    SentRecord& r = records[i];
    if (r.sacked || r.lost) continue;
    if (!sb.IsLost(r.seq, c.config.dupack_threshold, c.tcb.mss)) break;
    // A segment NextSeg() rule (3) or (4) has already resent keeps its retransmission in flight:
    // rule (1) resends only segments above HighRxt.
    log.MarkOriginalLost(r);
    marked += r.bytes();
  }
  return marked;
}

bool SackRecovery::HeadIsLost(const RecoveryContext& c) const {
  // RFC 6675 §5: with SACK, the first unacknowledged segment may be deemed lost before DupThresh
  // duplicates arrive (IsLost(HighACK + 1)).
  return !c.log->empty() && c.log->records().front().lost;
}

bool SackRecovery::WindowAllows(const RecoveryContext& c, Bytes bytes) const {
  if (c.tcb.state == CongestionState::kOpen) return RecoveryOps::WindowAllows(c, bytes);
  // RFC 6675 §5 step (C): send while cwnd - pipe >= 1 SMSS. After a timeout too: the go-back skips
  // SACKed data, which has left the network, so the window counts the pipe (Linux's
  // tcp_packets_in_flight() in the Loss state; RFC 6675 §5.1 uses the SACK information).
  return c.tcb.cwnd - c.log->in_flight() >= bytes;
}

void SackRecovery::EnterWindow(RecoveryContext& c, const AckSample& sample) {
  if (c.rule.ControlsWindow()) {
    c.rule.ControlWindow(c.tcb, sample);
  } else {
    c.tcb.cwnd = c.tcb.ssthresh;
  }
}

void SackRecovery::UpdateWindow(RecoveryContext& c, const AckSample& sample, bool) {
  // The rule sets the window in recovery too (Linux's cong_control runs instead of PRR); RFC 6675
  // keeps cwnd = ssthresh.
  if (c.rule.ControlsWindow()) c.rule.ControlWindow(c.tcb, sample);
}

void SackRecovery::Enter(RecoveryContext& c, SimTime now, const AckSample& sample) {
  // RFC 6675 §5 step 4: RecoveryPoint = HighData (set by the caller), cwnd = ssthresh, retransmit
  // the first segment presumed dropped, then let pipe govern what follows.
  c.SetState(now, CongestionState::kRecovery);
  EnterWindow(c, sample);
  SentLog& log = *c.log;
  if (rack_) {
    SendRetransmissions(c);
    // RFC 6675 §5 (4.3) for RACK's marks: the first segment RACK found lost goes out even when
    // cwnd - pipe allowed nothing (RFC 9937 §6.2 makes PRR allow it anyway).
    for (const SentRecord& r : log.records()) {
      if (!r.lost || r.sacked) continue;
      if (!r.retrans_in_flight) c.sender.RetransmitNow(r.seq, r.bytes());
      break;
    }
    return;
  }
  // RFC 6675 §5 (4.3): retransmit the first unacknowledged segment, whatever cwnd - pipe says (it is
  // lost by IsLost(), or by DupThresh duplicates without SACK blocks), and set HighRxt and
  // RescueRxt to its end; then step (C).
  SentRecord& head = log.records().front();
  const SeqNo head_end = head.end;
  if (!head.retrans_in_flight) {
    if (!head.lost) log.MarkLost(head);
    c.sender.RetransmitNow(head.seq, head.bytes());
  }
  high_rxt_ = rescue_rxt_ = head_end;
  SendRetransmissions(c);
}

bool SackRecovery::OnAck(RecoveryContext& c, SimTime now, const AckInfo& ack, const AckSample& sample) {
  // RFC 6675 §5: recovery ends when the ACK covers RecoveryPoint; until then each ACK may release
  // retransmissions of lost segments.
  if (ack.ack - 1 >= c.tcb.recover) {
    const bool rule_sets_window = c.rule.ControlsWindow();
    c.tcb.dupacks = 0;
    // RFC 9937 §6 too: recovery ends with cwnd = ssthresh.
    if (!rule_sets_window) c.tcb.cwnd = c.tcb.ssthresh;
    c.SetState(now, CongestionState::kOpen);
    if (rule_sets_window) c.rule.ControlWindow(c.tcb, sample);
  } else {
    // RFC 9937 §6.2: an ACK that advances snd_una and marks nothing lost is a "safeACK".
    UpdateWindow(c, sample, /*safe_ack=*/sample.lost == 0);
    SendRetransmissions(c);
  }
  return true;
}

void SackRecovery::OnDuplicateAck(RecoveryContext& c, const AckSample& sample) {
  UpdateWindow(c, sample, /*safe_ack=*/false);
  SendRetransmissions(c);
}

void SackRecovery::SendRetransmissions(RecoveryContext& c) {
  // RFC 6675 §5 step (C), (C.1)-(C.5); pipe is the SentLog's in_flight().
  while (c.tcb.cwnd - c.log->in_flight() >= c.tcb.mss) {
    const NextSegment next = NextSeg(c);
    if (next.rule == 0) return;
    c.sender.RetransmitNow(next.seq, next.bytes);
    if (next.rule == 4) {
      // Rule (4): RescueRxt = RecoveryPoint, so one rescue per recovery; HighRxt stays.
      rescue_rxt_ = c.tcb.recover + 1;
    } else {
      high_rxt_ = std::max(high_rxt_, next.seq + next.bytes);  // (C.2)
    }
  }
}

SackRecovery::NextSegment SackRecovery::NextSeg(const RecoveryContext& c) const {
  const SentLog& log = *c.log;
  const auto records = log.records();
  // Rule (1): the lowest segment deemed lost (IsLost(), or RACK's marks) not yet retransmitted; the
  // SentLog counts such bytes, so the records are searched only when there is one.
  if (log.awaiting_retransmission() > 0) {
    for (const SentRecord& r : records) {
      if (r.lost && !r.sacked && !r.retrans_in_flight) return {1, r.seq, r.bytes()};
    }
  }
  // Rule (2): new data, if the application has some and the receive window allows it; the sender
  // sends it through CanSend() when the controller returns.
  if (c.sender.NextSegmentBytes() > 0) return {};
  // Rules (3) and (4) are SHOULDs for recovery driven by IsLost(). With RACK-TLP (RFC 8985) the
  // loss marks are RACK's: rule (3) would resend the holes RACK is giving their reordering window
  // (§6.2), and the lost tail that rule (4) rescues is the tail loss probe's (§7).
  if (rack_) return {};
  // Rule (3): the lowest unSACKed segment above HighRxt (1.a) and below the highest octet covered by
  // any received SACK (1.b). Records are in sequence order: the search starts at HighRxt and ends
  // at the highest SACK.
  const SeqNo highest_sack = c.sender.scoreboard().HighestSacked(c.sender.snd_una());
  for (size_t i = log.FirstEndingAbove(high_rxt_); i < records.size() && records[i].end <= highest_sack; ++i) {
    const SentRecord& r = records[i];
    if (r.seq >= high_rxt_ && !r.sacked && !r.retrans_in_flight && !r.lost) return {3, r.seq, r.bytes()};
  }
  // Rule (4): once per recovery (HighACK > RescueRxt), one segment holding the highest outstanding
  // unSACKed byte. We resend it only from above the highest SACK, the tail no SACK can reveal
  // (below it, rule (3) has resent every hole above HighRxt). It stays in pipe like any
  // retransmission in flight, one segment more than RFC 6675's SetPipe() counts.
  if (c.sender.snd_una() > rescue_rxt_ && !log.empty()) {
    const SentRecord& top = log.records().back();
    if (!top.sacked && !top.retrans_in_flight && top.seq >= highest_sack) return {4, top.seq, top.bytes()};
  }
  return {};
}

void PrrRecovery::EnterWindow(RecoveryContext& c, const AckSample& sample) {
  // RFC 9937 §6.1: PRR starts with RecoverFS (the data outstanding, less what was SACKed before this
  // ACK) and sets cwnd on this ACK already (§6.2).
  prr_.Start(Prr::RecoverFs(c.sender.snd_max() - c.sender.snd_una(), c.log->sacked_bytes(), sample.newly_sacked,
                            sample.newly_cumulative));
  if (c.rule.ControlsWindow()) {
    c.rule.ControlWindow(c.tcb, sample);
  } else {
    UpdateWindow(c, sample, /*safe_ack=*/false);
  }
}

void PrrRecovery::UpdateWindow(RecoveryContext& c, const AckSample& sample, bool safe_ack) {
  if (c.rule.ControlsWindow()) {
    c.rule.ControlWindow(c.tcb, sample);
    return;
  }
  // RFC 9937 §6.2: an ACK that delivered nothing leaves cwnd as it is.
  if (const auto cwnd = prr_.OnAck(sample.delivered, c.log->in_flight(), c.tcb.ssthresh, c.tcb.mss, safe_ack)) {
    c.tcb.cwnd = *cwnd;
  }
}

}  // namespace tcb
