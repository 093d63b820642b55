// The per-segment record: delivery-rate samples (draft-cheng-iccrg-delivery-rate-estimation-02),
// per-ACK RTTs and Linux-style in-flight accounting.
#include "tcp/sent_log.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

TEST(SentLogTest, SteadyAckClockGivesTheSendingRate) {
  SentLog log;
  // One segment every 10 ms, each acknowledged 100 ms after it left: 1000 B / 10 ms = 800 kb/s.
  SeqNo next = 1;
  RateSample last;
  for (int i = 0; i < 40; ++i) {
    log.OnSent(Ms(10 * i), next, kMss);
    next += kMss;
    if (i >= 10) {
      const AckDelivery& d = log.OnAck(Ms(10 * i), 1 + (i - 9) * kMss, nullptr, 0);
      ASSERT_EQ(d.newly_acked, kMss);
      ASSERT_TRUE(d.has_rtt);
      EXPECT_EQ(d.rtt, Ms(100));  // The ACK at 10 i ms covers segment i - 10, sent at 10 (i - 10) ms.
      last = d.rate;
    }
  }
  // The draft §3.3: interval = max(send_elapsed, ack_elapsed), rate = delivered / interval.
  ASSERT_TRUE(last.valid);
  EXPECT_NEAR(last.delivery_rate_bps(), 800e3, 1);
  EXPECT_EQ(log.delivered(), 30 * kMss);
}

TEST(SentLogTest, SackedSegmentsAreDeliveredOnceAndLeaveThePipe) {
  SentLog log;
  for (int i = 0; i < 5; ++i) log.OnSent(Ms(i), 1 + i * kMss, kMss);
  EXPECT_EQ(log.in_flight(), 5 * kMss);
  const SackBlock sack[] = {{1 + 2 * kMss, 1 + 4 * kMss}};
  const AckDelivery& d = log.OnAck(Ms(50), 1, sack, 1);
  EXPECT_EQ(d.newly_sacked, 2 * kMss);
  EXPECT_EQ(d.newly_acked, 0);
  EXPECT_EQ(log.in_flight(), 3 * kMss);
  EXPECT_EQ(log.delivered(), 2 * kMss);
  // The cumulative ACK passing the SACKed segments counts only the ones not SACKed before.
  const AckDelivery& e = log.OnAck(Ms(60), 1 + 5 * kMss, nullptr, 0);
  EXPECT_EQ(e.newly_acked, 3 * kMss);
  EXPECT_EQ(log.delivered(), 5 * kMss);
  EXPECT_EQ(log.in_flight(), 0);
  EXPECT_TRUE(log.empty());
}

TEST(SentLogTest, LostAndRetransmittedSegmentsCountAsLinuxDoes) {
  SentLog log;
  for (int i = 0; i < 4; ++i) log.OnSent(Ms(i), 1 + i * kMss, kMss);
  // Linux's tcp_packets_in_flight(): packets_out - (sacked_out + lost_out) + retrans_out.
  log.MarkLost(*log.Find(1));
  EXPECT_EQ(log.in_flight(), 3 * kMss);
  log.OnSent(Ms(10), 1, kMss);  // The retransmission is in flight again.
  EXPECT_EQ(log.in_flight(), 4 * kMss);
  EXPECT_TRUE(log.Find(1)->retransmitted);
  // A retransmission is never an RTT sample (Karn), so the RTT comes from a later segment.
  const SackBlock sack[] = {{1 + kMss, 1 + 2 * kMss}};
  const AckDelivery& d = log.OnAck(Ms(100), 1, sack, 1);
  EXPECT_EQ(d.rtt, Ms(99));
  // A retransmission found lost again leaves the pipe.
  log.MarkLost(*log.Find(1));
  EXPECT_EQ(log.in_flight(), 2 * kMss);
  log.OnRetransmissionTimeout();
  EXPECT_EQ(log.in_flight(), 0);  // Everything outstanding counts as lost or SACKed after a timeout.
}

// RFC 6675 §5.1 and Linux's tcp_timeout_mark_lost(): a timeout keeps the SACK marks and makes the
// rest lost, unless the receiver reneged (the first outstanding segment is SACKed: its cumulative
// ACK stopped at data it had reported holding); then every mark is forgotten.
TEST(SentLogTest, ATimeoutKeepsSackMarksUnlessTheReceiverReneged) {
  SentLog log;
  for (int i = 0; i < 4; ++i) log.OnSent(Ms(i), 1 + i * kMss, kMss);
  const SackBlock sack[] = {{1 + kMss, 1 + 3 * kMss}};
  log.OnAck(Ms(100), 1, sack, 1);
  log.OnRetransmissionTimeout();
  EXPECT_EQ(log.sacked_bytes(), 2 * kMss);
  EXPECT_EQ(log.lost_bytes(), 2 * kMss);
  EXPECT_TRUE(log.Find(1 + kMss)->sacked);
  EXPECT_TRUE(log.Find(1)->lost);
  EXPECT_TRUE(log.Find(1 + 3 * kMss)->lost);

  SentLog reneged;
  for (int i = 0; i < 4; ++i) reneged.OnSent(Ms(i), 1 + i * kMss, kMss);
  const SackBlock head[] = {{1, 1 + 2 * kMss}};  // The ACK stays at 1, yet 1 is SACKed.
  reneged.OnAck(Ms(100), 1, head, 1);
  reneged.OnRetransmissionTimeout();
  EXPECT_EQ(reneged.sacked_bytes(), 0);
  EXPECT_EQ(reneged.lost_bytes(), 4 * kMss);
}

TEST(SentLogTest, RecordsSplitWhereSacksAndRetransmissionsCutThem) {
  SentLog log;
  log.OnSent(Ms(0), 1, 3 * kMss);  // One large record.
  const SackBlock sack[] = {{1 + kMss, 1 + 2 * kMss}};
  const AckDelivery& d = log.OnAck(Ms(10), 1, sack, 1);
  EXPECT_EQ(d.newly_sacked, kMss);
  ASSERT_EQ(log.records().size(), 3u);
  EXPECT_TRUE(log.records()[1].sacked);
  log.OnSent(Ms(20), 1, kMss / 2);  // A partial retransmission of the first third.
  ASSERT_EQ(log.records().size(), 4u);
  EXPECT_TRUE(log.records()[0].retransmitted);
  EXPECT_FALSE(log.records()[1].retransmitted);
}

TEST(SentLogTest, ApplicationLimitedSamplesAreMarked) {
  SentLog log;
  log.OnSent(Ms(0), 1, kMss);
  // The draft §3.4: the bubble lasts until what is in flight now has been delivered.
  log.MarkAppLimited(log.in_flight());
  log.OnSent(Ms(1), 1 + kMss, kMss);
  EXPECT_FALSE(log.OnAck(Ms(100), 1 + kMss, nullptr, 0).rate.is_app_limited);
  EXPECT_TRUE(log.OnAck(Ms(101), 1 + 2 * kMss, nullptr, 0).rate.is_app_limited);
  EXPECT_FALSE(log.app_limited());
}

}  // namespace
}  // namespace tcb
