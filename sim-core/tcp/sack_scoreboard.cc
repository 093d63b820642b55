// The SACK scoreboard.
#include "tcp/sack_scoreboard.h"

#include <algorithm>

namespace tcb {

void SackScoreboard::Update(SeqNo snd_una, const SackBlock* blocks, int count) {
  for (int i = 0; i < count; ++i) {
    SackBlock b = blocks[i];
    if (b.end <= snd_una || b.start >= b.end) continue;  // Old or malformed: ignore (RFC 2018 §3).
    b.start = std::max(b.start, snd_una);
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), b.start,
                               [](const SackBlock& x, SeqNo s) { return x.end < s; });
    auto first = it;
    while (it != blocks_.end() && it->start <= b.end) {
      b.start = std::min(b.start, it->start);
      b.end = std::max(b.end, it->end);
      ++it;
    }
    it = blocks_.erase(first, it);
    blocks_.insert(it, b);
  }
  // Drop what the cumulative ACK now covers.
  size_t keep = 0;
  for (SackBlock& b : blocks_) {
    if (b.end <= snd_una) continue;
    b.start = std::max(b.start, snd_una);
    blocks_[keep++] = b;
  }
  blocks_.resize(keep);
}

bool SackScoreboard::IsSacked(SeqNo seq) const {
  for (const SackBlock& b : blocks_) {
    if (seq < b.start) return false;
    if (seq < b.end) return true;
  }
  return false;
}

bool SackScoreboard::IsLost(SeqNo seq, int dupthresh, Bytes mss) const {
  int discontiguous = 0;
  Bytes bytes = 0;
  for (const SackBlock& b : blocks_) {
    if (b.end <= seq) continue;
    ++discontiguous;
    bytes += b.end - std::max(b.start, seq + 1);
  }
  return discontiguous >= dupthresh || bytes > static_cast<Bytes>(dupthresh - 1) * mss;
}

SeqNo SackScoreboard::HighestSacked(SeqNo snd_una) const {
  return blocks_.empty() ? snd_una : std::max(snd_una, blocks_.back().end);
}

Bytes SackScoreboard::SackedBytes(SeqNo from, SeqNo to) const {
  Bytes total = 0;
  for (const SackBlock& b : blocks_) {
    const SeqNo lo = std::max(b.start, from);
    const SeqNo hi = std::min(b.end, to);
    if (hi > lo) total += hi - lo;
  }
  return total;
}

const SackBlock* SackScoreboard::NextBlockAtOrAfter(SeqNo seq) const {
  for (const SackBlock& b : blocks_) {
    if (b.start >= seq) return &b;
  }
  return nullptr;
}

}  // namespace tcb
