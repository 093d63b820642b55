// RFC 6298 estimation, and Linux's (net/ipv4/tcp_input.c tcp_rtt_estimator(), tcp_set_rto()).
#include "tcp/rtt_estimator.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tcb {
namespace {

SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

TEST(RttEstimatorTest, FirstSampleThenSmoothing) {
  RttEstimator r(SimTime::Zero(), Ms(0), Ms(60000), Ms(1000));
  EXPECT_EQ(r.rto(), Ms(1000));  // RFC 6298 §2.1: initial RTO.
  r.AddSample(Ms(100));
  // §2.2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR.
  EXPECT_EQ(r.srtt(), Ms(100));
  EXPECT_EQ(r.rttvar(), Ms(50));
  EXPECT_EQ(r.rto(), Ms(300));
  r.AddSample(Ms(200));
  // §2.3: RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5.
  EXPECT_EQ(r.rttvar(), SimTime::Microseconds(62500));
  EXPECT_EQ(r.srtt(), SimTime::Microseconds(112500));
  EXPECT_EQ(r.rto(), SimTime::Microseconds(112500 + 4 * 62500));
}

TEST(RttEstimatorTest, GranularityQuantisesSamplesAndBoundsTheVarianceTerm) {
  RttEstimator r(Ms(500), Ms(0), Ms(60000), Ms(3000));
  r.AddSample(Ms(120));  // One tick.
  EXPECT_EQ(r.srtt(), Ms(500));
  EXPECT_EQ(r.rto(), Ms(500) + Ms(1000));  // max(G, 4 * 250 ms).
  RttEstimator fine(Ms(500), Ms(0), Ms(60000), Ms(3000));
  fine.Set(Ms(100), Ms(10));
  EXPECT_EQ(fine.rto(), Ms(600));  // SRTT + max(G = 500, 40).
}

TEST(RttEstimatorTest, ClampsToMinAndMax) {
  RttEstimator r(SimTime::Zero(), Ms(1000), Ms(2000), Ms(1000));
  r.AddSample(Ms(10));
  EXPECT_EQ(r.rto(), Ms(1000));
  r.AddSample(Ms(5000));
  r.AddSample(Ms(5000));
  EXPECT_EQ(r.rto(), Ms(2000));
}


RttEstimator Linux(int hz = 250) {
  return RttEstimator(SimTime::Zero(), Ms(200), Ms(120000), Ms(1000), RtoRules::kLinux, hz);
}

// tcp_rtt_estimator() "no previous measure": SRTT = m, mdev = m / 2 ("make sure rto = 3*rtt"), and
// the variance term rttvar_us = max(4 mdev, tcp_rto_min_us()): RTO = SRTT + max(2 m, rto_min),
// where RFC 6298 gives max(rto_min, 3 m). tcp_set_rto() counts it in whole jiffies, rounded up
// (usecs_to_jiffies()).
TEST(RttEstimatorTest, LinuxFirstSampleKeepsTheMinimumRtoInTheVarianceTerm) {
  RttEstimator linux_rules = Linux();
  RttEstimator rfc(SimTime::Zero(), Ms(200), Ms(120000), Ms(1000));
  EXPECT_EQ(linux_rules.rto(), Ms(1000));  // TCP_TIMEOUT_INIT until the first sample.
  linux_rules.AddSample(Ms(20), 1, 1);
  rfc.AddSample(Ms(20), 1, 1);
  EXPECT_EQ(linux_rules.srtt(), Ms(20));
  EXPECT_EQ(linux_rules.rttvar(), Ms(10));  // tcpi_rttvar: mdev_us / 4.
  EXPECT_EQ(linux_rules.linux_rttvar_us(), 200000);
  EXPECT_EQ(linux_rules.rto(), Ms(220));  // 20 + max(40, 200)
  EXPECT_EQ(rfc.rto(), Ms(200));          // max(200, 20 + 4 * 10)
  RttEstimator wide = Linux();
  wide.AddSample(Ms(300), 1, 1);
  EXPECT_EQ(wide.rto(), Ms(900));  // 300 + max(600, 200): RFC 6298's 3 m too.
  // A sample in microseconds rounds up to the next 4 ms jiffy (HZ 250), or 1 ms (HZ 1000).
  RttEstimator odd = Linux();
  odd.AddSample(SimTime::Microseconds(20500), 1, 1);
  EXPECT_EQ(odd.rto(), Ms(224));
  RttEstimator fine = Linux(1000);
  fine.AddSample(SimTime::Microseconds(20500), 1, 1);
  EXPECT_EQ(fine.rto(), Ms(221));
}

// tcp_rtt_estimator(): within a round of data (until snd_una passes rtt_seq, snd_nxt when it began)
// rttvar_us follows the largest 4 mdev (mdev_max_us); at the end of the round it falls a quarter of
// the way down to that round's largest, and mdev_max_us starts again from tcp_rto_min_us().
TEST(RttEstimatorTest, LinuxVarianceTermFollowsTheLargestDeviationOfARoundAndDecaysPerRound) {
  RttEstimator r = Linux();
  r.AddSample(Ms(100), 1, 10);  // srtt 100, mdev_us 200 ms, rttvar_us 200 ms, rtt_seq 10.
  EXPECT_EQ(r.rto(), Ms(300));
  r.AddSample(Ms(300), 5, 20);  // Same round: m = 200 - 50 = 150, mdev_us 350 ms, rttvar_us 350 ms.
  EXPECT_EQ(r.srtt(), Ms(125));
  EXPECT_EQ(r.linux_rttvar_us(), 350000);
  EXPECT_EQ(r.rto(), Ms(476));  // 125 + 350 = 475 ms, 118.75 jiffies -> 119.
  r.AddSample(Ms(125), 11, 30);  // snd_una 11 passes rtt_seq 10: the round ends, nothing to decay.
  EXPECT_EQ(r.linux_rttvar_us(), 350000);
  EXPECT_EQ(r.linux_mdev_max_us(), 200000);
  r.AddSample(Ms(125), 31, 40);  // The next round's largest is the floor: 350 - (350 - 200) / 4.
  EXPECT_EQ(r.linux_rttvar_us(), 312500);
  EXPECT_EQ(r.rto(), Ms(440));  // 125 + 312.5 = 437.5 ms, 109.4 jiffies -> 110.
}

// tcp_rtt_estimator(): "we use finer gain for mdev in this case (alpha*beta)": when the RTT falls,
// mdev moves by 1/32 of the error beyond it (RFC 6298: 1/4), so that the RTO does not shrink fast.
TEST(RttEstimatorTest, LinuxFallingRttMovesTheDeviationByOneThirtySecond) {
  RttEstimator r = Linux();
  r.AddSample(Ms(100), 1, 10);  // mdev_us 200 ms (mdev 50 ms).
  r.AddSample(Ms(20), 2, 10);   // error 80 ms: mdev_us += (80 - 50) / 8 = 3.75 ms.
  EXPECT_EQ(r.srtt(), Ms(90));
  EXPECT_EQ(r.rttvar(), SimTime::Nanoseconds(50937500));
  RttEstimator rfc(SimTime::Zero(), Ms(200), Ms(120000), Ms(1000));
  rfc.AddSample(Ms(100));
  rfc.AddSample(Ms(20));
  EXPECT_EQ(rfc.rttvar(), SimTime::Microseconds(57500));  // 3/4 * 50 + 1/4 * 80.
}

// tcp_bound_rto(): at most TCP_RTO_MAX; Linux's estimator needs the sequence numbers.
TEST(RttEstimatorTest, LinuxRtoIsBoundedAndNeedsSequenceNumbers) {
  RttEstimator r(SimTime::Zero(), Ms(200), Ms(1000), Ms(1000), RtoRules::kLinux, 250);
  r.AddSample(Ms(800), 1, 1);
  EXPECT_EQ(r.rto(), Ms(1000));
  EXPECT_THROW(r.AddSample(Ms(10)), std::logic_error);
  // Under RFC 6298 the sequence numbers change nothing.
  RttEstimator a(SimTime::Zero(), Ms(200), Ms(60000), Ms(1000));
  RttEstimator b(SimTime::Zero(), Ms(200), Ms(60000), Ms(1000));
  a.AddSample(Ms(70));
  b.AddSample(Ms(70), 5, 9);
  EXPECT_EQ(a.rto(), b.rto());
  EXPECT_EQ(a.rttvar(), b.rttvar());
}

}  // namespace
}  // namespace tcb
