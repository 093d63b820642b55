// Linux's CUBIC (net/ipv4/tcp_cubic.c) and HyStart, function by function on a Tcb driven by hand,
// with the numbers worked out from the kernel's integer formulas; then one bulk flow under both
// rule sets.
#include "tcp/linux_cubic.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "tcp/sent_log.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
// CONFIG_HZ: the worked numbers below are at HZ 1000 (a jiffy is a millisecond) unless a test says.
constexpr int kHz = 1000;

TcpConfig Config() {
  TcpConfig c;
  c.SetFlavor(TcpFlavor::kCubic);
  c.cubic.rules = CubicRules::kLinux;
  c.mss = kMss;
  c.initial_window_segments = 10;
  return c;
}

CubicOptions LinuxOptions(bool hystart = false) {
  CubicOptions o;
  o.rules = CubicRules::kLinux;
  o.hystart = hystart;
  return o;
}

SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

int64_t Segments(const Tcb& tcb) { return tcb.cwnd / kMss; }

// An ACK at `at` that delivered one segment, with an RTT sample `rtt` if one is given.
AckSample OneSegment(SimTime at, std::optional<SimTime> rtt = std::nullopt) {
  AckSample s;
  s.now = at;
  s.delivered = kMss;
  s.has_rtt = rtt.has_value();
  if (rtt) s.rtt = *rtt;
  return s;
}

TEST(LinuxCubicTest, CubicRootIsTheKernelsTableAndOneNewtonStep) {
  // cubic_root(): below 64 the table alone, (v[a] + 35) >> 6.
  EXPECT_EQ(LinuxCubicRoot(0), 0u);
  EXPECT_EQ(LinuxCubicRoot(1), 1u);   // (54 + 35) >> 6
  EXPECT_EQ(LinuxCubicRoot(7), 2u);   // (118 + 35) >> 6: 1.91 rounded up
  EXPECT_EQ(LinuxCubicRoot(27), 3u);  // (190 + 35) >> 6
  EXPECT_EQ(LinuxCubicRoot(63), 4u);  // (254 + 35) >> 6
  // 1000: fls64 = 10, b = (10 * 84 >> 8) - 1 = 2, v[1000 >> 6 = 15] = 156, x = (166 << 2) >> 6 = 10,
  // x = 2 * 10 + 1000 / (10 * 9) = 31, 31 * 341 >> 10 = 10.
  EXPECT_EQ(LinuxCubicRoot(1000), 10u);
  EXPECT_EQ(LinuxCubicRoot(1'000'000), 100u);
  EXPECT_EQ(LinuxCubicRoot(uint64_t{1} << 30), 1024u);
  // 10^12: b = (40 * 84 >> 8) - 1 = 12, v[10^12 >> 36 = 14] = 151, x = 161 << 12 >> 6 = 10304,
  // x = 20608 + 10^12 / (10304 * 10303) = 30027, 30027 * 341 >> 10 = 9999: the table's error, not
  // the true 10000.
  EXPECT_EQ(LinuxCubicRoot(1'000'000'000'000), 9999u);
}

TEST(LinuxCubicTest, ParametersAreTheKernelsIntegers) {
  // C = 0.4 and beta = 0.7 are Linux's defaults bic_scale = 41 and beta = 717; cubictcp_register()
  // then gives beta_scale = 8 * 1741 / 3 / 307 = 15, cube_rtt_scale = 410 and
  // cube_factor = 2^40 / 410 = 2681735677.
  const LinuxCubicParameters p = LinuxCubicParameters::From(CubicOptions{});
  EXPECT_EQ(p.bic_scale, 41u);
  EXPECT_EQ(p.beta, 717u);
  EXPECT_EQ(p.BetaScale(), 15u);
  EXPECT_EQ(p.CubeRttScale(), 410u);
  EXPECT_EQ(p.CubeFactor(), 2681735677u);
}

// A loss at a 100-segment window with `flight` outstanding, cwnd then set to ssthresh by the owner.
struct AfterLoss {
  explicit AfterLoss(Bytes flight = 100 * kMss, int hz = kHz) : cubic(LinuxOptions(), false, hz), tcb(Config()) {
    cubic.Init(tcb, SimTime::Zero());
    tcb.cwnd = 100 * kMss;
    tcb.ssthresh = cubic.SsThresh(tcb, Ms(900), flight);
    tcb.cwnd = tcb.ssthresh;
  }
  LinuxCubicOps cubic;
  Tcb tcb;
};

TEST(LinuxCubicTest, SsThreshComesFromCwndNotTheFlight) {
  // cubictcp_recalc_ssthresh(): max(cwnd * 717 / 1024, 2) segments: 71700 / 1024 = 70, whatever
  // is in flight (RFC 9438 §4.6 would give 0.7 * 150 = 105 here).
  AfterLoss f(150 * kMss);
  EXPECT_EQ(f.tcb.ssthresh, 70 * kMss);
  EXPECT_EQ(f.cubic.last_max_cwnd(), 100u);
  Tcb tcb(Config());
  LinuxCubicOps cubic(LinuxOptions(), false, kHz);
  tcb.cwnd = 10 * kMss;
  EXPECT_EQ(cubic.SsThresh(tcb, SimTime::Zero(), 0), 7 * kMss);  // 7170 / 1024
  tcb.cwnd = 2 * kMss;
  EXPECT_EQ(cubic.SsThresh(tcb, SimTime::Zero(), 0), 2 * kMss);  // 1434 / 1024 = 1, at least 2
  // A window between two whole segments counts as the smaller (tp->snd_cwnd is in segments).
  tcb.cwnd = 10 * kMss + 999;
  EXPECT_EQ(cubic.SsThresh(tcb, SimTime::Zero(), 0), 7 * kMss);
}

TEST(LinuxCubicTest, FastConvergenceRemembersCwndTimesOnePlusBetaOverTwo) {
  // cubictcp_recalc_ssthresh(): a loss below the last W_max (100) remembers
  // cwnd * (1024 + 717) / 2048 = 80 * 1741 / 2048 = 68.
  AfterLoss f;
  f.tcb.cwnd = 80 * kMss;
  f.cubic.SsThresh(f.tcb, Ms(2000), f.tcb.cwnd);
  EXPECT_EQ(f.cubic.last_max_cwnd(), 68u);

  CubicOptions plain = LinuxOptions();
  plain.fast_convergence = false;
  LinuxCubicOps cubic(plain, false, kHz);
  Tcb tcb(Config());
  tcb.cwnd = 100 * kMss;
  cubic.SsThresh(tcb, SimTime::Zero(), tcb.cwnd);
  tcb.cwnd = 80 * kMss;
  cubic.SsThresh(tcb, Ms(2000), tcb.cwnd);
  EXPECT_EQ(cubic.last_max_cwnd(), 80u);
}

TEST(LinuxCubicTest, KAndCntAfterALoss) {
  AfterLoss f;
  // bictcp_update() at the epoch's first ACK: K = cubic_root(2681735677 * (100 - 70)) = 4316
  // (1/1024 s: 4.215 s; the real cube root of 30 / 0.4004 is 4.2157 s), the origin W_max = 100.
  // With no RTT sample (delay_min 0), t = 0: delta = 410 * 4316^3 >> 40 = 29, target = 100 - 29 =
  // 71, cnt = 70 / (71 - 70) = 70: one segment per 70 acknowledged.
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  EXPECT_EQ(f.cubic.bic_k(), 4316u);
  EXPECT_EQ(f.cubic.bic_origin_point(), 100u);
  EXPECT_EQ(f.cubic.cnt(), 70u);
  EXPECT_EQ(f.cubic.epoch_start(), 1000u);
  // tcp_cong_avoid_ai(): the 70th segment acknowledged adds one.
  for (int i = 1; i < 69; ++i) f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  EXPECT_EQ(Segments(f.tcb), 70);
  EXPECT_EQ(f.cubic.snd_cwnd_cnt(), 69u);
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  EXPECT_EQ(Segments(f.tcb), 71);
  EXPECT_EQ(f.cubic.snd_cwnd_cnt(), 0u);
}

TEST(LinuxCubicTest, TheCurveLeadsByTheMinimumRtt) {
  AfterLoss f;
  // A 100 ms sample before the epoch: delay_min = 100000 us, usecs_to_jiffies() = 100, so
  // t = 100 * 1024 / 1000 = 102, offs = 4316 - 102 = 4214, delta = 410 * 4214^3 >> 40 = 27,
  // target = 73, cnt = 70 / 3 = 23.
  AckSample s = OneSegment(Ms(950), Ms(100));
  f.cubic.OnAckSample(f.tcb, s);
  EXPECT_EQ(f.cubic.delay_min_us(), 100000u);
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  EXPECT_EQ(f.cubic.cnt(), 23u);
  // "Discard delay samples right after fast recovery": for HZ jiffies after the epoch began a
  // smaller RTT does not lower delay_min.
  s.now = Ms(1999);
  s.rtt = Ms(50);
  f.cubic.OnAckSample(f.tcb, s);
  EXPECT_EQ(f.cubic.delay_min_us(), 100000u);
  s.now = Ms(2000);
  f.cubic.OnAckSample(f.tcb, s);
  EXPECT_EQ(f.cubic.delay_min_us(), 50000u);
}

TEST(LinuxCubicTest, TheCurveCountsJiffiesOfTheConfiguredHz) {
  // tcp_cubic.c keeps time in tcp_jiffies32, ticks of CONFIG_HZ (tcp.linuxHz): bictcp_update()
  // stamps epoch_start and last_time in jiffies, rounds delay_min up to whole jiffies
  // (usecs_to_jiffies()) and turns jiffies into 1/1024 s with do_div(t, HZ). At HZ 250 a jiffy is
  // 4 ms: the loss at 100 segments, a 100 ms sample, the epoch's first ACK at 1 s.
  AfterLoss f(100 * kMss, /*hz=*/250);
  EXPECT_EQ(f.cubic.hz(), 250u);
  f.cubic.OnAckSample(f.tcb, OneSegment(Ms(950), Ms(100)));
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  EXPECT_EQ(f.cubic.epoch_start(), 250u);  // jiffy 250, not 1000.
  // usecs_to_jiffies(100000) = 25 at HZ 250, t = 25 * 1024 / 250 = 102 as at HZ 1000 (100 * 1024
  // / 1000), so cnt = 23 as in TheCurveLeadsByTheMinimumRtt. (Dividing 25 jiffies by 1000 instead
  // would give t = 25, offs = 4291, target = 71 and cnt = 70.)
  EXPECT_EQ(f.cubic.cnt(), 23u);
  TcpSeriesRow row;
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.cubic_epoch_ns, Ms(1000).ns());
}

TEST(LinuxCubicTest, TheCurveRunsAtMostOncePerJiffyOfTheConfiguredHz) {
  // bictcp_update(): "The CUBIC function can update ca->cnt at most once per jiffy": within the
  // jiffy it last ran in (tcp_jiffies32 == last_time) only the Reno-friendly estimate is updated.
  // After a loss at 100 segments (K = 4316, cnt = 70 at the epoch's first ACK at 1 s), 70 segments
  // acknowledged take cwnd to 71; at 1002 ms the curve's target, 100 - (410 * 4314^3 >> 40) = 71,
  // is cwnd: cnt = 100 * 71. At HZ 1000 that is a new jiffy; at HZ 250 it is still jiffy 250, and
  // cnt stays 70 until jiffy 251 (1004 ms).
  for (const int hz : {1000, 250}) {
    AfterLoss f(100 * kMss, hz);
    for (int i = 0; i < 70; ++i) f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
    ASSERT_EQ(Segments(f.tcb), 71);
    ASSERT_EQ(f.cubic.cnt(), 70u);
    f.cubic.IncreaseWindow(f.tcb, Ms(1002), kMss);
    EXPECT_EQ(f.cubic.cnt(), hz == 1000 ? 7100u : 70u) << "HZ " << hz;
    f.cubic.IncreaseWindow(f.tcb, Ms(1004), kMss);
    EXPECT_EQ(f.cubic.cnt(), 7100u) << "HZ " << hz;
  }
}

TEST(LinuxCubicTest, SlowStartCarriesTheRestIntoCongestionAvoidance) {
  LinuxCubicOps cubic(LinuxOptions(), false, kHz);
  Tcb tcb(Config());
  cubic.Init(tcb, SimTime::Zero());
  tcb.ssthresh = 12 * kMss;
  // tcp_slow_start(): an ACK of 5 segments at cwnd 10 takes cwnd to ssthresh (12), and the other 3
  // go to bictcp_update() and tcp_cong_avoid_ai(). Before any loss (last_max_cwnd 0) the epoch
  // starts with K = 0 at cwnd, target = cwnd, so cnt = 100 * 12, clamped to 20 ("increase cwnd 5%
  // per RTT").
  cubic.IncreaseWindow(tcb, Ms(100), 5 * kMss);
  EXPECT_EQ(Segments(tcb), 12);
  EXPECT_EQ(cubic.snd_cwnd_cnt(), 3u);
  EXPECT_EQ(cubic.bic_k(), 0u);
  EXPECT_EQ(cubic.bic_origin_point(), 12u);
  EXPECT_EQ(cubic.cnt(), 20u);
  // Segments, not bytes: a 500-byte tail counts as one (tcp_skb_pcount()).
  cubic.IncreaseWindow(tcb, Ms(100), 500);
  EXPECT_EQ(cubic.snd_cwnd_cnt(), 4u);
  // Below ssthresh, slow start adds what was acknowledged, without RFC 3465's limit.
  Tcb fresh(Config());
  LinuxCubicOps other(LinuxOptions(), false, kHz);
  other.Init(fresh, SimTime::Zero());
  other.IncreaseWindow(fresh, Ms(100), 20 * kMss);
  EXPECT_EQ(Segments(fresh), 30);
}

TEST(LinuxCubicTest, GrowsOnlyWhileTheWindowLimitsTheSender) {
  // cubictcp_cong_avoid(): "if (!tcp_is_cwnd_limited(sk)) return;" (the owner decides).
  EXPECT_TRUE(LinuxCubicOps(LinuxOptions(), false, kHz).GrowsOnlyWhenCwndLimited());
  CubicOptions grows = LinuxOptions();
  grows.app_limited_growth = true;
  EXPECT_FALSE(LinuxCubicOps(grows, false, kHz).GrowsOnlyWhenCwndLimited());
}

TEST(LinuxCubicTest, CountsWhatTheAckDeliveredNotHowFarSndUnaMoved) {
  // tcp_cong_control() hands cong_avoid tp->delivered - prior_delivered: a cumulative ACK that
  // fills the hole under 300 segments SACKed before delivers one segment, not 301.
  LinuxCubicOps cubic(LinuxOptions(), false, kHz);
  Tcb tcb(Config());
  cubic.Init(tcb, SimTime::Zero());
  SentLog log;  // The owner's; only its presence matters here.
  AckSample s = OneSegment(Ms(100));
  s.log = &log;
  cubic.OnAckSample(tcb, s);
  cubic.IncreaseWindow(tcb, Ms(100), 301 * kMss);
  EXPECT_EQ(Segments(tcb), 11);
  // An ACK whose cumulative advance covers only segments SACKed before delivered nothing: no
  // sample, no growth.
  cubic.IncreaseWindow(tcb, Ms(110), 5 * kMss);
  EXPECT_EQ(Segments(tcb), 11);
}

TEST(LinuxCubicTest, RenoFriendlyWindowCountsAckedSegmentsAndCatchesUpWhenTheCurveIsNextEvaluated) {
  // A loss at 20 segments (ssthresh 14, K = cubic_root(2681735677 * 6) = 2523, 2.46 s) on a 1 ms
  // path: every round trip acknowledges cwnd segments within one jiffy.
  LinuxCubicOps cubic(LinuxOptions(), false, kHz);
  Tcb tcb(Config());
  cubic.Init(tcb, SimTime::Zero());
  cubic.OnAckSample(tcb, OneSegment(Ms(500), Ms(1)));  // delay_min = 1 ms
  tcb.cwnd = 20 * kMss;
  tcb.ssthresh = cubic.SsThresh(tcb, Ms(900), tcb.cwnd);
  tcb.cwnd = tcb.ssthresh;
  ASSERT_EQ(Segments(tcb), 14);
  auto round = [&](int64_t at_ms) {
    const int64_t acks = Segments(tcb);
    for (int64_t i = 0; i < acks; ++i) cubic.IncreaseWindow(tcb, Ms(at_ms), kMss);
  };
  // Round 1 (jiffy 1000, the epoch's first): t = (0 + usecs_to_jiffies(delay_min) = 1) * 1024 /
  // 1000 = 1, the curve's target is 20 - (410 * 2522^3 >> 40 = 5) = 15, cnt = 14: cwnd 15 after 14
  // segments. At jiffy 1001 the target is still 15 = cwnd: cnt = 100 * 15 = 1500.
  round(1000);
  EXPECT_EQ(Segments(tcb), 15);
  EXPECT_EQ(cubic.bic_k(), 2523u);
  for (int64_t r = 1001; r <= 1032; ++r) round(r);
  // bictcp_update() returns at once while cwnd stands and fewer than HZ / 32 = 31 jiffies have
  // passed since it last ran (jiffy 1001): ack_cnt counts 14 + 32 * 15 = 494 segments, and the
  // Reno estimate tcp_cwnd has not moved from 14.
  EXPECT_EQ(Segments(tcb), 15);
  EXPECT_EQ(cubic.cnt(), 1500u);
  EXPECT_EQ(cubic.tcp_cwnd(), 14u);
  EXPECT_EQ(cubic.ack_cnt(), 494u);
  // Jiffy 1033: the curve runs again, and the Reno estimate takes one segment per
  // cwnd * beta_scale / 8 = 15 * 15 >> 3 = 28 acknowledged: 495 / 28 = 17 at once, tcp_cwnd = 31.
  // cnt = cwnd / (31 - 15) = 0, at least 2: cwnd grows by one per two segments, after the credit
  // of 480 segments gathered at cnt 1500 adds one "gently" (tcp_cong_avoid_ai()).
  cubic.IncreaseWindow(tcb, Ms(1033), kMss);
  EXPECT_EQ(cubic.tcp_cwnd(), 31u);
  EXPECT_EQ(cubic.cnt(), 2u);
  for (int i = 1; i < 15; ++i) cubic.IncreaseWindow(tcb, Ms(1033), kMss);
  EXPECT_EQ(Segments(tcb), 23);
  round(1034);
  EXPECT_EQ(Segments(tcb), 35);
}

TEST(LinuxCubicTest, ATimeoutForgetsWMax) {
  AfterLoss f;
  // A timeout: the owner asks ssthresh (70 segments), then cubictcp_state(TCP_CA_Loss) runs
  // bictcp_reset(): last_max_cwnd and delay_min back to 0.
  f.tcb.cwnd = 100 * kMss;
  f.tcb.ssthresh = f.cubic.SsThresh(f.tcb, Ms(3000), 100 * kMss);
  f.cubic.OnStateChange(f.tcb, Ms(3000), CongestionState::kLoss);
  EXPECT_EQ(f.cubic.last_max_cwnd(), 0u);
  EXPECT_EQ(f.cubic.delay_min_us(), 0u);
  f.tcb.cwnd = kMss;
  while (f.tcb.cwnd < f.tcb.ssthresh) f.cubic.IncreaseWindow(f.tcb, Ms(3500), kMss);
  f.cubic.IncreaseWindow(f.tcb, Ms(3600), kMss);
  // The next epoch starts at cwnd with K = 0 (last_max_cwnd <= cwnd), and "may be too
  // conservative when the available bandwidth is still unknown": cnt at most 20.
  EXPECT_EQ(f.cubic.bic_k(), 0u);
  EXPECT_EQ(f.cubic.bic_origin_point(), 70u);
  EXPECT_EQ(f.cubic.cnt(), 20u);
}

TEST(LinuxCubicTest, IdleTimeMovesTheEpochStart) {
  AfterLoss f;
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  ASSERT_EQ(f.cubic.epoch_start(), 1000u);
  // cubictcp_cwnd_event(CA_EVENT_TX_START): the epoch moves by the jiffies since the last send.
  f.cubic.OnSendingResumed(f.tcb, Ms(11000), Ms(1500));
  EXPECT_EQ(f.cubic.epoch_start(), 10500u);
  // ... but never past now.
  f.cubic.OnSendingResumed(f.tcb, Ms(12000), Ms(1000));
  EXPECT_EQ(f.cubic.epoch_start(), 12000u);
}

TEST(LinuxCubicTest, SeriesRowCarriesTheOriginKAndTheEpoch) {
  AfterLoss f;
  TcpSeriesRow row;
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.w_max_bytes, 100 * kMss);  // last_max_cwnd between epochs.
  EXPECT_EQ(row.cubic_epoch_ns, 0);
  f.cubic.IncreaseWindow(f.tcb, Ms(1000), kMss);
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.w_max_bytes, 100 * kMss);  // bic_origin_point in the epoch.
  EXPECT_EQ(row.cubic_k_ns, int64_t{4316} * 1'000'000'000 / 1024);
  EXPECT_EQ(row.cubic_epoch_ns, Ms(1000).ns());
}

// Feeds Linux's HyStart one ACK at a time, in slow start at `segments` segments, with a 100 ms
// smoothed RTT behind the pacing rate (hystart_ack_delay() is then its 1 ms cap).
struct HyStartDriver {
  explicit HyStartDriver(bool paced = false, int64_t segments = 16)
      : cubic(LinuxOptions(/*hystart=*/true), paced, kHz), tcb(Config()) {
    cubic.Init(tcb, SimTime::Zero());
    tcb.cwnd = segments * kMss;
    tcb.rtt.AddSample(Ms(100));
  }
  // One ACK of one segment at `at` with an RTT sample `rtt`; `new_round`: it delivers a segment
  // sent after the current round began.
  void Ack(SimTime at, SimTime rtt, bool new_round = false) {
    RateSample rate;
    rate.delivered = kMss;
    rate.prior_delivered = new_round ? delivered : 0;
    delivered += kMss;
    AckSample s = OneSegment(at, rtt);
    s.rate = &rate;
    s.total_delivered = delivered;
    cubic.OnAckSample(tcb, s);
  }
  bool SlowStartEnded() const { return tcb.ssthresh == tcb.cwnd; }

  LinuxCubicOps cubic;
  Tcb tcb;
  Bytes delivered = 0;
};

TEST(LinuxHyStartTest, AnAckTrainLongerThanHalfTheMinimumRttEndsSlowStart) {
  HyStartDriver d;
  // hystart_update(): ACKs at most hystart_ack_delta_us (2 ms) apart since the round began (the
  // first ACK, at 1 s); the threshold is (delay_min + hystart_ack_delay()) / 2 = (100 + 1) / 2 =
  // 50.5 ms without pacing.
  d.Ack(Ms(1000), Ms(100));
  EXPECT_EQ(d.cubic.round_start_us(), 1'000'000u);
  for (int64_t ms = 1001; ms <= 1050; ++ms) d.Ack(Ms(ms), Ms(100));
  EXPECT_FALSE(d.SlowStartEnded());
  d.Ack(Ms(1051), Ms(100));
  EXPECT_TRUE(d.SlowStartEnded());  // ssthresh = cwnd: 51 ms > 50.5 ms.
  EXPECT_TRUE(d.cubic.hystart_found());
  EXPECT_EQ(d.tcb.ssthresh, 16 * kMss);
}

TEST(LinuxHyStartTest, APacedTrainMayLastTheWholeMinimumRtt) {
  HyStartDriver d(/*paced=*/true);
  // "Pacing might have delayed packets up to RTT/2 during slow start": no halving, 101 ms.
  d.Ack(Ms(1000), Ms(100));
  for (int64_t ms = 1001; ms <= 1101; ++ms) d.Ack(Ms(ms), Ms(100));
  EXPECT_FALSE(d.SlowStartEnded());
  d.Ack(Ms(1102), Ms(100));
  EXPECT_TRUE(d.SlowStartEnded());
}

TEST(LinuxHyStartTest, AGapBreaksTheTrainUntilTheNextRound) {
  HyStartDriver d;
  d.Ack(Ms(1000), Ms(100));
  for (int64_t ms = 1001; ms <= 1010; ++ms) d.Ack(Ms(ms), Ms(100));
  // 3 ms after the last: last_ack stays at 1010 ms, and every later ACK of the round is measured
  // against it.
  for (int64_t ms = 1013; ms <= 1090; ++ms) d.Ack(Ms(ms), Ms(100));
  EXPECT_FALSE(d.SlowStartEnded());
  // bictcp_hystart_reset() at the next round: round_start = last_ack = now.
  d.Ack(Ms(1100), Ms(100), /*new_round=*/true);
  EXPECT_EQ(d.cubic.round_start_us(), 1'100'000u);
  for (int64_t ms = 1101; ms <= 1151; ++ms) d.Ack(Ms(ms), Ms(100));
  EXPECT_TRUE(d.SlowStartEnded());
}

TEST(LinuxHyStartTest, ADelayIncreaseEndsSlowStartAfterEightSamples) {
  HyStartDriver d;
  // Round 1 sets delay_min = 100 ms. ACKs 5 ms apart: no train.
  d.Ack(Ms(1000), Ms(100));
  for (int i = 1; i < 16; ++i) d.Ack(Ms(1000 + 5 * i), Ms(100));
  // Round 2's RTTs are 113 ms: above delay_min + clamp(100 / 8, 4, 16) = 112.5 ms. The first
  // HYSTART_MIN_SAMPLES (8) samples only count; the ninth compares the round's minimum.
  d.Ack(Ms(1200), Ms(113), /*new_round=*/true);
  for (int i = 1; i < 8; ++i) d.Ack(Ms(1200 + 5 * i), Ms(113));
  EXPECT_FALSE(d.SlowStartEnded());
  d.Ack(Ms(1240), Ms(113));
  EXPECT_TRUE(d.SlowStartEnded());
}

TEST(LinuxHyStartTest, TheDelayThresholdIsClampedToFourAndSixteenMilliseconds) {
  struct Case {
    int64_t min_us, round_us;
    bool ends;
  };
  // HYSTART_DELAY_THRESH(delay_min >> 3): 20 ms / 8 = 2.5 ms is raised to 4 ms, 200 ms / 8 = 25 ms
  // lowered to 16 ms; the round's minimum must exceed delay_min plus that.
  for (const Case c : {Case{20000, 24000, false}, Case{20000, 24001, true}, Case{200000, 216000, false},
                       Case{200000, 216001, true}}) {
    HyStartDriver d;
    d.Ack(Ms(1000), SimTime::Microseconds(c.min_us));
    d.Ack(Ms(1300), SimTime::Microseconds(c.round_us), /*new_round=*/true);
    for (int i = 1; i < 9; ++i) d.Ack(Ms(1300 + 5 * i), SimTime::Microseconds(c.round_us));
    EXPECT_EQ(d.SlowStartEnded(), c.ends) << c.min_us << " us, round " << c.round_us << " us";
  }
}

TEST(LinuxHyStartTest, WaitsForSixteenSegmentsButCountsRoundsBelow) {
  // hystart_update(): the exits only from hystart_low_window (16) segments on; the rounds from the
  // first window ("tcp_cubic: fix incorrect HyStart round start detection", January 2025).
  HyStartDriver d(/*paced=*/false, /*segments=*/15);
  d.Ack(Ms(1000), Ms(100));
  EXPECT_EQ(d.cubic.round_start_us(), 1'000'000u);
  for (int64_t ms = 1001; ms <= 1100; ++ms) d.Ack(Ms(ms), Ms(100));
  d.Ack(Ms(1200), Ms(150), /*new_round=*/true);
  EXPECT_EQ(d.cubic.round_start_us(), 1'200'000u);
  for (int i = 1; i < 20; ++i) d.Ack(Ms(1200 + 5 * i), Ms(150));
  EXPECT_FALSE(d.SlowStartEnded());
  EXPECT_EQ(d.cubic.delay_min_us(), 100000u);  // The minimum RTT is kept all the same.
}

TEST(LinuxHyStartTest, TheRoundEndsWhenTheAckPassesSndNxt) {
  // hystart_update(): after(tp->snd_una, ca->end_seq), end_seq = snd_nxt when the round began,
  // read from the SentLog.
  LinuxCubicOps cubic(LinuxOptions(/*hystart=*/true), false, kHz);
  Tcb tcb(Config());
  cubic.Init(tcb, SimTime::Zero());
  tcb.cwnd = 20 * kMss;
  tcb.rtt.AddSample(Ms(100));
  SentLog log;
  auto send = [&](SimTime at, int64_t first, int64_t last) {
    for (int64_t i = first; i <= last; ++i) log.OnSent(at, i * kMss, kMss);
  };
  auto ack = [&](SimTime at, int64_t segments_acked) {
    const AckDelivery& d = log.OnAck(at, segments_acked * kMss, nullptr, 0);
    AckSample s;
    s.now = at;
    s.delivered = d.newly_delivered();
    s.has_rtt = d.has_rtt;
    s.rtt = d.rtt;
    s.rate = &d.rate;
    s.total_delivered = log.delivered();
    s.log = &log;
    cubic.OnAckSample(tcb, s);
  };
  send(SimTime::Zero(), 0, 19);
  // The first ACK of data passes the snd_nxt of cubictcp_init(): a round from 100 ms, to end past
  // segment 19 (end_seq = 20 000).
  ack(Ms(100), 1);
  EXPECT_EQ(cubic.round_start_us(), 100'000u);
  send(Ms(100), 20, 21);
  for (int64_t k = 2; k <= 20; ++k) ack(Ms(100) + SimTime::Microseconds(100 * k), k);
  EXPECT_EQ(cubic.round_start_us(), 100'000u);  // snd_una = 20 000: not after end_seq.
  ack(Ms(200), 21);                              // snd_una = 21 000
  EXPECT_EQ(cubic.round_start_us(), 200'000u);
  EXPECT_FALSE(cubic.hystart_found());
}

}  // namespace
}  // namespace tcb
