// TCP/SPAND (seed 004, §5): the gateway's sliding window, the optimal start with pacing, slow start
// without information, W_c reports, and Fig. 5 reproduced through the whole scheme.
#include "sharing/spand.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "metrics/recorder.h"
#include "scenario/presets.h"
#include "sharing/spand_math.h"
#include "tcp/token_bucket.h"
#include "tests/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

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

json SpandTransfer(json sharing, int64_t bytes, std::vector<double> at = {0}) {
  json doc = testing::SingleLinkScenario(
      1.6, 50, {{"packets", 30}}, {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000},
                                   {"receiveWindowBytes", 102400}, {"rtoGranularityMs", 50}},
      {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", bytes}, {"atS", at}});
  sharing["scheme"] = "spand";
  doc["hosts"] = {{"server", {{"sharing", sharing}}}};
  return doc;
}

// §5.1: from the gateway's W_c and RTT and the transfer size the sender computes cwnd_opt (eq. 3-4),
// enters congestion avoidance (ssthresh <= cwnd), and paces the window (§5.2.5).
TEST(SpandTest, StartsWithTheOptimalWindowInCongestionAvoidanceAndPaces) {
  const RunOutput run = testing::RunDoc(
      SpandTransfer({{"priors", {{{"network", "10.2.0.0/24"}, {"wcPackets", 20}, {"rttMs", 100}}}}}, 40000),
      TraceLevel::kFull);
  const json& initial = run.summary["flows"][0]["initial"];
  const int64_t expected = SpandInitialWindow(40, 20, 1, true).cwnd;
  EXPECT_EQ(initial["cwndBytes"], expected * 1000);
  EXPECT_LE(initial["ssthreshBytes"].get<int64_t>(), initial["cwndBytes"].get<int64_t>());
  EXPECT_NEAR(initial["srttS"].get<double>(), 0.1, 1e-9);  // From the gateway.
  // Paced: four at once, then one every srtt / cwnd.
  const auto sends = testing::EventTimes(run, PacketEvent::kSend, 1);
  ASSERT_GT(sends.size(), 8u);
  EXPECT_EQ(sends[3], sends[0]);
  const double gap = 0.1 / static_cast<double>(expected);
  EXPECT_NEAR(static_cast<double>(sends[5] - sends[4]) / 1e9, gap, 1e-4);
  EXPECT_NEAR(static_cast<double>(sends[6] - sends[5]) / 1e9, gap, 1e-4);

  // The series carries the bucket's rate, cwnd_opt per srtt (§5.2.5), until the initial window is
  // out; then the ACK clock takes over and the rate reads 0.
  const TcpSeries& series = run.recorder->tcp_series();
  const double rate = static_cast<double>(expected) * 1000 * 8 / 0.1;
  size_t paced = 0, unpaced_after = 0;
  for (size_t i = 0; i < series.size(); ++i) {
    if (series.pacing_bps[i] > 0) {
      EXPECT_EQ(unpaced_after, 0u) << "paced again at row " << i;
      EXPECT_NEAR(static_cast<double>(series.pacing_bps[i]), rate, 1.0);
      ++paced;
    } else if (paced > 0) {
      ++unpaced_after;
    }
  }
  EXPECT_GT(paced, 0u);
  EXPECT_GT(unpaced_after, 0u);
}

// §5.2.3: "In case there is not enough performance information in the sliding window, the
// performance gateway simply informs the TCP senders to do slow start."
TEST(SpandTest, WithoutInformationItSlowStarts) {
  const RunOutput none = testing::RunDoc(SpandTransfer(json::object(), 40000));
  EXPECT_EQ(none.summary["flows"][0]["initial"]["cwndBytes"], 1000);
  const RunOutput too_few = testing::RunDoc(SpandTransfer(
      {{"minSamples", 2}, {"priors", {{{"network", "10.2.0.0/24"}, {"wcPackets", 20}, {"rttMs", 100}}}}}, 40000));
  EXPECT_EQ(too_few.summary["flows"][0]["initial"]["cwndBytes"], 1000);
}

// §5.1: a transfer that ends without a loss reports its cwnd; the next transfer (a new connection
// to the same network) uses that report instead of slow starting.
TEST(SpandTest, ReportsFromOneTransferStartTheNext) {
  const RunOutput run = testing::RunDoc(SpandTransfer(json::object(), 30000, {0, 5}));
  const json& flows = run.summary["flows"];
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["initial"]["cwndBytes"], 1000);
  EXPECT_GT(flows[1]["initial"]["cwndBytes"].get<int64_t>(), 4000);
  EXPECT_LT(flows[1]["completionTimeS"].get<double>(), flows[0]["completionTimeS"].get<double>());
  EXPECT_EQ(run.summary["groups"][0]["gatewaySamples"], 2);
}

// Fig. 5 through the whole scheme: the preset's flows start with the windows of eq. (3)-(4).
TEST(SpandTest, Figure5PresetTracesTheCurve) {
  const RunOutput run = RunScenario(ParseScenarioText(*PresetText("spand-fig5-curve")));
  const json& flows = run.summary["flows"];
  ASSERT_EQ(flows.size(), 60u);
  for (int64_t wc = 1; wc <= 60; ++wc) {
    EXPECT_EQ(flows[wc - 1]["initial"]["cwndBytes"], SpandInitialWindow(30, wc, 1, true).cwnd * 1000) << wc;
  }
}

}  // namespace
}  // namespace tcb
