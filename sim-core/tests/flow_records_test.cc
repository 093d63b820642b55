// record.flowRecords decides only what the result lists: with it off, the run keeps no record of a
// finished flow, transfer or page and folds each into the run's totals as it finishes, and every
// total (run, items, links, groups, Savorić's parallel-set metrics) is the same, bit for bit, as
// when every record is kept to the end.
#include <gtest/gtest.h>

#include "scenario/presets.h"
#include "tests/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;

struct Case {
  const char* preset;
  double duration_s;
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
  // Nothing refers to flows by index at trace level "summary", so no flow names are kept either.
  EXPECT_EQ(with.flows.size(), with.summary["flows"].size());
  EXPECT_TRUE(without.flows.empty());
}

INSTANTIATE_TEST_SUITE_P(Presets, FlowRecordsTest,
                         ::testing::Values(Case{"etcp-fig5-realistic", 120}, Case{"web-http2", 30},
                                           Case{"gurkan-table4.2", 120}, Case{"path-geo-satellite", 100},
                                           Case{"spand-fig12", 300}, Case{"savoric-table2", 600},
                                           Case{"savoric-table4", 600}, Case{"scheme-etcp", 30},
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
