// HyStart++.
#include "tcp/hystart.h"

#include <algorithm>

namespace tcb {

void HyStartPlusPlus::OnAckSample(Tcb& tcb, const AckSample& sample) {
  if (phase_ == Phase::kDone || sample.rate == nullptr || sample.rate->delivered <= 0) return;
  // RFC 9406 §4.2: "At the start of each round during standard slow start and CSS": the first ACK
  // that delivers a segment sent after the previous round's end.
  if (!round_started_ || sample.rate->prior_delivered >= round_end_delivered_) {
    round_started_ = true;
    round_end_delivered_ = sample.total_delivered;
    ++rounds_;
    last_round_min_rtt_ = current_round_min_rtt_;
    current_round_min_rtt_ = SimTime::Infinite();
    rtt_sample_count_ = 0;
    if (phase_ == Phase::kCss && ++css_rounds_ >= kCssRounds) {
      // §4.2: "If CSS_ROUNDS rounds are complete, enter congestion avoidance by setting the
      // ssthresh to the current cwnd."
      tcb.ssthresh = tcb.cwnd;
      phase_ = Phase::kDone;
      return;
    }
  }
  if (sample.has_rtt) {
    current_round_min_rtt_ = Min(current_round_min_rtt_, sample.rtt);
    ++rtt_sample_count_;
  }
  if (rtt_sample_count_ < kNRttSample) return;
  if (phase_ == Phase::kSlowStart) {
    if (current_round_min_rtt_.IsInfinite() || last_round_min_rtt_.IsInfinite()) return;
    // §4.2: RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR, MAX_RTT_THRESH)).
    const SimTime thresh =
        Max(kMinRttThresh, Min(SimTime::Nanoseconds(last_round_min_rtt_.ns() / kMinRttDivisor), kMaxRttThresh));
    if (current_round_min_rtt_ >= last_round_min_rtt_ + thresh) {
      css_baseline_min_rtt_ = current_round_min_rtt_;
      phase_ = Phase::kCss;
      css_rounds_ = 0;
    }
  } else if (current_round_min_rtt_ < css_baseline_min_rtt_) {
    // §4.2: the RTT fell back below the baseline: the increase was spurious, resume slow start.
    css_baseline_min_rtt_ = SimTime::Infinite();
    phase_ = Phase::kSlowStart;
  }
}

Bytes HyStartPlusPlus::Increase(const Tcb& tcb, Bytes acked) const {
  // §4.2: cwnd += min(N, L * SMSS) in slow start, and a CSS_GROWTH_DIVISOR-th of it in CSS.
  const Bytes n = paced_ ? acked : std::min(acked, 8 * tcb.mss);
  return phase_ == Phase::kCss ? n / kCssGrowthDivisor : n;
}

}  // namespace tcb
