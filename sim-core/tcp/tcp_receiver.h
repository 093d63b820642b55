// The receiving half of a TCP endpoint: reassembly, in-order delivery and the decision when to ACK
// (RFC 5681 §4.2, RFC 1122 §4.2.3.2).
#pragma once

#include <vector>

#include "core/units.h"
#include "net/packet.h"

namespace tcb {

enum class AckUrgency : uint8_t {
  kNone,     // Nothing to acknowledge.
  kDelayed,  // Acknowledge within the delayed-ACK timeout (or with the next segment sent).
  kNow,      // Acknowledge at once.
};

// How a segment's data related to what had arrived before it.
enum class SegmentArrival : uint8_t {
  kInOrder,     // It starts at or below rcv_nxt and brings new data (or the FIN).
  kOutOfOrder,  // It starts above rcv_nxt: a gap lies before it.
  kDuplicate,   // Everything in it had arrived.
};

class TcpReceiver {
 public:
  explicit TcpReceiver(bool delayed_ack) : delayed_ack_(delayed_ack) {}

  // Starts the receive sequence space: `next` is the first sequence number expected.
  void Start(SeqNo next);
  bool started() const { return started_; }

  struct Outcome {
    Bytes delivered = 0;     // Bytes that became deliverable in order.
    bool fin_now = false;    // The peer's FIN was reached in sequence.
    AckUrgency ack = AckUrgency::kNone;
    SegmentArrival arrival = SegmentArrival::kInOrder;
    bool filled_last_gap = false;  // In order, and no out-of-order data waits any more.
  };
  // Processes the sequence-space part of a segment (payload bytes at `seq`, and FIN after them).
  Outcome OnSegment(SeqNo seq, Bytes payload, bool fin);
  // An ACK for everything received has been sent (pure or piggybacked).
  void OnAckSent() { unacked_segments_ = 0; }

  SeqNo rcv_nxt() const { return rcv_nxt_; }
  bool fin_received() const { return fin_received_; }
  Bytes bytes_delivered() const { return bytes_delivered_; }
  bool has_gaps() const { return !out_of_order_.empty(); }
  // Up to `max` SACK blocks (RFC 2018): the most recently changed block first, then the others.
  int SackBlocks(SackBlock* out, int max) const;

 private:
  void Insert(SeqNo start, SeqNo end);

  bool delayed_ack_;
  bool started_ = false;
  SeqNo rcv_nxt_ = 0;
  SeqNo fin_seq_ = -1;  // Sequence number of the peer's FIN once seen, even out of order.
  bool fin_received_ = false;
  Bytes bytes_delivered_ = 0;
  int unacked_segments_ = 0;
  std::vector<SackBlock> out_of_order_;  // Disjoint, sorted, all above rcv_nxt_.
  SeqNo last_changed_block_ = -1;        // Start of the block most recently extended.
};

}  // namespace tcb
