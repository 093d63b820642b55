// The pacer's parts, each on its source's numbers: the rate of the moment, spaced evenly or as Linux
// 6.x's tcp_update_skb_after_send() (net/ipv4/tcp_output.c) spaces it, a paced window with a budget
// (E-TCP) and a burst allowance (TCP/SPAND's token bucket).
#include "tcp/pacer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }
SimTime Us(int64_t us) { return SimTime::Microseconds(us); }

// 1000 bytes at 8 Mb/s: 1 ms apart; the departure time advances from max(itself, now).
TEST(PacerTest, EvenSpacingByLengthFromTheFirstSegment) {
  Pacer p;
  p.OnSent(Us(0), 1000, 8e6);
  EXPECT_EQ(p.NextSendTime(Us(0)), Us(1000));
  p.OnSent(Us(1000), 500, 8e6);
  EXPECT_EQ(p.NextSendTime(Us(1000)), Us(1500));
  p.OnSent(Us(5000), 1000, 8e6);  // Late: the next gap counts from now.
  EXPECT_EQ(p.NextSendTime(Us(5000)), Us(6000));
  p.OnSent(Us(6000), 1000, 0);  // No rate: no pacing.
  EXPECT_EQ(p.NextSendTime(Us(6000)), Us(6000));
}

// tcp_update_skb_after_send(): "Original sch_fq does not pace first 10 MSS" (tp->data_segs_out < 10).
TEST(PacerTest, LinuxLeavesTheFirstTenSegmentsUnpaced) {
  Pacer p(PacingRules::kLinux);
  for (int i = 0; i < 10; ++i) {
    p.OnSent(Us(0), 1000, 8e6);
    EXPECT_EQ(p.NextSendTime(Us(0)), Us(0)) << i;
  }
  p.OnSent(Us(0), 1000, 8e6);
  EXPECT_EQ(p.NextSendTime(Us(0)), Us(1000));
}

// tcp_update_skb_after_send(): "take into account OS jitter": credit = tcp_wstamp_ns - prior_wstamp,
// how much later than its earliest time the segment left, comes off the next gap, by at most half.
TEST(PacerTest, LinuxShortensTheGapAfterALateDepartureByAtMostHalf) {
  Pacer p(PacingRules::kLinux);
  for (int i = 0; i < 11; ++i) p.OnSent(Us(0), 1000, 8e6);
  ASSERT_EQ(p.NextSendTime(Us(0)), Us(1000));
  p.OnSent(Us(1200), 1000, 8e6);  // 200 µs late: the next gap is 800 µs.
  EXPECT_EQ(p.NextSendTime(Us(1200)), Us(2000));
  p.OnSent(Us(5000), 1000, 8e6);  // 3 ms late: half the gap at most.
  EXPECT_EQ(p.NextSendTime(Us(5000)), Us(5500));
  p.OnSent(Us(5500), 1000, 8e6);  // On time: the whole gap.
  EXPECT_EQ(p.NextSendTime(Us(5500)), Us(6500));
  // Even pacing keeps the whole gap after a late departure.
  Pacer even;
  even.OnSent(Us(0), 1000, 8e6);
  even.OnSent(Us(1200), 1000, 8e6);
  EXPECT_EQ(even.NextSendTime(Us(1200)), Us(2200));
}

// Linux's tcp_update_skb_after_send(): the departure time advances by the segment's time at the
// pacing rate, from the later of itself and now.
TEST(PacerTest, SpacesSegmentsAtTheRate) {
  Pacer pacer;
  // 1000 B at 8 Mb/s: one every millisecond, from the later of now and the last departure.
  pacer.OnSent(Ms(0), kMss, 8e6);
  EXPECT_EQ(pacer.NextSendTime(Ms(0)), Ms(1));
  pacer.OnSent(Ms(1), kMss, 8e6);
  EXPECT_EQ(pacer.NextSendTime(Ms(1)), Ms(2));
  pacer.OnSent(Ms(10), kMss, 8e6);  // After idle, pacing starts from now.
  EXPECT_EQ(pacer.NextSendTime(Ms(10)), Ms(11));
  pacer.OnSent(Ms(10), kMss, 0);  // Not pacing: the next may leave at once.
  EXPECT_EQ(pacer.NextSendTime(Ms(10)), Ms(10));
}

TEST(PacerTest, LinuxRateIsTwiceInSlowStartAndAFifthMoreAfter) {
  // net/ipv4/tcp_input.c tcp_update_pacing_rate(): 200 % while cwnd < ssthresh / 2, else 120 %.
  EXPECT_DOUBLE_EQ(LinuxPacingRateBps(10 * kMss, 100 * kMss, 0, Ms(100)), 2.0 * 10 * kMss * 8 / 0.1);
  EXPECT_DOUBLE_EQ(LinuxPacingRateBps(60 * kMss, 100 * kMss, 0, Ms(100)), 1.2 * 60 * kMss * 8 / 0.1);
  EXPECT_DOUBLE_EQ(LinuxPacingRateBps(60 * kMss, 100 * kMss, 70 * kMss, Ms(100)), 1.2 * 70 * kMss * 8 / 0.1);
  EXPECT_EQ(LinuxPacingRateBps(10 * kMss, 100 * kMss, 0, SimTime::Zero()), 0);
}

// E-TCP §3.1: a cached window is paced out, a segment every srtt / (cwnd / mss), until it has all
// been sent (or its owner stops it once the ACK clock runs); then segments leave at once.
TEST(PacerTest, AWindowIsPacedOneSegmentPerIntervalUntilItsBudgetIsSpent) {
  Pacer pacer;
  EXPECT_FALSE(pacer.pacing_window());
  EXPECT_EQ(pacer.NextSendTime(Ms(5)), Ms(5));
  pacer.OnWindowSegmentSent(Ms(5));  // Nothing to pace: no effect.
  EXPECT_EQ(pacer.NextSendTime(Ms(5)), Ms(5));

  pacer.PaceWindow(Ms(100), Ms(10), 3);  // 10 kB in 10 ms: 8 Mb/s.
  EXPECT_TRUE(pacer.pacing_window());
  EXPECT_DOUBLE_EQ(pacer.window_rate_bps(kMss), 8e5);
  EXPECT_EQ(pacer.NextSendTime(Ms(100)), Ms(100));
  pacer.OnWindowSegmentSent(Ms(100));
  EXPECT_EQ(pacer.NextSendTime(Ms(100)), Ms(110));
  pacer.OnWindowSegmentSent(Ms(110));
  EXPECT_EQ(pacer.NextSendTime(Ms(115)), Ms(120));
  pacer.OnWindowSegmentSent(Ms(120));  // The third and last.
  EXPECT_FALSE(pacer.pacing_window());
  EXPECT_EQ(pacer.NextSendTime(Ms(120)), Ms(120));
  EXPECT_EQ(pacer.window_rate_bps(kMss), 0);

  pacer.PaceWindow(Ms(200), Ms(10), 5);
  pacer.OnWindowSegmentSent(Ms(200));
  pacer.StopWindow();  // The ACK clock runs.
  EXPECT_EQ(pacer.NextSendTime(Ms(201)), Ms(201));
}

// TCP/SPAND §5.2.5: "depth of the token bucket ... set to 4 segments ... token filling rate is set
// to cwnd/srtt": a sender that always sends as early as allowed bursts at most 4, then averages the
// rate, until the window it paces has been sent.
TEST(PacerTest, ABurstAllowanceBurstsAtMostTheDepthAndAveragesTheRate) {
  Pacer pacer;
  pacer.PaceWindowWithBurst(SimTime::Zero(), 100, 4, 1004);  // 100 segments per second.
  EXPECT_DOUBLE_EQ(pacer.window_rate_bps(kMss), 100 * kMss * 8.0);
  SimTime now;
  int burst = 0, longest_burst = 0;
  SimTime last;
  for (int i = 0; i < 1004; ++i) {
    ASSERT_TRUE(pacer.pacing_window());
    now = pacer.NextSendTime(now);
    burst = (i > 0 && now == last) ? burst + 1 : 1;
    longest_burst = std::max(longest_burst, burst);
    pacer.OnWindowSegmentSent(now);
    last = now;
  }
  EXPECT_EQ(longest_burst, 4);
  // 1004 segments: 4 at once, then 1000 at 100 per second.
  EXPECT_NEAR(now.seconds(), 10.0, 0.001);
  EXPECT_FALSE(pacer.pacing_window());
  EXPECT_EQ(pacer.NextSendTime(now), now);
}

}  // namespace
}  // namespace tcb
