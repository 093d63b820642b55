// BBR version 1 (tcp/bbr.h), rule by rule against Linux 4.9's net/ipv4/tcp_bbr.c ("tcp_bbr.c"), and
// with `tcp.bbr.rules: "linux"` against Linux 6.x's: on BbrOps driven by hand and through
// ConnectionControl with a scripted sender (whole runs are in tests/bbr_runs_test.cc).
#include "tcp/bbr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "tcp/connection_control.h"
#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
constexpr SimTime kRtt = SimTime::Milliseconds(40);

TcpConfig Config() {
  TcpConfig c;
  c.SetFlavor(TcpFlavor::kBbr);
  c.mss = kMss;
  c.initial_window_rule = TcpConfig::InitialWindowRule::kRfc6928;
  c.receive_window = 1 << 30;
  return c;
}

// Feeds BbrOps the ACKs of a path whose bandwidth and RTT the test chooses. Rounds are
// packet-timed as the SentLog makes them: the first ACK of a round delivers a segment sent after
// the previous round began (its prior_delivered reaches the delivered count the round began with).
struct Driver {
  explicit Driver(uint64_t seed = 1, BbrRules rules = BbrRules::kLinux49) : bbr(Rng(seed), rules), tcb(Config()) {
    tcb.rtt.AddSample(kRtt);  // The handshake's.
    bbr.Init(tcb, now);
  }

  // One ACK at `now` + `step` that delivers one segment, with a valid rate sample of `bw` bytes/s,
  // an RTT sample, `in_flight` bytes left in flight (and `prior_in_flight` before it, default one
  // segment more), and `lost` bytes newly marked lost.
  void Ack(double bw, Bytes in_flight, bool round_start, SimTime step, SimTime rtt = kRtt, Bytes lost = 0,
           Bytes prior_in_flight = -1) {
    now += step;
    RateSample rs;
    rs.valid = true;
    rs.interval = kRtt;
    rs.delivered = static_cast<Bytes>(bw * kRtt.seconds());
    rs.prior_delivered = round_start ? delivered : round_end - 1;
    delivered += kMss;
    if (round_start) round_end = delivered;
    AckSample s;
    s.now = now;
    s.delivered = kMss;
    s.prior_in_flight = prior_in_flight >= 0 ? prior_in_flight : in_flight + kMss;
    s.in_flight = in_flight;
    s.lost = lost;
    s.has_rtt = true;
    s.rtt = rtt;
    s.rate = &rs;
    s.total_delivered = delivered;
    s.log = &log;
    bbr.ControlWindow(tcb, s);
  }
  // A round of `acks` ACKs spread over one `rtt`.
  void Round(int acks, double bw, Bytes in_flight, SimTime rtt = kRtt) {
    for (int i = 0; i < acks; ++i) Ack(bw, in_flight, i == 0, rtt / acks, rtt);
  }
  // Startup at `bw` until the pipe is found full and drained: ProbeBW.
  void ReachProbeBw(double bw) {
    for (int i = 0; i < 12 && !bbr.full_bw_reached(); ++i) Round(10, bw, 100 * kMss);
    Ack(bw, 2 * kMss, false, SimTime::Milliseconds(1));  // Drained: in flight below the BDP.
  }

  BbrOps bbr;
  Tcb tcb;
  SentLog log;
  SimTime now = SimTime::Seconds(1);
  Bytes delivered = 0;
  Bytes round_end = 0;
};

TEST(WindowedMaxTest, KeepsTheMaximumOfTheWindow) {
  // lib/win_minmax.c minmax_running_max(): the largest sample of the last `window` time units,
  // in three samples of state; an old maximum ages out and the best later one takes its place.
  WindowedMax f;
  f.Reset(0, 0);
  EXPECT_EQ(f.Update(10, 1, 5), 5);
  EXPECT_EQ(f.Update(10, 2, 3), 5);
  EXPECT_EQ(f.Update(10, 4, 4), 5);
  EXPECT_EQ(f.Update(10, 8, 2), 5);
  EXPECT_EQ(f.Update(10, 11, 1), 5);  // 5 was taken at 1: still inside (11 - 1 = 10).
  EXPECT_EQ(f.Update(10, 12, 1), 4);  // 5 aged out; 4 (at 4) is the largest left.
  EXPECT_EQ(f.Update(10, 15, 1), 2);  // So did 4; 2 (at 8) remains.
  EXPECT_EQ(f.Update(10, 16, 7), 7);  // A new maximum replaces everything.
  EXPECT_EQ(f.Update(10, 40, 1), 1);  // Nothing left in the window.
}

TEST(BbrTest, GainsAreLinuxs) {
  // tcp_bbr.c: bbr_high_gain = 2/ln 2 (2.885, in 1/256), bbr_drain_gain its inverse, bbr_cwnd_gain
  // 2, and the PROBE_BW cycle 5/4, 3/4, 1 x 6.
  EXPECT_EQ(BbrOps::kHighGain, 739);
  EXPECT_NEAR(static_cast<double>(BbrOps::kHighGain) / BbrOps::kUnit, 2 / std::log(2.0), 0.002);
  EXPECT_EQ(BbrOps::kDrainGain, 88);
  EXPECT_EQ(BbrOps::kCwndGain, 512);
  EXPECT_EQ(std::vector<int>(std::begin(BbrOps::kPacingGain), std::end(BbrOps::kPacingGain)),
            (std::vector<int>{320, 192, 256, 256, 256, 256, 256, 256}));
}

TEST(BbrTest, StartsInStartupPacingAtHighGainOverTheHandshakeRtt) {
  // tcp_bbr.c bbr_init(): Startup with pacing and cwnd gain 2/ln 2, pacing at high_gain x
  // init_cwnd / SRTT, the min RTT from the handshake.
  Driver d;
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);
  EXPECT_EQ(d.bbr.pacing_gain(), BbrOps::kHighGain);
  EXPECT_EQ(d.bbr.cwnd_gain(), BbrOps::kHighGain);
  EXPECT_EQ(d.bbr.min_rtt(), kRtt);
  EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), 10.0 * kMss / kRtt.seconds() * 8 * 739 / 256);
  EXPECT_EQ(d.tcb.cwnd, 10 * kMss);
}

TEST(BbrTest, StartupPacingRateNeverFalls) {
  // tcp_bbr.c bbr_set_pacing_rate(): in Startup the rate only rises.
  Driver d;
  const double initial = d.bbr.PacingRateBps(d.tcb);
  d.Round(10, 1000, 10 * kMss);  // A bandwidth far below the initial rate's.
  EXPECT_EQ(d.bbr.PacingRateBps(d.tcb), initial);
  d.Round(10, 1e6, 10 * kMss);
  EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), 1e6 * 8 * 739 / 256);
}

TEST(BbrTest, StartupEndsAfterThreeRoundsWithoutQuarterGrowthThenDrainsThenProbes) {
  // tcp_bbr.c bbr_check_full_bw_reached(): the pipe is full after 3 rounds (bbr_full_bw_cnt)
  // whose bandwidth did not reach 1.25 x the last plateau; bbr_check_drain(): Drain paces at
  // 1/high_gain until in flight is at most the BDP, then PROBE_BW.
  Driver d;
  double bw = 1e5;
  for (int i = 0; i < 4; ++i, bw *= 2) {
    d.Round(10, bw, 100 * kMss);
    EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);
  }
  const double plateau = bw / 2;
  d.Round(10, plateau * 1.2, 100 * kMss);  // +20 %: not growth. 1 round.
  d.Round(10, plateau * 1.2, 100 * kMss);  // 2 rounds.
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);
  EXPECT_FALSE(d.bbr.full_bw_reached());
  d.Round(10, plateau * 1.2, 100 * kMss);  // 3 rounds: full.
  EXPECT_TRUE(d.bbr.full_bw_reached());
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kDrain);
  EXPECT_EQ(d.bbr.pacing_gain(), BbrOps::kDrainGain);
  EXPECT_EQ(d.bbr.cwnd_gain(), BbrOps::kHighGain);
  EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), plateau * 1.2 * 8 * 88 / 256);

  // Still more than the BDP in flight: Drain goes on.
  const Bytes bdp_target = d.bbr.TargetCwnd(d.tcb, d.bbr.bandwidth(), BbrOps::kUnit);
  d.Ack(plateau * 1.2, bdp_target + kMss, false, SimTime::Milliseconds(1));
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kDrain);
  d.Ack(plateau * 1.2, bdp_target, false, SimTime::Milliseconds(1));
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
  EXPECT_EQ(d.bbr.cwnd_gain(), BbrOps::kCwndGain);
}

TEST(BbrTest, ProbeBwStartsInAnyPhaseButTheDrainingOne) {
  // tcp_bbr.c bbr_reset_probe_bw_mode(): cycle_idx = CYCLE_LEN - 1 - prandom_u32_max(7), then
  // advanced: phase 0 or 2..7, never 1 (gain 3/4), drawn from the connection's random stream.
  std::set<int> phases;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Driver d(seed);
    d.ReachProbeBw(1e6);
    ASSERT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
    phases.insert(d.bbr.cycle_index());
  }
  EXPECT_EQ(phases, (std::set<int>{0, 2, 3, 4, 5, 6, 7}));
}

// Runs ProbeBW until the phase changes; returns how long the phase lasted.
SimTime PhaseLength(Driver& d, double bw, Bytes prior_in_flight, Bytes lost_at_end = 0) {
  const int start = d.bbr.cycle_index();
  const SimTime began = d.now;
  for (int i = 0; i < 1000 && d.bbr.cycle_index() == start; ++i) {
    const bool last_chance = lost_at_end > 0 && d.now - began > kRtt;
    d.Ack(bw, prior_in_flight - kMss, false, SimTime::Milliseconds(1), kRtt, last_chance ? lost_at_end : 0,
          prior_in_flight);
  }
  return d.now - began;
}

TEST(BbrTest, GainCycleAdvancesAfterAMinRttWithItsInFlightConditions) {
  // tcp_bbr.c bbr_is_next_cycle_phase(): every phase lasts more than min_rtt; the 5/4 phase also
  // until in flight reaches 5/4 x BDP (or a loss), the 3/4 phase ends as soon as in flight is down
  // to the BDP; bbr_advance_cycle_phase() steps through 5/4, 3/4, 1 x 6.
  Driver d(3);
  const double bw = 1e6;  // 40 segments per 40 ms round trip.
  d.ReachProbeBw(bw);
  const Bytes bdp = d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit);
  const Bytes probe = d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kPacingGain[0]);
  // Go round to the 5/4 phase.
  while (d.bbr.cycle_index() != 0) PhaseLength(d, bw, bdp);
  ASSERT_EQ(d.bbr.pacing_gain(), 320);
  // Below 5/4 BDP in flight, the probe persists well past min_rtt.
  for (int i = 0; i < 200; ++i) d.Ack(bw, probe - 2 * kMss, false, SimTime::Milliseconds(1), kRtt, 0, probe - kMss);
  EXPECT_EQ(d.bbr.cycle_index(), 0);
  // Reaching it ends the phase.
  d.Ack(bw, probe - kMss, false, SimTime::Milliseconds(1), kRtt, 0, probe);
  EXPECT_EQ(d.bbr.cycle_index(), 1);
  EXPECT_EQ(d.bbr.pacing_gain(), 192);
  // The 3/4 phase ends at once when in flight is already down to the BDP...
  EXPECT_LT(PhaseLength(d, bw, bdp), kRtt);
  EXPECT_EQ(d.bbr.cycle_index(), 2);
  // ...and the gain-1 phases after one min RTT each, whatever is in flight.
  for (int phase = 2; phase < 8; ++phase) {
    EXPECT_EQ(d.bbr.pacing_gain(), 256);
    const SimTime length = PhaseLength(d, bw, 3 * bdp);
    EXPECT_GT(length, kRtt);
    EXPECT_LE(length, kRtt + SimTime::Milliseconds(1));
  }
  EXPECT_EQ(d.bbr.cycle_index(), 0);
  // A loss ends the 5/4 phase once it has lasted min_rtt, even below 5/4 BDP in flight.
  PhaseLength(d, bw, bdp, kMss);
  EXPECT_EQ(d.bbr.cycle_index(), 1);
  // The 3/4 phase with more than the BDP in flight lasts one min RTT.
  EXPECT_GT(PhaseLength(d, bw, 3 * bdp), kRtt);
  EXPECT_EQ(d.bbr.cycle_index(), 2);
}

TEST(BbrTest, WindowIsTwiceTheBdpPlusLinuxsTsoAllowance) {
  // tcp_bbr.c bbr_target_cwnd(): cwnd = ceil(2 x bw x min_rtt) segments + 3 x tso_segs_goal,
  // rounded up to even; bbr_set_tso_segs_goal() with tcp_tso_autosize(): the segments of about
  // 1 ms at the pacing rate (sk_pacing_rate >> 10 bytes of whole packets), at least 2.
  Driver d;
  const double bw = 1.25e6;  // 10 Mb/s of payload: BDP = 1.25e6 x 0.04 / 1000 = 50 segments.
  d.ReachProbeBw(bw);
  for (int i = 0; i < 20; ++i) d.Round(10, bw, 50 * kMss);
  EXPECT_EQ(d.bbr.tso_segs_goal(), 2);  // 1.25e6 x 1.04 / 1024 = 1269 bytes: 1 segment, so 2.
  EXPECT_EQ(d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kCwndGain), (100 + 6) * kMss);
  EXPECT_EQ(d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit), (50 + 6) * kMss);
  EXPECT_EQ(d.bbr.TargetCwnd(d.tcb, bw * 1.01, BbrOps::kUnit), (51 + 6 + 1) * kMss);  // 50.5 -> 51, even.
  // Once the pipe is full, cwnd grows by what is delivered up to the target, and no further.
  EXPECT_EQ(d.tcb.cwnd, (100 + 6) * kMss);

  Driver fast;
  const double bw_fast = 12.5e6;  // 100 Mb/s: 12.5e6 x 1.04 / 1024 = 12695 bytes, 12 segments.
  fast.ReachProbeBw(bw_fast);
  const Bytes plenty = 3 * fast.bbr.TargetCwnd(fast.tcb, bw_fast, BbrOps::kUnit);
  while (fast.bbr.pacing_gain() != BbrOps::kUnit) PhaseLength(fast, bw_fast, plenty);
  EXPECT_EQ(fast.bbr.tso_segs_goal(), 12);
  Driver slow;
  slow.ReachProbeBw(5e4);  // 0.4 Mb/s: below bbr_min_tso_rate (1.2 Mb/s) at every ProbeBW gain.
  ASSERT_EQ(slow.bbr.mode(), BbrOps::Mode::kProbeBw);
  EXPECT_EQ(slow.bbr.tso_segs_goal(), 1);
}

TEST(BbrTest, ProbeRttAfterTenSecondsWithoutALowerRtt) {
  // tcp_bbr.c bbr_update_min_rtt(): when min_rtt is 10 s old, PROBE_RTT caps cwnd at 4 segments
  // (bbr_cwnd_min_target) for max(200 ms, one round) once in flight is down to 4, marks the samples
  // application-limited, then restores the saved window and returns to PROBE_BW.
  Driver d;
  const double bw = 1e6;
  d.ReachProbeBw(bw);
  const SimTime stamp = d.now;  // The last ACK with an RTT at the minimum.
  const SimTime longer = kRtt + SimTime::Milliseconds(10);
  while (d.now - stamp <= BbrOps::kMinRttWindow - SimTime::Milliseconds(10)) d.Round(10, bw, 60 * kMss, longer);
  ASSERT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
  const Bytes before = d.tcb.cwnd;
  while (d.bbr.mode() != BbrOps::Mode::kProbeRtt) d.Ack(bw, 60 * kMss, false, SimTime::Milliseconds(5), longer);
  EXPECT_GT(d.now - stamp, BbrOps::kMinRttWindow);
  EXPECT_EQ(d.tcb.cwnd, 4 * kMss);
  EXPECT_EQ(d.bbr.pacing_gain(), BbrOps::kUnit);
  EXPECT_TRUE(d.log.app_limited());
  // In flight falls to 4 segments: 200 ms and a round from then on.
  d.Ack(bw, 4 * kMss, false, SimTime::Milliseconds(1), kRtt);
  const SimTime drained = d.now;
  d.Round(4, bw, 4 * kMss, kRtt);  // A round, but not 200 ms.
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeRtt);
  while (d.bbr.mode() == BbrOps::Mode::kProbeRtt) d.Round(4, bw, 4 * kMss, kRtt);
  EXPECT_GT(d.now - drained, BbrOps::kProbeRttDuration);
  EXPECT_LE(d.now - drained, BbrOps::kProbeRttDuration + kRtt + kRtt);
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
  EXPECT_GE(d.tcb.cwnd, before);  // Restored.
  // The min RTT was measured again (kRtt), and its window starts anew.
  EXPECT_EQ(d.bbr.min_rtt(), kRtt);
}

TEST(BbrTest, RecoveryConservesPacketsForARoundThenRestoresTheWindow) {
  // tcp_bbr.c bbr_set_cwnd_to_recover_or_restore(): entering recovery, cwnd = in flight + acked
  // and packet conservation (cwnd >= in flight + acked) for one round; lost segments come off the
  // window; then cwnd slow-starts; leaving recovery restores the window saved by bbr_ssthresh().
  Driver d;
  const double bw = 1.25e6;
  d.ReachProbeBw(bw);
  for (int i = 0; i < 30; ++i) d.Round(10, bw, 50 * kMss);
  const Bytes saved = d.tcb.cwnd;
  EXPECT_EQ(d.bbr.SsThresh(d.tcb, d.now, 60 * kMss), TcpConfig::kInfiniteSsthresh);
  EXPECT_EQ(d.bbr.prior_cwnd(), saved);
  d.bbr.OnStateChange(d.tcb, d.now, CongestionState::kRecovery);
  d.Ack(bw, 40 * kMss, false, SimTime::Milliseconds(1), kRtt, 3 * kMss);
  EXPECT_TRUE(d.bbr.packet_conservation());
  EXPECT_EQ(d.tcb.cwnd, 40 * kMss + kMss);
  d.Ack(bw, 40 * kMss, false, SimTime::Milliseconds(1), kRtt, 2 * kMss);
  EXPECT_EQ(d.tcb.cwnd, 41 * kMss);  // max(41 - 2, 40 + 1).
  d.Ack(bw, 38 * kMss, false, SimTime::Milliseconds(1));
  EXPECT_EQ(d.tcb.cwnd, 41 * kMss);  // Never below what was there.
  // The round that began at recovery ends: slow start towards the target, +acked per ACK.
  d.Ack(bw, 38 * kMss, true, SimTime::Milliseconds(1));
  EXPECT_FALSE(d.bbr.packet_conservation());
  EXPECT_EQ(d.tcb.cwnd, 42 * kMss);
  d.bbr.OnStateChange(d.tcb, d.now, CongestionState::kOpen);
  d.Ack(bw, 38 * kMss, false, SimTime::Milliseconds(1));
  EXPECT_EQ(d.tcb.cwnd, std::min(saved + kMss, d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kCwndGain)));
}

TEST(BbrTest, ATimeoutStartsStartupsPlateauSearchAgain) {
  // tcp_bbr.c bbr_set_state(TCP_CA_Loss): full_bw = 0, so Startup's plateau detection starts over;
  // the window grows back from one segment by what is delivered (at least bbr_cwnd_min_target),
  // and leaving the loss state restores the window saved by bbr_ssthresh().
  Driver d;
  d.Round(10, 1e5, 10 * kMss);  // The plateau: full_bw = 1e5.
  d.Round(10, 1e5, 10 * kMss);  // One round without growth.
  const Bytes saved = d.tcb.cwnd;
  d.bbr.SsThresh(d.tcb, d.now, 10 * kMss);
  d.bbr.OnStateChange(d.tcb, d.now, CongestionState::kLoss);
  d.tcb.cwnd = kMss;  // The owner's loss window.
  d.Ack(1e5, kMss, true, SimTime::Milliseconds(1));
  EXPECT_EQ(d.tcb.cwnd, 4 * kMss);
  // Without the reset, these would be the third and fourth rounds without growth.
  d.Round(10, 1e5, kMss);
  d.Round(10, 1e5, kMss);
  EXPECT_FALSE(d.bbr.full_bw_reached());
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);
  d.Round(10, 1e5, kMss);
  EXPECT_TRUE(d.bbr.full_bw_reached());
  // Leaving the loss state restores the saved window; once the pipe is full, bbr_set_cwnd() then
  // caps it at the target (min(cwnd + acked, target)).
  const Bytes before = d.tcb.cwnd;
  d.bbr.OnStateChange(d.tcb, d.now, CongestionState::kOpen);
  d.Ack(1e5, kMss, false, SimTime::Milliseconds(1));
  const Bytes target = d.bbr.TargetCwnd(d.tcb, d.bbr.bandwidth(), d.bbr.cwnd_gain());
  EXPECT_EQ(d.tcb.cwnd, std::min(saved + kMss, target));
  EXPECT_EQ(d.bbr.prior_cwnd(), saved);  // bbr_ssthresh() saved it before the timeout.
  EXPECT_GE(d.tcb.cwnd, before);
}

TEST(BbrTest, RestartFromIdlePacesAtTheEstimatedBandwidth) {
  // tcp_bbr.c bbr_cwnd_event(CA_EVENT_TX_START) while application-limited: in PROBE_BW, pace at
  // 1 x bw rather than the cycle's gain, and skip PROBE_RTT on the next ACK.
  Driver d(2);
  const double bw = 1e6;
  d.ReachProbeBw(bw);
  while (d.bbr.pacing_gain() != 320) PhaseLength(d, bw, 3 * d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit));
  EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), bw * 8 * 320 / 256);
  d.log.MarkAppLimited(0);
  d.Ack(bw, 0, false, SimTime::Milliseconds(1));
  d.bbr.OnSendingResumed(d.tcb, d.now + SimTime::Seconds(11), d.now);
  EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), bw * 8);
  // Eleven idle seconds expired the min RTT: the restart's first ACK takes its RTT as the new
  // minimum without entering PROBE_RTT.
  const SimTime rtt = kRtt + SimTime::Milliseconds(5);
  d.Ack(bw, kMss, false, SimTime::Seconds(11) + SimTime::Milliseconds(1), rtt);
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
  EXPECT_EQ(d.bbr.min_rtt(), rtt);

  // Without the restart, the same ACK enters PROBE_RTT.
  Driver e(2);
  e.ReachProbeBw(bw);
  e.Ack(bw, kMss, false, SimTime::Seconds(11) + SimTime::Milliseconds(1), rtt);
  EXPECT_EQ(e.bbr.mode(), BbrOps::Mode::kProbeRtt);
}

// Through the controller: ControlWindow() on every ACK with the SentLog's samples, in SACK recovery
// too, and the hooks that give BBR the recovery state.
TEST(BbrTest, TheControllerLetsBbrSetTheWindowInRecovery) {
  TcpConfig config = Config();
  testing::FakeSender sender;
  sender.unsent = Bytes{1} << 30;  // Not application-limited.
  ConnectionControl cc(config, sender);
  sender.controller = &cc;
  cc.OnEstablished(SimTime::Zero(), false);
  EXPECT_GT(cc.pacing_rate_bps(), 0);  // BBR always paces.
  auto ack = [&](SimTime at, SeqNo to, std::vector<SackBlock> sack = {}) {
    sender.now = at;
    sender.sacks.Update(to, sack.data(), static_cast<int>(sack.size()));
    AckInfo info;
    info.ack = to;
    info.newly_acked = to - sender.una;
    info.sack_blocks = sack.data();
    info.sack_count = static_cast<int>(sack.size());
    if (to > sender.una) {
      sender.una = to;
      sender.nxt = std::max(sender.nxt, to);
      cc.OnAck(at, info);
    } else {
      cc.OnDuplicateAck(at, info);
    }
  };
  sender.SendTo(1 + 10 * kMss);
  SimTime t = kRtt;
  for (int i = 1; i <= 10; ++i, t += SimTime::Milliseconds(1)) {
    ack(t, 1 + i * kMss);
    sender.now = t;
    sender.SendTo(sender.max + 2 * kMss);  // Two new segments per ACK, as slow start sends.
  }
  ASSERT_EQ(cc.cwnd(), 20 * kMss);  // IW 10 plus what was delivered (Startup).
  ASSERT_EQ(sender.max - sender.una, 20 * kMss);
  // The segment at una is lost. Duplicate ACKs SACKing the next ones still grow the window.
  const SeqNo hole = sender.una;
  t += kRtt;
  ack(t, hole, {{hole + kMss, hole + 2 * kMss}});
  ack(t, hole, {{hole + kMss, hole + 3 * kMss}});
  EXPECT_EQ(cc.cwnd(), 22 * kMss);
  ASSERT_FALSE(cc.in_recovery());
  const Bytes before = cc.cwnd();
  // The third SACKed segment above it makes the hole lost (RFC 6675 IsLost()): recovery.
  ack(t, hole, {{hole + kMss, hole + 4 * kMss}});
  ASSERT_TRUE(cc.in_recovery());
  EXPECT_EQ(cc.ssthresh(), TcpConfig::kInfiniteSsthresh);  // bbr_ssthresh().
  EXPECT_EQ(sender.retransmitted, (std::vector<SeqNo>{hole}));
  // Packet conservation: cwnd = in flight after the ACK (20 outstanding - 3 SACKed - 1 lost) + the
  // one segment it newly SACKed (Linux runs bbr_main() after tcp_fastretrans_alert() marked the
  // loss, before tcp_xmit_recovery() resends): room for the retransmission and nothing more.
  EXPECT_EQ(cc.cwnd(), (20 - 3 - 1 + 1) * kMss);
  EXPECT_EQ(cc.sent_log()->in_flight(), 17 * kMss);
  // Recovery ends: the window saved at its start comes back.
  t += kRtt;
  ack(t, sender.max);
  EXPECT_FALSE(cc.in_recovery());
  EXPECT_GE(cc.cwnd(), before);
}

// ---- Resuming from saved path state ----

// RFC 9959 Appendix C.1: the jump only from Startup; while "carefully resuming" BBR paces at the
// larger of its own rate (bw x Startup gain) and the probing rate, and cwnd is set from the larger
// bandwidth x min RTT x Startup's cwnd gain; the flag is reset two rounds after it was set.
TEST(BbrTest, CarefulResumeJumpsByRateFromStartupForTwoRounds) {
  Driver d;
  d.Round(10, 50'000, 10 * kMss);  // The initial window's round, at 50 kB/s.
  const double own = d.bbr.PacingRateBps(d.tcb);
  const double probing = 2'500'000;  // Bytes per second: half of a saved 40 Mb/s.
  ASSERT_LT(own, probing * 8);
  ASSERT_TRUE(d.bbr.StartCarefulResume(d.tcb, probing, d.delivered));
  EXPECT_TRUE(d.bbr.carefully_resuming());
  EXPECT_EQ(d.bbr.PacingRateBps(d.tcb), probing * 8);
  EXPECT_EQ(d.tcb.cwnd, d.bbr.TargetCwnd(d.tcb, probing, BbrOps::kHighGain));
  const uint64_t start = d.bbr.round_count();
  // The first round: acknowledgements of what was sent before the jump, still at the old rate.
  d.Round(10, 60'000, 100 * kMss);
  EXPECT_EQ(d.bbr.round_count(), start + 1);
  EXPECT_TRUE(d.bbr.carefully_resuming());
  EXPECT_EQ(d.bbr.PacingRateBps(d.tcb), probing * 8);  // Still the probing rate, BBR's being lower.
  EXPECT_GE(d.tcb.cwnd, d.bbr.TargetCwnd(d.tcb, probing, BbrOps::kHighGain));
  d.Round(10, probing, 200 * kMss);  // The second: the jump's delivery rate. Reset: validated.
  EXPECT_FALSE(d.bbr.carefully_resuming());
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);
  // Not from ProbeBW, nor below BBR's own rate.
  Driver later;
  later.ReachProbeBw(1'000'000);
  EXPECT_FALSE(later.bbr.StartCarefulResume(later.tcb, 4'000'000, later.delivered));
  Driver slow;
  slow.Round(10, 1'000'000, 10 * kMss);
  EXPECT_FALSE(slow.bbr.StartCarefulResume(slow.tcb, 100'000, slow.delivered));
  EXPECT_FALSE(slow.bbr.carefully_resuming());
}

// RFC 9959 Appendix C.1 and C.3: congestion while carefully resuming ends Startup for Drain (Safe
// Retreat); delivery rates measured in Drain while the flag is set are discarded; the flag clears
// when Drain ends.
TEST(BbrTest, CongestionWhileCarefullyResumingDrainsAndDiscardsTheDrainSamples) {
  Driver d;
  d.Round(10, 50'000, 10 * kMss);
  ASSERT_TRUE(d.bbr.StartCarefulResume(d.tcb, 2'500'000, d.delivered));
  d.Round(10, 1'000'000, 300 * kMss);
  const double bw = d.bbr.bandwidth();
  d.bbr.OnStateChange(d.tcb, d.now, CongestionState::kRecovery);
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kDrain);
  EXPECT_TRUE(d.bbr.full_bw_reached());
  EXPECT_TRUE(d.bbr.carefully_resuming());
  d.Round(10, 5'000'000, 300 * kMss);  // Tainted by the jump's queue: not taken.
  EXPECT_EQ(d.bbr.bandwidth(), bw);
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kDrain);
  d.Ack(1'000'000, kMss, false, SimTime::Milliseconds(1));  // Drained.
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kProbeBw);
  EXPECT_FALSE(d.bbr.carefully_resuming());
  // Without the flag, congestion in Startup does not end it (BBR v1 ignores loss there).
  Driver plain;
  plain.Round(10, 50'000, 10 * kMss);
  plain.bbr.OnStateChange(plain.tcb, plain.now, CongestionState::kRecovery);
  EXPECT_EQ(plain.bbr.mode(), BbrOps::Mode::kStartup);
}

// The resumption seam (CongestionOps::AdjustNetworkParameters()): a careful jump starts RFC 9959
// Appendix C's rounds, which rate_resumption() reports (the first round, later rounds, Drain as Safe
// Retreat) and EndRateResumption() ends, with or without the retreat; an unchecked one seeds Startup
// as Google QUIC does.
TEST(BbrTest, TheResumptionSeamRunsAppendixCsRoundsOrSeedsStartup) {
  Driver d;
  d.Round(10, 50'000, 10 * kMss);
  NetworkParams careful;
  careful.bandwidth = 2'500'000;
  careful.careful = true;
  careful.total_delivered = d.delivered;
  ASSERT_EQ(d.bbr.AdjustNetworkParameters(d.tcb, careful), Resumption::kRate);
  EXPECT_EQ(d.bbr.rate_resumption(), RateResumption::kFirstRound);
  d.Round(10, 60'000, 100 * kMss);
  EXPECT_EQ(d.bbr.rate_resumption(), RateResumption::kLaterRounds);
  d.bbr.EndRateResumption(/*retreat=*/false);
  EXPECT_EQ(d.bbr.rate_resumption(), RateResumption::kOff);
  EXPECT_EQ(d.bbr.mode(), BbrOps::Mode::kStartup);

  Driver retreating;
  retreating.Round(10, 50'000, 10 * kMss);
  careful.total_delivered = retreating.delivered;
  ASSERT_EQ(retreating.bbr.AdjustNetworkParameters(retreating.tcb, careful), Resumption::kRate);
  retreating.bbr.EndRateResumption(/*retreat=*/true);
  EXPECT_EQ(retreating.bbr.rate_resumption(), RateResumption::kDraining);
  EXPECT_EQ(retreating.bbr.mode(), BbrOps::Mode::kDrain);

  Driver cached;
  NetworkParams saved;
  saved.bandwidth = 5'000'000;
  saved.rtt = SimTime::Milliseconds(30);
  ASSERT_EQ(cached.bbr.AdjustNetworkParameters(cached.tcb, saved), Resumption::kRate);
  EXPECT_EQ(cached.tcb.cwnd, static_cast<Bytes>(saved.bandwidth * saved.rtt.seconds()));
  EXPECT_EQ(cached.bbr.rate_resumption(), RateResumption::kOff);
}

// quiche BbrSender::AdjustNetworkParameters(): a saved minimum RTT below BBR's own becomes its min
// RTT; in Startup cwnd = saved bandwidth x min RTT (at least the given minimum, at most the given
// maximum, never lower than it is) and the pacing rate at least that window per min RTT.
TEST(BbrTest, SavedNetworkParametersSeedStartup) {
  Driver d;
  const double bw = 5'000'000;  // Bytes per second.
  const SimTime saved_rtt = SimTime::Milliseconds(30);
  ASSERT_TRUE(d.bbr.ResumeFromCache(d.tcb, bw, saved_rtt, d.tcb.cwnd, 0));
  EXPECT_EQ(d.bbr.min_rtt(), saved_rtt);
  EXPECT_EQ(d.tcb.cwnd, static_cast<Bytes>(bw * saved_rtt.seconds()));
  EXPECT_NEAR(d.bbr.PacingRateBps(d.tcb), bw * 8, 1.0);
  d.Round(10, 100'000, 10 * kMss);  // Startup's pacing only rises.
  EXPECT_NEAR(d.bbr.PacingRateBps(d.tcb), bw * 8, 1.0);

  Driver clamped;
  ASSERT_TRUE(clamped.bbr.ResumeFromCache(clamped.tcb, bw, kRtt, clamped.tcb.cwnd, 50 * kMss));
  EXPECT_EQ(clamped.tcb.cwnd, 50 * kMss);
  EXPECT_EQ(clamped.bbr.min_rtt(), kRtt);  // Not above the handshake's.
  Driver tiny;
  EXPECT_FALSE(tiny.bbr.ResumeFromCache(tiny.tcb, 1'000, kRtt, tiny.tcb.cwnd, 0));
  EXPECT_EQ(tiny.tcb.cwnd, 10 * kMss);
  Driver later;
  later.ReachProbeBw(1'000'000);
  const Bytes cwnd = later.tcb.cwnd;
  EXPECT_FALSE(later.bbr.ResumeFromCache(later.tcb, bw, kRtt, 10 * kMss, 0));
  EXPECT_EQ(later.tcb.cwnd, cwnd);
}

// ---- Linux 6.x (tcp.bbr.rules "linux") ----

// Linux 5.1's bbr_update_ack_aggregation(): "Degree of ack aggregation is estimated as extra data
// acked beyond expected" in an epoch that restarts whenever ACKs come no faster than the bandwidth
// estimate; bbr_ack_aggregation_cwnd() adds it to the window target once the pipe is full, at most
// 100 ms of the bandwidth. 4.9 has neither.
TEST(BbrLinuxTest, AckAggregationRaisesTheWindowTargetByTheExtraDataAcknowledged) {
  for (const BbrRules rules : {BbrRules::kLinux, BbrRules::kLinux49}) {
    Driver d(3, rules);
    const double bw = 1e6;  // One 1000-byte segment per ms; BDP 40 segments.
    d.ReachProbeBw(bw);
    const Bytes plenty = 3 * d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit);
    // ACKs at the bandwidth: no aggregation.
    for (int i = 0; i < 50; ++i) d.Ack(bw, plenty - kMss, false, SimTime::Milliseconds(1), kRtt, 0, plenty);
    const int64_t steady = d.bbr.extra_acked();
    EXPECT_LE(steady, 1);
    // Silence for 10 ms, then 12 segments acknowledged at once: 12 beyond what 0 ms explains.
    d.Ack(bw, plenty - kMss, false, SimTime::Milliseconds(10), kRtt, 0, plenty);
    for (int i = 0; i < 11; ++i) d.Ack(bw, plenty - kMss, false, SimTime::Zero(), kRtt, 0, plenty);
    if (rules == BbrRules::kLinux49) {
      EXPECT_EQ(d.bbr.extra_acked(), 0);
      EXPECT_EQ(d.bbr.AckAggregationCwnd(d.tcb), 0);
      continue;
    }
    EXPECT_EQ(d.bbr.extra_acked(), 12);
    EXPECT_EQ(d.bbr.AckAggregationCwnd(d.tcb), 12);
    // cwnd grows by what is delivered towards 2 BDP + the aggregation, in the quantization budget.
    for (int i = 0; i < 60; ++i) d.Ack(bw, plenty - kMss, false, SimTime::Milliseconds(1), kRtt, 0, plenty);
    const Bytes without = d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kCwndGain);
    EXPECT_EQ(d.tcb.cwnd, without + 12 * kMss);
    // At most 100 ms of the bandwidth (100 segments here): a huge burst is capped by cwnd first.
    EXPECT_LE(d.bbr.extra_acked(), d.tcb.cwnd / kMss);
  }
}

// bbr_quantization_budget() since Linux 4.19: "Ensure gain cycling gets inflight above BDP even for
// small BDPs": two more segments in the 5/4 phase.
TEST(BbrLinuxTest, TheProbingPhaseAddsTwoSegmentsToTheInflightTarget) {
  for (const BbrRules rules : {BbrRules::kLinux, BbrRules::kLinux49}) {
    Driver d(3, rules);
    const double bw = 1e6;
    d.ReachProbeBw(bw);
    const Bytes bdp = 3 * d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit);
    while (d.bbr.cycle_index() != 0) PhaseLength(d, bw, bdp);
    const Bytes probing = d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit);
    PhaseLength(d, bw, bdp, kMss);
    ASSERT_EQ(d.bbr.cycle_index(), 1);
    const Bytes draining = d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit);
    EXPECT_EQ(probing - draining, rules == BbrRules::kLinux ? 2 * kMss : 0);
  }
}

// bbr_rate_bytes_per_sec() since Linux 4.20: "Pace at ~1% below estimated bw, on average, to reduce
// queue at bottleneck" (bbr_pacing_margin_percent).
TEST(BbrLinuxTest, PacesOnePercentBelowTheBandwidth) {
  for (const BbrRules rules : {BbrRules::kLinux, BbrRules::kLinux49}) {
    Driver d(3, rules);
    const double bw = 1e6;
    d.ReachProbeBw(bw);
    while (d.bbr.pacing_gain() != BbrOps::kUnit) PhaseLength(d, bw, 3 * d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit));
    d.Ack(bw, 10 * kMss, false, SimTime::Milliseconds(1));
    EXPECT_DOUBLE_EQ(d.bbr.PacingRateBps(d.tcb), rules == BbrRules::kLinux ? bw * 8 * 0.99 : bw * 8);
  }
}

// 6.x bbr_set_pacing_rate(): "if (unlikely(!bbr->has_seen_rtt && tp->srtt_us))
// bbr_init_pacing_rate_from_rtt(sk)": a connection without an RTT at its start (no handshake)
// paces its first window at high_gain x cwnd / 1 ms, then from the first RTT sample at high_gain x
// cwnd / SRTT. 4.9 keeps the first rate until the bandwidth estimate exceeds it.
TEST(BbrLinuxTest, TheFirstRttSampleResetsTheInitialPacingRate) {
  for (const BbrRules rules : {BbrRules::kLinux, BbrRules::kLinux49}) {
    BbrOps bbr(Rng(1), rules);
    Tcb tcb(Config());
    bbr.Init(tcb, SimTime::Zero());
    const double margin = rules == BbrRules::kLinux ? 0.99 : 1.0;
    const double gain = static_cast<double>(BbrOps::kHighGain) / BbrOps::kUnit;
    EXPECT_DOUBLE_EQ(bbr.PacingRateBps(tcb), 10 * kMss * 8 / 0.001 * gain * margin);
    tcb.rtt.AddSample(kRtt);
    RateSample rs;
    rs.valid = true;
    rs.interval = kRtt;
    rs.delivered = kMss;
    AckSample s;
    s.now = kRtt;
    s.delivered = kMss;
    s.has_rtt = true;
    s.rtt = kRtt;
    s.rate = &rs;
    s.total_delivered = kMss;
    bbr.ControlWindow(tcb, s);
    const double from_rtt = 10 * kMss * 8 / kRtt.seconds() * gain * margin;
    if (rules == BbrRules::kLinux) {
      EXPECT_DOUBLE_EQ(bbr.PacingRateBps(tcb), from_rtt);
    } else {
      EXPECT_GT(bbr.PacingRateBps(tcb), 10 * from_rtt);
    }
  }
}

// 6.x bbr_check_drain() sets ssthresh to bbr_inflight(bw, 1) when Startup ends, and bbr_ssthresh()
// returns it from then on; 4.9 keeps TCP_INFINITE_SSTHRESH.
TEST(BbrLinuxTest, StartupsEndSetsSsthresh) {
  for (const BbrRules rules : {BbrRules::kLinux, BbrRules::kLinux49}) {
    Driver d(1, rules);
    const double bw = 1e6;
    for (int i = 0; i < 12 && !d.bbr.full_bw_reached(); ++i) d.Round(10, bw, 100 * kMss);
    ASSERT_EQ(d.bbr.mode(), BbrOps::Mode::kDrain);
    if (rules == BbrRules::kLinux) {
      EXPECT_EQ(d.tcb.ssthresh, d.bbr.TargetCwnd(d.tcb, bw, BbrOps::kUnit));
      EXPECT_EQ(d.bbr.SsThresh(d.tcb, d.now, 0), d.tcb.ssthresh);
    } else {
      EXPECT_EQ(d.tcb.ssthresh, TcpConfig::kInfiniteSsthresh);
      EXPECT_EQ(d.bbr.SsThresh(d.tcb, d.now, 0), TcpConfig::kInfiniteSsthresh);
    }
  }
}

// 6.x bbr_set_cwnd(): "no packet fully ACKed; just apply caps": ProbeRTT's 4 segments hold on an ACK
// that delivered nothing too; bbr_check_probe_rtt_done() restores the window at once, the 200 ms
// counted in jiffies (HZ 250 here: the stamp is a whole 4 ms tick, passed by the next tick).
TEST(BbrLinuxTest, ProbeRttCapsEveryAckAndEndsOnAJiffy) {
  Driver d(1, BbrRules::kLinux);
  d.bbr = BbrOps(Rng(1), BbrRules::kLinux, 250);
  d.bbr.Init(d.tcb, d.now);
  const double bw = 1e6;
  d.ReachProbeBw(bw);
  const SimTime stamp = d.now;
  const SimTime longer = kRtt + SimTime::Milliseconds(10);
  while (d.now - stamp <= BbrOps::kMinRttWindow - SimTime::Milliseconds(10)) d.Round(10, bw, 60 * kMss, longer);
  const Bytes before = d.tcb.cwnd;
  while (d.bbr.mode() != BbrOps::Mode::kProbeRtt) d.Ack(bw, 60 * kMss, false, SimTime::Milliseconds(5), longer);
  EXPECT_EQ(d.tcb.cwnd, 4 * kMss);
  d.tcb.cwnd = 8 * kMss;  // As if something else had raised it.
  AckSample nothing;
  nothing.now = d.now;
  nothing.in_flight = nothing.prior_in_flight = 60 * kMss;
  d.bbr.ControlWindow(d.tcb, nothing);
  EXPECT_EQ(d.tcb.cwnd, 4 * kMss);
  d.Ack(bw, 4 * kMss, false, SimTime::Milliseconds(1), kRtt);
  const SimTime drained = d.now;
  while (d.bbr.mode() == BbrOps::Mode::kProbeRtt) d.Round(4, bw, 4 * kMss, kRtt);
  EXPECT_GT(d.now - drained, BbrOps::kProbeRttDuration);
  EXPECT_GE(d.tcb.cwnd, before);  // Restored by bbr_check_probe_rtt_done() itself.
}

}  // namespace
}  // namespace tcb
