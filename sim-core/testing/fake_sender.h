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
  void RetransmitNow(SeqNo seq, Bytes max_bytes) override {
    retransmitted.push_back(seq);
    Notify(seq, std::min({kMss, max_bytes, max - seq}), true);
  }
  void GoBackN() override {
    nxt = una;
    ++go_back_n;
  }
  Bytes SendNewSegment() override {
    const Bytes len = NextSegmentBytes();
    if (len == 0) return 0;
    const SeqNo seq = nxt;
    new_segments.push_back(seq);
    nxt += len;
    max = std::max(max, nxt);
    unsent -= len;
    Notify(seq, len, false);
    return len;
  }

  // Sends new data up to `new_max` in segments of kMss, as the endpoint would (which advances
  // snd_nxt and snd_max before it tells the controller of a segment).
  void SendTo(SeqNo new_max) {
    for (SeqNo seq = max; seq < new_max; seq += kMss) {
      const Bytes len = std::min(kMss, new_max - seq);
      max = nxt = seq + len;
      Notify(seq, len, false);
    }
    max = nxt = std::max(max, new_max);
  }
  void SetControlTimer(SimTime at) override { control_timer = at; }
  void StopControlTimer() override { control_timer = SimTime::Infinite(); }
  SimTime RetransmissionDeadline() const override { return rto_deadline; }
  void RestartRetransmissionTimer() override { ++rto_restarts; }
  // The stream of a run seeded with `seed`, as the endpoint names it.
  Rng RandomStream(std::string_view name) const override { return Rng::ForStream(seed, name); }

  SeqNo una = 1, nxt = 1, max = 1;
  SimTime control_timer = SimTime::Infinite();
  SimTime rto_deadline = SimTime::Infinite();
  int rto_restarts = 0;
  uint64_t seed = 1;
  Bytes unsent = 0;
  bool closed = false;
  SackScoreboard sacks;
  std::vector<SeqNo> retransmitted;
  std::vector<SeqNo> new_segments;
  int go_back_n = 0;
  // When set, told of every segment sent (CongestionControl::OnSegmentSent), as the endpoint does.
  CongestionControl* controller = nullptr;  // Not owned.
  SimTime now;
  uint64_t next_uid = 1;

 private:
  void Notify(SeqNo seq, Bytes bytes, bool retransmission) {
    if (controller != nullptr && bytes > 0) {
      controller->OnSegmentSent(now, SentSegment{seq, bytes, retransmission, next_uid++});
    }
  }
};

}  // namespace tcb::testing
