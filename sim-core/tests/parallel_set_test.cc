// Savorić §5's metrics over a connection set: which connections could have been initialised from a
// parallel one ("new" connections), T1 and T2, and the mean Jain index over periods of parallelism.
#include "metrics/parallel_set.h"

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;
using testing::RunDoc;
using testing::SingleLinkScenario;

json TwoTransfers(double second_at) {
  json doc = SingleLinkScenario(2, 10, {{"packets", 50}},
                                {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000}},
                                {{"type", "transfers"}, {"name", "long"}, {"from", "server"}, {"to", "client"},
                                 {"bytes", 2000000}, {"atS", {0}}});
  doc["traffic"].push_back({{"type", "transfers"}, {"name", "short"}, {"from", "server"}, {"to", "client"},
                            {"bytes", 50000}, {"atS", {second_at}}});
  doc["record"] = {{"parallelSet", {"long", "short"}}};
  return doc;
}

TEST(ParallelSetTest, AConnectionStartingBesideAMeasuredOneIsNew) {
  const RunOutput run = RunDoc(TwoTransfers(1.0));
  const json& set = run.summary["run"]["parallelSet"];
  EXPECT_EQ(set["connections"], 2);
  EXPECT_EQ(set["newConnections"]["long"]["connections"], 0);
  const json& fresh = set["newConnections"]["short"];
  ASSERT_EQ(fresh["connections"], 1);
  // T1 = T2 for one connection: delivered segments over its duration.
  const json& flow = run.summary["flows"][1];
  const double expected = 50.0 / flow["completionTimeS"].get<double>();
  EXPECT_NEAR(fresh["t1SegmentsPerS"].get<double>(), expected, 1e-9);
  EXPECT_NEAR(fresh["t2SegmentsPerS"].get<double>(), expected, 1e-9);
  EXPECT_EQ(fresh["meanInitialCwndSegments"], 1.0);
  EXPECT_TRUE(fresh["meanInitialSrttS"].is_null());  // Independent TCP has measured nothing yet.

  const json& parallel = set["parallel"];
  EXPECT_EQ(parallel["connections"], 2);
  EXPECT_GE(parallel["periods"].get<int64_t>(), 1);
  EXPECT_GT(parallel["meanJainIndex"].get<double>(), 0.5);
  EXPECT_LE(parallel["meanJainIndex"].get<double>(), 1.0);
}

TEST(ParallelSetTest, ConnectionsThatNeverOverlapAreNeitherNewNorParallel) {
  const RunOutput run = RunDoc(TwoTransfers(60.0));
  const json& set = run.summary["run"]["parallelSet"];
  EXPECT_EQ(set["newConnections"]["short"]["connections"], 0);
  EXPECT_EQ(set["parallel"]["connections"], 0);
  EXPECT_EQ(set["parallel"]["periods"], 0);
  EXPECT_TRUE(set["parallel"]["meanJainIndex"].is_null());
  EXPECT_TRUE(set["parallel"]["t1SegmentsPerS"].is_null());
}

// With FS-TCBI the new connection starts from the set's state (Savorić §3.2): a larger initial
// window and the shared RTT, where independent TCP starts from its defaults.
TEST(ParallelSetTest, ReportsTheInitialStateOfNewConnections) {
  json doc = TwoTransfers(1.0);
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", "fs-tcbi"}}}}}};
  const json fresh = RunDoc(doc).summary["run"]["parallelSet"]["newConnections"]["short"];
  ASSERT_EQ(fresh["connections"], 1);
  EXPECT_GT(fresh["meanInitialCwndSegments"].get<double>(), 1.0);
  EXPECT_FALSE(fresh["meanInitialSrttS"].is_null());
}

}  // namespace
}  // namespace tcb
