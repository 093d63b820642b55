// What a connection learns about its path that today's resumption schemes save for later
// connections: the minimum RTT, and the capacity it used, measured as the bytes acknowledged within
// one minimum RTT (RFC 9959 §4.1 "Observing (saved_cwnd)": "the volume of bytes sent during an RTT
// ... computed by measuring the volume of data acknowledged in one RTT"), i.e. a bandwidth-delay
// product; its ratio to the minimum RTT is the delivery rate QUIC's BDP resumption saves.
#pragma once

#include <algorithm>
#include <deque>
#include <utility>

#include "core/time.h"
#include "core/units.h"
#include "tcp/sent_log.h"

namespace tcb {

class PathObserver {
 public:
  // An RTT measurement (Karn's rule applies: never a retransmitted segment).
  void OnRttSample(SimTime rtt) { min_rtt_ = Min(min_rtt_, rtt); }
  // An ACK (new or duplicate) at `now` that advanced snd_una by `newly_acked`. With SACK the
  // connection's SentLog counts what was delivered selectively too (C.delivered of
  // draft-cheng-iccrg-delivery-rate-estimation): counting SACKed bytes when they arrive keeps the
  // cumulative ACK that ends a recovery from counting a whole window of earlier deliveries as one
  // RTT's volume.
  void OnAck(SimTime now, Bytes newly_acked, const SentLog* log) {
    cumulative_ += newly_acked;
    acked_ = std::max(acked_, log != nullptr ? log->delivered() : cumulative_);
    if (min_rtt_.IsInfinite()) return;
    history_.emplace_back(now, acked_);
    // Keep the oldest point at most one minimum RTT old: the bytes acknowledged since then are the
    // volume of one RTT.
    while (history_.size() > 1 && now - history_[1].first >= min_rtt_) history_.pop_front();
    const SimTime elapsed = now - history_.front().first;
    if (elapsed >= min_rtt_ && elapsed > SimTime::Zero()) {
      // The rate over the last RTT or a little more (ACKs are discrete), scaled to one minimum RTT.
      const Bytes per_rtt = (acked_ - history_.front().second) * min_rtt_.ns() / elapsed.ns();
      max_per_rtt_ = std::max(max_per_rtt_, per_rtt);
    }
  }

  bool has_rtt() const { return !min_rtt_.IsInfinite(); }
  SimTime min_rtt() const { return min_rtt_; }
  // The most bytes acknowledged within one minimum RTT; 0 before a whole RTT was observed.
  Bytes bytes_per_rtt() const { return max_per_rtt_; }
  // bytes_per_rtt() / min_rtt(), in bits per second (0 when unknown).
  double bandwidth_bps() const {
    return has_rtt() && min_rtt_ > SimTime::Zero() ? static_cast<double>(max_per_rtt_) * 8 / min_rtt_.seconds() : 0;
  }

 private:
  SimTime min_rtt_ = SimTime::Infinite();
  Bytes cumulative_ = 0;
  Bytes acked_ = 0;  // Delivered in all.
  Bytes max_per_rtt_ = 0;
  std::deque<std::pair<SimTime, Bytes>> history_;  // (time, bytes acknowledged by then).
};

}  // namespace tcb
