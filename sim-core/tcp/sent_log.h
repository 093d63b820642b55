// The sender's record of each data segment it has in flight, as today's stacks keep it (Linux's
// retransmission queue with its per-segment SACK/loss bits and rate-sample fields; quiche's unacked
// packet map): where each segment lies, when it was last sent, whether it was retransmitted, SACKed
// or marked lost, and the delivery-rate state it was sent with. From it come, per ACK, the RTT of
// the newest segment delivered, the segments the ACK delivered (for RACK, RFC 8985 §6.2), and a
// delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation-02, "the draft" below).
//
// A controller keeps one only when something needs it (BBR, CUBIC's HyStart++, RACK), so that the
// seed papers' flavors pay nothing for it.
#pragma once

#include <span>
#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "net/packet.h"

namespace tcb {

struct SentRecord {
  SeqNo seq = 0;
  SeqNo end = 0;  // One past the last byte.
  SimTime sent_time;       // The latest transmission.
  bool retransmitted = false;  // Sent more than once (Karn's rule; RACK's Segment.retransmitted).
  // Linux's per-segment "sacked" bits (include/net/tcp.h TCPCB_SACKED_ACKED, TCPCB_LOST,
  // TCPCB_SACKED_RETRANS), changed only through SentLog so that its in-flight count stays true.
  bool sacked = false;
  bool lost = false;               // Marked lost by loss detection.
  bool retrans_in_flight = false;  // A retransmission of it is in flight.
  // The draft §3.1 per-packet state, as of the latest transmission: C.delivered, C.delivered_time
  // and C.first_sent_time then, and whether the sender was application-limited.
  Bytes delivered = 0;
  SimTime delivered_time;
  SimTime first_sent_time;
  bool app_limited = false;
  // The draft's "P.delivered_time = 0": its delivery has been counted (a SACKed segment is not
  // counted again when the cumulative ACK passes it, nor a delivered one that is sent again).
  bool counted = false;

  Bytes bytes() const { return end - seq; }
};

// A delivery-rate sample (the draft's "rs"), one per ACK that delivered data.
struct RateSample {
  bool valid = false;      // False when the ACK delivered nothing new or the interval was implausible.
  Bytes delivered = 0;     // Data delivered over `interval`.
  SimTime interval;        // max(send_elapsed, ack_elapsed) (draft §3.3).
  SimTime send_elapsed;
  SimTime ack_elapsed;
  Bytes prior_delivered = 0;  // C.delivered when the newest delivered segment was sent.
  bool is_app_limited = false;
  // delivered / interval, in bits per second; 0 unless valid.
  double delivery_rate_bps() const;
};

// What one ACK told the sender.
struct AckDelivery {
  Bytes newly_acked = 0;   // Bytes the cumulative ACK passed that were not SACKed before.
  Bytes newly_sacked = 0;  // Bytes its SACK blocks covered for the first time.
  Bytes newly_delivered() const { return newly_acked + newly_sacked; }
  // The RTT of the most recently sent segment this ACK delivered that was never retransmitted
  // (Linux's ca_rtt_us in tcp_clean_rtx_queue(); Karn's rule), if there was one.
  bool has_rtt = false;
  SimTime rtt;
  RateSample rate;
  // The segments this ACK delivered (cumulatively or selectively), in ascending sequence order.
  std::vector<SentRecord> segments;
};

class SentLog {
 public:
  // Must be called for every data segment sent, retransmissions included (`seq` .. `seq + bytes`).
  void OnSent(SimTime now, SeqNo seq, Bytes bytes);
  // Processes one ACK: the cumulative ACK `snd_una` and the ACK's SACK blocks. The result is valid
  // until the next call.
  const AckDelivery& OnAck(SimTime now, SeqNo snd_una, const SackBlock* blocks, int count);
  // The draft §3.4: the sender has less than a segment of new data to send, no loss waiting to be
  // retransmitted and the window not full: samples taken while this "bubble" is in flight are
  // marked application-limited. `in_flight` is the sender's pipe.
  void MarkAppLimited(Bytes in_flight);
  // Loss detection found the segment lost (RFC 6675's IsLost(), RACK): it leaves the pipe, and a
  // retransmission of it that was in flight counts as lost too.
  void MarkLost(SentRecord& r);
  // RFC 6675's IsLost() now holds for the segment's original transmission: it leaves the pipe, but
  // a retransmission of it in flight stays there (SetPipe(): a segment at or below HighRxt counts
  // once more). NextSeg() rules (3) and (4) resend segments before IsLost() holds for them.
  void MarkOriginalLost(SentRecord& r);
  // After a retransmission timeout: every segment not SACKed is lost and retransmissions in flight
  // are forgotten, as the sender goes back to the first unacknowledged segment. SACK marks are kept
  // (RFC 6675 §5.1) unless the receiver reneged: the first outstanding segment is SACKed (Linux's
  // tcp_timeout_mark_lost()).
  void OnRetransmissionTimeout();

  // Bytes in the network (Linux's tcp_packets_in_flight(), RFC 6675's pipe in bytes): outstanding,
  // less SACKed, less marked lost, plus retransmissions in flight.
  Bytes in_flight() const { return outstanding_ - sacked_ - lost_ + retrans_; }
  Bytes sacked_bytes() const { return sacked_; }
  Bytes lost_bytes() const { return lost_; }
  // Bytes marked lost, not SACKed, with no retransmission in flight: what RFC 6675's NextSeg()
  // rule (1) may resend (0: no record needs looking at).
  Bytes awaiting_retransmission() const { return awaiting_; }

  // Records from the oldest outstanding segment upwards (flags change through MarkLost()).
  std::span<SentRecord> records() { return {records_.data() + head_, records_.size() - head_}; }
  std::span<const SentRecord> records() const { return {records_.data() + head_, records_.size() - head_}; }
  // The record holding `seq`, or nullptr.
  SentRecord* Find(SeqNo seq);
  // The index in records() of the first record ending above `seq` (records().size() if none).
  size_t FirstEndingAbove(SeqNo seq) const;
  // The index in records() of the first record neither SACKed nor marked lost (records().size()
  // if none): where RFC 6675's IsLost() marking resumes. A record stays SACKed or lost until the
  // cumulative ACK removes it, so the search goes on from where the last one stopped.
  size_t FirstUnmarked();
  bool empty() const { return head_ == records_.size(); }

  Bytes delivered() const { return delivered_; }  // The draft's C.delivered.
  bool app_limited() const { return app_limited_until_ != 0; }
  // The smallest RTT sampled over the last five minutes (Linux's tcp_min_rtt(), window
  // sysctl_tcp_min_rtt_wlen = 300 s), kept as the newest minimum; Infinite before any sample.
  SimTime min_rtt() const { return min_rtt_; }

 private:
  using Iterator = std::vector<SentRecord>::iterator;
  // Splits the record holding `seq` so that a record starts at `seq` (no-op at an edge or outside);
  // returns the first record ending above `seq`, the one starting at it after a split.
  Iterator SplitAt(SeqNo seq);
  // The first record whose end is above `seq`.
  Iterator LowerBound(SeqNo seq);
  Iterator begin() { return records_.begin() + static_cast<std::ptrdiff_t>(head_); }
  // Drops the oldest record (it must not be counted in the byte counts any more).
  void PopFront();
  void Deliver(SimTime now, SentRecord& r);
  void NoteRtt(SimTime now, SimTime rtt);

  // Sets r's flags, keeping the byte counts below true.
  void SetFlags(SentRecord& r, bool sacked, bool lost, bool retrans_in_flight);

  // The records are records_[head_..]: a vector whose delivered prefix is dropped in batches, so
  // that the binary searches run over contiguous memory (a deque's indexing costs several times as
  // much, and an ACK makes several searches).
  std::vector<SentRecord> records_;
  size_t head_ = 0;
  // Every record in records_[head_, unmarked_) is SACKed or marked lost (FirstUnmarked()).
  size_t unmarked_ = 0;
  AckDelivery ack_;
  Bytes outstanding_ = 0;  // Bytes of all records.
  Bytes sacked_ = 0;       // Of records SACKed.
  Bytes lost_ = 0;         // Of records marked lost and not SACKed.
  Bytes retrans_ = 0;      // Of records with a retransmission in flight, not SACKed.
  Bytes awaiting_ = 0;     // Of records marked lost, not SACKed, without a retransmission in flight.
  // The draft's connection state (§3.1): C.delivered, C.delivered_time, C.first_sent_time, C.app_limited.
  Bytes delivered_ = 0;
  SimTime delivered_time_;
  SimTime first_sent_time_;
  Bytes app_limited_until_ = 0;
  SimTime min_rtt_ = SimTime::Infinite();
  SimTime min_rtt_at_;
  // For the sample being built: whether a segment has been counted, and the newest transmission
  // among the delivered segments never retransmitted.
  bool have_newest_ = false;
  SimTime newest_rtt_sent_;
};

}  // namespace tcb
