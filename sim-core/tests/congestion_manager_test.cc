// The Congestion Manager (RFC 3124): one window per macroflow, granted round robin, flows that recover
// their own losses.
#include "sharing/congestion_manager.h"

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

json TwoFlowsToOnePeer(const char* scheme, std::vector<double> weights = {1, 1}) {
  json doc = testing::SingleLinkScenario(
      2, 20, {{"packets", 30}}, {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000},
                                {"receiveWindowBytes", 1 << 20}},
      {{"type", "bulk"}, {"name", "a"}, {"from", "server"}, {"to", "client"}, {"bytes", 2000000}, {"weight", weights[0]}});
  doc["traffic"].push_back({{"type", "bulk"}, {"name", "b"}, {"from", "server"}, {"to", "client"}, {"bytes", 2000000},
                            {"startS", 0.5}, {"weight", weights[1]}});
  doc["durationS"] = 8;  // Neither finishes: the bytes delivered show the shares.
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", scheme}}}}}};
  return doc;
}

// RFC 3124 §4.3: the scheduler shares the macroflow's window among its flows; round robin by default,
// in proportion to weights here.
TEST(CongestionManagerTest, FlowsShareTheMacroflowWindowByWeight) {
  const RunOutput even = testing::RunDoc(TwoFlowsToOnePeer("congestion-manager"));
  const json& f = even.summary["flows"];
  const double ratio = f[0]["goodputBps"].get<double>() / f[1]["goodputBps"].get<double>();
  EXPECT_NEAR(ratio, 1.0, 0.15);
  const RunOutput weighted = testing::RunDoc(TwoFlowsToOnePeer("congestion-manager", {3, 1}));
  const json& w = weighted.summary["flows"];
  EXPECT_GT(w[0]["bytes"].get<double>(), 2 * w[1]["bytes"].get<double>());
  ASSERT_EQ(even.summary["groups"].size(), 1u);
  EXPECT_EQ(even.summary["groups"][0]["scheme"], "congestion-manager");
}

// RFC 3124 §1: the flows to one destination together are no more aggressive than one TCP connection.
// Two CM flows beside a competing connection take what one SACK connection takes in their place.
TEST(CongestionManagerTest, AMacroflowIsAsAggressiveAsOneConnection) {
  const testing::Aggressiveness a = testing::EnsembleAggressiveness("congestion-manager", 4, "newreno", 8);
  EXPECT_NEAR(a.ensemble, 1.0, 0.1) << a.Describe();
  EXPECT_GT(a.bundle, 1.3) << a.Describe();
}

// RFC 3124 §4.5: the macroflow's window follows "TCP-style" congestion control, here the flows'
// window rule: with CUBIC, RFC 9438 §4.6's reduction and §4.2's cubic curve back to W_max.
TEST(CongestionManagerTest, TheMacroflowWindowFollowsCubicsRule) {
  testing::ExpectGroupWindowFollowsCubic(testing::CubicGroupAfterOneLoss("congestion-manager"));
}

// The flows keep their own reliability: three losses in one window of one flow are repaired by its
// fast retransmit and partial ACKs, without a timeout.
TEST(CongestionManagerTest, FlowsRecoverTheirOwnLosses) {
  json doc = testing::SingleLinkScenario(
      10, 25, "unlimited",
      {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"receiveWindowBytes", 1 << 20},
       {"initialSsthreshBytes", 20000}},
      {{"type", "bulk"}, {"from", "server"}, {"to", "client"}, {"bytes", 200000}});
  doc["topology"]["link"]["lossForward"] = {{"packets", {40, 42, 44}}};
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", "congestion-manager"}}}}}};
  const RunOutput run = testing::RunDoc(doc);
  EXPECT_EQ(run.summary["flows"][0]["timeouts"], 0);
  EXPECT_EQ(run.summary["flows"][0]["retransmissions"], 3);
  EXPECT_EQ(run.summary["flows"][0]["bytes"], 200000);
}

// The macroflow's window is a TCP window (RFC 3124 §4.5), and RFC 5681 §4.1 restarts a TCP window
// after an idle period: on path-intercontinental the transfers that follow 20 s of idle start from
// the initial window and lose nothing. Before the rule applied to the macroflow, the second sent the
// 3570 segments the first had grown the window to in one burst and lost 2425 of them.
TEST(CongestionManagerTest, TheMacroflowWindowRestartsAfterIdle) {
  const RunOutput run = testing::RunDoc(
      testing::PathTransfers("path-intercontinental", "congestion-manager", "cubic", {0, 20, 40}, 5'000'000, 60));
  EXPECT_EQ(run.summary["items"]["file"]["transfersCompleted"], 3);
  for (size_t i = 1; i <= 2; ++i) {
    EXPECT_EQ(testing::Flow(run, i)["initial"]["cwndBytes"], 10 * 1460);  // IW10 (RFC 6928).
    EXPECT_EQ(testing::Flow(run, i)["retransmissions"], 0);
  }
}

}  // namespace
}  // namespace tcb
