// TCP/SPAND's optimal initial window.
#include "sharing/spand_math.h"

#include <algorithm>

namespace tcb {

namespace {
// sum_{i = lo}^{hi} i.
int64_t Sum(int64_t lo, int64_t hi) { return hi < lo ? 0 : (lo + hi) * (hi - lo + 1) / 2; }
}  // namespace

int64_t SpandEpochPackets(int64_t wc, int64_t b) { return b * Sum((wc + 1) / 2, wc) + 2 * wc + 1; }

SpandWindow SpandInitialWindow(int64_t f, int64_t wc, int64_t b, bool shift_optimisation) {
  wc = std::max<int64_t>(wc, 1);
  b = std::max<int64_t>(b, 1);
  const int64_t remainder = f % SpandEpochPackets(wc, b);
  SpandWindow w;
  // Eq. (3): the largest m <= W_c with b * sum_{i=m}^{W_c} i >= F mod F_E. The sum grows as m
  // falls, so scan down from W_c.
  int64_t m = wc;
  while (m >= 1 && b * Sum(m, wc) < remainder) --m;
  int64_t extra = 0;  // What the window's rounds carry beyond b * sum: 0, or eq. (2)'s 2 W_c + 1.
  if (m < 1) {
    w.used_eq2 = true;
    extra = 2 * wc + 1;
    // Eq. (2): the largest m <= W_c + 1 with b * sum_{i=m}^{W_c} i + (2 W_c + 1) >= F mod F_E.
    m = wc + 1;
    while (b * Sum(m, wc) + extra < remainder) --m;
    // Eq. (2) allows W_c + 1, a window the path cannot hold: it would lose a packet at once.
    m = std::min(m, wc);
  }
  w.before_shift = m;
  w.cwnd = m;
  if (shift_optimisation) {
    // Eq. (4): Delta = floor((b * sum_{i=m}^{W_c} i - F mod F_E) / (b * (W_c - m + 1))), the slack
    // spread over the rounds; with eq. (2) the slack includes its 2 W_c + 1.
    const int64_t rounds = b * (wc - m + 1);
    if (rounds > 0) {
      const int64_t slack = b * Sum(m, wc) + extra - remainder;
      w.cwnd = std::max<int64_t>(1, m - slack / rounds);
    }
  }
  return w;
}

}  // namespace tcb
