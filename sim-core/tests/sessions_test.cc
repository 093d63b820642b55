// Savorić §4.1's simplified WWW model: transfers one at a time on new connections, drawn sizes and
// gaps, optionally grouped into sessions.
#include "workload/sessions.h"

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

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

// Long runs open a connection per transfer; finished ones are destroyed as the run goes, so memory
// follows the connections alive, not all that ever were.
TEST(SessionsTest, FinishedConnectionsAreReclaimed) {
  json doc = Sessions({{"bytes", 3000}, {"gapS", 0.2}});
  doc["durationS"] = 120;
  const RunOutput run = RunDoc(doc);
  const int64_t opened = run.summary["run"]["tcpFlows"].get<int64_t>();
  ASSERT_GT(opened, 100);
  EXPECT_LE(run.peak_live_connections, 8u) << opened << " connections opened";
  // Reclaimed connections are still counted, and their records are kept.
  EXPECT_EQ(run.summary["flows"].size(), static_cast<size_t>(opened));
  for (const json& f : run.summary["flows"]) {
    if (f["endS"].is_null()) continue;  // The last, cut off by the end of the run.
    EXPECT_TRUE(f["closed"].get<bool>()) << f["name"];
    EXPECT_EQ(f["bytes"], 3000) << f["name"];
  }
}

// flowRecords: false drops the per-flow, per-transfer and per-page arrays and changes nothing else.
TEST(SessionsTest, WithoutFlowRecordsTheTotalsAreTheSame) {
  json doc = Sessions({{"bytes", 3000}, {"gapS", 0.5}});
  const RunOutput with = RunDoc(doc);
  doc["record"]["flowRecords"] = false;
  const RunOutput without = RunDoc(doc);
  for (const char* key : {"flows", "transfers", "pages"}) {
    EXPECT_TRUE(with.summary.contains(key)) << key;
    EXPECT_FALSE(without.summary.contains(key)) << key;
  }
  EXPECT_EQ(with.summary["run"], without.summary["run"]);
  EXPECT_EQ(with.summary["items"], without.summary["items"]);
  EXPECT_EQ(with.summary["links"], without.summary["links"]);
}

}  // namespace
}  // namespace tcb
