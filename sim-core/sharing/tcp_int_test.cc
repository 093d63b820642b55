// TCP-INT (Balakrishnan et al. §5), rule by rule (its staggered-transfers test and the other whole
// runs are in tests/tcp_int_runs_test.cc).
#include "sharing/tcp_int.h"

#include <gtest/gtest.h>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

using testing::FakeSender;
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

}  // namespace
}  // namespace tcb
