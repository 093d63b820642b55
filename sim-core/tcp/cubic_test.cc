// CUBIC's window rule (RFC 9438) and HyStart++ (RFC 9406), rule by rule, on a Tcb driven by hand.
#include "tcp/cubic.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

TcpConfig Config() {
  TcpConfig c;
  c.SetFlavor(TcpFlavor::kCubic);
  c.mss = kMss;
  c.initial_window_segments = 10;
  return c;
}

CubicOptions NoHyStart() {
  CubicOptions o;
  o.hystart = false;
  return o;
}

// The window, in segments, after ACK-clocked congestion avoidance from `from` to `until`: every
// `rtt` a window's worth of one-segment ACKs, spread evenly over the round trip.
double RunAvoidance(CubicOps& cubic, Tcb& tcb, SimTime from, SimTime until, SimTime rtt) {
  for (SimTime round = from; round < until; round += rtt) {
    const int64_t acks = tcb.cwnd / kMss;
    for (int64_t i = 0; i < acks; ++i) {
      cubic.IncreaseWindow(tcb, round + SimTime::Nanoseconds(rtt.ns() * i / acks), kMss);
    }
  }
  return static_cast<double>(tcb.cwnd) / kMss;
}

// A congestion event at a 100-segment window, then congestion avoidance from ssthresh.
struct AfterLoss {
  explicit AfterLoss(const CubicOptions& options = NoHyStart(), SimTime rtt = SimTime::Milliseconds(100))
      : cubic(options, false), tcb(Config()) {
    tcb.rtt.AddSample(rtt);
    tcb.cwnd = 100 * kMss;
    tcb.ssthresh = cubic.SsThresh(tcb, SimTime::Zero(), tcb.cwnd);
    tcb.cwnd = tcb.ssthresh;
  }
  CubicOps cubic;
  Tcb tcb;
};

TEST(CubicTest, MultiplicativeDecreaseByBeta) {
  AfterLoss f;
  // RFC 9438 §4.6: ssthresh = flight_size * beta_cubic (0.7).
  EXPECT_EQ(f.tcb.ssthresh, 70 * kMss);
  EXPECT_DOUBLE_EQ(f.cubic.w_max(), 100);  // §4.7: W_max is the window at the event.
}

TEST(CubicTest, KFollowsFromWMaxAndBeta) {
  AfterLoss f;
  f.cubic.IncreaseWindow(f.tcb, SimTime::Zero(), kMss);
  // RFC 9438 §4.2 Figure 2: K = cubic_root((W_max - cwnd_epoch) / C) = cbrt(30 / 0.4).
  EXPECT_NEAR(f.cubic.k_seconds(), std::cbrt(75.0), 1e-12);
}

TEST(CubicTest, WindowFollowsTheCubicCurveBetweenLosses) {
  const SimTime rtt = SimTime::Milliseconds(100);
  AfterLoss f(NoHyStart(), rtt);
  f.cubic.IncreaseWindow(f.tcb, SimTime::Zero(), kMss);
  const double k = f.cubic.k_seconds();
  // RFC 9438 §4.4/§4.5: each ACK moves cwnd towards W_cubic(t + RTT), so cwnd tracks the curve one
  // RTT ahead, within the growth of one round trip.
  SimTime t = SimTime::Zero();
  for (double at : {1.0, 2.0, 3.0, k, 5.0, 6.0}) {
    const SimTime until = SimTime::FromSeconds(at);
    const double cwnd = RunAvoidance(f.cubic, f.tcb, t, until, rtt);
    t = until;
    const double curve = f.cubic.WCubic(until);
    EXPECT_NEAR(cwnd, curve, 0.03 * curve) << "t = " << at << " s";
  }
  // Concave below W_max and convex above it: growth per second slows towards W_max, then speeds up.
  EXPECT_LT(f.cubic.WCubic(SimTime::FromSeconds(k)) - f.cubic.WCubic(SimTime::FromSeconds(k - 1)),
            f.cubic.WCubic(SimTime::FromSeconds(k - 3)) - f.cubic.WCubic(SimTime::FromSeconds(k - 4)));
  EXPECT_NEAR(f.cubic.WCubic(SimTime::FromSeconds(k)), 100, 1e-9);
}

TEST(CubicTest, FastConvergenceLowersWMax) {
  AfterLoss f;
  // A second event below the previous W_max (100): RFC 9438 §4.7 remembers cwnd * (1 + beta) / 2.
  f.tcb.cwnd = 80 * kMss;
  f.cubic.SsThresh(f.tcb, SimTime::Seconds(1), f.tcb.cwnd);
  EXPECT_DOUBLE_EQ(f.cubic.w_max(), 80 * 1.7 / 2);

  CubicOptions plain = NoHyStart();
  plain.fast_convergence = false;
  AfterLoss g(plain);
  g.tcb.cwnd = 80 * kMss;
  g.cubic.SsThresh(g.tcb, SimTime::Seconds(1), g.tcb.cwnd);
  EXPECT_DOUBLE_EQ(g.cubic.w_max(), 80);
}

TEST(CubicTest, RenoFriendlyRegionTakesOverOnShortRtts) {
  // RFC 9438 §4.3: with a short RTT and a small window, Reno's estimate W_est grows faster than the
  // cubic curve, and cwnd follows W_est: alpha_cubic = 3 (1 - 0.7) / (1 + 0.7) segments per RTT
  // until W_est reaches cwnd_prior, then one segment per RTT, as Reno.
  const SimTime rtt = SimTime::Milliseconds(1);
  Tcb tcb(Config());
  CubicOps cubic(NoHyStart(), false);
  tcb.rtt.AddSample(rtt);
  tcb.cwnd = 20 * kMss;
  tcb.ssthresh = cubic.SsThresh(tcb, SimTime::Zero(), tcb.cwnd);
  tcb.cwnd = tcb.ssthresh;  // 14 segments.
  const double alpha = 3 * 0.3 / 1.7;
  const double after10 = RunAvoidance(cubic, tcb, SimTime::Zero(), rtt * 10, rtt);
  EXPECT_GT(after10, cubic.WCubic(rtt * 10) + 4);  // Far above the curve: Reno-friendly.
  EXPECT_NEAR(after10, 14 + 10 * alpha, 0.5);
  EXPECT_LT(cubic.w_est(), 20);
  const double after20 = RunAvoidance(cubic, tcb, rtt * 10, rtt * 30, rtt);
  // W_est passes cwnd_prior (20) after about (20 - 14) / alpha rounds; from then on alpha is 1.
  const double rounds_to_prior = (20 - 14) / alpha;
  EXPECT_NEAR(after20, 20 + (30 - rounds_to_prior), 1.0);
}

TEST(CubicTest, AfterATimeoutTheStageStartsWithKZero) {
  AfterLoss f;
  f.tcb.cwnd = 90 * kMss;
  f.tcb.ssthresh = f.cubic.SsThresh(f.tcb, SimTime::Seconds(2), f.tcb.cwnd);
  f.cubic.OnStateChange(f.tcb, SimTime::Seconds(2), CongestionState::kLoss);
  f.tcb.cwnd = kMss;
  // Slow start back to ssthresh, then the first avoidance stage: RFC 9438 §4.8, K = 0 and
  // W_max = cwnd_epoch.
  while (f.tcb.cwnd < f.tcb.ssthresh) f.cubic.IncreaseWindow(f.tcb, SimTime::Seconds(3), kMss);
  const double epoch = static_cast<double>(f.tcb.cwnd) / kMss;
  f.cubic.IncreaseWindow(f.tcb, SimTime::Seconds(3), kMss);
  EXPECT_DOUBLE_EQ(f.cubic.k_seconds(), 0);
  EXPECT_DOUBLE_EQ(f.cubic.w_max(), epoch);
}

TEST(CubicTest, IdleTimeIsNotGrowthTime) {
  AfterLoss f;
  f.cubic.IncreaseWindow(f.tcb, SimTime::Zero(), kMss);
  const Bytes before = f.tcb.cwnd;
  // Ten idle seconds (Linux's CA_EVENT_TX_START): the curve resumes where it stopped.
  f.cubic.OnSendingResumed(f.tcb, SimTime::Seconds(10), SimTime::Zero());
  f.cubic.IncreaseWindow(f.tcb, SimTime::Seconds(10), kMss);
  EXPECT_LT(f.tcb.cwnd - before, kMss / 10);
}

// RFC 9438 §4.2: the series row carries W_max, K and t_epoch, so that a plot can mark where the
// curve reaches W_max (t_epoch + K); outside a stage t_epoch is 0.
TEST(CubicTest, SeriesRowCarriesWMaxKAndTheEpoch) {
  AfterLoss f;
  TcpSeriesRow row;
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.w_max_bytes, 100 * kMss);
  EXPECT_EQ(row.cubic_epoch_ns, 0);  // The event ended the stage; the next starts with an ACK.
  f.cubic.IncreaseWindow(f.tcb, SimTime::Seconds(3), kMss);
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.cubic_epoch_ns, SimTime::Seconds(3).ns());
  EXPECT_NEAR(row.cubic_k_ns, SimTime::FromSeconds(std::cbrt(75.0)).ns(), 1);
  // §5.8: ten idle seconds move the epoch's start ten seconds later.
  f.cubic.OnSendingResumed(f.tcb, SimTime::Seconds(14), SimTime::Seconds(4));
  f.cubic.DescribeState(f.tcb, row);
  EXPECT_EQ(row.cubic_epoch_ns, SimTime::Seconds(13).ns());
}

// Feeds HyStart++ one round of `acks` ACKs, each with an RTT sample `rtt`, in slow start.
struct HyStartDriver {
  HyStartDriver() : tcb(Config()), hystart(false) {}
  void Round(int acks, SimTime rtt) {
    const Bytes round_start = delivered;
    for (int i = 0; i < acks; ++i) {
      RateSample rate;
      rate.delivered = kMss;
      // The first ACK of a round delivers the first segment sent after the previous round ended.
      rate.prior_delivered = i == 0 ? round_start : round_start - kMss;
      delivered += kMss;
      AckSample s;
      s.delivered = kMss;
      s.has_rtt = true;
      s.rtt = rtt;
      s.rate = &rate;
      s.total_delivered = delivered;
      hystart.OnAckSample(tcb, s);
      if (tcb.cwnd < tcb.ssthresh) tcb.cwnd += hystart.Increase(tcb, kMss);
    }
  }
  Tcb tcb;
  HyStartPlusPlus hystart;
  Bytes delivered = kMss;
};

TEST(HyStartTest, DelayIncreaseEntersConservativeSlowStart) {
  HyStartDriver d;
  d.Round(10, SimTime::Milliseconds(100));
  d.Round(10, SimTime::Milliseconds(100));
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kSlowStart);
  // RFC 9406 §4.2: RttThresh = max(4 ms, min(lastRoundMinRTT / 8, 16 ms)); a round whose minimum
  // RTT is that much above the last round's enters CSS after N_RTT_SAMPLE (8) samples.
  d.Round(10, SimTime::Milliseconds(111));  // Below 100 + 12.5 ms.
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kSlowStart);
  d.Round(10, SimTime::Milliseconds(126));  // Above 111 + 13.875 ms.
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kCss);
  // In CSS the window grows by a quarter of slow start's increase (CSS_GROWTH_DIVISOR = 4).
  EXPECT_EQ(d.hystart.Increase(d.tcb, kMss), kMss / 4);
}

TEST(HyStartTest, CssEndsSlowStartAfterFiveRounds) {
  HyStartDriver d;
  d.Round(10, SimTime::Milliseconds(100));
  d.Round(10, SimTime::Milliseconds(130));
  ASSERT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kCss);
  for (int i = 0; i < 4; ++i) d.Round(10, SimTime::Milliseconds(135));
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kCss);
  EXPECT_EQ(d.tcb.ssthresh, TcpConfig::kInfiniteSsthresh);
  d.Round(10, SimTime::Milliseconds(135));
  // RFC 9406 §4.2: after CSS_ROUNDS (5) rounds, ssthresh = cwnd: congestion avoidance.
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kDone);
  EXPECT_EQ(d.tcb.ssthresh, d.tcb.cwnd);
}

TEST(HyStartTest, ASpuriousIncreaseResumesSlowStart) {
  HyStartDriver d;
  d.Round(10, SimTime::Milliseconds(100));
  d.Round(10, SimTime::Milliseconds(130));
  ASSERT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kCss);
  // RFC 9406 §4.2: a CSS round whose minimum RTT is below the baseline goes back to slow start.
  d.Round(10, SimTime::Milliseconds(101));
  EXPECT_EQ(d.hystart.phase(), HyStartPlusPlus::Phase::kSlowStart);
}

TEST(HyStartTest, SlowStartIncreaseIsLimitedUnlessPaced) {
  Tcb tcb(Config());
  // RFC 9406 §4.2: min(N, L * SMSS) with L = 8 for an unpaced sender and no limit for a paced one.
  EXPECT_EQ(HyStartPlusPlus(false).Increase(tcb, 20 * kMss), 8 * kMss);
  EXPECT_EQ(HyStartPlusPlus(true).Increase(tcb, 20 * kMss), 20 * kMss);
}

}  // namespace
}  // namespace tcb
