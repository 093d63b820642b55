// A scripted SenderHandle for unit tests of controllers: sequence state set by hand, and a record
// of what the controller asked the sender to do.
#pragma once

#include <algorithm>
#include <vector>

#include "tcp/congestion_control.h"

namespace tcb::testing {

class FakeSender final : public SenderHandle {
 public:
  static constexpr Bytes kMss = 1000;

  SeqNo snd_una() const override { return una; }
  SeqNo snd_nxt() const override { return nxt; }
  SeqNo snd_max() const override { return max; }
  Bytes mss() const override { return kMss; }
  Bytes peer_window() const override { return 1 << 30; }
  Bytes unsent_bytes() const override { return unsent; }
  Bytes NextSegmentBytes() const override { return unsent > 0 ? std::min(unsent, kMss) : 0; }
  bool write_closed() const override { return closed; }
  const SackScoreboard& scoreboard() const override { return sacks; }
  void RetransmitNow(SeqNo seq, Bytes) override { retransmitted.push_back(seq); }
  void GoBackN() override {
    nxt = una;
    ++go_back_n;
  }
  Bytes SendNewSegment() override {
    const Bytes len = NextSegmentBytes();
    if (len == 0) return 0;
    new_segments.push_back(nxt);
    nxt += len;
    max = std::max(max, nxt);
    unsent -= len;
    return len;
  }

  SeqNo una = 1, nxt = 1, max = 1;
  Bytes unsent = 0;
  bool closed = false;
  SackScoreboard sacks;
  std::vector<SeqNo> retransmitted;
  std::vector<SeqNo> new_segments;
  int go_back_n = 0;
};

}  // namespace tcb::testing
