// Savorić §4.1's simplified WWW model: transfers one at a time on new connections, drawn sizes and
// gaps, optionally grouped into sessions.
#include "workload/sessions.h"

#include <gtest/gtest.h>

#include "tests/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;
using testing::RunDoc;
using testing::SingleLinkScenario;

json Sessions(json item) {
  item["type"] = "sessions";
  item["name"] = "www";
  item["from"] = "server";
  item["to"] = "client";
  json doc = SingleLinkScenario(10, 5, "unlimited", {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000}},
                                item);
  doc["durationS"] = 40;
  return doc;
}

TEST(SessionsTest, TransfersFollowEachOtherAfterTheGap) {
  const RunOutput run = RunDoc(Sessions({{"bytes", 5000}, {"gapS", 1}}));
  const json& t = run.summary["transfers"];
  ASSERT_GT(t.size(), 20u);
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i - 1]["endS"].is_null()) break;
    EXPECT_NEAR(t[i]["startS"].get<double>(), t[i - 1]["endS"].get<double>() + 1, 1e-9);
    EXPECT_EQ(t[i]["bytes"], 5000);
  }
  // One connection per transfer.
  EXPECT_EQ(run.summary["flows"].size(), t.size());
}

TEST(SessionsTest, SessionsSeparateGroupsOfTransfers) {
  const RunOutput run = RunDoc(Sessions({{"bytes", 2000}, {"gapS", 1}, {"sessions", {{"gapS", 5}, {"transfers", 3}}}}));
  const json& t = run.summary["transfers"];
  ASSERT_GT(t.size(), 6u);
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i - 1]["endS"].is_null()) break;
    const double gap = i % 3 == 0 ? 5 : 1;  // After every third transfer, a session ends.
    EXPECT_NEAR(t[i]["startS"].get<double>() - t[i - 1]["endS"].get<double>(), gap, 1e-9) << "transfer " << i;
  }
}

TEST(SessionsTest, DrawnSizesFollowTheDistribution) {
  const RunOutput run = RunDoc(Sessions({{"bytes", {{"dist", "pareto"}, {"shape", 1.7584}, {"scale", 30458}, {"max", 300000}}},
                                         {"gapS", {{"dist", "exponential"}, {"mean", 0.05}}}}));
  const json& t = run.summary["transfers"];
  ASSERT_GT(t.size(), 30u);
  for (const json& x : t) {
    EXPECT_GE(x["bytes"].get<int64_t>(), 30458);
    EXPECT_LE(x["bytes"].get<int64_t>(), 300000);
  }
}

}  // namespace
}  // namespace tcb
