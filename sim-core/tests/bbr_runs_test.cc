// BBR version 1 (tcp/bbr.h) on whole runs, against Linux 4.9's net/ipv4/tcp_bbr.c ("tcp_bbr.c"):
// the state machine, the bandwidth estimate and ProbeRTT over one bottleneck; its rules one by one
// are in tcp/bbr_test.cc.
#include "tcp/bbr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;

// The flavor-bbr preset (one bulk flow over a 10 Mb/s, 40 ms link with a 100-packet queue), with
// its TCP series.
RunOutput RunFlavorBbr(double seconds, uint64_t seed = 1) {
  json doc = json::parse(*PresetText("flavor-bbr"));
  doc["durationS"] = seconds;
  RunOptions options;
  options.trace = TraceLevel::kSeries;
  options.seed = seed;
  return RunScenario(ParseScenario(doc), options);
}

// One row of the TCP series, as the tests read it.
struct Row {
  double t;
  int state;
  int gain;
  double btl_bw;
  int64_t in_flight;
  int64_t min_rtt_ns;
};

std::vector<Row> Rows(const RunOutput& run) {
  const TcpSeries& s = run.recorder->tcp_series();
  std::vector<Row> rows;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != 0) continue;
    rows.push_back({static_cast<double>(s.time_ns[i]) / 1e9, s.bbr_state[i], s.bbr_pacing_gain_milli[i],
                    static_cast<double>(s.btl_bw_bps[i]), s.in_flight[i], s.bbr_min_rtt_ns[i]});
  }
  return rows;
}

TEST(BbrRunTest, StartupDrainProbeBwAndProbeRttOnASingleBottleneck) {
  // The state machine of tcp_bbr.c on one bulk flow: Startup (gain 2/ln 2), Drain (its inverse),
  // ProbeBW cycling 5/4, 3/4 and 1, and ProbeRTT (gain 1) whenever the min RTT is 10 s old.
  const RunOutput run = RunFlavorBbr(30);
  const std::vector<Row> rows = Rows(run);
  ASSERT_FALSE(rows.empty());
  std::vector<int> states;
  std::map<int, std::set<int>> gains;
  for (const Row& r : rows) {
    if (states.empty() || states.back() != r.state) states.push_back(r.state);
    gains[r.state].insert(r.gain);
  }
  ASSERT_GE(states.size(), 5u);
  EXPECT_EQ(std::vector<int>(states.begin(), states.begin() + 3), (std::vector<int>{1, 2, 3}));
  for (size_t i = 3; i < states.size(); ++i) EXPECT_EQ(states[i], i % 2 == 1 ? 4 : 3) << "transition " << i;
  EXPECT_EQ(gains[1], (std::set<int>{2887}));
  EXPECT_EQ(gains[2], (std::set<int>{344}));
  EXPECT_EQ(gains[3], (std::set<int>{750, 1000, 1250}));
  EXPECT_EQ(gains[4], (std::set<int>{1000}));
  // Startup fills the pipe within a second (about log2(BDP / IW) + 3 round trips of 40 ms).
  const auto drain = std::find_if(rows.begin(), rows.end(), [](const Row& r) { return r.state == 2; });
  EXPECT_LT(drain->t, 1.0);
}

TEST(BbrRunTest, BandwidthEstimateSettlesAtTheBottleneckRate) {
  // tcp_bbr.c bbr_update_bw(): the windowed maximum delivery rate is the bottleneck's rate: 10 Mb/s
  // of packets, 10 x 1460 / 1500 Mb/s of payload (40 bytes of headers on the wire).
  const RunOutput run = RunFlavorBbr(30);
  const double payload_rate = 10e6 * 1460 / 1500;
  int checked = 0;
  for (const Row& r : Rows(run)) {
    if (r.t < 2) continue;
    EXPECT_NEAR(r.btl_bw, payload_rate, 0.05 * payload_rate) << "at " << r.t << " s";
    ++checked;
  }
  EXPECT_GT(checked, 100);
  // And the flow gets it.
  EXPECT_GT(testing::Flow(run, 0)["goodputBps"].get<double>(), 0.9 * payload_rate);
}

TEST(BbrRunTest, ProbeRttEveryTenSecondsDrainsInFlightToFourPackets) {
  // tcp_bbr.c bbr_update_min_rtt(): every 10 s (bbr_min_rtt_win_sec) without a lower RTT, PROBE_RTT
  // holds in flight at 4 segments (bbr_cwnd_min_target) for at least 200 ms (bbr_probe_rtt_mode_ms).
  const RunOutput run = RunFlavorBbr(45);
  const std::vector<Row> rows = Rows(run);
  std::vector<double> entries, exits;
  std::vector<int64_t> lowest;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].state == 4 && rows[i - 1].state != 4) {
      entries.push_back(rows[i].t);
      lowest.push_back(rows[i].in_flight);
    }
    if (rows[i].state == 4) lowest.back() = std::min(lowest.back(), rows[i].in_flight);
    if (rows[i].state != 4 && rows[i - 1].state == 4) exits.push_back(rows[i].t);
  }
  ASSERT_EQ(entries.size(), 4u);
  ASSERT_EQ(exits.size(), 4u);
  EXPECT_GT(entries[0], 10.0);
  EXPECT_LT(entries[0], 11.0);
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_LE(lowest[i], 4 * 1460) << "ProbeRTT " << i;
    EXPECT_GT(exits[i] - entries[i], 0.2) << "ProbeRTT " << i;
    EXPECT_LT(exits[i] - entries[i], 0.5) << "ProbeRTT " << i;
    if (i > 0) {
      EXPECT_GT(entries[i] - exits[i - 1], 10.0) << "ProbeRTT " << i;
      EXPECT_LT(entries[i] - exits[i - 1], 10.5) << "ProbeRTT " << i;
    }
  }
}

TEST(BbrRunTest, SameSeedSameRun) {
  // Determinism: the run is a function of the scenario and the seed, BBR's random phase included.
  const RunOutput a = RunFlavorBbr(12);
  const RunOutput b = RunFlavorBbr(12);
  EXPECT_EQ(a.result_hash, b.result_hash);
  json doc = json::parse(*PresetText("modern-bulk-bbr"));
  doc["durationS"] = 5;
  const Scenario s = ParseScenario(doc);
  EXPECT_EQ(RunScenario(s).result_hash, RunScenario(s).result_hash);
}

TEST(BbrRunTest, NotOnHostsThatShareOneWindow) {
  // BBR needs each connection's own delivery-rate samples; E-TCP, TCP-INT and the Congestion
  // Manager drive one window per group with the acknowledged bytes only (sharing/ensemble.h).
  json doc = json::parse(*PresetText("flavor-bbr"));
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", "etcp"}}}}}};
  try {
    ParseScenario(doc);
    ADD_FAILURE() << "BBR accepted under E-TCP";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.tcp.flavor");
    EXPECT_NE(e.problem().find("\"etcp\""), std::string::npos) << e.what();
  }
  doc.erase("tcp");
  doc["traffic"][0]["tcp"] = {{"flavor", "bbr"}};
  doc["hosts"] = {{"*", {{"sharing", {{"scheme", "congestion-manager"}}}}}};
  try {
    ParseScenario(doc);
    ADD_FAILURE() << "BBR accepted under the Congestion Manager";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].tcp.flavor");
  }
  // Schemes that keep each connection's window (RFC 9040's) are fine.
  doc["hosts"] = {{"*", {{"sharing", {{"scheme", "rfc9040-temporal"}}}}}};
  EXPECT_NO_THROW(ParseScenario(doc));
}

// The scenario chooses Linux 4.9's rules or 6.x's (tcp.bbr.rules); each run is deterministic.
TEST(BbrLinuxTest, TheScenarioChoosesTheRules) {
  json doc = json::parse(*PresetText("flavor-bbr"));
  doc["durationS"] = 3;
  const RunOutput v49 = RunScenario(ParseScenario(doc));
  doc["tcp"]["bbr"] = {{"rules", "linux"}};
  const RunOutput v6 = RunScenario(ParseScenario(doc));
  EXPECT_NE(v49.result_hash, v6.result_hash);
  EXPECT_EQ(v6.result_hash, RunScenario(ParseScenario(doc)).result_hash);
  doc["tcp"]["bbr"]["rules"] = "linux-5";
  EXPECT_THROW(ParseScenario(doc), ScenarioError);
}

}  // namespace
}  // namespace tcb
