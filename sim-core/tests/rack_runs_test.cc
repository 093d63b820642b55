// RACK-TLP (RFC 8985) in whole scenarios: the tail loss probe repairs a lost tail without a
// timeout, and the parser requires SACK recovery; the rules one by one are in tcp/rack_test.cc.
#include "tcp/rack.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

// RFC 8985 §7: a lost tail (the last segment of a transfer) is repaired by the loss probe, without
// a retransmission timeout; without RACK-TLP the same loss costs one. A whole scenario: 10
// segments in one initial window, the tenth dropped on the link.
TEST(RackTest, LostTailIsFoundByTheProbeWithoutATimeout) {
  auto run = [](bool rack) {
    testing::json doc = testing::SingleLinkScenario(
        10, 20, "unlimited",
        {{"flavor", "sack"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"initialWindow", 10},
         {"rack", rack}},
        {{"type", "bulk"}, {"from", "server"}, {"to", "client"}, {"bytes", 20000}});
    doc["topology"]["link"]["lossForward"] = {{"packets", {20}}};
    return testing::RunDoc(doc);
  };
  const RunOutput with = run(true);
  const RunOutput without = run(false);
  EXPECT_EQ(testing::Flow(with, 0)["timeouts"], 0);
  EXPECT_EQ(testing::Flow(with, 0)["retransmissions"], 1);
  EXPECT_GE(testing::Flow(without, 0)["timeouts"], 1);
  EXPECT_LT(testing::Flow(with, 0)["completionTimeS"].get<double>(),
            testing::Flow(without, 0)["completionTimeS"].get<double>());
}

// RFC 8985 needs SACK: the parser refuses `rack` with a recovery that has no scoreboard, naming
// the field.
TEST(RackTest, ParserRequiresSackRecovery) {
  testing::json doc = testing::SingleLinkScenario(
      10, 20, "unlimited", {{"flavor", "newreno"}, {"rack", true}},
      {{"type", "bulk"}, {"from", "server"}, {"to", "client"}, {"bytes", 20000}});
  try {
    ParseScenario(doc);
    FAIL() << "accepted rack with NewReno";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("tcp.rack"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tcb
