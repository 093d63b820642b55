// TCP/SPAND's optimal initial window (Zhang, Qiu and Keshav, seed 004, §4), in packets.
//
// W_c is what the path holds (pipe plus buffer, or a connection's share of it); b the packets per
// ACK; F the transfer size. Eq. (1) gives F_E, the packets sent in one congestion-avoidance epoch;
// eq. (3) the largest initial window m <= W_c with b * sum_{i=m}^{W_c} i >= F mod F_E, which ends the
// transfer at an epoch boundary without a final loss; eq. (4) the shift optimisation, which lowers
// the window without adding a round trip.
#pragma once

#include <cstdint>

namespace tcb {

// Eq. (1): F_E = b * sum_{x = floor((W_c + 1) / 2)}^{W_c} x + 2 W_c + 1.
int64_t SpandEpochPackets(int64_t wc, int64_t b);

struct SpandWindow {
  int64_t cwnd = 0;      // The initial window, in packets.
  int64_t before_shift = 0;  // Eq. (3)'s (or eq. (2)'s) window before eq. (4).
  // Eq. (3) has no solution when F mod F_E exceeds b * sum_{1}^{W_c} i (e.g. W_c = 7, F = 30): the
  // transfer cannot end at an epoch boundary without the epoch's final loss. We then use
  // Theorem 2's eq. (2), which counts the 2 W_c + 1 packets sent around that loss and always has a
  // solution of at least floor((W_c + 1) / 2); we cap it at W_c, which the path can hold.
  bool used_eq2 = false;
};

// The initial window for a transfer of `f` packets (f >= 1), with and without eq. (4).
SpandWindow SpandInitialWindow(int64_t f, int64_t wc, int64_t b, bool shift_optimisation);

}  // namespace tcb
