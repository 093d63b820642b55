// The receiving half of a TCP endpoint.
#include "tcp/tcp_receiver.h"

#include <algorithm>

namespace tcb {

void TcpReceiver::Start(SeqNo next) {
  started_ = true;
  rcv_nxt_ = next;
}

void TcpReceiver::Insert(SeqNo start, SeqNo end) {
  // Merge [start, end) into the sorted disjoint list.
  auto it = std::lower_bound(out_of_order_.begin(), out_of_order_.end(), start,
                             [](const SackBlock& b, SeqNo s) { return b.end < s; });
  SackBlock merged{start, end};
  auto first = it;
  while (it != out_of_order_.end() && it->start <= merged.end) {
    merged.start = std::min(merged.start, it->start);
    merged.end = std::max(merged.end, it->end);
    ++it;
  }
  it = out_of_order_.erase(first, it);
  out_of_order_.insert(it, merged);
  last_changed_block_ = merged.start;
}

TcpReceiver::Outcome TcpReceiver::OnSegment(SeqNo seq, Bytes payload, bool fin) {
  Outcome out;
  const SeqNo end = seq + payload;
  if (fin) fin_seq_ = end;
  if (payload == 0 && !fin) return out;

  if (end + (fin ? 1 : 0) <= rcv_nxt_) {
    // RFC 5681 §4.2: a duplicate segment is acknowledged at once (the sender's ACK may have been lost).
    out.ack = AckUrgency::kNow;
    out.arrival = SegmentArrival::kDuplicate;
    return out;
  }
  if (seq > rcv_nxt_) {
    // RFC 5681 §4.2: an out-of-order segment triggers an immediate (duplicate) ACK.
    if (payload > 0) Insert(seq, end);
    out.ack = AckUrgency::kNow;
    out.arrival = SegmentArrival::kOutOfOrder;
    return out;
  }

  const bool had_gaps = !out_of_order_.empty();
  SeqNo new_next = std::max(rcv_nxt_, end);
  // Absorb buffered blocks that are now contiguous.
  size_t absorbed = 0;
  while (absorbed < out_of_order_.size() && out_of_order_[absorbed].start <= new_next) {
    new_next = std::max(new_next, out_of_order_[absorbed].end);
    ++absorbed;
  }
  out_of_order_.erase(out_of_order_.begin(), out_of_order_.begin() + absorbed);
  out.filled_last_gap = had_gaps && out_of_order_.empty();
  out.delivered = new_next - rcv_nxt_;
  bytes_delivered_ += out.delivered;
  rcv_nxt_ = new_next;
  if (fin_seq_ >= 0 && rcv_nxt_ == fin_seq_ && !fin_received_) {
    fin_received_ = true;
    rcv_nxt_ += 1;  // The FIN occupies one sequence number.
    out.fin_now = true;
  }

  if (had_gaps || out.fin_now || !delayed_ack_) {
    // RFC 5681 §4.2: acknowledge at once a segment that fills (part of) a gap; FINs are not delayed.
    out.ack = AckUrgency::kNow;
  } else if (++unacked_segments_ >= 2) {
    // RFC 1122 §4.2.3.2 / RFC 5681 §4.2: at least every second full-sized segment.
    out.ack = AckUrgency::kNow;
  } else {
    out.ack = AckUrgency::kDelayed;
  }
  return out;
}

int TcpReceiver::SackBlocks(SackBlock* out, int max) const {
  int n = 0;
  for (const SackBlock& b : out_of_order_) {
    if (b.start == last_changed_block_ && n < max) out[n++] = b;
  }
  for (auto it = out_of_order_.rbegin(); it != out_of_order_.rend() && n < max; ++it) {
    if (it->start != last_changed_block_) out[n++] = *it;
  }
  return n;
}

}  // namespace tcb
