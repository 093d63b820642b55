// RFC 9040 temporal sharing on whole runs: a repeated transfer starts from the cache and finishes
// sooner, and an unpaced cached window bursts into a small queue; the cache's rules one by one are
// in sharing/rfc9040_test.cc.
#include "sharing/rfc9040.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

testing::json RepeatedTransfer(const char* scheme, int queue_packets) {
  testing::json doc = testing::SingleLinkScenario(
      2, 50, {{"packets", queue_packets}}, {{"mssBytes", 1000}, {"receiveWindowBytes", 1 << 20}},
      {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", 60000}, {"atS", {0, 3}}});
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", scheme}}}}}};
  if (std::string(scheme) == "rfc9040-temporal") doc["hosts"]["server"]["sharing"]["ageCwnd"] = false;
  return doc;
}

// End to end: the second of two transfers to the same client starts from the first's window and
// RTT, and finishes sooner; independent TCP starts both from scratch.
TEST(Rfc9040TemporalTest, RepeatedTransferStartsFromTheCacheAndIsFaster) {
  const RunOutput shared = testing::RunDoc(RepeatedTransfer("rfc9040-temporal", 100));
  const RunOutput alone = testing::RunDoc(RepeatedTransfer("independent", 100));
  const auto& t = shared.summary["transfers"];
  EXPECT_LT(t[1]["completionTimeS"].get<double>(), 0.7 * t[0]["completionTimeS"].get<double>());
  const auto& second = shared.summary["flows"][1]["initial"];
  EXPECT_GT(second["cwndBytes"].get<int64_t>(), 10000);
  EXPECT_FALSE(second["srttS"].is_null());
  EXPECT_EQ(alone.summary["flows"][1]["initial"]["cwndBytes"], 1000);
  ASSERT_EQ(shared.summary["groups"].size(), 1u);
  EXPECT_EQ(shared.summary["groups"][0]["cacheHits"], 1);
  EXPECT_EQ(shared.summary["groups"][0]["host"], "server");
  EXPECT_TRUE(alone.summary["groups"].empty());
}

// The hazard RFC 9040 §8 and E-TCP §3.1 warn about: a large cached window sent unpaced is a
// line-rate burst; with a queue smaller than the burst the reused connection loses packets.
TEST(Rfc9040TemporalTest, AnUnpacedCachedWindowBurstsIntoASmallQueue) {
  const RunOutput shared = testing::RunDoc(RepeatedTransfer("rfc9040-temporal", 20));
  EXPECT_EQ(shared.summary["flows"][0]["retransmissions"], 0);
  EXPECT_GT(shared.summary["flows"][1]["retransmissions"].get<int>(), 0);
}

}  // namespace
}  // namespace tcb
