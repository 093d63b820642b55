// BDP resumption as Google QUIC deploys it: the resumed window is the saved bandwidth x minimum RTT,
// at most quiche's 200 packets of 1460 bytes, and is paced at the saved bandwidth.
#include "sharing/bdp_resume.h"

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

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

// The window the second connection starts with is the first connection's bandwidth x min RTT, at
// most maxWindowBytes: by default quiche's kMaxResumptionCongestionWindow (200) x kDefaultTCPMSS
// (1460 B) of TcpCubicSenderBytes::SetCongestionWindowFromBandwidthAndRtt().
TEST(BdpResumeTest, TheInitialWindowIsTheSavedBdpClamped) {
  const RunOutput once = testing::RunDoc(Repeated({0}, json::object()));
  const json& saved = once.summary["groups"][0]["bdpResume"];
  const double bdp = saved["savedBandwidthBps"].get<double>() / 8 * saved["savedMinRttNs"].get<double>() / 1e9;
  EXPECT_GT(bdp, 450'000);  // 20 Mb/s x ~202 ms.
  EXPECT_LT(bdp, 560'000);

  const RunOutput twice = testing::RunDoc(Repeated({0, 30}, json::object()));
  EXPECT_EQ(twice.summary["flows"][1]["initial"]["cwndBytes"], 200 * 1460);
  EXPECT_EQ(twice.summary["groups"][0]["bdpResume"]["resumed"], 1);
  const RunOutput uncapped = testing::RunDoc(Repeated({0, 30}, {{"maxWindowBytes", "none"}}));
  EXPECT_NEAR(uncapped.summary["flows"][1]["initial"]["cwndBytes"].get<double>(), bdp, 1.0);
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

// Over BBR the saved BDP seeds BBR as Google QUIC does (quiche bbr_sender.cc
// BbrSender::AdjustNetworkParameters()): the window is the saved bandwidth x min RTT (here without
// the 200-packet cap, so that the window is the whole BDP) and Startup paces at least at the saved
// rate. On path-geo-satellite's path the resumed transfer beats the cold one. (The scheme used to
// pace the window beside BBR, and the connection's pacing clock charged it at BBR's initial
// 0.55 Mb/s: a resumed transfer took 39 s against 6.2 s cold.)
TEST(BdpResumeTest, OverBbrTheSavedBdpSeedsBbrAndTheTransferIsFaster) {
  const auto geo = [](std::vector<double> times, double duration_s) {
    json doc = testing::GeoSatellitePath("bdp-resume", "bbr", std::move(times), 5'300'000, duration_s);
    doc["hosts"]["server"]["sharing"]["maxWindowBytes"] = "none";
    return doc;
  };
  const RunOutput cold = testing::RunDoc(geo({0}, 15), TraceLevel::kSummary);
  const json& saved = cold.summary["groups"][0]["bdpResume"];
  const double saved_bps = saved["savedBandwidthBps"].get<double>();
  const double bdp = saved_bps / 8 * saved["savedMinRttNs"].get<double>() / 1e9;

  const RunOutput run = testing::RunDoc(geo({0, 30}, 45), TraceLevel::kSeries);
  EXPECT_EQ(run.summary["groups"][0]["bdpResume"]["resumed"], 1);
  // min RTT: the saved one, below the handshake's SRTT.
  EXPECT_NEAR(run.summary["flows"][1]["initial"]["cwndBytes"].get<double>(), bdp, 1.0);
  const TcpSeries& s = run.recorder->tcp_series();
  bool first = true;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != 1 || s.bbr_state[i] != 1 || s.cwnd[i] < bdp - 1) continue;
    if (first) EXPECT_NEAR(static_cast<double>(s.pacing_bps[i]), saved_bps, saved_bps * 1e-6);
    first = false;
    EXPECT_GE(static_cast<double>(s.pacing_bps[i]), saved_bps * (1 - 1e-6));  // Startup only raises it.
  }
  EXPECT_FALSE(first);
  const json& t = run.summary["transfers"];
  EXPECT_LT(t[1]["completionTimeS"].get<double>(), 0.8 * t[0]["completionTimeS"].get<double>());
}

}  // namespace
}  // namespace tcb
