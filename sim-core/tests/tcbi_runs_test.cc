// TCBI on a whole run (Savorić et al. §3): a short connection joins a long one's set with a share
// of its window; the controllers' rules one by one are in sharing/tcbi_test.cc.
#include "sharing/tcbi.h"

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

// End to end (Savorić et al. §3): a five-segment connection opening beside a long transfer of the
// same TCBI set starts with a share of the set's window instead of the standard 2 segments.
testing::json ShortBesideLong(const char* scheme) {
  testing::json doc = testing::SingleLinkScenario(
      10, 20, {{"packets", 100}}, {{"mssBytes", 1000}, {"receiveWindowBytes", 1 << 20}},
      {{"type", "bulk"}, {"name", "long"}, {"from", "server"}, {"to", "client"}, {"bytes", 3000000}});
  doc["traffic"].push_back({{"type", "transfers"}, {"name", "short"}, {"from", "server"}, {"to", "client"},
                            {"bytes", 5000}, {"atS", {1.5}}});
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", scheme}}}}}};
  return doc;
}

TEST(TcbiTest, ShortConnectionJoinsALongOnesSetWithAShareOfItsWindow) {
  const RunOutput fs = testing::RunDoc(ShortBesideLong("fs-tcbi"));
  const RunOutput mv = testing::RunDoc(ShortBesideLong("mv-tcbi"));
  const RunOutput alone = testing::RunDoc(ShortBesideLong("independent"));
  auto short_flow = [](const RunOutput& r) { return r.summary["flows"][1]; };
  EXPECT_EQ(short_flow(alone)["initial"]["cwndBytes"], 1000);
  EXPECT_GT(short_flow(fs)["initial"]["cwndBytes"].get<int64_t>(), 5000);
  // MV gives the newcomer the long one's whole window, FS about half of it plus one segment.
  EXPECT_GT(short_flow(mv)["initial"]["cwndBytes"].get<int64_t>(), short_flow(fs)["initial"]["cwndBytes"].get<int64_t>());
  EXPECT_LT(short_flow(fs)["completionTimeS"].get<double>(), short_flow(alone)["completionTimeS"].get<double>());
  EXPECT_FALSE(short_flow(fs)["initial"]["srttS"].is_null());  // The set's aggregated srtt.
  ASSERT_EQ(fs.summary["groups"].size(), 1u);
  EXPECT_EQ(fs.summary["groups"][0]["flows"].size(), 2u);
  EXPECT_EQ(fs.summary["groups"][0]["key"], "10.2.0.0/24");  // Savorić's sets: the receiver LAN.
}

}  // namespace
}  // namespace tcb
