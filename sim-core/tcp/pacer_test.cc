// Pacing (tcp/pacer.h): even spacing, and Linux 6.x's tcp_update_skb_after_send()
// (net/ipv4/tcp_output.c).
#include "tcp/pacer.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

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

}  // namespace
}  // namespace tcb
