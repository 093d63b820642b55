// The window rules over a Tcb (tcp/congestion_ops.h).
#include "tcp/congestion_ops.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

Tcb MakeTcb(Bytes cwnd, Bytes ssthresh) {
  TcpConfig config;
  config.mss = 1000;
  Tcb tcb(config);
  tcb.cwnd = cwnd;
  tcb.ssthresh = ssthresh;
  return tcb;
}

TEST(RenoOpsTest, SlowStartGrowsByTheBytesAcknowledgedUpToOneSegment) {
  // RFC 5681 §3.1 eq. (2): cwnd += min(N, SMSS).
  RenoOps reno;
  Tcb tcb = MakeTcb(2000, 10000);
  reno.IncreaseWindow(tcb, SimTime::Zero(), 500);
  EXPECT_EQ(tcb.cwnd, 2500);
  reno.IncreaseWindow(tcb, SimTime::Zero(), 3000);
  EXPECT_EQ(tcb.cwnd, 3500);
}

TEST(RenoOpsTest, CongestionAvoidanceAddsAboutOneSegmentPerWindow) {
  // RFC 5681 §3.1 eq. (3): cwnd += SMSS*SMSS/cwnd per ACK, at least one byte.
  RenoOps reno;
  Tcb tcb = MakeTcb(10000, 5000);
  for (int ack = 0; ack < 10; ++ack) reno.IncreaseWindow(tcb, SimTime::Zero(), 1000);
  EXPECT_GE(tcb.cwnd, 10950);
  EXPECT_LE(tcb.cwnd, 11000);
  Tcb huge = MakeTcb(Bytes{1} << 40, 1);
  reno.IncreaseWindow(huge, SimTime::Zero(), 1000);
  EXPECT_EQ(huge.cwnd, (Bytes{1} << 40) + 1);
}

TEST(RenoOpsTest, SsthreshIsHalfTheFlightButAtLeastTwoSegments) {
  // RFC 5681 §3.1 eq. (4): ssthresh = max(FlightSize / 2, 2 * SMSS).
  RenoOps reno;
  Tcb tcb = MakeTcb(20000, 1 << 30);
  EXPECT_EQ(reno.SsThresh(tcb, SimTime::Zero(), 16000), 8000);
  EXPECT_EQ(reno.SsThresh(tcb, SimTime::Zero(), 3000), 2000);
  // The same rule for a window without a Tcb (TCP-INT's per-connection windows).
  EXPECT_EQ(Rfc5681SsThresh(16000, 1000), 8000);
  EXPECT_EQ(Rfc5681SsThresh(3000, 1000), 2000);
}

TEST(RenoOpsTest, WindowValidationCountsTheWindowInUseWithinOneSegment) {
  // RFC 7661 §4.3.
  Tcb tcb = MakeTcb(10000, 1 << 30);
  EXPECT_TRUE(WindowInUse(tcb, 9000));
  EXPECT_FALSE(WindowInUse(tcb, 8999));
}

// quiche's TcpCubicSenderBytes::AdjustNetworkParameters() sets a window-based sender's cwnd from
// the saved parameters; here the scheme computes the window (sharing/bdp_resume.h,
// sharing/careful_resume.h) and a rule that leaves its window to the owner jumps to it, only upwards,
// for the owner to pace.
TEST(CongestionOpsTest, AWindowRuleResumesByJumpingToTheGivenWindowOnlyUpwards) {
  Tcb tcb = MakeTcb(10 * 1000, 1 << 30);
  RenoOps reno;
  NetworkParams params;
  params.bandwidth = 1e6;
  params.rtt = SimTime::Milliseconds(100);
  params.window = 50 * 1000;
  EXPECT_EQ(reno.AdjustNetworkParameters(tcb, params), Resumption::kWindow);
  EXPECT_EQ(tcb.cwnd, 50 * 1000);
  params.window = 20 * 1000;
  EXPECT_EQ(reno.AdjustNetworkParameters(tcb, params), Resumption::kNone);
  EXPECT_EQ(tcb.cwnd, 50 * 1000);
  EXPECT_EQ(reno.rate_resumption(), RateResumption::kOff);
}

}  // namespace
}  // namespace tcb
