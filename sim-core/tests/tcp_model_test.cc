// Model checks of the TCP implementation on whole runs: slow-start timing, bottleneck utilisation,
// the congestion-avoidance sawtooth, loss recovery per flavour, delayed ACKs, timer granularity,
// handshakes, slow-start restart and Nagle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::EventTimes;
using testing::Flow;
using testing::json;
using testing::RunDoc;
using testing::SingleLinkScenario;

json Bulk(json extra = json::object()) {
  json item{{"type", "bulk"}, {"from", "server"}, {"to", "client"}};
  item.update(extra);
  return item;
}

// TCP/SPAND §4.1: "without delayed ACK, no more than 2^k - 1 packets can be sent in k RTT's during
// slow start". On a fast link with a 100 ms RTT the k-th round of sends happens around (k-1) RTTs.
TEST(TcpModelTest, SlowStartSends2ToTheKMinus1SegmentsInKRoundTrips) {
  const json doc = SingleLinkScenario(
      1000, 50, "unlimited",
      {{"connection", "one-way"}, {"mssBytes", 1000}, {"initialWindow", 1}, {"receiveWindowBytes", 1 << 24}},
      Bulk({{"bytes", 1000000}}));
  const RunOutput run = RunDoc(doc, TraceLevel::kFull);
  const std::vector<int64_t> sends = EventTimes(run, PacketEvent::kSend, 1);
  const int64_t rtt = 100 * 1000000;
  for (int k = 1; k <= 8; ++k) {
    const int64_t before = k * rtt;  // End of the k-th round trip.
    const auto n = std::count_if(sends.begin(), sends.end(), [&](int64_t t) { return t < before; });
    EXPECT_EQ(n, (1 << k) - 1) << "after " << k << " round trips";
  }
}

TEST(TcpModelTest, OneLongFlowFillsABottleneckWhoseBufferIsAtLeastTheBdp) {
  // RTT = 2 * (1 + 20 + 1) ms = 44 ms; BDP at 10 Mb/s = 55 kB = 37 packets of 1500 B; buffer 50.
  const json doc{{"schemaVersion", 1},
                 {"durationS", 60},
                 {"tcp", {{"flavor", "reno"}, {"mssBytes", 1460}, {"receiveWindowBytes", 1 << 22}}},
                 {"topology",
                  {{"kind", "dumbbell"},
                   {"pairs", 1},
                   {"bottleneck", {{"bandwidthMbps", 10}, {"delayMs", 20}, {"queue", {{"packets", 50}}}}},
                   {"access", {{"bandwidthMbps", 100}, {"delayMs", 1}}}}},
                 {"traffic", json::array({{{"type", "bulk"}, {"from", "left0"}, {"to", "right0"}}})}};
  const RunOutput run = RunDoc(doc);
  const json& bottleneck = run.summary["links"][0];
  ASSERT_EQ(bottleneck["name"], "bottleneck:router0>router1");
  EXPECT_GE(bottleneck["utilization"].get<double>(), 0.95);
  EXPECT_GT(bottleneck["queueDrops"].get<int>(), 0);  // It does probe beyond the pipe.
}

// TCP/SPAND §4.1 eq. (1): in congestion avoidance a Reno flow's window grows from floor((Wc+1)/2)
// to Wc+1, one packet is dropped, and an epoch carries F_E = b * sum_{x=floor((Wc+1)/2)}^{Wc} x +
// 2 Wc + 1 packets, with Wc = W_opt + B (pipe plus buffer).
TEST(TcpModelTest, RenoSawtoothEpochMatchesSpandEquation1) {
  // 1000 B payload, 1040 B on the wire; bottleneck 4.16 Mb/s = 500 packets/s; round-trip
  // propagation 2 * (20 + 0.01 + 0.01) ms ~ 40 ms -> W_opt = 20 packets; buffer B = 20 packets.
  const json doc{{"schemaVersion", 1},
                 {"durationS", 100},
                 {"tcp",
                  {{"flavor", "reno"},
                   {"connection", "one-way"},
                   {"mssBytes", 1000},
                   {"receiveWindowBytes", 1 << 22},
                   {"initialSsthreshBytes", 30000},
                   {"rtoGranularityMs", 1}}},
                 {"topology",
                  {{"kind", "dumbbell"},
                   {"pairs", 1},
                   {"bottleneck", {{"bandwidthMbps", 4.16}, {"delayMs", 20}, {"queue", {{"packets", 20}}}}},
                   {"access", {{"bandwidthMbps", 1000}, {"delayMs", 0.01}}}}},
                 {"traffic", json::array({{{"type", "bulk"}, {"from", "left0"}, {"to", "right0"}}})}};
  const RunOutput run = RunDoc(doc, TraceLevel::kFull);
  const PacketTrace& t = run.recorder->packet_trace();
  // Sends between consecutive fast retransmits, after the slow-start overshoot settled.
  std::vector<int64_t> epoch_sends;
  int64_t sends = 0;
  int retransmits = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.from_initiator[i] != 1) continue;
    if (t.event[i] == static_cast<uint8_t>(PacketEvent::kSend)) ++sends;
    if (t.event[i] == static_cast<uint8_t>(PacketEvent::kRetransmit)) {
      if (++retransmits > 1) epoch_sends.push_back(sends);
      sends = 0;
    }
  }
  ASSERT_GE(epoch_sends.size(), 5u);
  double mean = 0;
  for (int64_t s : epoch_sends) mean += static_cast<double>(s);
  mean /= static_cast<double>(epoch_sends.size());
  const int wc = 20 + 20;
  int sum = 0;
  for (int x = (wc + 1) / 2; x <= wc; ++x) sum += x;
  const double f_e = sum + 2 * wc + 1;
  EXPECT_NEAR(mean, f_e, 0.1 * f_e) << "measured " << mean << " packets per epoch";
  std::printf("sawtooth: %.1f packets per epoch, eq. (1) predicts %.0f\n", mean, f_e);
  EXPECT_EQ(Flow(run, 0)["timeouts"], 0);
}

// Three losses in one window (packets 40, 42 and 44 of the forward direction).
json MultiLoss(const char* flavor) {
  json doc = SingleLinkScenario(
      10, 25, "unlimited",
      {{"flavor", flavor}, {"connection", "one-way"}, {"mssBytes", 1000}, {"receiveWindowBytes", 1 << 20},
       {"initialSsthreshBytes", 20000}},
      Bulk({{"bytes", 200000}}));
  doc["topology"]["link"]["lossForward"] = {{"packets", {40, 42, 44}}};
  return doc;
}

TEST(TcpModelTest, NewRenoRepairsSeveralLossesWithoutTimeoutWhereRenoTimesOut) {
  const RunOutput newreno = RunDoc(MultiLoss("newreno"));
  const RunOutput reno = RunDoc(MultiLoss("reno"));
  EXPECT_EQ(Flow(newreno, 0)["timeouts"], 0);
  EXPECT_GE(Flow(newreno, 0)["retransmissions"], 3);
  EXPECT_GE(Flow(reno, 0)["timeouts"], 1);
  EXPECT_LT(Flow(newreno, 0)["completionTimeS"].get<double>(), Flow(reno, 0)["completionTimeS"].get<double>());
  const RunOutput tahoe = RunDoc(MultiLoss("tahoe"));
  EXPECT_EQ(Flow(tahoe, 0)["bytes"], 200000);
}

// RFC 6675: with SACK blocks the sender learns all three holes at once and repairs them in about
// one round trip, where NewReno needs one round trip per hole.
TEST(TcpModelTest, SackRepairsSeveralLossesFasterThanNewReno) {
  const RunOutput sack = RunDoc(MultiLoss("sack"), TraceLevel::kFull);
  const RunOutput newreno = RunDoc(MultiLoss("newreno"), TraceLevel::kFull);
  EXPECT_EQ(Flow(sack, 0)["timeouts"], 0);
  EXPECT_EQ(Flow(sack, 0)["retransmissions"], 3);
  const auto sack_rexmits = EventTimes(sack, PacketEvent::kRetransmit, 1);
  const auto newreno_rexmits = EventTimes(newreno, PacketEvent::kRetransmit, 1);
  ASSERT_EQ(sack_rexmits.size(), 3u);
  ASSERT_EQ(newreno_rexmits.size(), 3u);
  // RFC 6675 releases each retransmission as pipe drains below cwnd: all within one round trip
  // (50 ms plus queueing), where NewReno spends a round trip per hole.
  const int64_t rtt = 50 * 1000000;
  EXPECT_LT(sack_rexmits.back() - sack_rexmits.front(), rtt);
  EXPECT_GT(newreno_rexmits.back() - newreno_rexmits.front(), 2 * rtt);
  EXPECT_LT(Flow(sack, 0)["completionTimeS"].get<double>(), Flow(newreno, 0)["completionTimeS"].get<double>());
}

// RFC 2018 §4: the first SACK block holds the segment that triggered the ACK; the trace keeps that
// block and the block count of every ACK (trace/columns.json, PacketRow::sack_*).
TEST(TcpModelTest, TraceRecordsTheFirstSackBlockOfEachAck) {
  const RunOutput sack = RunDoc(MultiLoss("sack"), TraceLevel::kFull);
  const PacketTrace& t = sack.recorder->packet_trace();
  std::vector<int64_t> lost;  // First byte of each data segment the link lost.
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.event[i] == static_cast<uint8_t>(PacketEvent::kLoss) && t.payload[i] > 0) lost.push_back(t.seq[i]);
  }
  ASSERT_EQ(lost.size(), 3u);
  int with_sack = 0;
  int most_blocks = 0;
  std::vector<int64_t> first_left_edge;  // Per loss: the first block reported while it is the hole.
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.sack_blocks[i] == 0) {
      EXPECT_EQ(t.sack_start[i], 0);
      EXPECT_EQ(t.sack_end[i], 0);
      continue;
    }
    ++with_sack;
    most_blocks = std::max<int>(most_blocks, t.sack_blocks[i]);
    EXPECT_EQ(t.event[i], static_cast<uint8_t>(PacketEvent::kAck));
    EXPECT_GT(t.sack_start[i], t.ack[i]);
    EXPECT_GT(t.sack_end[i], t.sack_start[i]);
    EXPECT_LE(t.sack_blocks[i], 3);
    if (first_left_edge.size() < lost.size() && t.ack[i] == lost[first_left_edge.size()]) {
      first_left_edge.push_back(t.sack_start[i]);
    }
  }
  EXPECT_GT(with_sack, 3);
  EXPECT_EQ(most_blocks, 3);  // Three holes: three blocks.
  // The first duplicate ACK for the first hole SACKs the segment right after the lost one.
  ASSERT_FALSE(first_left_edge.empty());
  EXPECT_EQ(first_left_edge[0], lost[0] + 1000);

  const RunOutput newreno = RunDoc(MultiLoss("newreno"), TraceLevel::kFull);
  const PacketTrace& n = newreno.recorder->packet_trace();
  EXPECT_EQ(std::count_if(n.sack_blocks.begin(), n.sack_blocks.end(), [](uint8_t b) { return b > 0; }), 0);
}

// Balakrishnan et al. §4: when the second segment of a two-segment window is lost, one duplicate
// ACK comes back and standard TCP waits for a coarse timeout; right-edge recovery sends a new
// segment for each early duplicate, collects three and fast-retransmits instead.
// RFC 6675 §5.1: SACK information is kept across a timeout (the receiver does not renege) and used
// in the loss recovery that follows, as Linux's tcp_enter_loss() keeps SACKed segments marked: the
// sender goes back to snd_una but resends only what the receiver lacks. A 300-segment initial window
// into a 50-packet queue loses 275 segments; recovery loses some retransmissions too, which RFC 6675
// repairs by a timeout. Every loss costs one retransmission (before, the go-back after the timeout
// resent 24 segments the receiver held), and at most one more is sent: RFC 6675 §4 NextSeg() rule
// (4), the rescue retransmission, may resend a segment that was not lost, once per recovery.
TEST(TcpModelTest, AfterATimeoutSackResendsOnlyWhatTheReceiverLacks) {
  const json doc = SingleLinkScenario(
      30, 40, {{"packets", 50}},
      {{"flavor", "sack"}, {"mssBytes", 1000}, {"initialWindow", 300}, {"receiveWindowBytes", 1 << 25}},
      {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", 1000000}, {"atS", {0}}});
  const RunOutput run = RunDoc(doc);
  EXPECT_GE(Flow(run, 0)["timeouts"], 1);
  EXPECT_GT(Flow(run, 0)["packetsDropped"], 200);
  EXPECT_GE(Flow(run, 0)["retransmissions"], Flow(run, 0)["packetsDropped"]);
  EXPECT_LE(Flow(run, 0)["retransmissions"], Flow(run, 0)["packetsDropped"].get<int>() + 1);
  EXPECT_EQ(Flow(run, 0)["bytes"], 1000000);
}

TEST(TcpModelTest, RightEdgeRecoveryAvoidsTheTimeoutOfASmallWindow) {
  auto run = [](bool right_edge) {
    json doc = SingleLinkScenario(
        10, 25, "unlimited",
        {{"flavor", "newreno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"initialWindow", 1},
         {"rightEdgeRecovery", right_edge}},
        Bulk({{"bytes", 30000}}));
    doc["topology"]["link"]["lossForward"] = {{"packets", {2}}};
    return RunDoc(doc);
  };
  const RunOutput plain = run(false);
  const RunOutput right_edge = run(true);
  EXPECT_GE(Flow(plain, 0)["timeouts"], 1);
  EXPECT_EQ(Flow(right_edge, 0)["timeouts"], 0);
  EXPECT_LT(Flow(right_edge, 0)["completionTimeS"].get<double>(), Flow(plain, 0)["completionTimeS"].get<double>() - 0.5);
}

TEST(TcpModelTest, DelayedAcksHalveTheAckCount) {
  auto acks = [](bool delayed) {
    const json doc = SingleLinkScenario(
        10, 10, "unlimited",
        {{"connection", "one-way"}, {"mssBytes", 1000}, {"delayedAck", delayed}, {"receiveWindowBytes", 1 << 20}},
        Bulk({{"bytes", 1000000}}));
    return EventTimes(RunDoc(doc, TraceLevel::kFull), PacketEvent::kAck, 0).size();
  };
  const double ratio = static_cast<double>(acks(true)) / static_cast<double>(acks(false));
  EXPECT_NEAR(ratio, 0.5, 0.02);
}

// RFC 6298 with clock granularity G: RTT samples in whole ticks, RTO = SRTT + max(G, 4 RTTVAR), and
// the timer expires on a tick. One segment is acknowledged (first RTT sample), the next is lost.
TEST(TcpModelTest, RtoClockGranularityMovesTimeoutInstants) {
  auto retransmit_time = [](double granularity_ms) {
    json doc = SingleLinkScenario(
        10, 40, "unlimited",
        {{"connection", "one-way"}, {"mssBytes", 1000}, {"minRtoMs", 0}, {"rtoGranularityMs", granularity_ms}},
        {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", 1000}, {"atS", {0, 1}},
         {"reuseConnection", true}});
    doc["topology"]["link"]["lossForward"] = {{"packets", {2}}};
    const RunOutput run = RunDoc(doc, TraceLevel::kFull);
    const auto times = EventTimes(run, PacketEvent::kRetransmit, 1);
    EXPECT_EQ(times.size(), 1u);
    return times.empty() ? int64_t{0} : times[0];
  };
  // The measured RTT is 80.8 ms (1040 B at 10 Mb/s twice is 0.8 ms... ACK 40 B) ~ 80.9 ms.
  const int64_t t500 = retransmit_time(500);
  // G = 500 ms: sample = 500 ms, RTO = 500 + max(500, 1000) = 1500 ms after the send at 1 s.
  EXPECT_EQ(t500, 2500 * 1000000LL);
  const int64_t t100 = retransmit_time(100);
  // G = 100 ms: sample = 100 ms, RTO = 100 + max(100, 200) = 300 ms -> 1.3 s, on a tick.
  EXPECT_EQ(t100, 1300 * 1000000LL);
  const int64_t t0 = retransmit_time(0);
  // Exact clock: RTO = 3 * RTT ~ 243 ms, not on a 100 ms tick.
  EXPECT_GT(t0, 1200 * 1000000LL);
  EXPECT_LT(t0, 1300 * 1000000LL);
  EXPECT_NE(t0 % (100 * 1000000LL), 0);
}

TEST(TcpModelTest, HandshakeCostsOneRoundTrip) {
  auto completion = [](const char* model) {
    const json doc = SingleLinkScenario(100, 50, "unlimited", {{"connection", model}, {"mssBytes", 1000}},
                                        Bulk({{"bytes", 1000}}));
    return Flow(RunDoc(doc), 0)["completionTimeS"].get<double>();
  };
  const double full = completion("full");
  const double one_way = completion("one-way");
  EXPECT_NEAR(full - one_way, 0.1, 0.001);  // SYN and SYN-ACK: one 100 ms round trip.
  EXPECT_NEAR(one_way, 0.05, 0.001);
}

// RFC 9293 §3.10.7.3: in SYN-SENT, a SYN-ACK that acknowledges the SYN is answered with an ACK at
// once, whether or not data can ride on it. A telnet session whose first keystroke comes seconds
// later acknowledges the SYN-ACK one round trip after its SYN, and the responder, established then,
// never resends its SYN-ACK (before, it waited for the first data and resent it after its 1 s RTO).
TEST(TcpModelTest, TheSynAckIsAcknowledgedAtOnceWithoutData) {
  json doc = SingleLinkScenario(10, 50, "unlimited", {{"mssBytes", 1000}},
                                {{"type", "telnet"}, {"from", "server"}, {"to", "client"}, {"meanIntervalS", 1000}});
  doc["durationS"] = 5;
  const RunOutput run = RunDoc(doc, TraceLevel::kFull);
  const PacketTrace& t = run.recorder->packet_trace();
  int syn_acks = 0;
  int64_t first_ack_arrival = -1;  // At the responder.
  for (size_t i = 0; i < t.size(); ++i) {
    const bool syn = (t.flags[i] & tcp_flags::kSyn) != 0;
    const bool sent = t.event[i] == static_cast<uint8_t>(PacketEvent::kSend) ||
                      t.event[i] == static_cast<uint8_t>(PacketEvent::kRetransmit);
    if (sent && t.from_initiator[i] == 0 && syn) ++syn_acks;
    if (t.event[i] == static_cast<uint8_t>(PacketEvent::kAck) && t.from_initiator[i] == 1 && !syn &&
        first_ack_arrival < 0) {
      first_ack_arrival = t.time_ns[i];
    }
  }
  EXPECT_EQ(syn_acks, 1);
  EXPECT_NEAR(static_cast<double>(first_ack_arrival) / 1e9, 0.15, 0.002);  // SYN, SYN-ACK, ACK: 1.5 RTT.
  EXPECT_EQ(Flow(run, 0)["dataSegmentsSent"], 0);
}

TEST(TcpModelTest, FullConnectionsCloseBothWays) {
  const json doc = SingleLinkScenario(10, 5, {{"packets", 5}}, {{"mssBytes", 1000}},
                                      Bulk({{"bytes", 300000}, {"repeat", 3}}));
  const RunOutput run = RunDoc(doc);
  ASSERT_EQ(run.summary["flows"].size(), 3u);
  for (const json& f : run.summary["flows"]) {
    EXPECT_EQ(f["bytes"], 300000);
    EXPECT_TRUE(f["closed"].get<bool>()) << f.dump();
  }
  EXPECT_EQ(run.summary["stopReason"], "idle");
}

// TCP/SPAND §6.2: with slow-start restart ("ssr") a reused connection starts over from the initial
// window after idling longer than the RTO; without it ("nssr") it keeps its window and is faster.
TEST(TcpModelTest, SlowStartRestartAfterIdle) {
  auto second_transfer = [](bool ssr) {
    const json doc = SingleLinkScenario(
        10, 25, "unlimited",
        {{"connection", "one-way"}, {"mssBytes", 1000}, {"slowStartRestart", ssr}, {"receiveWindowBytes", 1 << 20}},
        {{"type", "transfers"}, {"from", "server"}, {"to", "client"}, {"bytes", 50000}, {"atS", {0, 10}},
         {"reuseConnection", true}});
    const RunOutput run = RunDoc(doc);
    return run.summary["transfers"][1]["completionTimeS"].get<double>();
  };
  const double ssr = second_transfer(true);
  const double nssr = second_transfer(false);
  EXPECT_LT(nssr, ssr - 0.1);  // Several round trips of slow start saved.
}

TEST(TcpModelTest, NagleHoldsSmallWritesWhileDataIsUnacknowledged) {
  auto segments = [](bool nagle) {
    const json doc = SingleLinkScenario(
        10, 50, "unlimited", {{"nagle", nagle}},
        {{"type", "telnet"}, {"from", "server"}, {"to", "client"}, {"meanIntervalS", 0.01}, {"stopS", 5}});
    return Flow(RunDoc(doc), 0)["dataSegmentsSent"].get<int>();
  };
  const int with = segments(true);
  const int without = segments(false);
  EXPECT_LT(with * 3, without);  // About one segment per RTT instead of one per write.
  EXPECT_GT(with, 30);
}

}  // namespace
}  // namespace tcb
