// TCP/SPAND (seed 004, §5) on whole runs: the optimal start with pacing, slow start without
// information, W_c reports, and Fig. 5 reproduced through the whole scheme (the gateway's sliding
// window and the token bucket alone are in sharing/spand_test.cc).
#include "sharing/spand.h"

#include <gtest/gtest.h>

#include <vector>

#include "metrics/recorder.h"
#include "scenario/presets.h"
#include "sharing/spand_math.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

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
