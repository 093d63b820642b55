// RFC 6298 estimation.
#include "tcp/rtt_estimator.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tcb
