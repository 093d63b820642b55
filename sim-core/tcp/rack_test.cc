// RACK-TLP (RFC 8985): loss detection by time over the SentLog, the reordering timer, lost
// retransmissions, and the tail loss probe, against a scripted sender (whole scenarios are in
// tests/rack_runs_test.cc).
#include "tcp/rack.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tcp/connection_control.h"
#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = testing::FakeSender::kMss;
const SimTime kRtt = SimTime::Milliseconds(100);

SeqNo Seg(int i) { return 1 + static_cast<SeqNo>(i) * kMss; }  // Segment i's first byte.

struct RackFixture {
  RackFixture() {
    config.SetFlavor(TcpFlavor::kSack);
    config.rack = true;
    config.mss = kMss;
    config.initial_window_segments = 10;
    config.receive_window = 1 << 30;
    cc = std::make_unique<ConnectionControl>(config, sender);
    sender.controller = cc.get();
    cc->OnEstablished(SimTime::Zero(), false);
  }
  void SendAt(SimTime t, int segments) {
    sender.now = t;
    sender.SendTo(sender.max + segments * kMss);
  }
  // A cumulative ACK up to segment `through` (inclusive) at `t`, with an RTT sample of kRtt.
  void AckAt(SimTime t, int through) {
    sender.now = t;
    AckInfo info;
    info.ack = Seg(through + 1);
    info.newly_acked = info.ack - sender.una;
    sender.una = info.ack;
    sender.nxt = std::max(sender.nxt, info.ack);
    sender.sacks.Update(info.ack, nullptr, 0);
    cc->OnRttSample(t, kRtt);
    cc->OnAck(t, info);
  }
  // A duplicate ACK at `t` SACKing segments first..last (inclusive).
  void SackAt(SimTime t, int first, int last) {
    sender.now = t;
    blocks.push_back(SackBlock{Seg(first), Seg(last + 1)});
    sender.sacks.Update(sender.una, blocks.data(), static_cast<int>(blocks.size()));
    AckInfo info;
    info.ack = sender.una;
    info.sack_blocks = blocks.data();
    info.sack_count = static_cast<int>(blocks.size());
    cc->OnDuplicateAck(t, info);
  }
  // The controller timer fires at its deadline.
  SimTime FireTimer() {
    const SimTime at = sender.control_timer;
    sender.control_timer = SimTime::Infinite();
    sender.now = at;
    cc->OnControlTimer(at);
    return at;
  }
  int Retransmissions(int segment) const {
    return static_cast<int>(std::count(sender.retransmitted.begin(), sender.retransmitted.end(), Seg(segment)));
  }

  TcpConfig config;
  testing::FakeSender sender;
  std::unique_ptr<ConnectionControl> cc;
  std::vector<SackBlock> blocks;
};

// The common start: segment 0 sent at 0 and acknowledged one RTT later (RACK.min_RTT = 100 ms,
// reordering window min_RTT / 4 = 25 ms), then segments 1..10 sent together at 100 ms.
void Start(RackFixture& f) {
  f.SendAt(SimTime::Zero(), 1);
  f.AckAt(kRtt, 0);
  f.SendAt(kRtt, 10);
}

// RFC 8985 §6.2 step 4: with min_RTT = 100 ms and no reordering seen, the window is min_RTT / 4,
// capped by SRTT; none at all in recovery or once DupThresh segments are SACKed.
TEST(RackTest, ReorderingWindowIsAQuarterOfMinRtt) {
  Rack rack;
  SentLog log;
  Rack::Context c;
  c.min_rtt = kRtt;
  c.has_srtt = true;
  c.srtt = SimTime::Milliseconds(150);
  EXPECT_EQ(rack.ReorderingWindow(log, c), SimTime::Milliseconds(25));
  c.srtt = SimTime::Milliseconds(10);
  EXPECT_EQ(rack.ReorderingWindow(log, c), SimTime::Milliseconds(10));
  c.in_recovery = true;
  EXPECT_EQ(rack.ReorderingWindow(log, c), SimTime::Zero());
}

// RFC 8985 §7.2: PTO = 2 SRTT, plus WCDelAckT (200 ms) with one segment in flight, no later than
// the RTO; one second before any RTT sample.
TEST(RackTest, ProbeTimeout) {
  const SimTime srtt = SimTime::Milliseconds(100);
  EXPECT_EQ(ProbeTimeout(true, srtt, false, SimTime::Seconds(1)), SimTime::Milliseconds(200));
  EXPECT_EQ(ProbeTimeout(true, srtt, true, SimTime::Seconds(1)), SimTime::Milliseconds(400));
  EXPECT_EQ(ProbeTimeout(true, srtt, true, SimTime::Milliseconds(300)), SimTime::Milliseconds(300));
  EXPECT_EQ(ProbeTimeout(false, srtt, false, SimTime::Seconds(3)), SimTime::Seconds(1));
}

// RFC 8985 §6: segment 1 arrives after segment 2 but within the reordering window: a SACK of
// segment 2 arms the reordering timer instead of marking segment 1 lost, and the late segment's
// ACK ends the wait without a retransmission or a window reduction.
TEST(RackTest, ReorderingWithinTheWindowIsNotALoss) {
  RackFixture f;
  Start(f);
  const SimTime sack_at = kRtt + kRtt + SimTime::Milliseconds(1);
  f.SackAt(sack_at, 2, 2);
  EXPECT_FALSE(f.cc->in_recovery());
  EXPECT_EQ(f.cc->sent_log()->lost_bytes(), 0);
  // Segment 1's deadline: sent at 100 ms + RACK.rtt (101 ms) + reo_wnd (25 ms) = 226 ms.
  EXPECT_EQ(f.sender.control_timer, kRtt + SimTime::Milliseconds(101) + SimTime::Milliseconds(25));
  const Bytes cwnd = f.cc->cwnd();
  f.AckAt(sack_at + SimTime::Milliseconds(10), 2);  // Segment 1 arrives 10 ms late.
  EXPECT_TRUE(f.sender.retransmitted.empty());
  EXPECT_FALSE(f.cc->in_recovery());
  EXPECT_GE(f.cc->cwnd(), cwnd);
}

// RFC 8985 §6.3: when segment 1 has not arrived by its deadline, the reordering timer marks it lost
// and fast recovery (RFC 6675, §6.2 step 5) retransmits it.
TEST(RackTest, ReorderingBeyondTheWindowIsALossOnceTheTimerFires) {
  RackFixture f;
  Start(f);
  f.SackAt(kRtt + kRtt + SimTime::Milliseconds(1), 2, 2);
  ASSERT_TRUE(f.sender.retransmitted.empty());
  const SimTime fired = f.FireTimer();
  EXPECT_EQ(fired, SimTime::Milliseconds(226));
  EXPECT_TRUE(f.cc->in_recovery());
  EXPECT_EQ(f.Retransmissions(1), 1);
  EXPECT_LT(f.cc->ssthresh(), 11 * kMss);
}

// RFC 8985 §6.2 step 5 and §6.3 without waiting: SACKs of DupThresh segments above a hole leave no
// reordering window (none seen yet), so segment 1 is lost as soon as RACK.rtt has passed.
TEST(RackTest, DupThreshSackedSegmentsMarkALossAtOnce) {
  RackFixture f;
  Start(f);
  const SimTime t = kRtt + kRtt + SimTime::Milliseconds(1);
  f.SackAt(t, 2, 2);
  f.SackAt(t, 2, 3);
  f.SackAt(t, 2, 4);
  EXPECT_TRUE(f.cc->in_recovery());
  EXPECT_EQ(f.Retransmissions(1), 1);
}

// RFC 8985 §6.2 (a retransmission is a segment of its own, with its own transmission time): the
// retransmission of segment 1 is lost too; a SACK of a segment sent after it, RACK.rtt later,
// marks it lost and it is sent again, without a retransmission timeout.
TEST(RackTest, LostRetransmissionIsDetectedAndResent) {
  RackFixture f;
  Start(f);
  f.SackAt(kRtt + kRtt + SimTime::Milliseconds(1), 2, 2);
  const SimTime retransmitted_at = f.FireTimer();
  ASSERT_EQ(f.Retransmissions(1), 1);
  // New data sent after the retransmission, which it delivers one RTT later.
  f.SendAt(retransmitted_at + SimTime::Milliseconds(1), 1);
  const int newest = 11;
  f.SackAt(retransmitted_at + SimTime::Milliseconds(1) + kRtt, 2, 10);
  f.blocks.clear();
  f.blocks.push_back(SackBlock{Seg(2), Seg(newest + 1)});
  f.SackAt(retransmitted_at + SimTime::Milliseconds(2) + kRtt, 2, newest);
  EXPECT_EQ(f.Retransmissions(1), 2);
  EXPECT_TRUE(f.cc->in_recovery());
}

// RFC 8985 §7.2: sending new data arms the PTO, 2 SRTT ahead (SRTT = 100 ms here), while no
// recovery is under way; §7.3: on expiry with no new data, the highest segment is sent again and
// the RTO, not another probe, guards it.
TEST(RackTest, ProbeRetransmitsTheLastSegmentWhenNoNewDataWaits) {
  RackFixture f;
  Start(f);
  EXPECT_EQ(f.sender.control_timer, kRtt + SimTime::Milliseconds(200));
  f.FireTimer();
  EXPECT_EQ(f.sender.retransmitted, std::vector<SeqNo>{Seg(10)});
  EXPECT_EQ(f.sender.rto_restarts, 1);
  EXPECT_EQ(f.sender.control_timer, SimTime::Infinite());
}

// RFC 8985 §7.3: a probe sends a new segment when the application has one, whatever cwnd says.
TEST(RackTest, ProbeSendsNewDataWhenThereIsSome) {
  RackFixture f;
  Start(f);
  f.sender.unsent = 5 * kMss;
  f.FireTimer();
  EXPECT_TRUE(f.sender.retransmitted.empty());
  EXPECT_EQ(f.sender.new_segments, std::vector<SeqNo>{Seg(11)});
}

}  // namespace
}  // namespace tcb
