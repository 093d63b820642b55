// Tahoe, Reno and NewReno rules, one at a time, against a scripted sender (RFC 5681, RFC 6582).
#include "tcp/connection_control.h"

#include <gtest/gtest.h>

#include <vector>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

using testing::FakeSender;

struct Fixture {
  explicit Fixture(TcpFlavor flavor, int iw = 1) {
    config.SetFlavor(flavor);
    config.mss = kMss;
    config.initial_window_segments = iw;
    config.receive_window = 1 << 30;
    cc = std::make_unique<ConnectionControl>(config, sender);
    cc->OnEstablished(SimTime::Zero(), false);
  }
  // The sender sends new data up to `max`.
  void SendTo(SeqNo max) {
    sender.controller = cc.get();
    sender.SendTo(max);
  }
  // The sender has sent up to `max` and an ACK for `ack` arrives.
  bool Ack(SeqNo ack) {
    sender.controller = cc.get();
    AckInfo info;
    info.ack = ack;
    info.newly_acked = ack - sender.una;
    sender.una = ack;
    if (sender.nxt < ack) sender.nxt = ack;
    sender.sacks.Update(ack, nullptr, 0);
    return cc->OnAck(SimTime::Zero(), info);
  }
  void Dup(int n, std::vector<SackBlock> sack = {}) {
    sender.controller = cc.get();
    sender.sacks.Update(sender.una, sack.data(), static_cast<int>(sack.size()));
    AckInfo info;
    info.ack = sender.una;
    info.sack_blocks = sack.data();
    info.sack_count = static_cast<int>(sack.size());
    for (int i = 0; i < n; ++i) cc->OnDuplicateAck(SimTime::Zero(), info);
  }
  TcpConfig config;
  FakeSender sender;
  std::unique_ptr<ConnectionControl> cc;
};

TEST(ConnectionControlTest, SlowStartAddsOneSegmentPerAck) {
  Fixture f(TcpFlavor::kReno);
  EXPECT_EQ(f.cc->cwnd(), kMss);
  f.SendTo(1 + 4 * kMss);
  for (int i = 1; i <= 4; ++i) f.Ack(1 + i * kMss);
  EXPECT_EQ(f.cc->cwnd(), 5 * kMss);  // RFC 5681 eq. (2).
}

TEST(ConnectionControlTest, CongestionAvoidanceAddsAboutOneSegmentPerWindow) {
  Fixture g(TcpFlavor::kReno, 10);
  g.SendTo(1 + 100 * kMss);
  // Reach congestion avoidance through a fast retransmit.
  g.Dup(3);  // Fast retransmit halves: ssthresh = max(flight/2, 2 MSS) = 50 MSS, cwnd = 53 MSS.
  g.Ack(1 + 100 * kMss);  // Reno leaves recovery: cwnd = ssthresh.
  ASSERT_EQ(g.cc->cwnd(), 50 * kMss);
  g.SendTo(g.sender.una + 50 * kMss);
  for (int i = 1; i <= 50; ++i) g.Ack(g.sender.una + kMss);
  // RFC 5681 eq. (3): +MSS*MSS/cwnd per ACK, so one window of ACKs adds just under one segment.
  EXPECT_GT(g.cc->cwnd(), 50 * kMss + 950);
  EXPECT_LE(g.cc->cwnd(), 51 * kMss);
}

TEST(ConnectionControlTest, RenoFastRetransmitAndRecovery) {
  Fixture f(TcpFlavor::kReno, 10);
  f.SendTo(1 + 10 * kMss);
  f.Dup(2);
  EXPECT_TRUE(f.sender.retransmitted.empty());
  f.Dup(1);
  // RFC 5681 §3.2: retransmit, ssthresh = FlightSize/2, cwnd = ssthresh + 3 SMSS.
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{1}));
  EXPECT_EQ(f.cc->ssthresh(), 5 * kMss);
  EXPECT_EQ(f.cc->cwnd(), 8 * kMss);
  EXPECT_TRUE(f.cc->in_recovery());
  f.Dup(2);
  EXPECT_EQ(f.cc->cwnd(), 10 * kMss);  // Inflated per further duplicate.
  f.Ack(1 + 3 * kMss);                 // Even a partial ACK ends Reno's recovery.
  EXPECT_FALSE(f.cc->in_recovery());
  EXPECT_EQ(f.cc->cwnd(), 5 * kMss);
}

TEST(ConnectionControlTest, NewRenoPartialAcksRetransmitAndStayInRecovery) {
  Fixture f(TcpFlavor::kNewReno, 10);
  f.SendTo(1 + 10 * kMss);
  f.Dup(3);
  EXPECT_EQ(f.cc->cwnd(), 8 * kMss);
  // RFC 6582 §3.2 step 3: partial ACK of 2 segments: retransmit the next hole, deflate by the
  // amount acknowledged, add back one SMSS; only the first partial ACK restarts the timer.
  EXPECT_TRUE(f.Ack(1 + 2 * kMss));
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{1, 1 + 2 * kMss}));
  EXPECT_EQ(f.cc->cwnd(), 8 * kMss - 2 * kMss + kMss);
  EXPECT_TRUE(f.cc->in_recovery());
  EXPECT_FALSE(f.Ack(1 + 4 * kMss));
  EXPECT_EQ(f.sender.retransmitted.back(), 1 + 4 * kMss);
  // Full ACK (covers recover = highest sequence sent): cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
  EXPECT_TRUE(f.Ack(1 + 10 * kMss));
  EXPECT_FALSE(f.cc->in_recovery());
  EXPECT_EQ(f.cc->cwnd(), 2 * kMss);  // Nothing in flight: SMSS + SMSS.
}

TEST(ConnectionControlTest, NewRenoAvoidsASecondReductionForTheSameWindow) {
  Fixture f(TcpFlavor::kNewReno, 10);
  f.SendTo(1 + 10 * kMss);
  f.cc->OnRetransmissionTimeout(SimTime::Zero());  // recover = 10 * MSS.
  EXPECT_EQ(f.cc->cwnd(), kMss);
  f.Ack(1 + kMss);
  f.Dup(3);  // ACK 1001 does not cover recover: RFC 6582 §3.2 step 2 says no fast retransmit.
  EXPECT_TRUE(f.sender.retransmitted.empty());
  EXPECT_FALSE(f.cc->in_recovery());
}

TEST(ConnectionControlTest, TahoeGoesBackNAndSlowStarts) {
  Fixture f(TcpFlavor::kTahoe, 8);
  f.SendTo(1 + 8 * kMss);
  f.Dup(3);
  EXPECT_EQ(f.sender.go_back_n, 1);
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{1}));
  EXPECT_EQ(f.cc->cwnd(), kMss);
  EXPECT_EQ(f.cc->ssthresh(), 4 * kMss);
  EXPECT_FALSE(f.cc->in_recovery());
}

TEST(ConnectionControlTest, TimeoutAndIdleRestart) {
  Fixture f(TcpFlavor::kReno, 4);
  f.SendTo(1 + 20 * kMss);
  f.cc->OnRetransmissionTimeout(SimTime::Zero());
  EXPECT_EQ(f.cc->cwnd(), kMss);  // RFC 5681 §3.1: loss window.
  EXPECT_EQ(f.cc->ssthresh(), 10 * kMss);

  Fixture ssr(TcpFlavor::kReno, 2);
  ssr.SendTo(1 + 20 * kMss);
  for (int i = 1; i <= 10; ++i) ssr.Ack(1 + i * kMss);
  ASSERT_EQ(ssr.cc->cwnd(), 12 * kMss);
  ssr.cc->OnSendStart(SimTime::Zero(), false, 0);
  EXPECT_EQ(ssr.cc->cwnd(), 2 * kMss);  // RFC 5681 §4.1: restart window = min(IW, cwnd).

  Fixture nssr(TcpFlavor::kReno, 2);
  nssr.config.slow_start_restart = false;
  nssr.cc = std::make_unique<ConnectionControl>(nssr.config, nssr.sender);
  nssr.cc->OnEstablished(SimTime::Zero(), false);
  nssr.SendTo(1 + 20 * kMss);
  for (int i = 1; i <= 10; ++i) nssr.Ack(1 + i * kMss);
  nssr.cc->OnSendStart(SimTime::Zero(), false, 0);
  EXPECT_EQ(nssr.cc->cwnd(), 12 * kMss);  // "nssr" keeps the window (TCP/SPAND §6.2).
}

// RFC 5681 §3.1 eq. (4): after a timeout ssthresh is "no more than" max(FlightSize / 2, 2 * SMSS). A
// timeout that ends a fast recovery keeps the recovery's smaller ssthresh, as Linux's
// tcp_enter_loss() does not reduce twice within one window: FlightSize then counts what the
// inflated window sent during the recovery.
TEST(ConnectionControlTest, TimeoutEndingFastRecoveryKeepsTheSmallerSsthresh) {
  for (const TcpFlavor flavor : {TcpFlavor::kNewReno, TcpFlavor::kSack}) {
    Fixture f(flavor, 10);
    f.SendTo(1 + 10 * kMss);
    f.Dup(3);  // ssthresh = FlightSize / 2 = 5 MSS.
    ASSERT_TRUE(f.cc->in_recovery());
    f.SendTo(1 + 40 * kMss);  // The recovery sends 30 new segments.
    f.cc->OnRetransmissionTimeout(SimTime::Zero());  // Eq. (4) alone would give 20 MSS.
    EXPECT_EQ(f.cc->ssthresh(), 5 * kMss) << static_cast<int>(flavor);
    EXPECT_EQ(f.cc->cwnd(), kMss);
    EXPECT_FALSE(f.cc->in_recovery());
  }
  // Eq. (4) still bounds it when FlightSize has shrunk below the recovery's ssthresh.
  Fixture g(TcpFlavor::kNewReno, 10);
  g.SendTo(1 + 10 * kMss);
  g.Dup(3);
  g.Ack(1 + 7 * kMss);  // Partial ACK: FlightSize 3 MSS.
  ASSERT_TRUE(g.cc->in_recovery());
  g.cc->OnRetransmissionTimeout(SimTime::Zero());
  EXPECT_EQ(g.cc->ssthresh(), 2 * kMss);  // max(1.5 MSS, 2 MSS).
  // Outside recovery a timeout takes eq. (4) as before (TimeoutAndIdleRestart).
}

// RFC 5681 §3.1: eq. (4) applies when the segment "has not yet been resent by way of the
// retransmission timer"; when the timer expires again for it, "the value of ssthresh is held
// constant" (Linux's tcp_enter_loss() asks the congestion control's ssthresh() once per loss
// episode). FlightSize still counts everything sent before the go-back, so recomputing would raise
// ssthresh. Once the episode's data is acknowledged, the next timeout reduces again.
TEST(ConnectionControlTest, ARepeatedTimeoutOfTheSameSegmentHoldsSsthresh) {
  for (const TcpFlavor flavor :
       {TcpFlavor::kTahoe, TcpFlavor::kReno, TcpFlavor::kNewReno, TcpFlavor::kSack, TcpFlavor::kCubic}) {
    Fixture f(flavor, 10);
    f.SendTo(1 + 10 * kMss);
    f.cc->OnRetransmissionTimeout(SimTime::Zero());
    const Bytes first = f.cc->ssthresh();
    ASSERT_LT(first, 10 * kMss) << static_cast<int>(flavor);
    f.SendTo(1 + 40 * kMss);  // FlightSize grows: eq. (4) alone would now give a larger ssthresh.
    f.cc->OnRetransmissionTimeout(SimTime::Zero());
    EXPECT_EQ(f.cc->ssthresh(), first) << static_cast<int>(flavor);
    EXPECT_EQ(f.cc->cwnd(), kMss);
    f.Ack(1 + 40 * kMss);  // The episode's data is acknowledged: the loss episode is over.
    f.SendTo(1 + 44 * kMss);
    f.cc->OnRetransmissionTimeout(SimTime::Zero());
    EXPECT_EQ(f.cc->ssthresh(), flavor == TcpFlavor::kCubic ? 2800 : 2 * kMss) << static_cast<int>(flavor);
  }
}

// RFC 9438 §5.8: "CUBIC does not increase its congestion window if a flow is application limited".
// As Linux decides it (tcp_is_cwnd_limited(), include/net/tcp.h, with tcp_cwnd_validate()'s
// bookkeeping in net/ipv4/tcp_output.c): the window grows while it limited the sender during the
// current window of data, or, in slow start, while it is below twice the most that was in flight.
// RFC 5681's Reno has no such rule, and tcp.cubic.appLimitedGrowth restores RFC 8312's growth.
TEST(ConnectionControlTest, CubicDoesNotGrowWhileApplicationLimited) {
  // Slow start: the application keeps at most 3 segments in flight; the window grows to 6.
  Fixture ss(TcpFlavor::kCubic, 2);
  for (int round = 0; round < 6; ++round) {
    ss.SendTo(ss.sender.una + 3 * kMss);
    for (int i = 0; i < 3; ++i) ss.Ack(ss.sender.una + kMss);
  }
  EXPECT_EQ(ss.cc->cwnd(), 6 * kMss);

  // Congestion avoidance after a loss: half a window in flight, no growth however long it lasts.
  Fixture ca(TcpFlavor::kCubic, 20);
  ca.SendTo(1 + 20 * kMss);
  ca.Dup(3);
  ca.Ack(1 + 20 * kMss);
  const Bytes after_recovery = ca.cc->cwnd();
  ASSERT_LT(after_recovery, 20 * kMss);
  for (int round = 0; round < 50; ++round) {
    ca.SendTo(ca.sender.una + 5 * kMss);
    for (int i = 0; i < 5; ++i) ca.Ack(ca.sender.una + kMss);
  }
  EXPECT_EQ(ca.cc->cwnd(), after_recovery);
  // Once the window limits the sender (it has data the window does not let out), it grows again.
  EXPECT_FALSE(ca.cc->CanSend(ca.cc->cwnd() + kMss));
  ca.SendTo(ca.sender.una + ca.cc->cwnd());
  for (int i = 0; i < 10; ++i) ca.Ack(ca.sender.una + kMss);
  EXPECT_GT(ca.cc->cwnd(), after_recovery);

  // RFC 8312's CUBIC (appLimitedGrowth) and RFC 5681's Reno grow on every ACK.
  for (const bool reno : {false, true}) {
    Fixture grows(reno ? TcpFlavor::kNewReno : TcpFlavor::kCubic, 2);
    grows.config.cubic.app_limited_growth = true;
    grows.cc = std::make_unique<ConnectionControl>(grows.config, grows.sender);
    grows.cc->OnEstablished(SimTime::Zero(), false);
    for (int round = 0; round < 6; ++round) {
      grows.SendTo(grows.sender.una + 3 * kMss);
      for (int i = 0; i < 3; ++i) grows.Ack(grows.sender.una + kMss);
    }
    EXPECT_EQ(grows.cc->cwnd(), 20 * kMss) << reno;
  }
}

// RFC 6675: SACK blocks mark holes lost; recovery retransmits them within cwnd - pipe and ends when
// the ACK covers RecoveryPoint.
TEST(ConnectionControlTest, SackRecoveryRetransmitsTheHolesTheScoreboardMarksLost) {
  Fixture f(TcpFlavor::kSack, 10);
  f.SendTo(1 + 10 * kMss);
  // Segments 0 and 2 lost; 1 and 3..9 SACKed.
  const SeqNo s = 1;
  f.Dup(1, {{s + kMss, s + 2 * kMss}});
  f.Dup(1, {{s + 3 * kMss, s + 4 * kMss}, {s + kMss, s + 2 * kMss}});
  EXPECT_TRUE(f.sender.retransmitted.empty());  // 2 MSS SACKed above: not yet "lost".
  f.Dup(1, {{s + 3 * kMss, s + 10 * kMss}, {s + kMss, s + 2 * kMss}});
  EXPECT_TRUE(f.cc->in_recovery());
  EXPECT_EQ(f.cc->ssthresh(), 5 * kMss);
  EXPECT_EQ(f.cc->cwnd(), 5 * kMss);  // RFC 6675 §5 step 4.2: cwnd = ssthresh, no inflation.
  // Both holes are lost by IsLost(); pipe is small, so both go out at once, hole 0 first.
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s, s + 2 * kMss}));
  f.Ack(s + 2 * kMss);  // Partial: still in recovery, nothing new to resend.
  EXPECT_TRUE(f.cc->in_recovery());
  EXPECT_EQ(f.sender.retransmitted.size(), 2u);
  f.Ack(s + 10 * kMss);  // Covers RecoveryPoint.
  EXPECT_FALSE(f.cc->in_recovery());
  EXPECT_EQ(f.cc->cwnd(), 5 * kMss);
}

// RFC 6675 §4 NextSeg() rule (3): with no segment deemed lost and no new data, the first unSACKed
// segment above HighRxt and below the highest SACK is resent, though IsLost() does not hold for it
// (fewer than DupThresh segments SACKed above): a hole near the end of a transfer need not wait for
// the RTO. Once IsLost() holds for it, rule (1) does not resend it again (it is below HighRxt).
TEST(ConnectionControlTest, SackNextSegRule3ResendsAnUnmarkedHoleBelowTheHighestSack) {
  const SeqNo s = 1;
  auto blocks = [&](int last_sacked) {
    // Of segments 0..10, 1..min(last, 6) and 8..last SACKed; 0 and 7 lost.
    std::vector<SackBlock> b;
    if (last_sacked >= 8) b.push_back({s + 8 * kMss, s + (last_sacked + 1) * kMss});
    b.push_back({s + kMss, s + (std::min(last_sacked, 6) + 1) * kMss});
    return b;
  };
  for (const bool more_data : {false, true}) {
    Fixture f(TcpFlavor::kSack, 11);
    f.SendTo(s + 11 * kMss);
    f.sender.unsent = more_data ? 10 * kMss : 0;
    for (int last = 1; last <= 6; ++last) f.Dup(1, blocks(last));
    ASSERT_TRUE(f.cc->in_recovery());
    EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s}));  // (4.3): the head only.
    f.Dup(1, blocks(8));  // Segment 8 SACKed: 7 lies below the highest SACK, one segment above it.
    if (more_data) {
      // Rule (2) comes first: new data, which the sender sends through CanSend().
      EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s}));
      EXPECT_TRUE(f.cc->CanSend(kMss));
      continue;
    }
    // cwnd 5.5 MSS, pipe 11 - 7 SACKed - 1 lost + 1 retransmitted = 4 MSS: rule (3) resends 7.
    EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s, s + 7 * kMss}));
    f.Dup(1, blocks(9));
    f.Dup(1, blocks(10));  // Three segments above 7: IsLost(7), but its retransmission is out.
    EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s, s + 7 * kMss}));
    f.Ack(s + 11 * kMss);
    EXPECT_FALSE(f.cc->in_recovery());
  }
}

// RFC 6675 §4 NextSeg() rule (4): once HighACK passes RescueRxt (the first retransmission), one
// "rescue" retransmission of the highest outstanding unSACKed segment per recovery: a lost last
// segment has nothing SACKed above it, so rule (1) and (3) never resend it.
TEST(ConnectionControlTest, SackNextSegRule4SendsOneRescueRetransmissionPerRecovery) {
  const SeqNo s = 1;
  Fixture f(TcpFlavor::kSack, 10);
  f.SendTo(s + 10 * kMss);
  // Segments 0 and 9 (the last) lost; 1..8 SACKed.
  for (int last = 1; last <= 8; ++last) f.Dup(1, {{s + kMss, s + (last + 1) * kMss}});
  ASSERT_TRUE(f.cc->in_recovery());
  // HighACK has not passed RescueRxt (segment 0's end) yet: no rescue.
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s}));
  // The retransmission of 0 arrives: the ACK jumps to segment 9, below RecoveryPoint (partial).
  f.Ack(s + 9 * kMss);
  ASSERT_TRUE(f.cc->in_recovery());
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{s, s + 9 * kMss}));
  // RescueRxt = RecoveryPoint now: no second rescue in this recovery.
  f.Dup(1);
  EXPECT_EQ(f.sender.retransmitted.size(), 2u);
  f.Ack(s + 10 * kMss);
  EXPECT_FALSE(f.cc->in_recovery());
}

// Balakrishnan et al. §4: early duplicate ACKs each release one new segment beyond the window, so a
// window of two still collects three duplicates.
TEST(ConnectionControlTest, RightEdgeRecoverySendsNewSegmentsOnEarlyDuplicates) {
  Fixture f(TcpFlavor::kNewReno, 2);
  f.config.right_edge_recovery = true;
  f.cc = std::make_unique<ConnectionControl>(f.config, f.sender);
  f.cc->OnEstablished(SimTime::Zero(), false);
  f.SendTo(1 + 2 * kMss);
  f.sender.unsent = 10 * kMss;
  f.Dup(1);
  f.Dup(1);
  EXPECT_EQ(f.sender.new_segments, (std::vector<SeqNo>{1 + 2 * kMss, 1 + 3 * kMss}));
  EXPECT_TRUE(f.sender.retransmitted.empty());
  f.Dup(1);
  EXPECT_EQ(f.sender.retransmitted, (std::vector<SeqNo>{1}));
  Fixture plain(TcpFlavor::kNewReno, 2);
  plain.SendTo(1 + 2 * kMss);
  plain.sender.unsent = 10 * kMss;
  plain.Dup(2);
  EXPECT_TRUE(plain.sender.new_segments.empty());
}

TEST(ConnectionControlTest, LostSynMeansOneSegmentInitialWindow) {
  Fixture f(TcpFlavor::kNewReno, 4);
  EXPECT_EQ(f.cc->cwnd(), 4 * kMss);
  f.cc->OnEstablished(SimTime::Zero(), true);
  EXPECT_EQ(f.cc->cwnd(), kMss);  // RFC 5681 §3.1.
}

TEST(TcpConfigTest, Rfc3390InitialWindow) {
  TcpConfig c;
  c.initial_window_rule = TcpConfig::InitialWindowRule::kRfc3390;
  c.mss = 1460;
  EXPECT_EQ(c.InitialWindowBytes(), 4380);  // min(5840, max(2920, 4380)).
  c.mss = 512;
  EXPECT_EQ(c.InitialWindowBytes(), 2048);  // min(2048, 4380).
  c.mss = 3000;
  EXPECT_EQ(c.InitialWindowBytes(), 6000);  // min(12000, 6000).
}

// RFC 6928 §2: IW = min(10 * MSS, max(2 * MSS, 14600 bytes)).
TEST(TcpConfigTest, Rfc6928InitialWindow) {
  TcpConfig c;
  c.initial_window_rule = TcpConfig::InitialWindowRule::kRfc6928;
  c.mss = 1460;
  EXPECT_EQ(c.InitialWindowBytes(), 14600);  // min(14600, max(2920, 14600)): ten segments.
  c.mss = 1000;
  EXPECT_EQ(c.InitialWindowBytes(), 10000);  // min(10000, 14600): ten segments.
  c.mss = 1500;
  EXPECT_EQ(c.InitialWindowBytes(), 14600);  // min(15000, 14600): 14600 bytes, less than ten.
  c.mss = 9000;
  EXPECT_EQ(c.InitialWindowBytes(), 18000);  // min(90000, max(18000, 14600)): two segments.
  // The connection starts with it.
  Fixture f(TcpFlavor::kCubic);
  f.config.initial_window_rule = TcpConfig::InitialWindowRule::kRfc6928;
  f.cc = std::make_unique<ConnectionControl>(f.config, f.sender);
  f.cc->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(f.cc->cwnd(), 10 * kMss);
}

}  // namespace
}  // namespace tcb
