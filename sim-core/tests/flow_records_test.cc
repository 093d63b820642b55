// record.flowRecords decides only what the result lists: with it off, the run keeps no record of a
// finished flow, transfer or page and folds each into the run's totals as it finishes, and every
// total (run, items, links, groups, Savorić's parallel-set metrics) is the same, bit for bit, as
// when every record is kept to the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <vector>

#include "metrics/summary.h"
#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;

struct Case {
  const char* preset;
  double duration_s;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.preset << " for " << c.duration_s << " s"; }
};

class FlowRecordsTest : public ::testing::TestWithParam<Case> {};

// Web pages (E-TCP, Gürkan, HTTP/2), transfers and bulk with fairness items (the schemes), rounds,
// telnet and on/off UDP (SPAND), Savorić's sessions with parallel-set metrics, paths with losses.
TEST_P(FlowRecordsTest, TotalsAreTheSameWithoutTheRecords) {
  json doc = json::parse(*PresetText(GetParam().preset));
  doc["durationS"] = GetParam().duration_s;
  doc["record"]["flowRecords"] = true;
  const RunOutput with = testing::RunDoc(doc);
  doc["record"]["flowRecords"] = false;
  const RunOutput without = testing::RunDoc(doc);

  json listed = with.summary;
  for (const char* key : {"flows", "transfers", "pages"}) {
    ASSERT_TRUE(listed.contains(key)) << key;
    EXPECT_FALSE(without.summary.contains(key)) << key;
    listed.erase(key);
  }
  ASSERT_GT(with.summary["flows"].size(), 0u);
  listed.erase("resultHash");
  json totals = without.summary;
  totals.erase("resultHash");
  const json diff = json::diff(listed, totals);
  EXPECT_TRUE(diff.empty()) << diff.dump(2);
  EXPECT_EQ(listed.dump(), totals.dump());
  // And the totals are what the records give when added up in index order (flows by id, transfers
  // and pages by index), although flows, transfers and pages finish in another order.
  const json& run = with.summary["run"];
  double completion = 0;
  int64_t completed = 0;
  for (const json& t : with.summary["transfers"]) {
    if (t["completionTimeS"].is_null()) continue;
    completion += t["completionTimeS"].get<double>();
    ++completed;
  }
  EXPECT_EQ(run["transfersCompleted"], completed);
  if (completed > 0) EXPECT_EQ(run["meanCompletionTimeS"].get<double>(), completion / completed);
  const json fair_items = doc["record"].value("fairness", json::array());
  std::vector<double> goodputs;
  for (const json& f : with.summary["flows"]) {
    const bool fair = fair_items.empty() || std::find(fair_items.begin(), fair_items.end(), f["item"]) != fair_items.end();
    if (f["protocol"] == "tcp" && fair) goodputs.push_back(f["goodputBps"].get<double>());
  }
  EXPECT_EQ(run["fairness"]["flows"], goodputs.size());
  EXPECT_EQ(run["fairness"]["jainIndex"].get<double>(), JainIndex(goodputs));
  double total_time = 0, bytes = 0, retrieval = 0;
  int64_t pages = 0;
  for (const json& p : with.summary["pages"]) {
    if (p["totalTimeS"].is_null()) continue;
    total_time += p["totalTimeS"].get<double>();
    bytes += p["bytes"].get<double>();
    retrieval += p["retrievalTimeS"].get<double>();
    ++pages;
  }
  EXPECT_EQ(run["pages"]["completed"], pages);
  if (pages > 0) EXPECT_EQ(run["pages"]["meanTotalTimeS"].get<double>(), total_time / pages);
  if (retrieval > 0) EXPECT_EQ(run["pages"]["retrievalRateBytesPerS"].get<double>(), bytes / retrieval);

  // Nothing refers to flows by index at trace level "summary", so no flow names are kept either.
  EXPECT_EQ(with.flows.size(), with.summary["flows"].size());
  EXPECT_TRUE(without.flows.empty());
}

INSTANTIATE_TEST_SUITE_P(Presets, FlowRecordsTest,
                         ::testing::Values(Case{"etcp-fig5-realistic", 120}, Case{"web-http2", 30},
                                           Case{"gurkan-table4.2", 120}, Case{"path-geo-satellite", 100},
                                           Case{"spand-fig12", 300}, Case{"savoric-table2", 200},
                                           Case{"savoric-table4", 200}, Case{"scheme-etcp", 30},
                                           Case{"tcpint-staggered", 60}, Case{"careful-resume-rfc9959", 120}),
                         [](const auto& info) {
                           std::string name = info.param.preset;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tcb
