// The RTT samples a Linux sender takes (tcp/linux_rtt_sampler.h).
#include "tcp/linux_rtt_sampler.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

// Four 100-byte segments from sequence 1, sent 1 ms apart.
LinuxRttSampler FourSegments() {
  LinuxRttSampler s;
  for (int i = 0; i < 4; ++i) s.OnSent(Ms(i), 1 + 100 * i, 101 + 100 * i);
  return s;
}

// tcp_clean_rtx_queue(): seq_rtt_us from first_ackt, the oldest segment the ACK acknowledges
// cumulatively; every ACK that acknowledges data gives a sample (RFC 6298 times one segment per RTT).
TEST(LinuxRttSamplerTest, EveryAckTimesTheOldestSegmentItAcknowledges) {
  LinuxRttSampler s = FourSegments();
  EXPECT_EQ(s.OnAck(Ms(50), 201, nullptr, 0), Ms(50));  // Segments sent at 0 and 1 ms: the 0 ms one.
  EXPECT_EQ(s.OnAck(Ms(53), 401, nullptr, 0), Ms(51));
  EXPECT_EQ(s.outstanding_segments(), 0u);
  EXPECT_EQ(s.OnAck(Ms(54), 401, nullptr, 0), std::nullopt);  // Nothing new.
}

// tcp_clean_rtx_queue(): an ACK covering a segment ever retransmitted sets FLAG_RETRANS_DATA_ACKED
// and gives no seq_rtt_us (Karn's rule), even for the never-retransmitted segments beside it.
TEST(LinuxRttSamplerTest, NoSampleFromAnAckOfRetransmittedData) {
  LinuxRttSampler s = FourSegments();
  s.OnSent(Ms(20), 1, 101);
  EXPECT_EQ(s.OnAck(Ms(60), 201, nullptr, 0), std::nullopt);
  EXPECT_EQ(s.OnAck(Ms(61), 301, nullptr, 0), Ms(59));
}

// tcp_sacktag_one(): sack_rtt_us from the first segment newly SACKed that was never retransmitted,
// taken by tcp_ack_update_rtt() when the cumulative ACK gave no sample; a segment SACKed before
// gives none when the cumulative ACK passes it later (TCPCB_SACKED_ACKED).
TEST(LinuxRttSamplerTest, SackedSegmentsGiveASampleOnceWhenNothingIsAcknowledgedCumulatively) {
  LinuxRttSampler s = FourSegments();
  const SackBlock block{201, 401};
  EXPECT_EQ(s.OnAck(Ms(40), 1, &block, 1), Ms(38));
  EXPECT_EQ(s.OnAck(Ms(41), 1, &block, 1), std::nullopt);  // The same block again.
  s.OnSent(Ms(45), 1, 101);                                // The hole, retransmitted.
  EXPECT_EQ(s.OnAck(Ms(80), 401, nullptr, 0), std::nullopt);
  // A retransmitted segment SACKed gives no sack_rtt_us either.
  LinuxRttSampler t = FourSegments();
  t.OnSent(Ms(10), 201, 301);
  const SackBlock resent{201, 301};
  EXPECT_EQ(t.OnAck(Ms(40), 1, &resent, 1), std::nullopt);
}

// A retransmission that covers part of a segment marks that part only (tcp_retransmit_skb()
// fragments the skb it resends in part); an ACK inside a segment splits it.
TEST(LinuxRttSamplerTest, PartialRetransmissionsAndAcksSplitSegments) {
  LinuxRttSampler s = FourSegments();
  s.OnSent(Ms(30), 151, 201);
  EXPECT_EQ(s.OnAck(Ms(40), 151, nullptr, 0), Ms(40));  // 1..150, never resent.
  EXPECT_EQ(s.OnAck(Ms(41), 201, nullptr, 0), std::nullopt);
  EXPECT_EQ(s.OnAck(Ms(42), 251, nullptr, 0), Ms(40));
}

}  // namespace
}  // namespace tcb
