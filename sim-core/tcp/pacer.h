// Spaces a sender's segments in time: the one pacer of a TCP connection's own pacing (Linux's
// internal TCP pacing, quiche's PacingSender), of an ensemble's paced window (E-TCP, Eggert et al.
// §3.1 and §4.2) and of TCP/SPAND's paced initial window (§5.2.5). Its parts:
// - a rate, kept as a departure clock: a segment moves the clock on by its spacing from the later of
//   the clock and now (Linux's tcp_update_skb_after_send()), and the next segment leaves no earlier.
//   The spacing is the segment's time at the rate of the moment (a connection, whose rate follows
//   its window) or one fixed interval per segment (a paced window). With PacingRules::kLinux
//   (`tcp.pacingRules: "linux"`) a connection's spacing is as Linux 6.x's
//   tcp_update_skb_after_send() in net/ipv4/tcp_output.c makes it besides: the first 10 data
//   segments are not paced ("Original sch_fq does not pace first 10 MSS"), and a segment that left
//   later than it could shortens the next gap by that lateness, by at most half ("take into account
//   OS jitter", Linux 4.20).
// - a burst allowance: a bucket of tokens that starts full, refills at the rate up to its depth and
//   lets a segment leave when a whole token is there (TCP/SPAND §5.2.5, a depth of 4 segments). A
//   window with one leaves when its tokens allow, not by the clock; the tokens are counted in
//   seconds as doubles, as the seed paper's bucket is.
// - a budget: a paced window ends once its segments have left (or its owner stops it), and the
//   ACK clock takes over.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/time.h"
#include "core/units.h"
#include "tcp/tcp_config.h"

namespace tcb {

class Pacer {
 public:
  // tcp_update_skb_after_send(): tp->data_segs_out below which nothing is paced.
  static constexpr int64_t kUnpacedSegments = 10;

  explicit Pacer(PacingRules rules = PacingRules::kEven) : rules_(rules) {}

  // Earliest time the next segment may leave: `now` when nothing holds it back.
  SimTime NextSendTime(SimTime now) const {
    if (bucket_depth_ > 0) {
      const double tokens = TokensAt(now);
      if (tokens >= 1.0 || tokens_per_second_ <= 0) return now;
      // Round up so that the token is really there at that time.
      const double wait_ns = (1.0 - tokens) / tokens_per_second_ * 1e9;
      return now + SimTime::Nanoseconds(static_cast<int64_t>(wait_ns) + 1);
    }
    return Max(now, next_);
  }

  // ---- Pacing at the rate of the moment: a connection's ----

  // A segment of `bytes` payload left at `now` while pacing at `rate_bps` (retransmissions
  // included: they leave at once but take their time at the rate, as in Linux). A rate of 0 does
  // not pace: the next segment may leave at once.
  void OnSent(SimTime now, Bytes bytes, double rate_bps) {
    const int64_t sent_before = sent_++;
    if (rate_bps <= 0) {
      next_ = now;
      return;
    }
    double ns = static_cast<double>(bytes) * 8e9 / rate_bps;
    const SimTime prior = next_;
    next_ = Max(next_, now);
    if (rules_ == PacingRules::kLinux) {
      if (sent_before < kUnpacedSegments) return;
      // credit = tcp_wstamp_ns - prior_wstamp: how much later than allowed this segment left.
      ns -= std::min(ns / 2, static_cast<double>((next_ - prior).ns()));
    }
    next_ = next_ + SimTime::Nanoseconds(static_cast<int64_t>(ns + 0.5));
  }

  // ---- Pacing a window: rate, burst allowance and budget ----

  // Paces the next `segments` segments from `now` on, one every `interval`, without burst (E-TCP
  // §3.1: the window spread over the RTT).
  void PaceWindow(SimTime now, SimTime interval, int64_t segments) {
    StopWindow();
    interval_ = interval;
    next_ = now;
    window_segments_ = segments;
  }
  // Paces the next `segments` segments from `now` on at `segments_per_second`, up to `burst` of them
  // at once (TCP/SPAND §5.2.5: "depth of the token bucket ... set to 4 segments ... token filling
  // rate is set to cwnd/srtt").
  void PaceWindowWithBurst(SimTime now, double segments_per_second, double burst, int64_t segments) {
    StopWindow();
    bucket_depth_ = burst;
    tokens_ = burst;
    tokens_per_second_ = segments_per_second;
    bucket_time_ = now;
    window_segments_ = segments;
  }
  // Ends the window's pacing before its budget is spent: what follows leaves at once.
  void StopWindow() {
    window_segments_ = 0;
    interval_ = SimTime::Zero();
    next_ = SimTime::Zero();
    bucket_depth_ = 0;
    tokens_ = 0;
    tokens_per_second_ = 0;
  }
  // Whether a window is being paced.
  bool pacing_window() const { return window_segments_ > 0; }

  // A segment of the window left at `now`; pacing ends once the budget is spent. Does nothing when
  // no window is being paced.
  void OnWindowSegmentSent(SimTime now) {
    if (!pacing_window()) return;
    if (bucket_depth_ > 0) {
      tokens_ = TokensAt(now) - 1.0;
      bucket_time_ = now;
    } else {
      next_ = Max(next_, now) + interval_;
    }
    if (--window_segments_ == 0) StopWindow();
  }

  // The window's rate in bits per second, for segments of `mss`; 0 when no window is being paced.
  double window_rate_bps(Bytes mss) const {
    if (!pacing_window()) return 0;
    if (bucket_depth_ > 0) return tokens_per_second_ * static_cast<double>(mss) * 8.0;
    return interval_.ns() > 0 ? static_cast<double>(mss) * 8.0 / interval_.seconds() : 0.0;
  }

 private:
  double TokensAt(SimTime now) const {
    return std::min(bucket_depth_, tokens_ + tokens_per_second_ * (now - bucket_time_).seconds());
  }

  // The rate: how a connection's spacing is made, the departure clock, the data segments a
  // connection has sent (tp->data_segs_out, retransmissions included), and a window's spacing.
  PacingRules rules_;
  SimTime next_;
  int64_t sent_ = 0;
  SimTime interval_;
  // The burst allowance: a bucket of `bucket_depth_` tokens (0: none), `tokens_` of them at
  // `bucket_time_`, refilled at `tokens_per_second_`.
  double bucket_depth_ = 0;
  double tokens_ = 0;
  double tokens_per_second_ = 0;
  SimTime bucket_time_;
  // The budget: segments of the window still to pace.
  int64_t window_segments_ = 0;
};

// Linux's pacing rate for a connection that does not set its own (tcp_update_pacing_rate(),
// net/ipv4/tcp_input.c): mss * max(cwnd, in flight) / srtt, times sysctl_tcp_pacing_ss_ratio (200 %)
// while cwnd < ssthresh / 2 (slow start, "to probe for more bandwidth") and
// sysctl_tcp_pacing_ca_ratio (120 %) afterwards. 0 (no pacing) before the first RTT sample.
inline double LinuxPacingRateBps(Bytes cwnd, Bytes ssthresh, Bytes in_flight, SimTime srtt) {
  if (srtt <= SimTime::Zero()) return 0;
  const double ratio = cwnd < ssthresh / 2 ? 2.0 : 1.2;
  return ratio * static_cast<double>(std::max(cwnd, in_flight)) * 8 / srtt.seconds();
}

}  // namespace tcb
