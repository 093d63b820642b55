// The sender's record of SACKed data (RFC 2018 blocks, RFC 6675 §3 "scoreboard"): which bytes above
// snd_una the receiver holds, and the queries RFC 6675's loss recovery is written in.
#pragma once

#include <vector>

#include "core/units.h"
#include "net/packet.h"

namespace tcb {

class SackScoreboard {
 public:
  // RFC 6675 Update(): merges the ACK's blocks and forgets everything below the new snd_una.
  void Update(SeqNo snd_una, const SackBlock* blocks, int count);
  void Clear() { blocks_.clear(); }

  bool empty() const { return blocks_.empty(); }
  bool IsSacked(SeqNo seq) const;
  // RFC 6675 IsLost(): `dupthresh` discontiguous SACKed blocks above `seq`, or more than
  // (dupthresh - 1) * mss SACKed bytes above it.
  bool IsLost(SeqNo seq, int dupthresh, Bytes mss) const;
  // One past the highest SACKed byte ("HighACK" in RFC 6675 terms); snd_una when nothing is SACKed.
  SeqNo HighestSacked(SeqNo snd_una) const;
  // Bytes SACKed in [from, to).
  Bytes SackedBytes(SeqNo from, SeqNo to) const;
  // The first SACKed block starting at or after `seq`, or nullptr.
  const SackBlock* NextBlockAtOrAfter(SeqNo seq) const;
  const std::vector<SackBlock>& blocks() const { return blocks_; }

 private:
  std::vector<SackBlock> blocks_;  // Disjoint, sorted by start, all above snd_una.
};

}  // namespace tcb
