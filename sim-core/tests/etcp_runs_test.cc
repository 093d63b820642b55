// Ensemble-TCP on whole runs, each rule pinned to its section of the seed paper (seed 000, Eggert et
// al.); the rules on hand-driven connections are in sharing/etcp_test.cc.
#include "sharing/etcp.h"

#include <gtest/gtest.h>

#include <map>

#include "metrics/recorder.h"
#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

// Data segments (not retransmissions) each flow sent in [from, to) seconds.
std::map<std::string, int> SendsBetween(const RunOutput& run, double from, double to) {
  const PacketTrace& t = run.recorder->packet_trace();
  std::map<std::string, int> sends;
  for (size_t i = 0; i < t.size(); ++i) {
    const double s = static_cast<double>(t.time_ns[i]) / 1e9;
    if (t.event[i] != static_cast<uint8_t>(PacketEvent::kSend) || t.payload[i] == 0) continue;
    if (s >= from && s < to) ++sends[run.flows[t.flow[i]].name];
  }
  return sends;
}

// §3.4, Fig. 4: with fair tickets the ensemble window is split 1:1 when the second member joins,
// 1:1:1 with the third, and 1:1 again after the third has sent everything.
TEST(EtcpTest, Fig4FairTicketsSplitTheWindowEvenly) {
  const RunOutput run = RunScenario(ParseScenarioText(*PresetText("etcp-fig4-fair")));
  const auto alone = SendsBetween(run, 0.0, 0.5);
  EXPECT_GT(alone.at("first"), 10);
  EXPECT_EQ(alone.count("second"), 0u);
  const auto two = SendsBetween(run, 0.55, 0.8);
  EXPECT_NEAR(two.at("first"), two.at("second"), 1);
  const auto three = SendsBetween(run, 0.82, 1.05);
  EXPECT_NEAR(three.at("first"), three.at("second"), 1);
  EXPECT_NEAR(three.at("first"), three.at("third"), 1);
  EXPECT_GT(three.at("third"), 10);
  ASSERT_EQ(run.summary["groups"].size(), 1u);
  EXPECT_EQ(run.summary["groups"][0]["flows"].size(), 3u);
}

// §4 html-pre: "HTML-carrying connections hold an infinite number of tickets, thus preempting all
// non-HTML connections"; with content tickets (12 : 3) the image still gets its share.
TEST(EtcpTest, HtmlPreStarvesNonHtmlWhileHtmlHasData) {
  auto run = [](const char* policy) {
    json doc = testing::SingleLinkScenario(
        0.8, 50, "unlimited", {{"connection", "one-way"}, {"mssBytes", 512}, {"receiveWindowBytes", 1 << 20}},
        {{"type", "transfers"}, {"name", "html"}, {"from", "server"}, {"to", "client"}, {"bytes", 30000},
         {"atS", {0}}, {"content", "html"}});
    doc["traffic"].push_back({{"type", "transfers"}, {"name", "image"}, {"from", "server"}, {"to", "client"},
                              {"bytes", 30000}, {"atS", {0}}, {"content", "image"}});
    doc["hosts"] = {{"server", {{"sharing", {{"scheme", "etcp"}, {"tickets", policy}}}}}};
    return testing::RunDoc(doc, TraceLevel::kFull);
  };
  const RunOutput pre = run("html-pre");
  const PacketTrace& t = pre.recorder->packet_trace();
  int64_t last_html = 0, first_image = -1;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.event[i] != static_cast<uint8_t>(PacketEvent::kSend) || t.payload[i] == 0) continue;
    if (pre.flows[t.flow[i]].name == "html") last_html = t.time_ns[i];
    if (pre.flows[t.flow[i]].name == "image" && first_image < 0) first_image = t.time_ns[i];
  }
  EXPECT_GE(first_image, last_html);
  const RunOutput content = run("content");
  const auto early = SendsBetween(content, 0, 0.6);
  EXPECT_GT(early.at("image"), 0);
  EXPECT_GT(early.at("html"), 3 * early.at("image"));  // 12 tickets against 3.
  // HTML alone on the window arrives sooner than when it shares it.
  EXPECT_LT(pre.summary["flows"][0]["completionTimeS"].get<double>(),
            content.summary["flows"][0]["completionTimeS"].get<double>());
}

// §3.3: "an ensemble will only be as aggressive as a single standard TCP connection". Four E-TCP
// connections beside one competing Reno flow take what one connection would take in their place,
// where four independent ones take several times that. (The single reference connection uses SACK,
// so that timeouts after multiple losses do not count against it as lack of aggressiveness;
// averaged over sixteen seeds to smooth drop-tail phase effects.)
TEST(EtcpTest, AnEnsembleIsAsAggressiveAsOneConnection) {
  const testing::Aggressiveness a = testing::EnsembleAggressiveness("etcp", 4, "reno", 16);
  EXPECT_NEAR(a.ensemble, 1.0, 0.05) << a.Describe();
  EXPECT_GT(a.bundle, 1.3) << a.Describe();
}

// §3.3: "an ensemble will only be as aggressive as a single standard TCP connection": its window
// stops growing at one connection's receive window however many members it has (with ns-2's
// 20-packet window, E-TCP's ensembles in §4.3 never overflow the 10-packet queue).
TEST(EtcpTest, TheAggregateWindowStopsAtOneReceiveWindow) {
  json doc = testing::SingleLinkScenario(
      10, 20, "unlimited", {{"flavor", "reno"}, {"mssBytes", 500}, {"receiveWindowBytes", 10000}},
      {{"type", "bulk"}, {"name", "bundle"}, {"count", 4}, {"from", "server"}, {"to", "client"}, {"bytes", 200000}});
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", "etcp"}}}}}};
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kSeries);
  const GroupSeries& g = run.recorder->group_series();
  ASSERT_GT(g.size(), 0u);
  int64_t peak = 0, peak_flight = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    peak = std::max(peak, g.cwnd[i]);
    peak_flight = std::max(peak_flight, g.in_flight[i]);
  }
  EXPECT_EQ(peak, 10000);
  EXPECT_LE(peak_flight, 10000);
}

// §3.3: "An incoming ACK on any connection increases the aggregate cwnd", by the connections' window
// rule: with CUBIC the ensemble window is reduced by beta_cubic and returns to W_max along RFC 9438
// §4.2's cubic curve, as one CUBIC connection's would.
TEST(EtcpTest, TheAggregateWindowFollowsCubicsRule) {
  testing::ExpectGroupWindowFollowsCubic(testing::CubicGroupAfterOneLoss("etcp"));
}

// §3.1 case 2 and Fig. 3: a connection opening on a cached ECB reuses its state, skips slow start
// and the handshake (§5), paces its first window from the cached RTT and window, and finishes sooner.
TEST(EtcpTest, Fig3RepeatedTransferReusesTheCachedEcb) {
  const RunOutput run = RunScenario(ParseScenarioText(*PresetText("etcp-fig3-temporal")));
  const json& flows = run.summary["flows"];
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_LT(flows[1]["completionTimeS"].get<double>(), 0.8 * flows[0]["completionTimeS"].get<double>());
  // No slow start: the second starts at the cached window with ssthresh at most that window.
  EXPECT_GT(flows[1]["initial"]["cwndBytes"].get<int64_t>(), 4 * 512);
  EXPECT_LE(flows[1]["initial"]["ssthreshBytes"].get<int64_t>(), flows[1]["initial"]["cwndBytes"].get<int64_t>());
  EXPECT_EQ(run.summary["groups"][0]["cachedReuses"], 1);

  const PacketTrace& t = run.recorder->packet_trace();
  std::vector<int64_t> second_sends;
  bool second_syn = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.flow[i] != 1 || t.from_initiator[i] != 1 || t.event[i] != static_cast<uint8_t>(PacketEvent::kSend)) continue;
    if (t.flags[i] & tcp_flags::kSyn) second_syn = true;
    if (t.payload[i] > 0) second_sends.push_back(t.time_ns[i]);
  }
  EXPECT_FALSE(second_syn);  // §5: handshake avoidance.
  // Paced: the first packets leave a fraction of an RTT apart, not back to back at line rate
  // (512 B at 800 kb/s is 5.5 ms; the RTT is 100 ms).
  ASSERT_GE(second_sends.size(), 4u);
  for (size_t i = 1; i < 4; ++i) EXPECT_GT(second_sends[i] - second_sends[i - 1], 4 * 1000000);
  EXPECT_LT(second_sends[3] - second_sends[0], 100 * 1000000);
  // The first transfer paid the handshake.
  bool first_syn = false;
  for (size_t i = 0; i < t.size(); ++i) first_syn = first_syn || (t.flow[i] == 0 && (t.flags[i] & tcp_flags::kSyn));
  EXPECT_TRUE(first_syn);

  // The series shows the pacing. The first connection is not paced while it sends (slow start);
  // once its last segment is out it is half-closed, and §4.2 paces the ensemble from then on so that
  // a newcomer cannot burst the whole window. The second starts paced at one window per RTT (§3.1:
  // a packet every srtt / (cwnd / mss)), then the ACK clock takes over and the rate drops to 0.
  int64_t first_last_send = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.flow[i] == 0 && t.from_initiator[i] == 1 && t.event[i] == static_cast<uint8_t>(PacketEvent::kSend) &&
        t.payload[i] > 0) {
      first_last_send = t.time_ns[i];
    }
  }
  const TcpSeries& s = run.recorder->tcp_series();
  ASSERT_EQ(s.pacing_bps.size(), s.size());
  int64_t first_paced_sending = 0, first_paced_half_closed = 0, second_paced = 0, second_unpaced_after = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] == 0 && s.pacing_bps[i] > 0) {
      ++(s.time_ns[i] < first_last_send ? first_paced_sending : first_paced_half_closed);
    }
    if (s.flow[i] != 1) continue;
    if (s.pacing_bps[i] > 0) {
      ++second_paced;
      const double window_per_rtt = static_cast<double>(s.cwnd[i]) * 8.0 / (static_cast<double>(s.srtt_ns[i]) / 1e9);
      EXPECT_NEAR(static_cast<double>(s.pacing_bps[i]), window_per_rtt, 0.2 * window_per_rtt);
    } else if (second_paced > 0) {
      ++second_unpaced_after;
    }
  }
  EXPECT_EQ(first_paced_sending, 0);
  EXPECT_GT(first_paced_half_closed, 0);
  EXPECT_GT(second_paced, 0);
  EXPECT_GT(second_unpaced_after, 0);
}

// §3.3: skipped ACKs from other members count as duplicate ACKs, so a connection whose only packet
// is lost recovers by fast retransmit; alone, it would wait for a timeout.
TEST(EtcpTest, SkippedAcksTriggerRetransmissionWithoutTimeout) {
  auto scenario = [](const char* scheme, int64_t drop) {
    json doc = testing::SingleLinkScenario(
        2, 20, {{"packets", 20}}, {{"flavor", "reno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"receiveWindowBytes", 1 << 20}},
        {{"type", "bulk"}, {"name", "long"}, {"from", "server"}, {"to", "client"}, {"bytes", 400000}});
    doc["traffic"].push_back({{"type", "transfers"}, {"name", "tiny"}, {"from", "server"}, {"to", "client"},
                              {"bytes", 1000}, {"atS", {0.8}}});
    doc["hosts"] = {{"server", {{"sharing", {{"scheme", scheme}}}}}};
    if (drop > 0) doc["topology"]["link"]["lossForward"] = {{"packets", {drop}}};
    return doc;
  };
  // Find the ordinal of the tiny transfer's packet on the path, then drop exactly it.
  auto ordinal_of_tiny = [&](const char* scheme) {
    const RunOutput clean = testing::RunDoc(scenario(scheme, 0), TraceLevel::kFull);
    const PacketTrace& t = clean.recorder->packet_trace();
    // Packets the path accepted: sends, less the ones its queue dropped on arrival.
    int64_t n = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.from_initiator[i] != 1) continue;
      if (t.event[i] == static_cast<uint8_t>(PacketEvent::kDrop)) --n;
      if (t.event[i] != static_cast<uint8_t>(PacketEvent::kSend) &&
          t.event[i] != static_cast<uint8_t>(PacketEvent::kRetransmit)) {
        continue;
      }
      ++n;
      if (clean.flows[t.flow[i]].name == "tiny") return n;
    }
    return int64_t{-1};
  };
  const RunOutput etcp = testing::RunDoc(scenario("etcp", ordinal_of_tiny("etcp")));
  const RunOutput alone = testing::RunDoc(scenario("independent", ordinal_of_tiny("independent")));
  EXPECT_EQ(etcp.summary["flows"][1]["retransmissions"], 1);
  EXPECT_EQ(etcp.summary["flows"][1]["timeouts"], 0);
  EXPECT_EQ(alone.summary["flows"][1]["timeouts"], 1);
  EXPECT_LT(etcp.summary["flows"][1]["completionTimeS"].get<double>(),
            alone.summary["flows"][1]["completionTimeS"].get<double>());
}

}  // namespace
}  // namespace tcb
