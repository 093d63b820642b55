// TCP-INT (Balakrishnan et al. §5), rule by rule, and its staggered-transfers test.
#include "sharing/tcp_int.h"

#include <gtest/gtest.h>

#include "scenario/presets.h"
#include "tests/fake_sender.h"
#include "tests/test_scenarios.h"

namespace tcb {
namespace {

using testing::FakeSender;
using testing::json;
constexpr Bytes kMss = FakeSender::kMss;

// A no-op event for moving the clock forward.
class Tick final : public EventSource {
 public:
  void OnEvent() override {}
};

struct Fixture {
  explicit Fixture(SharingConfig config = {}, int members = 2) {
    config.scheme = SchemeKind::kTcpInt;
    scheme = std::make_unique<TcpIntScheme>(config, SharingEnvironment{&sim, nullptr});
    TcpConfig tcp;
    tcp.mss = kMss;
    tcp.initial_window_segments = 20;
    senders.resize(members);
    for (int i = 0; i < members; ++i) {
      ConnectionContext c;
      c.flow = i;
      c.remote = 1;
      controls.push_back(scheme->Attach(tcp, senders[i], c));
      controls.back()->OnEstablished(SimTime::Zero(), false);
    }
  }
  // Member `i` sends its next segment as packet `uid`.
  void Send(int i, uint64_t uid) {
    FakeSender& s = senders[i];
    controls[i]->OnSegmentSent(sim.Now(), SentSegment{s.nxt, kMss, false, uid});
    s.nxt += kMss;
    s.max = std::max(s.max, s.nxt);
  }
  // An ACK on connection `i` triggered by packet `echo`, cumulative at `ack` (0: duplicate).
  void Ack(int i, uint64_t echo, SeqNo ack = 0) {
    AckInfo info;
    info.echo_uid = echo;
    if (ack > senders[i].una) {
      info.ack = ack;
      info.newly_acked = ack - senders[i].una;
      senders[i].una = ack;
      controls[i]->OnAck(sim.Now(), info);
    } else {
      info.ack = senders[i].una;
      controls[i]->OnDuplicateAck(sim.Now(), info);
    }
  }
  void AdvanceTo(SimTime t) {
    sim.events().Schedule(tick, t);
    sim.RunUntil(t);
  }
  Simulation sim{1};
  Tick tick;
  std::unique_ptr<TcpIntScheme> scheme;
  std::vector<FakeSender> senders;
  std::vector<std::unique_ptr<CongestionControl>> controls;
};

// Rule 1 (three later ACKs; the threshold is lost from the seed copy, TCP's usual 3), rule 2 (the
// lowest unacknowledged packet of its connection) and "the single oldest lost packet".
TEST(TcpIntTest, ThreeLaterAcksMakeTheLowestPacketOfAConnectionACandidate) {
  Fixture f;
  f.Send(0, 1);  // a1: will be lost.
  f.Send(0, 2);  // a2: also lost.
  for (uint64_t uid = 3; uid <= 6; ++uid) f.Send(1, uid);  // b1..b4 arrive.
  f.Ack(1, 3, 1 + kMss);
  f.Ack(1, 4, 1 + 2 * kMss);
  EXPECT_TRUE(f.senders[0].retransmitted.empty());  // Two later ACKs only.
  f.Ack(1, 5, 1 + 3 * kMss);
  EXPECT_EQ(f.senders[0].retransmitted, (std::vector<SeqNo>{1}));  // a1 only: a2 is not lowest.
  EXPECT_TRUE(f.controls[0]->in_recovery());  // A retransmission is pending.
}

// Rule 3: one pending retransmission per connection; when the ACK covers it, the next lost packet of
// the connection (now the lowest, with its later ACKs) goes at once.
TEST(TcpIntTest, OneRetransmissionPendingPerConnection) {
  Fixture f;
  f.Send(0, 1);  // a1, lost.
  f.Send(0, 2);  // a2, lost.
  for (uint64_t uid = 3; uid <= 9; ++uid) f.Send(1, uid);
  for (uint64_t uid = 3; uid <= 5; ++uid) f.Ack(1, uid, 1 + static_cast<SeqNo>(uid - 2) * kMss);
  ASSERT_EQ(f.senders[0].retransmitted, (std::vector<SeqNo>{1}));
  // a1's entry still has its later ACKs (this fake sender does not re-list the retransmission), so
  // only rule 3 keeps it from being sent again.
  for (uint64_t uid = 6; uid <= 8; ++uid) f.Ack(1, uid, 1 + static_cast<SeqNo>(uid - 2) * kMss);
  EXPECT_EQ(f.senders[0].retransmitted.size(), 1u);
  EXPECT_TRUE(f.controls[0]->in_recovery());
  f.Ack(0, 9, 1 + kMss);  // The retransmitted a1 arrives: a2 is next.
  EXPECT_EQ(f.senders[0].retransmitted, (std::vector<SeqNo>{1, 1 + kMss}));
}

// The extra rules for delayed-ACK receivers (our reading of §5; the bound is 200 ms): without an ACK
// of its own connection for a later packet, a packet waits for the bound before it counts as lost.
TEST(TcpIntTest, DelayedAckRulesWaitForTheBound) {
  SharingConfig config;
  config.delayed_ack_rules = true;
  Fixture f(config);
  f.Send(0, 1);
  for (uint64_t uid = 2; uid <= 5; ++uid) f.Send(1, uid);
  f.Ack(1, 2, 1 + kMss);
  f.Ack(1, 3, 1 + 2 * kMss);
  f.Ack(1, 4, 1 + 3 * kMss);
  EXPECT_TRUE(f.senders[0].retransmitted.empty());
  f.AdvanceTo(SimTime::Milliseconds(250));
  f.Ack(1, 5, 1 + 4 * kMss);
  EXPECT_EQ(f.senders[0].retransmitted, (std::vector<SeqNo>{1}));

  Fixture g(config);
  g.Send(0, 1);  // Lost.
  g.Send(0, 2);  // Arrives; its ACK (a duplicate on connection 0) says the receiver saw a later one.
  for (uint64_t uid = 3; uid <= 4; ++uid) g.Send(1, uid);
  g.Ack(1, 3, 1 + kMss);
  g.Ack(1, 4, 1 + 2 * kMss);
  g.Ack(0, 2);
  EXPECT_EQ(g.senders[0].retransmitted, (std::vector<SeqNo>{1}));
}

// Congestion control on loss: the host's window is halved once per window of data (decr_ts).
TEST(TcpIntTest, TheHostWindowHalvesOncePerWindow) {
  Fixture f({}, 3);
  const Bytes before = f.controls[0]->cwnd() * 3;  // Shares add up to the host's window.
  f.Send(0, 1);  // Lost.
  f.Send(2, 2);  // Lost too, in the same window.
  for (uint64_t uid = 3; uid <= 8; ++uid) f.Send(1, uid);
  for (uint64_t uid = 3; uid <= 8; ++uid) f.Ack(1, uid, 1 + static_cast<SeqNo>(uid - 2) * kMss);
  EXPECT_EQ(f.senders[0].retransmitted.size(), 1u);
  EXPECT_EQ(f.senders[2].retransmitted.size(), 1u);
  const Bytes after = f.controls[0]->ssthresh();
  EXPECT_NEAR(static_cast<double>(after), static_cast<double>(before) / 2, static_cast<double>(kMss) * 3);
}

// §5: the sender "increases the cwnd variable as appropriate": the host's one window follows the
// connections' window rule, with CUBIC RFC 9438 §4.6's reduction and §4.2's cubic curve, once per
// window of data (decr_ts) as with RFC 5681's.
TEST(TcpIntTest, TheHostWindowFollowsCubicsRule) {
  testing::ExpectGroupWindowFollowsCubic(testing::CubicGroupAfterOneLoss("tcp-int"));
}

// §5's test: staggered transfers over a small buffer. TCP-INT recovers every loss without a coarse
// timeout and shares the bottleneck almost exactly; independent SACK or NewReno connections time out
// and share less evenly.
TEST(TcpIntTest, StaggeredTransfersAvoidTimeoutsAndShareEqually) {
  auto run = [](const char* scheme, const char* flavor) {
    json doc = json::parse(*PresetText("tcpint-staggered"));
    doc["tcp"]["flavor"] = flavor;
    doc["hosts"]["left0"]["sharing"] = {{"scheme", scheme}};
    return RunScenario(ParseScenario(doc));
  };
  auto timeouts = [](const RunOutput& r) {
    int n = 0;
    for (const json& f : r.summary["flows"]) n += f["timeouts"].get<int>();
    return n;
  };
  const RunOutput tcp_int = run("tcp-int", "reno");
  const RunOutput sack = run("independent", "sack");
  const RunOutput newreno = run("independent", "newreno");
  EXPECT_EQ(tcp_int.summary["run"]["transfersCompleted"], 4);
  EXPECT_EQ(timeouts(tcp_int), 0);
  EXPECT_GT(timeouts(sack), 0);
  EXPECT_GT(timeouts(newreno), 0);
  const double jain = tcp_int.summary["run"]["fairness"]["jainIndex"].get<double>();
  EXPECT_GT(jain, 0.999);
  EXPECT_GT(jain, sack.summary["run"]["fairness"]["jainIndex"].get<double>());
}

// §5: the host's one window gives "the effect of a single persistent TCP connection", and such a
// connection restarts its window after an idle period (RFC 5681 §4.1). On path-intercontinental
// (100 Mb/s, 150 ms, a 1000-packet queue at the server's own 1 Gb/s interface) the transfers that
// follow 20 s of idle start from the initial window and lose nothing. Without the restart ("nssr",
// and before the rule applied to the host window) the second transfer sent the host's whole window,
// about 1800 segments grown by the first transfer, in one burst, lost the 808 its interface queue
// could not hold, and repaired them one per round trip (rule 3): 40 s later it had not finished, and
// the third transfer, whose window the second's listed packets filled, had sent nothing.
TEST(TcpIntTest, TheHostWindowRestartsAfterIdle) {
  json doc = testing::PathTransfers("path-intercontinental", "tcp-int", "cubic", {0, 20, 40}, 5'000'000, 60);
  const RunOutput ssr = testing::RunDoc(doc);
  EXPECT_EQ(ssr.summary["items"]["file"]["transfersCompleted"], 3);
  for (size_t i = 1; i <= 2; ++i) {
    EXPECT_EQ(testing::Flow(ssr, i)["initial"]["cwndBytes"], 10 * 1460);  // IW10 (RFC 6928).
    EXPECT_EQ(testing::Flow(ssr, i)["retransmissions"], 0);
  }
  doc["tcp"]["slowStartRestart"] = false;
  const RunOutput nssr = testing::RunDoc(doc);
  EXPECT_GT(testing::Flow(nssr, 1)["initial"]["cwndBytes"].get<int64_t>(), 1000 * 1460);
  EXPECT_GT(testing::Flow(nssr, 1)["packetsDropped"].get<int64_t>(), 500);
}

// The proxy case: a weighted host manages its connections' windows as if they were independent, so a
// proxy with two connections takes a multiple of what one host does; unweighted, a host is one
// connection whatever it opens. (The seed's numbers for this test are lost; we assert the direction.
// Measured here, eight seeds: a weighted proxy of two gets about 3.3 times a SACK client's rate, an
// unweighted one about 1.0; two independent Reno connections get about 1.8.)
TEST(TcpIntTest, WeightedProxyCountsAsItsConnections) {
  auto ratio = [](bool weighted, int seed) {
    json doc{{"schemaVersion", 1},
             {"seed", seed},
             {"durationS", 120},
             {"tcp", {{"flavor", "reno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"receiveWindowBytes", 200000}}},
             {"topology",
              {{"kind", "dumbbell"},
               {"pairs", 2},
               {"bottleneck", {{"bandwidthMbps", 4}, {"delayMs", 20}, {"queue", {{"packets", 20}}}}},
               {"access", {{"bandwidthMbps", 100}, {"delayMs", 1}}}}},
             {"hosts", {{"left0", {{"sharing", {{"scheme", "tcp-int"}, {"weighted", weighted}}}}}}},
             {"traffic",
              {{{"type", "bulk"}, {"name", "proxy"}, {"count", 2}, {"from", "left0"}, {"to", "right0"}, {"startJitterS", 1}},
               {{"type", "bulk"}, {"name", "client"}, {"from", "left1"}, {"to", "right1"}, {"startJitterS", 1},
                {"tcp", {{"flavor", "sack"}}}}}}};
    const RunOutput run = testing::RunDoc(doc);
    double proxy = 0, client = 0;
    for (const json& f : run.summary["flows"]) (f["item"] == "proxy" ? proxy : client) += f["goodputBps"].get<double>();
    return proxy / client;
  };
  double weighted = 0, unweighted = 0;
  for (int seed = 1; seed <= 4; ++seed) {
    weighted += ratio(true, seed) / 4;
    unweighted += ratio(false, seed) / 4;
  }
  EXPECT_GT(unweighted, 0.7);
  EXPECT_LT(unweighted, 1.4);
  EXPECT_GT(weighted, 1.8 * unweighted);
}

}  // namespace
}  // namespace tcb
