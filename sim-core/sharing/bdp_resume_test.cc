// QUIC-style BDP resumption: the resumed window is the saved bandwidth x minimum RTT (clamped) and is
// paced at the saved bandwidth.
#include "sharing/bdp_resume.h"

#include <gtest/gtest.h>

#include "tests/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

json Repeated(std::vector<double> times, json sharing) {
  json doc = testing::SingleLinkScenario(
      20, 100, {{"packets", 500}},
      {{"flavor", "newreno"}, {"mssBytes", 1000}, {"initialWindow", 10}, {"receiveWindowBytes", 1 << 24}},
      {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", 4'000'000}, {"atS", times}});
  sharing["scheme"] = "bdp-resume";
  doc["hosts"] = {{"server", {{"sharing", sharing}}}};
  doc["record"] = {{"trace", "full"}};
  return doc;
}

// The window the second connection starts with is the first connection's bandwidth x min RTT.
TEST(BdpResumeTest, TheInitialWindowIsTheSavedBdpClamped) {
  const RunOutput once = testing::RunDoc(Repeated({0}, json::object()));
  const json& saved = once.summary["groups"][0]["bdpResume"];
  const double bdp = saved["savedBandwidthBps"].get<double>() / 8 * saved["savedMinRttNs"].get<double>() / 1e9;
  EXPECT_GT(bdp, 450'000);  // 20 Mb/s x ~202 ms.
  EXPECT_LT(bdp, 560'000);

  const RunOutput twice = testing::RunDoc(Repeated({0, 30}, json::object()));
  EXPECT_NEAR(twice.summary["flows"][1]["initial"]["cwndBytes"].get<double>(), bdp, 1.0);
  EXPECT_EQ(twice.summary["groups"][0]["bdpResume"]["resumed"], 1);
  const RunOutput clamped = testing::RunDoc(Repeated({0, 30}, {{"maxWindowBytes", 100'000}}));
  EXPECT_EQ(clamped.summary["flows"][1]["initial"]["cwndBytes"], 100'000);
}

// The resumed window leaves paced at the saved bandwidth, not as a line-rate burst.
TEST(BdpResumeTest, TheResumedWindowIsPaced) {
  const RunOutput run = testing::RunDoc(Repeated({0, 30}, json::object()), TraceLevel::kFull);
  const json& groups = run.summary["groups"];
  ASSERT_EQ(groups.size(), 1u);
  const TcpSeries& s = run.recorder->tcp_series();
  int64_t rate = 0;
  for (size_t i = 0; i < s.size() && rate == 0; ++i) {
    if (s.flow[i] == 1) rate = s.pacing_bps[i];
  }
  ASSERT_GT(rate, 15'000'000);
  const PacketTrace& t = run.recorder->packet_trace();
  std::vector<int64_t> sends;
  for (size_t i = 0; i < t.size() && sends.size() < 200; ++i) {
    if (t.flow[i] == 1 && t.payload[i] > 0 && t.event[i] == static_cast<uint8_t>(PacketEvent::kSend)) {
      sends.push_back(t.time_ns[i]);
    }
  }
  ASSERT_EQ(sends.size(), 200u);
  for (size_t i = 1; i < sends.size(); ++i) EXPECT_GE(sends[i] - sends[i - 1], 1000LL * 8 * 1'000'000'000 / rate - 1);
}

}  // namespace
}  // namespace tcb
