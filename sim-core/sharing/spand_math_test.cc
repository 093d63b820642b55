// TCP/SPAND §4: eq. (1)-(4), the worked example of Fig. 4 and the curve of Fig. 5.
#include "sharing/spand_math.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

TEST(SpandMathTest, EpochPacketsEquation1) {
  // F_E = sum_{5}^{10} x + 2 * 10 + 1 = 45 + 21.
  EXPECT_EQ(SpandEpochPackets(10, 1), 66);
  EXPECT_EQ(SpandEpochPackets(10, 2), 111);
  EXPECT_EQ(SpandEpochPackets(7, 1), 22 + 15);
}

// Fig. 4: "b = 1, W_c = 10, and transfer size F = 11. From Equation 3, we obtain cwnd_opt = 9 ...
// After the shift optimization, we get a much smaller initial cwnd of 5".
TEST(SpandMathTest, WorkedExampleOfFigure4) {
  const SpandWindow w = SpandInitialWindow(11, 10, 1, true);
  EXPECT_EQ(w.before_shift, 9);
  EXPECT_EQ(w.cwnd, 5);
  EXPECT_FALSE(w.used_eq2);
  EXPECT_EQ(SpandInitialWindow(11, 10, 1, false).cwnd, 9);
}

// Fig. 5: F = 30 packets, W_c from 1 to 60. With the shift optimisation the window is at most W_c
// (below y = x), equals F once W_c >= F, and several W_c give the same window (plateaus).
TEST(SpandMathTest, Figure5Curve) {
  int plateaus = 0;
  int64_t previous = -1;
  for (int64_t wc = 1; wc <= 60; ++wc) {
    const int64_t cwnd = SpandInitialWindow(30, wc, 1, true).cwnd;
    EXPECT_LE(cwnd, wc) << "W_c = " << wc;
    EXPECT_GE(cwnd, 1);
    if (wc >= 30) {
      EXPECT_EQ(cwnd, 30) << "W_c = " << wc;
    }
    if (cwnd == previous) ++plateaus;
    previous = cwnd;
    // Without the shift the window reuses much more of W_c.
    EXPECT_GE(SpandInitialWindow(30, wc, 1, false).cwnd, cwnd);
  }
  EXPECT_GE(plateaus, 30);  // Every W_c >= 30 alone gives a plateau of 31 points.
  // Insensitive for W_c below F as well: some neighbours share a window there too.
  int low_plateaus = 0;
  for (int64_t wc = 2; wc < 30; ++wc) {
    low_plateaus += SpandInitialWindow(30, wc, 1, true).cwnd == SpandInitialWindow(30, wc - 1, 1, true).cwnd;
  }
  EXPECT_GT(low_plateaus, 0);
}

// W_c = 7, F = 30: F mod F_E = 30 exceeds b * sum_{1}^{7} i = 28, so eq. (3) has no solution; we fall
// back to eq. (2) (Theorem 2), whose extra 2 W_c + 1 packets make m = 5 the largest solution.
TEST(SpandMathTest, NoSolutionOfEquation3FallsBackToEquation2) {
  const SpandWindow w = SpandInitialWindow(30, 7, 1, false);
  EXPECT_TRUE(w.used_eq2);
  EXPECT_EQ(w.before_shift, 5);  // 5 + 6 + 7 + 15 = 33 >= 30; 6 + 7 + 15 = 28 < 30.
  const SpandWindow shifted = SpandInitialWindow(30, 7, 1, true);
  EXPECT_EQ(shifted.cwnd, 4);  // Slack 3 over 3 rounds: one less.
}

TEST(SpandMathTest, TransfersOfWholeEpochsAndTinyWindows) {
  // F a multiple of F_E: the transfer is whole epochs, F mod F_E = 0 and any m satisfies eq. (3);
  // the largest is W_c, and the shift moves it all the way down.
  EXPECT_EQ(SpandInitialWindow(66, 10, 1, false).cwnd, 10);
  EXPECT_EQ(SpandInitialWindow(1, 1, 1, true).cwnd, 1);
  EXPECT_EQ(SpandInitialWindow(1000, 1, 2, true).cwnd, 1);
}

}  // namespace
}  // namespace tcb
