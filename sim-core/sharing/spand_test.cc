// TCP/SPAND (seed 004, §5), part by part: the gateway's sliding window and the sender's token
// bucket; the scheme on whole runs is in tests/spand_runs_test.cc.
#include "sharing/spand.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tcp/token_bucket.h"

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

// §5.2.5: "depth of the token bucket ... set to 4 segments ... token filling rate is set to
// cwnd/srtt": a sender that always sends as early as allowed bursts at most 4, then averages the rate.
TEST(TokenBucketTest, BurstsAtMostTheDepthAndAveragesTheRate) {
  TokenBucket bucket(4, 100, SimTime::Zero());  // 100 segments per second.
  SimTime now;
  int burst = 0, longest_burst = 0;
  SimTime last;
  for (int i = 0; i < 1004; ++i) {
    now = bucket.NextSendTime(now);
    burst = (i > 0 && now == last) ? burst + 1 : 1;
    longest_burst = std::max(longest_burst, burst);
    bucket.Consume(now);
    last = now;
  }
  EXPECT_EQ(longest_burst, 4);
  // 1004 segments: 4 at once, then 1000 at 100 per second.
  EXPECT_NEAR(now.seconds(), 10.0, 0.001);
}

}  // namespace
}  // namespace tcb
