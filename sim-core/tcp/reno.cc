// Tahoe, Reno and NewReno.
#include "tcp/reno.h"

#include <algorithm>

namespace tcb {

void RenoControl::OnEstablished(SimTime, bool syn_lost) {
  // RFC 5681 §3.1: after a lost SYN or SYN-ACK the initial window is one segment.
  tcb_.cwnd = syn_lost ? tcb_.mss : config_.InitialWindowBytes();
}

Bytes RenoControl::HalfFlight() const {
  return std::max(sender_.flight_size() / 2, 2 * tcb_.mss);
}

void RenoControl::GrowWindow(Bytes acked) {
  if (tcb_.cwnd < tcb_.ssthresh) {
    // RFC 5681 §3.1 eq. (2): cwnd += min(N, SMSS) per ACK in slow start.
    tcb_.cwnd += std::min(acked, tcb_.mss);
  } else {
    // RFC 5681 §3.1 eq. (3): cwnd += SMSS*SMSS/cwnd per ACK, at least one byte.
    tcb_.cwnd += std::max<Bytes>(1, tcb_.mss * tcb_.mss / tcb_.cwnd);
  }
  // Growth beyond what the receiver allows would never be used; keeping cwnd bounded keeps it meaningful.
  tcb_.cwnd = std::min(tcb_.cwnd, std::max(config_.receive_window, tcb_.mss));
}

bool RenoControl::OnNewAck(SimTime, SeqNo ack, Bytes acked) {
  if (!tcb_.in_recovery) {
    tcb_.dupacks = 0;
    GrowWindow(acked);
    return true;
  }
  if (config_.flavor == TcpFlavor::kReno) {
    // RFC 5681 §3.2 step 6: the next ACK of new data ends fast recovery and deflates the window.
    tcb_.in_recovery = false;
    tcb_.dupacks = 0;
    tcb_.cwnd = tcb_.ssthresh;
    return true;
  }
  // NewReno, RFC 6582 §3.2 step 3.
  if (ack - 1 >= tcb_.recover) {
    // Full acknowledgement: deflate to min(ssthresh, max(FlightSize, SMSS) + SMSS) and leave recovery.
    tcb_.cwnd = std::min(tcb_.ssthresh, std::max(sender_.flight_size(), tcb_.mss) + tcb_.mss);
    tcb_.in_recovery = false;
    tcb_.dupacks = 0;
    return true;
  }
  // Partial acknowledgement: retransmit the first unacknowledged segment, deflate by the amount
  // acknowledged, add back one SMSS if at least one SMSS was acknowledged, stay in recovery.
  sender_.RetransmitNow(ack);
  tcb_.cwnd = std::max(tcb_.cwnd - acked, tcb_.mss);
  if (acked >= tcb_.mss) tcb_.cwnd += tcb_.mss;
  // RFC 6582 §3.2 step 3 and §4 ("impatient" variant): only the first partial ACK resets the timer.
  const bool restart = tcb_.first_partial_ack;
  tcb_.first_partial_ack = false;
  return restart;
}

void RenoControl::OnDuplicateAck(SimTime, SeqNo ack) {
  ++tcb_.dupacks;
  if (tcb_.in_recovery) {
    // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 1: each further duplicate inflates cwnd by SMSS.
    tcb_.cwnd += tcb_.mss;
    return;
  }
  if (tcb_.dupacks != config_.dupack_threshold) return;
  // RFC 6582 §3.2 step 2: enter fast retransmit only if the ACK covers more than "recover", so that
  // one window of losses (or the segments resent after a timeout) causes one reduction. 4.3BSD-Tahoe
  // lacked this check; ns-2 adds it to Tahoe as its default "bugfix", and so do we.
  if (config_.flavor != TcpFlavor::kReno && ack - 1 <= tcb_.recover) return;

  tcb_.ssthresh = HalfFlight();
  tcb_.recover = sender_.snd_max() - 1;
  if (config_.flavor == TcpFlavor::kTahoe) {
    // Tahoe: retransmit and slow-start from the first unacknowledged segment (go-back-N).
    tcb_.cwnd = tcb_.mss;
    tcb_.dupacks = 0;
    sender_.GoBackN();
    sender_.RetransmitNow(ack);
    return;
  }
  // RFC 5681 §3.2 steps 2-3: retransmit, then cwnd = ssthresh + 3*SMSS for the three segments that
  // left the network.
  sender_.RetransmitNow(ack);
  tcb_.cwnd = tcb_.ssthresh + 3 * tcb_.mss;
  tcb_.in_recovery = true;
  tcb_.first_partial_ack = true;
}

void RenoControl::OnRetransmissionTimeout(SimTime) {
  // RFC 5681 §3.1 eq. (4) and the loss window of one segment; RFC 6582 §3.2 step 4: after a timeout,
  // "recover" is the highest sequence number sent.
  tcb_.ssthresh = HalfFlight();
  tcb_.cwnd = tcb_.mss;
  tcb_.in_recovery = false;
  tcb_.dupacks = 0;
  tcb_.recover = sender_.snd_max() - 1;
}

void RenoControl::OnIdleRestart(SimTime) {
  // RFC 5681 §4.1: restart window = min(IW, cwnd). With slow-start restart off ("nssr", as in SunOS
  // per TCP/SPAND §6.2) the window is kept.
  if (config_.slow_start_restart) tcb_.cwnd = std::min(tcb_.cwnd, config_.InitialWindowBytes());
}

}  // namespace tcb
