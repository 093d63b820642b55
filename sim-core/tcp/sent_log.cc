// The sender's per-segment record and delivery-rate samples.
#include "tcp/sent_log.h"

#include <algorithm>

namespace tcb {

namespace {
// Linux's sysctl_tcp_min_rtt_wlen default: the window of tcp_min_rtt().
constexpr SimTime kMinRttWindow = SimTime::Seconds(300);
}  // namespace

double RateSample::delivery_rate_bps() const {
  if (!valid || interval <= SimTime::Zero()) return 0;
  return static_cast<double>(delivered) * 8 / interval.seconds();
}

SentLog::Iterator SentLog::LowerBound(SeqNo seq) {
  return std::partition_point(begin(), records_.end(), [seq](const SentRecord& r) { return r.end <= seq; });
}

size_t SentLog::FirstEndingAbove(SeqNo seq) const {
  const auto first = records_.begin() + static_cast<std::ptrdiff_t>(head_);
  return static_cast<size_t>(
      std::partition_point(first, records_.end(), [seq](const SentRecord& r) { return r.end <= seq; }) - first);
}

size_t SentLog::FirstUnmarked() {
  unmarked_ = std::max(unmarked_, head_);
  while (unmarked_ < records_.size() && (records_[unmarked_].sacked || records_[unmarked_].lost)) ++unmarked_;
  return unmarked_ - head_;
}

SentRecord* SentLog::Find(SeqNo seq) {
  auto it = LowerBound(seq);
  return it != records_.end() && it->seq <= seq ? &*it : nullptr;
}

SentLog::Iterator SentLog::SplitAt(SeqNo seq) {
  auto it = LowerBound(seq);
  if (it == records_.end() || it->seq >= seq) return it;
  SentRecord upper = *it;
  upper.seq = seq;
  it->end = seq;
  // The new record has its original's flags: a marked prefix stays marked, one record longer.
  if (static_cast<size_t>(it - records_.begin()) < unmarked_) ++unmarked_;
  return records_.insert(it + 1, upper);
}

void SentLog::PopFront() {
  ++head_;
  if (head_ == records_.size()) {
    records_.clear();
    head_ = unmarked_ = 0;
  } else if (head_ >= 64 && 2 * head_ >= records_.size()) {
    // Amortised O(1) per record: the prefix moves out once it is as long as what remains.
    records_.erase(records_.begin(), begin());
    unmarked_ = unmarked_ > head_ ? unmarked_ - head_ : 0;
    head_ = 0;
  }
}

void SentLog::SetFlags(SentRecord& r, bool sacked, bool lost, bool retrans_in_flight) {
  const Bytes n = r.bytes();
  sacked_ += n * (static_cast<int>(sacked) - static_cast<int>(r.sacked));
  lost_ += n * (static_cast<int>(lost && !sacked) - static_cast<int>(r.lost && !r.sacked));
  retrans_ += n * (static_cast<int>(retrans_in_flight && !sacked) - static_cast<int>(r.retrans_in_flight && !r.sacked));
  awaiting_ += n * (static_cast<int>(lost && !sacked && !retrans_in_flight) -
                    static_cast<int>(r.lost && !r.sacked && !r.retrans_in_flight));
  // A record no longer SACKed or lost (only the one the cumulative ACK is about to remove) ends the
  // marked prefix.
  if ((r.sacked || r.lost) && !sacked && !lost) {
    unmarked_ = std::min(unmarked_, static_cast<size_t>(&r - records_.data()));
  }
  r.sacked = sacked;
  r.lost = lost;
  r.retrans_in_flight = retrans_in_flight;
}

void SentLog::MarkLost(SentRecord& r) {
  if (!r.sacked) SetFlags(r, false, true, false);
}

void SentLog::MarkOriginalLost(SentRecord& r) {
  if (!r.sacked) SetFlags(r, false, true, r.retrans_in_flight);
}

void SentLog::OnSent(SimTime now, SeqNo seq, Bytes bytes) {
  if (bytes <= 0) return;
  // The draft §3.2: with nothing in flight, the next interval starts now.
  if (empty()) first_sent_time_ = delivered_time_ = now;
  const SeqNo end = seq + bytes;
  const SeqNo top = empty() ? seq : records_.back().end;
  auto stamp = [&](SentRecord& r) {
    r.sent_time = now;
    r.delivered = delivered_;
    r.delivered_time = delivered_time_;
    r.first_sent_time = first_sent_time_;
    r.app_limited = app_limited_until_ != 0;
  };
  if (seq < top) {
    const SeqNo resent_end = std::min(end, top);
    SplitAt(resent_end);
    for (auto it = SplitAt(seq); it != records_.end() && it->seq < resent_end; ++it) {
      stamp(*it);
      it->retransmitted = true;
      SetFlags(*it, it->sacked, it->lost, true);
    }
  }
  if (end > top) {
    SentRecord r;
    r.seq = std::max(seq, top);
    r.end = end;
    stamp(r);
    outstanding_ += r.bytes();
    records_.push_back(r);
  }
}

void SentLog::Deliver(SimTime now, SentRecord& r) {
  ack_.segments.push_back(r);
  if (!r.retransmitted && (!ack_.has_rtt || r.sent_time > newest_rtt_sent_)) {
    ack_.has_rtt = true;
    newest_rtt_sent_ = r.sent_time;
  }
  // The draft §3.3 UpdateRateSample(): count the segment once, and take the interval from the
  // newest segment delivered (Linux 4.9 tcp_rate_skb_delivered(): the one sent with the highest
  // C.delivered, the first of equals).
  if (r.counted) return;
  r.counted = true;
  delivered_ += r.bytes();
  delivered_time_ = now;
  RateSample& rs = ack_.rate;
  if (!have_newest_ || r.delivered > rs.prior_delivered) {
    have_newest_ = true;
    rs.prior_delivered = r.delivered;
    rs.is_app_limited = r.app_limited;
    rs.send_elapsed = r.sent_time - r.first_sent_time;
    rs.ack_elapsed = delivered_time_ - r.delivered_time;
    first_sent_time_ = r.sent_time;
  }
}

void SentLog::NoteRtt(SimTime now, SimTime rtt) {
  if (rtt <= min_rtt_ || now - min_rtt_at_ > kMinRttWindow) {
    min_rtt_ = rtt;
    min_rtt_at_ = now;
  }
}

const AckDelivery& SentLog::OnAck(SimTime now, SeqNo snd_una, const SackBlock* blocks, int count) {
  ack_.newly_acked = ack_.newly_sacked = 0;
  ack_.has_rtt = false;
  ack_.rate = RateSample{};
  ack_.segments.clear();
  have_newest_ = false;
  // SACKed segments first, as Linux's tcp_sacktag_write_queue() runs before tcp_clean_rtx_queue().
  for (int i = 0; i < count; ++i) {
    const SeqNo start = std::max(blocks[i].start, snd_una);
    const SeqNo end = blocks[i].end;
    if (start >= end) continue;
    SplitAt(end);
    for (auto it = SplitAt(start); it != records_.end() && it->end <= end; ++it) {
      if (it->sacked) continue;
      SetFlags(*it, true, false, false);
      ack_.newly_sacked += it->bytes();
      Deliver(now, *it);
    }
  }
  SplitAt(snd_una);
  while (!empty() && records_[head_].end <= snd_una) {
    SentRecord& r = records_[head_];
    if (!r.sacked) {
      ack_.newly_acked += r.bytes();
      Deliver(now, r);
    }
    SetFlags(r, false, false, false);
    outstanding_ -= r.bytes();
    PopFront();
  }
  std::sort(ack_.segments.begin(), ack_.segments.end(),
            [](const SentRecord& a, const SentRecord& b) { return a.seq < b.seq; });
  if (ack_.has_rtt) {
    ack_.rtt = now - newest_rtt_sent_;
    NoteRtt(now, ack_.rtt);
  }
  // The draft §3.3 GenerateRateSample().
  if (app_limited_until_ != 0 && delivered_ > app_limited_until_) app_limited_until_ = 0;
  RateSample& rs = ack_.rate;
  if (have_newest_) {
    rs.interval = Max(rs.send_elapsed, rs.ack_elapsed);
    rs.delivered = delivered_ - rs.prior_delivered;
    // An interval below the minimum RTT would overestimate the rate (Linux's tcp_rate_gen()).
    rs.valid = rs.interval > SimTime::Zero() && rs.interval >= min_rtt_;
  }
  return ack_;
}

void SentLog::MarkAppLimited(Bytes in_flight) {
  // The draft §3.4 (Linux's tcp_rate_check_app_limited()): the bubble ends once everything in flight
  // now has been delivered.
  app_limited_until_ = std::max<Bytes>(delivered_ + in_flight, 1);
}

void SentLog::OnRetransmissionTimeout() {
  // As Linux's tcp_timeout_mark_lost(): the receiver reneged if the first outstanding segment is
  // SACKed (its cumulative ACK stopped at data it had reported holding), and then every SACK mark
  // is forgotten; otherwise the marks stay (RFC 6675 §5.1). Everything else outstanding is lost and
  // retransmissions in flight are forgotten: the sender resends from snd_una.
  const bool reneged = !empty() && records().front().sacked;
  for (SentRecord& r : records()) {
    const bool sacked = r.sacked && !reneged;
    SetFlags(r, sacked, !sacked, false);
  }
}

}  // namespace tcb
