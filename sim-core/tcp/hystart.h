// RFC 9406 HyStart++: slow start that leaves early, through Conservative Slow Start (CSS), when the
// round-trip time rises (the queue starts to build), instead of at the first loss. Rounds are
// packet-timed: a round ends when an ACK delivers a segment sent after it began (RFC 9406 §4.2's
// windowEnd = SND.NXT), read from the SentLog's delivery counts.
#pragma once

#include "core/time.h"
#include "core/units.h"
#include "tcp/congestion_ops.h"
#include "tcp/tcb.h"

namespace tcb {

class HyStartPlusPlus {
 public:
  enum class Phase : uint8_t {
    kSlowStart,  // Standard slow start, watching for a delay increase.
    kCss,        // Conservative Slow Start.
    kDone,       // Left for congestion avoidance (or a loss ended slow start): standard rules apply.
  };

  // RFC 9406 §4.3 constants.
  static constexpr SimTime kMinRttThresh = SimTime::Milliseconds(4);
  static constexpr SimTime kMaxRttThresh = SimTime::Milliseconds(16);
  static constexpr int kMinRttDivisor = 8;
  static constexpr int kNRttSample = 8;
  static constexpr int kCssGrowthDivisor = 4;
  static constexpr int kCssRounds = 5;

  // `paced`: RFC 9406 §4.3's L, the segments a slow-start ACK may add, is unlimited for a paced
  // sender and 8 otherwise.
  explicit HyStartPlusPlus(bool paced) : paced_(paced) {}

  // RFC 9406 §4.2, per ACK in slow start or CSS: round boundaries and RTT tracking, then the exit
  // checks. May end slow start (sets tcb.ssthresh = cwnd after CSS_ROUNDS rounds of CSS).
  void OnAckSample(Tcb& tcb, const AckSample& sample);
  // The window increase for an ACK of `acked` bytes in slow start or CSS: min(N, L * SMSS), divided
  // by CSS_GROWTH_DIVISOR in CSS.
  Bytes Increase(const Tcb& tcb, Bytes acked) const;
  // A congestion event (or the window reaching ssthresh) ends slow start for good: RFC 9406 §4.3
  // uses HyStart++ only in the connection's initial slow start.
  void Finish() { phase_ = Phase::kDone; }

  Phase phase() const { return phase_; }
  int rounds() const { return rounds_; }

 private:
  bool paced_;
  Phase phase_ = Phase::kSlowStart;
  int rounds_ = 0;
  bool round_started_ = false;
  Bytes round_end_delivered_ = 0;  // A segment sent after this much was delivered ends the round.
  SimTime last_round_min_rtt_ = SimTime::Infinite();
  SimTime current_round_min_rtt_ = SimTime::Infinite();
  int rtt_sample_count_ = 0;
  SimTime css_baseline_min_rtt_ = SimTime::Infinite();
  int css_rounds_ = 0;
};

}  // namespace tcb
