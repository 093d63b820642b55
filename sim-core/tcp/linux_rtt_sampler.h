// The RTT samples a Linux sender takes, one from nearly every ACK (`tcp.rtoRules: "linux"`):
// net/ipv4/tcp_input.c tcp_clean_rtx_queue() times the oldest segment the ACK acknowledges
// cumulatively (seq_rtt_us, from its skb_mstamp), unless the ACK covers data that was ever
// retransmitted (FLAG_RETRANS_DATA_ACKED: Karn's rule); tcp_sacktag_one() times the first segment
// it SACKs that was never retransmitted (sack_rtt_us), which tcp_ack_update_rtt() takes when the
// cumulative part gave none. RFC 6298 instead times one segment per round trip.
//
// This keeps each outstanding segment's send time and whether it was ever retransmitted or SACKed,
// as the retransmission queue's skbs do (skb->skb_mstamp_ns, TCPCB_EVER_RETRANS,
// TCPCB_SACKED_ACKED); the SYN counts as a segment of one sequence number.
#pragma once

#include <deque>
#include <optional>

#include "core/time.h"
#include "core/units.h"
#include "net/packet.h"

namespace tcb {

class LinuxRttSampler {
 public:
  // Must be called for every segment sent that occupies sequence space (SYN, data, FIN),
  // retransmissions included: [seq, end).
  void OnSent(SimTime now, SeqNo seq, SeqNo end);
  // One ACK: the cumulative ACK `snd_una` and the ACK's SACK blocks. Returns tcp_ack_update_rtt()'s
  // sample, seq_rtt_us or else sack_rtt_us, if there is one.
  std::optional<SimTime> OnAck(SimTime now, SeqNo snd_una, const SackBlock* blocks, int count);

  size_t outstanding_segments() const { return records_.size(); }

 private:
  struct Record {
    SeqNo seq = 0;
    SeqNo end = 0;
    SimTime sent;
    bool retransmitted = false;
    bool sacked = false;
  };
  // Splits the record holding `seq` so that a record starts there; returns the index of the first
  // record ending above `seq`.
  size_t SplitAt(SeqNo seq);

  std::deque<Record> records_;  // In sequence order, disjoint, from snd_una.
};

}  // namespace tcb
