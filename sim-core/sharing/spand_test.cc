// TCP/SPAND (seed 004, §5): the gateway's sliding window (the token bucket that paces the initial
// window is tcp/pacer.h's burst allowance, tested there; the scheme on whole runs is in
// tests/spand_runs_test.cc).
#include "sharing/spand.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

// §5.2.3: "the average of all values in the past S minutes".
TEST(SpandGatewayTest, AveragesTheReportsOfTheSlidingWindow) {
  SpandGateway g(SimTime::Seconds(300));
  g.Report(7, SimTime::Seconds(0), 10, SimTime::Milliseconds(100));
  g.Report(7, SimTime::Seconds(100), 20, SimTime::Milliseconds(200));
  SpandGateway::Estimate e = g.Lookup(7, SimTime::Seconds(200));
  EXPECT_EQ(e.samples, 2);
  EXPECT_DOUBLE_EQ(e.wc_packets, 15);
  EXPECT_EQ(e.rtt, SimTime::Milliseconds(150));
  e = g.Lookup(7, SimTime::Seconds(350));  // The first report is older than S.
  EXPECT_EQ(e.samples, 1);
  EXPECT_DOUBLE_EQ(e.wc_packets, 20);
  EXPECT_EQ(g.Lookup(7, SimTime::Seconds(500)).samples, 0);
  EXPECT_EQ(g.Lookup(8, SimTime::Seconds(1)).samples, 0);
}

}  // namespace
}  // namespace tcb
