// The RTT samples a Linux sender takes.
#include "tcp/linux_rtt_sampler.h"

#include <algorithm>
#include <array>

namespace tcb {

size_t LinuxRttSampler::SplitAt(SeqNo seq) {
  const auto it = std::partition_point(records_.begin(), records_.end(), [seq](const Record& r) { return r.end <= seq; });
  const auto index = static_cast<size_t>(it - records_.begin());
  if (it == records_.end() || it->seq >= seq) return index;
  Record upper = *it;
  upper.seq = seq;
  it->end = seq;
  records_.insert(it + 1, upper);
  return index + 1;
}

void LinuxRttSampler::OnSent(SimTime now, SeqNo seq, SeqNo end) {
  if (end <= seq) return;
  const SeqNo top = records_.empty() ? seq : records_.back().end;
  if (seq < top) {
    // A retransmission: its skbs are stamped anew and marked TCPCB_EVER_RETRANS (only the part
    // resent, as tcp_retransmit_skb() fragments an skb it resends in part).
    const SeqNo resent_end = std::min(end, top);
    SplitAt(resent_end);
    for (size_t i = SplitAt(seq); i < records_.size() && records_[i].seq < resent_end; ++i) {
      records_[i].sent = now;
      records_[i].retransmitted = true;
    }
  }
  if (end > top) records_.push_back(Record{std::max(seq, top), end, now, false, false});
}

std::optional<SimTime> LinuxRttSampler::OnAck(SimTime now, SeqNo snd_una, const SackBlock* blocks, int count) {
  // tcp_sacktag_write_queue() first, its blocks in ascending order; tcp_sacktag_one() keeps the
  // send time of the first segment newly SACKed that was never retransmitted (first_sackt).
  std::array<SackBlock, kMaxSackBlocks> sorted{};
  const int n = std::min(count, static_cast<int>(sorted.size()));
  std::copy(blocks, blocks + n, sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + n, [](const SackBlock& a, const SackBlock& b) { return a.start < b.start; });
  std::optional<SimTime> first_sackt;
  for (int b = 0; b < n; ++b) {
    const SeqNo start = std::max(sorted[b].start, snd_una);
    const SeqNo end = sorted[b].end;
    if (start >= end) continue;
    SplitAt(end);
    for (size_t i = SplitAt(start); i < records_.size() && records_[i].seq < end; ++i) {
      Record& r = records_[i];
      if (r.sacked) continue;
      r.sacked = true;
      if (!r.retransmitted && !first_sackt) first_sackt = r.sent;
    }
  }
  // tcp_clean_rtx_queue(): the oldest segment acknowledged cumulatively and not SACKed before
  // (first_ackt), unless any segment it removes was ever retransmitted.
  std::optional<SimTime> first_ackt;
  bool retrans_data_acked = false;
  if (!records_.empty() && records_.front().seq < snd_una) SplitAt(snd_una);
  while (!records_.empty() && records_.front().end <= snd_una) {
    const Record& r = records_.front();
    if (r.retransmitted) {
      retrans_data_acked = true;
    } else if (!r.sacked && !first_ackt) {
      first_ackt = r.sent;
    }
    records_.pop_front();
  }
  // tcp_ack_update_rtt(): "if (seq_rtt_us < 0) seq_rtt_us = sack_rtt_us".
  if (first_ackt && !retrans_data_acked) return now - *first_ackt;
  if (first_sackt) return now - *first_sackt;
  return std::nullopt;
}

}  // namespace tcb
