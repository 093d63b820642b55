// Reno's window as Linux's net/ipv4/tcp_cong.c runs it (tcp/linux_reno.h).
#include "tcp/linux_reno.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

Tcb MakeTcb(int cwnd_segments, Bytes ssthresh) {
  TcpConfig config;
  config.mss = kMss;
  Tcb tcb(config);
  tcb.cwnd = cwnd_segments * kMss;
  tcb.ssthresh = ssthresh;
  return tcb;
}

SimTime At(int ms) { return SimTime::Milliseconds(ms); }

// tcp_cong.c tcp_slow_start(): "a stretch ACK of degree N as if N acks of degree 1": every segment
// acknowledged adds one, where RFC 5681 eq. (2) adds at most one SMSS per ACK.
TEST(LinuxRenoOpsTest, SlowStartAddsEverySegmentAnAckAcknowledges) {
  LinuxRenoOps linux_reno;
  RenoOps rfc5681;
  Tcb tcb = MakeTcb(10, TcpConfig::kInfiniteSsthresh);
  Tcb rfc = MakeTcb(10, TcpConfig::kInfiniteSsthresh);
  linux_reno.IncreaseWindow(tcb, At(1), 2 * kMss);
  rfc5681.IncreaseWindow(rfc, At(1), 2 * kMss);
  EXPECT_EQ(tcb.cwnd, 12 * kMss);
  EXPECT_EQ(rfc.cwnd, 11 * kMss);
  linux_reno.IncreaseWindow(tcb, At(2), 5 * kMss);
  EXPECT_EQ(tcb.cwnd, 17 * kMss);
  // A segment shorter than the MSS counts as one (tcp_skb_pcount()).
  linux_reno.IncreaseWindow(tcb, At(3), 300);
  EXPECT_EQ(tcb.cwnd, 18 * kMss);
}

// With an ACK for every second segment, a window of W segments brings W / 2 ACKs of two segments
// each: tcp_slow_start() doubles the window per round trip, RFC 5681 multiplies it by 1.5.
TEST(LinuxRenoOpsTest, SlowStartDoublesPerRoundTripWithDelayedAcks) {
  LinuxRenoOps linux_reno;
  RenoOps rfc5681;
  Tcb tcb = MakeTcb(10, TcpConfig::kInfiniteSsthresh);
  Tcb rfc = MakeTcb(10, TcpConfig::kInfiniteSsthresh);
  for (int ack = 0; ack < 5; ++ack) {
    linux_reno.IncreaseWindow(tcb, At(ack), 2 * kMss);
    rfc5681.IncreaseWindow(rfc, At(ack), 2 * kMss);
  }
  EXPECT_EQ(tcb.cwnd, 20 * kMss);
  EXPECT_EQ(rfc.cwnd, 15 * kMss);
}

// tcp_slow_start() stops at ssthresh and hands what is left of the ACK to tcp_cong_avoid_ai().
TEST(LinuxRenoOpsTest, SlowStartStopsAtSsthreshAndTheRestGoesToCongestionAvoidance) {
  LinuxRenoOps reno;
  Tcb tcb = MakeTcb(10, 12 * kMss);
  reno.IncreaseWindow(tcb, At(1), 5 * kMss);
  EXPECT_EQ(tcb.cwnd, 12 * kMss);
  EXPECT_EQ(reno.snd_cwnd_cnt(), 3u);
}

// tcp_cong.c tcp_cong_avoid_ai(tp, cwnd, acked): one segment per cwnd segments acknowledged, so one
// per round trip whether each segment or every second one is acknowledged; RFC 5681 eq. (3) adds
// SMSS*SMSS/cwnd per ACK, half a segment per round trip with delayed ACKs.
TEST(LinuxRenoOpsTest, CongestionAvoidanceAddsOneSegmentPerWindowOfSegmentsAcknowledged) {
  LinuxRenoOps linux_reno;
  RenoOps rfc5681;
  Tcb tcb = MakeTcb(10, 5 * kMss);
  Tcb rfc = MakeTcb(10, 5 * kMss);
  for (int ack = 0; ack < 5; ++ack) {
    linux_reno.IncreaseWindow(tcb, At(ack), 2 * kMss);
    rfc5681.IncreaseWindow(rfc, At(ack), 2 * kMss);
  }
  EXPECT_EQ(tcb.cwnd, 11 * kMss);
  EXPECT_EQ(linux_reno.snd_cwnd_cnt(), 0u);
  EXPECT_LT(rfc.cwnd, 10 * kMss + kMss / 2 + 1);
  // Credit beyond one window adds several segments at once (delta = cnt / w).
  Tcb stretch = MakeTcb(4, 2 * kMss);
  linux_reno.IncreaseWindow(stretch, At(10), 9 * kMss);
  EXPECT_EQ(stretch.cwnd, 6 * kMss);
  EXPECT_EQ(linux_reno.snd_cwnd_cnt(), 1u);
}

// "If credits accumulated at a higher w, apply them gently now": credit left from a larger window
// adds one segment and starts again.
TEST(LinuxRenoOpsTest, CreditFromALargerWindowAddsOneSegmentAndStartsAgain) {
  uint32_t cwnd = 5;
  uint32_t credit = 7;
  LinuxCongAvoidAi(&cwnd, &credit, cwnd, 1);
  EXPECT_EQ(cwnd, 6u);
  EXPECT_EQ(credit, 1u);
}

// tcp_reno_ssthresh(): max(snd_cwnd >> 1, 2) from the window, not from the flight; the callers
// (tcp_init_cwnd_reduction(), tcp_enter_loss()) clear snd_cwnd_cnt.
TEST(LinuxRenoOpsTest, SsthreshIsHalfTheWindowInSegmentsAtLeastTwo) {
  LinuxRenoOps reno;
  Tcb tcb = MakeTcb(21, 5 * kMss);
  reno.IncreaseWindow(tcb, At(1), 3 * kMss);
  EXPECT_EQ(reno.snd_cwnd_cnt(), 3u);
  EXPECT_EQ(reno.SsThresh(tcb, At(2), 40 * kMss), 10 * kMss);
  EXPECT_EQ(reno.snd_cwnd_cnt(), 0u);
  Tcb small = MakeTcb(3, 5 * kMss);
  EXPECT_EQ(reno.SsThresh(small, At(3), 3 * kMss), 2 * kMss);
}

// tcp_cong_control() hands cong_avoid tp->delivered - prior_delivered: the segments this ACK
// delivered, each once. After SACKed segments, a cumulative ACK that moves snd_una across them
// delivers only the hole it fills; the SentLog's sample says so, and the rule counts that.
TEST(LinuxRenoOpsTest, CountsTheSegmentsTheAckDeliveredNotHowFarSndUnaMoved) {
  LinuxRenoOps reno;
  Tcb tcb = MakeTcb(10, TcpConfig::kInfiniteSsthresh);
  SentLog log;
  AckSample sample;
  sample.now = At(5);
  sample.delivered = 1 * kMss;  // The retransmission that filled the hole.
  sample.log = &log;
  reno.OnAckSample(tcb, sample);
  reno.IncreaseWindow(tcb, At(5), 6 * kMss);  // snd_una moved over 5 segments SACKed before.
  EXPECT_EQ(tcb.cwnd, 11 * kMss);
  // Without a sample for this ACK (it delivered nothing new), nothing grows.
  reno.IncreaseWindow(tcb, At(6), 2 * kMss);
  EXPECT_EQ(tcb.cwnd, 11 * kMss);
}

// tcp_reno_cong_avoid(): "if (!tcp_is_cwnd_limited(sk)) return;".
TEST(LinuxRenoOpsTest, GrowsOnlyWhileTheWindowLimitsTheSender) {
  EXPECT_TRUE(LinuxRenoOps().GrowsOnlyWhenCwndLimited());
  EXPECT_FALSE(RenoOps().GrowsOnlyWhenCwndLimited());
}

TEST(LinuxRenoOpsTest, TheScenarioChoosesTheRules) {
  TcpConfig config;
  config.SetFlavor(TcpFlavor::kSack);
  EXPECT_EQ(MakeCongestionOps(config)->name(), "reno");
  config.reno_rules = RenoRules::kLinux;
  EXPECT_EQ(MakeCongestionOps(config)->name(), "reno-linux");
}

}  // namespace
}  // namespace tcb
