// Tahoe, Reno, NewReno and SACK.
#include "tcp/reno.h"

#include <algorithm>

namespace tcb {

void RenoControl::OnEstablished(SimTime, bool syn_lost) {
  // RFC 5681 §3.1: after a lost SYN or SYN-ACK the initial window is one segment.
  tcb_.cwnd = syn_lost ? tcb_.mss : config_.InitialWindowBytes();
}

void RenoControl::OnSendStart(SimTime, bool first, Bytes) {
  // RFC 5681 §4.1: restart window = min(IW, cwnd) after an idle period. With slow-start restart
  // off ("nssr", as in SunOS per TCP/SPAND §6.2) the window is kept.
  if (!first && config_.slow_start_restart) {
    tcb_.cwnd = std::min(tcb_.cwnd, config_.InitialWindowBytes());
  }
}

void RenoControl::GrowWindow(SimTime now, Bytes acked, Bytes flight_before) {
  // RFC 7661 §4.3 (when enabled): an ACK that finds the window not in use does not grow it.
  if (config_.cwnd_validation && !WindowInUse(tcb_, flight_before)) return;
  ops_->IncreaseWindow(tcb_, now, acked);
  // Growth beyond what the receiver allows would never be used; keeping cwnd bounded keeps it meaningful.
  tcb_.cwnd = std::min(tcb_.cwnd, std::max(config_.receive_window, tcb_.mss));
}

bool RenoControl::CanSend(Bytes bytes) {
  if (config_.flavor == TcpFlavor::kSack && tcb_.in_recovery) {
    // RFC 6675 §5 step (C): send while cwnd - pipe >= 1 SMSS.
    return tcb_.cwnd - Pipe() >= bytes;
  }
  return sender_.snd_nxt() + bytes <= sender_.snd_una() + tcb_.cwnd;
}

bool RenoControl::OnAck(SimTime now, const AckInfo& ack) {
  if (!tcb_.in_recovery) {
    tcb_.dupacks = 0;
    GrowWindow(now, ack.newly_acked, sender_.flight_size() + ack.newly_acked);
    return true;
  }
  switch (config_.flavor) {
    case TcpFlavor::kTahoe:  // Tahoe has no fast recovery.
    case TcpFlavor::kReno:
      // RFC 5681 §3.2 step 6: the next ACK of new data ends fast recovery and deflates the window.
      tcb_.in_recovery = false;
      tcb_.dupacks = 0;
      tcb_.cwnd = tcb_.ssthresh;
      return true;
    case TcpFlavor::kSack:
      // RFC 6675 §5: recovery ends when the ACK covers RecoveryPoint; until then each ACK may
      // release retransmissions of holes.
      if (ack.ack - 1 >= tcb_.recover) {
        tcb_.in_recovery = false;
        tcb_.dupacks = 0;
        tcb_.cwnd = tcb_.ssthresh;
      } else {
        tcb_.high_rxt = std::max(tcb_.high_rxt, ack.ack);
        SendSackRetransmissions();
      }
      return true;
    case TcpFlavor::kNewReno:
      break;
  }
  // NewReno, RFC 6582 §3.2 step 3.
  if (ack.ack - 1 >= tcb_.recover) {
    // Full acknowledgement: deflate to min(ssthresh, max(FlightSize, SMSS) + SMSS) and leave recovery.
    tcb_.cwnd = std::min(tcb_.ssthresh, std::max(sender_.flight_size(), tcb_.mss) + tcb_.mss);
    tcb_.in_recovery = false;
    tcb_.dupacks = 0;
    return true;
  }
  // Partial acknowledgement: retransmit the first unacknowledged segment, deflate by the amount
  // acknowledged, add back one SMSS if at least one SMSS was acknowledged, stay in recovery.
  sender_.RetransmitNow(ack.ack);
  tcb_.cwnd = std::max(tcb_.cwnd - ack.newly_acked, tcb_.mss);
  if (ack.newly_acked >= tcb_.mss) tcb_.cwnd += tcb_.mss;
  // RFC 6582 §3.2 step 3 and §4 ("impatient" variant): only the first partial ACK resets the timer.
  const bool restart = tcb_.first_partial_ack;
  tcb_.first_partial_ack = false;
  return restart;
}

void RenoControl::OnDuplicateAck(SimTime now, const AckInfo& ack) {
  ++tcb_.dupacks;
  if (tcb_.in_recovery) {
    if (config_.flavor == TcpFlavor::kSack) {
      SendSackRetransmissions();
    } else if (config_.flavor != TcpFlavor::kTahoe) {
      // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 1: each further duplicate inflates cwnd by SMSS.
      tcb_.cwnd += tcb_.mss;
    }
    return;
  }
  const bool sack_says_lost =
      config_.flavor == TcpFlavor::kSack &&
      sender_.scoreboard().IsLost(sender_.snd_una(), config_.dupack_threshold, tcb_.mss);
  if (tcb_.dupacks < config_.dupack_threshold && !sack_says_lost) {
    // Balakrishnan et al. §4: send one new segment beyond the right edge for an early duplicate.
    if (config_.right_edge_recovery) sender_.SendNewSegment();
    return;
  }
  if (tcb_.dupacks > config_.dupack_threshold && !sack_says_lost) return;
  // RFC 6582 §3.2 step 2 (and RFC 6675 §5 step 4): enter recovery only if the ACK covers more than
  // "recover", so that one window of losses (or the segments resent after a timeout) causes one
  // reduction. Classic Reno (RFC 5681) has no such check. 4.3BSD-Tahoe lacked it too; ns-2 adds it
  // to Tahoe as its default "bugfix", and so do we.
  if (config_.flavor != TcpFlavor::kReno && ack.ack - 1 <= tcb_.recover) return;

  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.recover = sender_.snd_max() - 1;
  switch (config_.flavor) {
    case TcpFlavor::kTahoe:
      // Tahoe: retransmit and slow-start from the first unacknowledged segment (go-back-N).
      tcb_.cwnd = tcb_.mss;
      tcb_.dupacks = 0;
      sender_.GoBackN();
      sender_.RetransmitNow(ack.ack);
      return;
    case TcpFlavor::kSack:
      EnterSackRecovery(ack.ack);
      return;
    case TcpFlavor::kReno:
    case TcpFlavor::kNewReno:
      // RFC 5681 §3.2 steps 2-3: retransmit, then cwnd = ssthresh + 3*SMSS for the three segments
      // that left the network.
      sender_.RetransmitNow(ack.ack);
      tcb_.cwnd = tcb_.ssthresh + 3 * tcb_.mss;
      tcb_.in_recovery = true;
      tcb_.first_partial_ack = true;
      return;
  }
}

void RenoControl::EnterSackRecovery(SeqNo ack) {
  // RFC 6675 §5 step 4: RecoveryPoint = HighData (set by the caller), cwnd = ssthresh =
  // FlightSize / 2, retransmit the first segment, then let pipe govern what follows.
  tcb_.cwnd = tcb_.ssthresh;
  tcb_.in_recovery = true;
  tcb_.high_rxt = ack;
  SendSackRetransmissions();
  if (tcb_.high_rxt == ack) {
    // NextSeg() found nothing marked lost yet (three duplicate ACKs without SACK blocks): the
    // first unacknowledged segment is the one the duplicates point at.
    const SackBlock* next = sender_.scoreboard().NextBlockAtOrAfter(ack);
    const Bytes hole = next != nullptr ? next->start - ack : tcb_.mss;
    sender_.RetransmitNow(ack, std::min(hole, tcb_.mss));
    tcb_.high_rxt = ack + std::min(hole, tcb_.mss);
  }
}

Bytes RenoControl::Pipe() const {
  const SackScoreboard& sb = sender_.scoreboard();
  const SeqNo una = sender_.snd_una();
  const SeqNo max = sender_.snd_max();
  Bytes pipe = 0;
  for (SeqNo s = una; s < max;) {
    const SackBlock* block = sb.NextBlockAtOrAfter(s);
    if (sb.IsSacked(s)) {
      // Skip the SACKed run.
      for (const SackBlock& b : sb.blocks()) {
        if (b.start <= s && s < b.end) s = b.end;
      }
      continue;
    }
    const SeqNo end = std::min({s + tcb_.mss, max, block != nullptr ? block->start : max});
    const Bytes len = end - s;
    // RFC 6675 SetPipe(): count an unSACKed segment once if not lost, and once more if it was
    // retransmitted.
    if (!sb.IsLost(s, config_.dupack_threshold, tcb_.mss)) pipe += len;
    if (s < tcb_.high_rxt) pipe += len;
    s = end;
  }
  return pipe;
}

SeqNo RenoControl::NextLostHole() const {
  const SackScoreboard& sb = sender_.scoreboard();
  const SeqNo high_ack = sb.HighestSacked(sender_.snd_una());
  for (SeqNo s = std::max(sender_.snd_una(), tcb_.high_rxt); s < high_ack;) {
    if (sb.IsSacked(s)) {
      for (const SackBlock& b : sb.blocks()) {
        if (b.start <= s && s < b.end) s = b.end;
      }
      continue;
    }
    if (sb.IsLost(s, config_.dupack_threshold, tcb_.mss)) return s;
    const SackBlock* next = sb.NextBlockAtOrAfter(s);
    s = std::min(s + tcb_.mss, next != nullptr ? next->start : high_ack);
  }
  return -1;
}

void RenoControl::SendSackRetransmissions() {
  while (tcb_.cwnd - Pipe() >= tcb_.mss) {
    const SeqNo hole = NextLostHole();
    if (hole < 0) return;  // New data, if any, goes through CanSend().
    const SackBlock* next = sender_.scoreboard().NextBlockAtOrAfter(hole);
    const Bytes len = std::min(tcb_.mss, next != nullptr ? next->start - hole : tcb_.mss);
    sender_.RetransmitNow(hole, len);
    tcb_.high_rxt = hole + len;
  }
}

void RenoControl::OnRetransmissionTimeout(SimTime now) {
  // RFC 5681 §3.1: the window rule's ssthresh and a loss window of one segment; RFC 6582 §3.2
  // step 4: after a timeout, "recover" is the highest sequence number sent.
  tcb_.ssthresh = ops_->SsThresh(tcb_, now, sender_.flight_size());
  tcb_.cwnd = tcb_.mss;
  tcb_.in_recovery = false;
  tcb_.dupacks = 0;
  tcb_.recover = sender_.snd_max() - 1;
  tcb_.high_rxt = sender_.snd_una();
}

}  // namespace tcb
