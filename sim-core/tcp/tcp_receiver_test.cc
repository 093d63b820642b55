// The receiving half: reassembly, ACK urgency (RFC 5681 §4.2), SACK blocks (RFC 2018).
#include "tcp/tcp_receiver.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

TEST(TcpReceiverTest, InOrderDeliveryWithoutDelayedAcks) {
  TcpReceiver r(false);
  r.Start(1);
  auto out = r.OnSegment(1, 100, false);
  EXPECT_EQ(out.delivered, 100);
  EXPECT_EQ(out.ack, AckUrgency::kNow);
  EXPECT_EQ(r.rcv_nxt(), 101);
}

TEST(TcpReceiverTest, DelayedAcksEverySecondSegment) {
  TcpReceiver r(true);
  r.Start(1);
  EXPECT_EQ(r.OnSegment(1, 100, false).ack, AckUrgency::kDelayed);
  EXPECT_EQ(r.OnSegment(101, 100, false).ack, AckUrgency::kNow);
  r.OnAckSent();
  EXPECT_EQ(r.OnSegment(201, 100, false).ack, AckUrgency::kDelayed);
}

TEST(TcpReceiverTest, OutOfOrderIsAckedAtOnceAndBufferedUntilTheHoleFills) {
  TcpReceiver r(true);
  r.Start(1);
  auto ooo = r.OnSegment(201, 100, false);
  EXPECT_EQ(ooo.delivered, 0);
  EXPECT_EQ(ooo.ack, AckUrgency::kNow);  // Duplicate ACK.
  EXPECT_EQ(r.OnSegment(401, 100, false).ack, AckUrgency::kNow);
  EXPECT_TRUE(r.has_gaps());
  auto fill = r.OnSegment(1, 200, false);
  EXPECT_EQ(fill.delivered, 300);        // 1..300 arrive in order, 401.. still waits.
  EXPECT_EQ(fill.ack, AckUrgency::kNow);  // Filling a gap is acknowledged at once.
  EXPECT_EQ(r.rcv_nxt(), 301);
  EXPECT_EQ(r.OnSegment(301, 100, false).delivered, 200);
  EXPECT_FALSE(r.has_gaps());
  EXPECT_EQ(r.bytes_delivered(), 500);
}

TEST(TcpReceiverTest, DuplicatesAndOverlaps) {
  TcpReceiver r(true);
  r.Start(1);
  r.OnSegment(1, 100, false);
  auto dup = r.OnSegment(1, 100, false);
  EXPECT_EQ(dup.delivered, 0);
  EXPECT_EQ(dup.ack, AckUrgency::kNow);
  auto overlap = r.OnSegment(51, 100, false);  // Half old, half new.
  EXPECT_EQ(overlap.delivered, 50);
  EXPECT_EQ(r.rcv_nxt(), 151);
}

TEST(TcpReceiverTest, FinAfterDataAndOutOfOrderFin) {
  TcpReceiver r(true);
  r.Start(1);
  auto early_fin = r.OnSegment(101, 50, true);  // Data and FIN beyond a hole.
  EXPECT_FALSE(early_fin.fin_now);
  auto fill = r.OnSegment(1, 100, false);
  EXPECT_EQ(fill.delivered, 150);
  EXPECT_TRUE(fill.fin_now);
  EXPECT_TRUE(r.fin_received());
  EXPECT_EQ(r.rcv_nxt(), 152);  // The FIN takes one sequence number.
}

TEST(TcpReceiverTest, SackBlocksMostRecentFirst) {
  TcpReceiver r(false);
  r.Start(1);
  r.OnSegment(201, 100, false);
  r.OnSegment(501, 100, false);
  r.OnSegment(301, 100, false);  // Extends the first block.
  SackBlock blocks[4];
  ASSERT_EQ(r.SackBlocks(blocks, 4), 2);
  EXPECT_EQ(blocks[0].start, 201);
  EXPECT_EQ(blocks[0].end, 401);
  EXPECT_EQ(blocks[1].start, 501);
  EXPECT_EQ(blocks[1].end, 601);
  r.OnSegment(401, 100, false);  // Joins both blocks.
  ASSERT_EQ(r.SackBlocks(blocks, 4), 1);
  EXPECT_EQ(blocks[0].start, 201);
  EXPECT_EQ(blocks[0].end, 601);
}

}  // namespace
}  // namespace tcb
