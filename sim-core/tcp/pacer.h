// Spaces a connection's segments at a rate (quiche's PacingSender, Linux's internal TCP pacing):
// after a segment of `bytes` leaves, the next may leave `bytes * 8 / rate` later (Linux's
// tcp_update_skb_after_send(): the departure time advances from max(itself, now)). A rate of 0 does
// not pace.
#pragma once

#include <algorithm>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

class Pacer {
 public:
  // Earliest time the next segment may leave.
  SimTime NextSendTime(SimTime now) const { return Max(now, next_); }
  // A segment of `bytes` payload left at `now` while pacing at `rate_bps` (retransmissions
  // included: they leave at once but use up the pacing budget, as in Linux).
  void OnSent(SimTime now, Bytes bytes, double rate_bps) {
    if (rate_bps <= 0) {
      next_ = now;
      return;
    }
    const double ns = static_cast<double>(bytes) * 8e9 / rate_bps;
    next_ = Max(next_, now) + SimTime::Nanoseconds(static_cast<int64_t>(ns + 0.5));
  }

 private:
  SimTime next_;
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
