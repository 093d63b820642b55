// The ensemble core (sharing/ensemble.h) with a minimal policy: the window is handed out by the
// stride scheduler, within the window, preempting and priority members first, paced when asked,
// and a member's window and pacing rate are its share of the group's.
#include "sharing/ensemble.h"

#include <gtest/gtest.h>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

using testing::FakeSender;
constexpr Bytes kMss = FakeSender::kMss;

class Tick final : public EventSource {
 public:
  void OnEvent() override {}
};

// The smallest policy: a fixed window, the group's flight is what its members have sent and not
// had acknowledged, and every grant may start another Pump (which must not nest).
class FixedWindowGroup final : public EnsembleGroup {
 public:
  FixedWindowGroup(const SharingEnvironment& env, const TcpConfig& config, Bytes cwnd)
      : EnsembleGroup(env, "test", "key", config) {
    mutable_tcb().cwnd = cwnd;
  }
  void Pace(SimTime interval, int64_t segments) { pacer().PaceWindow(Now(), interval, segments); }
  void Prioritise(EnsembleMember& m) { m.GivePriority(); }
  void Share(EnsembleMember& m, double share) { SetShare(m, share); }
  std::vector<FlowId> granted;  // In grant order, by the member's traits.weight as an id.

 protected:
  void OnSegmentSent(EnsembleMember&, const SentSegment&) override {}
  bool OnAck(EnsembleMember&, const AckInfo&, bool) override { return true; }
  void OnRetransmissionTimeout(EnsembleMember&) override {}
  Bytes InFlight() const override {
    Bytes total = 0;
    for (const EnsembleMember* m : members()) total += m->sender().snd_nxt() - m->sender().snd_una();
    return total;
  }
  void OnGranted(EnsembleMember& m) override {
    granted.push_back(static_cast<FlowId>(m.traits().weight));
    Pump();  // Re-entrant: must return at once.
  }
};

struct Fixture {
  explicit Fixture(Bytes cwnd, int members, std::vector<double> shares = {}, std::vector<bool> preempts = {},
                   TcpConfig tcp = {}) {
    tcp.mss = kMss;
    group = std::make_unique<FixedWindowGroup>(SharingEnvironment{&sim, nullptr}, tcp, cwnd);
    senders.resize(members);
    for (int i = 0; i < members; ++i) {
      senders[i].unsent = 100 * kMss;
      ConnectionTraits traits;
      traits.weight = i;  // Only an id here.
      controls.push_back(std::make_unique<EnsembleMember>(*group, senders[i], tcp, traits, false));
      group->Join(*controls.back(), i, shares.empty() ? 1.0 : shares[i], !preempts.empty() && preempts[i]);
      controls.back()->OnEstablished(SimTime::Zero(), false);
    }
  }
  void AdvanceTo(SimTime t) {
    sim.events().Schedule(tick, t);
    sim.RunUntil(t);
  }
  Simulation sim{1};
  Tick tick;
  std::unique_ptr<FixedWindowGroup> group;
  std::vector<FakeSender> senders;
  std::vector<std::unique_ptr<EnsembleMember>> controls;
};

TEST(EnsembleTest, MembersNeverSendOnTheirOwnAndTheGroupFillsItsWindowOnce) {
  Fixture f(4 * kMss, 2);
  EXPECT_FALSE(f.controls[0]->CanSend(kMss));  // Asking pumps: the group sends for the member.
  EXPECT_EQ(f.group->granted, (std::vector<FlowId>{0, 1, 0, 1}));
  EXPECT_FALSE(f.controls[1]->CanSend(kMss));  // The window is full: nothing more.
  EXPECT_EQ(f.group->granted.size(), 4u);
  f.senders[0].una += 2 * kMss;  // Two segments acknowledged: two more go.
  f.group->Pump();
  EXPECT_EQ(f.group->granted.size(), 6u);
}

TEST(EnsembleTest, TheWindowIsHandedOutByShareAndPreemptingMembersGoFirst) {
  // E-TCP §3.4: stride scheduling by tickets, one packet per quantum.
  Fixture f(8 * kMss, 2, {3, 1});
  f.group->Pump();
  int first = 0;
  for (FlowId id : f.group->granted) first += id == 0;
  EXPECT_EQ(first, 6);
  // E-TCP §4's html-pre: a preempting member goes before every other, whatever the shares.
  Fixture g(3 * kMss, 2, {100, 1}, {false, true});
  g.group->Pump();
  EXPECT_EQ(g.group->granted, (std::vector<FlowId>{1, 1, 1}));
}

TEST(EnsembleTest, APriorityMemberGoesBeforeTheSchedulersChoiceOnce) {
  // E-TCP §3.3: "if a connection needs to retransmit a packet, it is given priority".
  Fixture f(3 * kMss, 2);
  f.group->Prioritise(*f.controls[1]);
  f.group->Pump();
  EXPECT_EQ(f.group->granted, (std::vector<FlowId>{1, 0, 1}));
}

TEST(EnsembleTest, PriorityOutlivesOtherMembersLeavingAndEndsWithItsOwnMember) {
  // The pump looks for priority members only while the group counts some: members leaving, with or
  // without priority, must leave the count right.
  Fixture f(3 * kMss, 3, {1, 100, 1});
  f.group->Pump();
  EXPECT_EQ(f.group->granted, (std::vector<FlowId>{0, 1, 2}));  // The window is full.
  f.group->Prioritise(*f.controls[2]);
  f.group->Prioritise(*f.controls[2]);  // Twice is once.
  // Member 0 leaves without priority, and its segment leaves the window: room for member 2's, which
  // goes before the scheduler's choice (member 1, by far the most tickets).
  f.controls[0]->OnClosed(SimTime::Zero());
  EXPECT_EQ(f.group->granted, (std::vector<FlowId>{0, 1, 2, 2}));
  f.group->Prioritise(*f.controls[1]);
  f.controls[1]->OnClosed(SimTime::Zero());  // Leaves with its priority unused.
  EXPECT_EQ(f.group->granted, (std::vector<FlowId>{0, 1, 2, 2, 2}));
}

TEST(EnsembleTest, ThePacerSpacesGrantsUntilItsBudgetIsSpent) {
  Fixture f(10 * kMss, 1);
  f.group->Pace(SimTime::Milliseconds(10), 3);
  EXPECT_DOUBLE_EQ(f.controls[0]->pacing_rate_bps(), kMss * 8 / 0.010);
  f.group->Pump();
  EXPECT_EQ(f.group->granted.size(), 1u);
  f.AdvanceTo(SimTime::Milliseconds(10));  // The group's own timer pumps.
  EXPECT_EQ(f.group->granted.size(), 2u);
  f.AdvanceTo(SimTime::Milliseconds(20));  // The budget is spent: the rest of the window at once.
  EXPECT_EQ(f.group->granted.size(), 10u);
  EXPECT_EQ(f.controls[0]->pacing_rate_bps(), 0);
}

TEST(EnsembleTest, AMembersWindowIsItsShareAndLeavingForgetsIt) {
  Fixture f(8 * kMss, 2, {3, 1});
  EXPECT_EQ(f.controls[0]->cwnd(), 6 * kMss);
  EXPECT_EQ(f.controls[1]->cwnd(), 2 * kMss);
  f.group->Share(*f.controls[1], 5);  // E-TCP's decaying tickets change shares as members send.
  EXPECT_EQ(f.controls[0]->cwnd(), 3 * kMss);
  EXPECT_EQ(f.controls[1]->cwnd(), 5 * kMss);
  f.group->Share(*f.controls[1], 1);
  EXPECT_EQ(f.controls[0]->ssthresh(), f.group->tcb().ssthresh);
  EXPECT_EQ(&f.controls[0]->rtt(), &f.group->tcb().rtt);  // Shared unless the policy says otherwise.
  f.controls[0]->OnClosed(SimTime::Zero());
  EXPECT_EQ(f.controls[1]->cwnd(), 8 * kMss);
  EXPECT_EQ(f.group->Describe()["flows"], nlohmann::json({0, 1}));  // Every flow that ever joined.
}

// RFC 5681 §4.1 on the group's window: data that starts after the group has had nothing in flight
// and sent or heard nothing for longer than an RTO (a newcomer's first data or a member's after
// idle) restarts the window at min(IW, cwnd). With slow-start restart off ("nssr") the window is
// kept; a group with data in flight or idle for less than an RTO keeps it too, and so does the
// first data a group ever sends.
TEST(EnsembleTest, AGroupIdleForLongerThanAnRtoRestartsItsWindow) {
  // Two members fill a 40-segment window, then everything but `unacked` segments is acknowledged
  // and, `idle` later, member 1 (a newcomer when `first`) starts sending.
  auto window_after = [](SimTime idle, bool ssr, int unacked, bool first) {
    TcpConfig tcp;
    tcp.initial_window_segments = 4;
    tcp.slow_start_restart = ssr;
    Fixture f(40 * kMss, 2, {}, {}, tcp);
    f.controls[0]->OnSendStart(SimTime::Zero(), true, 100 * kMss);
    EXPECT_EQ(f.group->tcb().cwnd, 40 * kMss);  // The group's first data: nothing to restart.
    f.group->Pump();
    for (int i = 0; i < 2; ++i) {
      FakeSender& s = f.senders[i];
      AckInfo ack;
      ack.ack = s.nxt - (i == 0 ? unacked * kMss : 0);
      ack.newly_acked = ack.ack - s.una;
      s.una = ack.ack;
      f.controls[i]->OnAck(f.sim.Now(), ack);
    }
    f.AdvanceTo(idle);
    f.controls[1]->OnSendStart(f.sim.Now(), first, 100 * kMss);
    return f.group->tcb().cwnd / kMss;
  };
  const SimTime long_idle = SimTime::Milliseconds(1500);  // The RTO is the initial 1 s (RFC 6298 §2.1).
  EXPECT_EQ(window_after(long_idle, true, 0, false), 4);
  EXPECT_EQ(window_after(long_idle, true, 0, true), 4);
  EXPECT_EQ(window_after(long_idle, false, 0, false), 40);
  EXPECT_EQ(window_after(SimTime::Milliseconds(900), true, 0, false), 40);
  EXPECT_EQ(window_after(long_idle, true, 1, false), 40);
}

}  // namespace
}  // namespace tcb
