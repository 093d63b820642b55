// TCP/SPAND §6.2's rounds: every sender transfers once per round, at a uniform offset within the
// jitter from the round's beginning; a round begins idleS after the previous round's last arrival.
#include "workload/rounds.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;
using testing::RunDoc;

json RoundsScenario(bool ssr, bool reuse, json queue = {{"bytes", 10240}}) {
  json item{{"type", "rounds"}, {"name", "a"}, {"count", 2}, {"from", "left{i}"}, {"to", "right{i}"},
            {"bytes", 30000}, {"rounds", 3}, {"idleS", 5}, {"startJitterS", 2}, {"reuseConnection", reuse}};
  json other = item;
  other["name"] = "b";
  other["count"] = 1;
  other["from"] = "left2";
  other["to"] = "right2";
  other["bytes"] = 10000;
  return {{"schemaVersion", 1},
          {"seed", 5},
          {"durationS", 200},
          {"tcp", {{"flavor", "reno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"slowStartRestart", ssr}}},
          {"topology",
           {{"kind", "dumbbell"},
            {"pairs", 3},
            {"bottleneck", {{"bandwidthMbps", 1.6}, {"delayMs", 50}, {"queue", queue}}},
            {"access", {{"bandwidthMbps", 10}, {"delayMs", 1}}}}},
          {"traffic", {item, other}}};
}

TEST(RoundsTest, EveryRoundStartsWithinItsJitterAnIdleTimeAfterThePrevious) {
  const RunOutput run = RunDoc(RoundsScenario(true, false));
  std::vector<json> transfers = run.summary["transfers"];
  ASSERT_EQ(transfers.size(), 9u);  // 3 rounds x 3 senders.
  std::sort(transfers.begin(), transfers.end(),
            [](const json& x, const json& y) { return x["startS"].get<double>() < y["startS"].get<double>(); });
  double previous_end = 0;
  for (int round = 0; round < 3; ++round) {
    double first = 1e9, last_start = 0, last_end = 0;
    for (int k = 0; k < 3; ++k) {
      const json& t = transfers[round * 3 + k];
      ASSERT_FALSE(t["endS"].is_null());
      first = std::min(first, t["startS"].get<double>());
      last_start = std::max(last_start, t["startS"].get<double>());
      last_end = std::max(last_end, t["endS"].get<double>());
    }
    const double begin = round == 0 ? 0.0 : previous_end + 5;
    EXPECT_GE(first, begin - 1e-9) << "round " << round;
    EXPECT_LT(last_start, begin + 2) << "round " << round;
    previous_end = last_end;
  }
  EXPECT_EQ(run.summary["items"]["a"]["transfersCompleted"], 6);
  EXPECT_EQ(run.summary["items"]["b"]["transfersCompleted"], 3);
}

TEST(RoundsTest, AReusedConnectionRestartsSlowStartOnlyWithSsr) {
  auto later_rounds = [](bool ssr) {
    // An unlimited buffer, so that the restart policy alone makes the difference (with TCP/SPAND's
    // 10 KB buffer a whole window sent at once after idle loses packets, §6.3.1.1).
    const RunOutput run = RunDoc(RoundsScenario(ssr, true, "unlimited"));
    EXPECT_EQ(run.summary["flows"].size(), 3u);  // One connection per sender.
    for (const json& f : run.summary["flows"]) EXPECT_FALSE(f["endS"].is_null());
    std::vector<json> transfers = run.summary["transfers"];
    std::sort(transfers.begin(), transfers.end(),
              [](const json& x, const json& y) { return x["startS"].get<double>() < y["startS"].get<double>(); });
    double sum = 0;
    for (size_t i = 3; i < transfers.size(); ++i) sum += transfers[i]["completionTimeS"].get<double>();
    return sum;
  };
  // TCP/SPAND §6.2: nssr reuses the prior window after the idle time, ssr slow-starts again.
  EXPECT_LT(later_rounds(false), 0.9 * later_rounds(true));
}

TEST(RoundsTest, RoundsItemsMustAgree) {
  json doc = RoundsScenario(true, false);
  doc["traffic"][1]["rounds"] = 4;
  try {
    ParseScenario(doc);
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[1].rounds");
  }
  doc = RoundsScenario(true, false);
  doc["traffic"][1]["idleS"] = 1;
  try {
    ParseScenario(doc);
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[1].idleS");
  }
}

}  // namespace
}  // namespace tcb
