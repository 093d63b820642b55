// Spaces a connection's segments at a rate (quiche's PacingSender, Linux's internal TCP pacing):
// after a segment of `bytes` leaves, the next may leave `bytes * 8 / rate` later (Linux's
// tcp_update_skb_after_send(): the departure time advances from max(itself, now)). A rate of 0 does
// not pace. With PacingRules::kLinux (`tcp.pacingRules: "linux"`), as Linux 6.x's
// tcp_update_skb_after_send() in net/ipv4/tcp_output.c does besides: the first 10 data segments are
// not paced ("Original sch_fq does not pace first 10 MSS"), and a segment that left later than it
// could shortens the next gap by that lateness, by at most half ("take into account OS jitter",
// Linux 4.20).
#pragma once

#include <algorithm>

#include "core/time.h"
#include "core/units.h"
#include "tcp/tcp_config.h"

namespace tcb {

class Pacer {
 public:
  // tcp_update_skb_after_send(): tp->data_segs_out below which nothing is paced.
  static constexpr int64_t kUnpacedSegments = 10;

  explicit Pacer(PacingRules rules = PacingRules::kEven) : rules_(rules) {}

  // Earliest time the next segment may leave.
  SimTime NextSendTime(SimTime now) const { return Max(now, next_); }
  // A segment of `bytes` payload left at `now` while pacing at `rate_bps` (retransmissions
  // included: they leave at once but use up the pacing budget, as in Linux).
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

 private:
  PacingRules rules_;
  SimTime next_;
  int64_t sent_ = 0;  // tp->data_segs_out: data segments sent, retransmissions included.
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
