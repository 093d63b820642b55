// When a Linux receiver acknowledges (tcp/linux_delayed_ack.h): net/ipv4/tcp_input.c,
// tcp_output.c, tcp_timer.c.
#include "tcp/linux_delayed_ack.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

constexpr Bytes kMss = 1460;

SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

TcpConfig Config(Bytes receive_window = Bytes{64} << 20) {
  TcpConfig c;
  c.SetFlavor(TcpFlavor::kSack);
  c.mss = kMss;
  c.receive_window = receive_window;
  c.delayed_ack = true;
  c.ack_rules = AckRules::kLinux;
  c.delayed_ack_timeout = Ms(40);  // TCP_ATO_MIN
  c.linux_hz = 1000;
  return c;
}

// Feeds in-order full segments to a scheduler and a receiver, as the endpoint does.
struct Receiver {
  explicit Receiver(const TcpConfig& c) : linux_ack(c), rx(true) { rx.Start(1); }
  // Returns whether the segment is acknowledged at once; sends that ACK.
  bool Segment(SimTime now, SeqNo seq, Bytes len = kMss) {
    const TcpReceiver::Outcome in = rx.OnSegment(seq, len, false);
    const bool now_ack = linux_ack.OnSegment(now, in, len, rx.rcv_nxt(), rx.has_gaps(), context);
    if (now_ack) Ack();
    return now_ack;
  }
  void Ack() { linux_ack.OnAckSent(rx.rcv_nxt()); }
  SeqNo next() const { return rx.rcv_nxt(); }
  LinuxAckScheduler linux_ack;
  TcpReceiver rx;
  LinuxAckScheduler::Context context{Ms(20), Ms(220)};
};

// tcp_event_data_recv(): "The _first_ data packet received, initialize delayed ACK engine":
// tcp_incr_quickack(sk, TCP_MAX_QUICKACKS) gives min(rcv_wnd / (2 rcv_mss), 16) immediate ACKs;
// tcp_dec_quickack_mode() counts each ACK of new data; then every second full segment
// (__tcp_ack_snd_check(): "More than one full frame received").
TEST(LinuxAckSchedulerTest, TheFirstSixteenSegmentsAreAcknowledgedAtOnce) {
  Receiver r(Config());
  for (int i = 0; i < 16; ++i) EXPECT_TRUE(r.Segment(Ms(i), r.next())) << i;
  EXPECT_EQ(r.linux_ack.quick(), 0u);
  EXPECT_FALSE(r.Segment(Ms(16), r.next()));
  EXPECT_TRUE(r.Segment(Ms(17), r.next()));
  EXPECT_FALSE(r.Segment(Ms(18), r.next()));
  // A small receive window gives fewer: 8760 / (2 * 1460) = 3.
  Receiver small(Config(8760));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(small.Segment(Ms(i), small.next())) << i;
  EXPECT_FALSE(small.Segment(Ms(3), small.next()));
}

// tcp_send_delayed_ack(): the timer is ato (TCP_ATO_MIN at first) on the kernel's jiffies;
// tcp_delack_timer_handler(): "Delayed ACK missed: inflate ATO", up to the RTO.
TEST(LinuxAckSchedulerTest, TheDelayedAckTimerStartsAtTheMinimumAndDoublesWhenItFires) {
  Receiver r(Config());
  for (int i = 0; i < 16; ++i) r.Segment(Ms(i), r.next());
  EXPECT_FALSE(r.Segment(Ms(16), r.next()));
  ASSERT_TRUE(r.linux_ack.timer_deadline().has_value());
  EXPECT_EQ(*r.linux_ack.timer_deadline(), Ms(16 + 40));
  EXPECT_TRUE(r.linux_ack.OnTimer(Ms(56), r.context));
  r.Ack();
  EXPECT_EQ(r.linux_ack.ato(), Ms(80));
  // With ato above TCP_DELACK_MIN, the timer is bounded by max(SRTT, TCP_DELACK_MIN).
  r.context.srtt = Ms(60);
  EXPECT_FALSE(r.Segment(Ms(200), r.next()));
  EXPECT_EQ(*r.linux_ack.timer_deadline(), Ms(260));
}

// tcp_event_data_recv(): segments closer than TCP_ATO_MIN / 2 pull ato towards TCP_ATO_MIN
// ("ato/2 + ATO_MIN/2"); a gap below ato sets ato/2 + gap; a gap above the RTO restarts quick ACKs
// ("Apparently sender failed to restart window").
TEST(LinuxAckSchedulerTest, AtoFollowsTheGapsBetweenSegments) {
  Receiver r(Config());
  for (int i = 0; i < 16; ++i) r.Segment(Ms(i), r.next());
  EXPECT_EQ(r.linux_ack.ato(), Ms(40));
  r.Segment(Ms(45), r.next());  // 30 ms after the last: 20 + 30.
  EXPECT_EQ(r.linux_ack.ato(), Ms(50));
  r.Segment(Ms(46), r.next());  // 1 ms: 25 + 20.
  EXPECT_EQ(r.linux_ack.ato(), Ms(45));
  EXPECT_EQ(r.linux_ack.quick(), 0u);
  EXPECT_TRUE(r.Segment(Ms(400), r.next()));  // 353 ms > RTO 220 ms: quick ACKs again.
  EXPECT_EQ(r.linux_ack.quick(), 15u);
}

// tcp_measure_rcv_mss() marks a segment shorter than rcv_mss ICSK_ACK_PUSHED; the application's read
// of it (tcp_cleanup_rbuf()) sends the ACK at once outside pingpong mode.
TEST(LinuxAckSchedulerTest, AShortSegmentIsAcknowledgedWhenRead) {
  Receiver r(Config());
  for (int i = 0; i < 16; ++i) r.Segment(Ms(i), r.next());
  EXPECT_TRUE(r.Segment(Ms(20), r.next(), 300));
  EXPECT_FALSE(r.Segment(Ms(21), r.next()));  // A full one waits.
}

// __tcp_ack_snd_check() with SACK and out-of-order data queued: three duplicate ACKs for one
// rcv_nxt at once (TCP_FASTRETRANS_THRESH), then SACK compression: one ACK for up to
// tcp_comp_sack_nr (44) segments, or min(tcp_comp_sack_delay_ns = 1 ms, 5 % of the RTT) after the
// first held back.
TEST(LinuxAckSchedulerTest, OutOfOrderSegmentsAfterThreeDuplicateAcksAreCompressed) {
  Receiver r(Config());
  for (int i = 0; i < 16; ++i) r.Segment(Ms(i), r.next());
  const SeqNo hole = r.next();
  SeqNo seq = hole + kMss;
  for (int i = 0; i < 3; ++i, seq += kMss) EXPECT_TRUE(r.Segment(Ms(30), seq)) << i;
  EXPECT_FALSE(r.Segment(Ms(30), seq));
  seq += kMss;
  EXPECT_EQ(*r.linux_ack.timer_deadline(), Ms(31));
  for (int i = 0; i < 43; ++i, seq += kMss) EXPECT_FALSE(r.Segment(SimTime::Microseconds(30100 + i), seq)) << i;
  EXPECT_EQ(r.linux_ack.compressed_acks(), 44u);
  EXPECT_TRUE(r.Segment(SimTime::Microseconds(30200), seq + kMss));  // 44 held back: send.
  // The timer sends what is held back.
  EXPECT_FALSE(r.Segment(SimTime::Microseconds(30300), seq + 2 * kMss));
  EXPECT_TRUE(r.linux_ack.OnTimer(SimTime::Microseconds(31300), r.context));
  // Without SACK every out-of-order segment is acknowledged at once.
  TcpConfig no_sack = Config();
  no_sack.SetFlavor(TcpFlavor::kNewReno);
  Receiver n(no_sack);
  for (int i = 0; i < 16; ++i) n.Segment(Ms(i), n.next());
  for (int i = 1; i < 10; ++i) EXPECT_TRUE(n.Segment(Ms(30), n.next() + i * kMss)) << i;
}

// tcp_data_queue(): "A retransmit, 2nd most common case. Force an immediate ack":
// tcp_enter_quickack_mode() restarts quick ACKs.
TEST(LinuxAckSchedulerTest, ADuplicateSegmentRestartsQuickAcks) {
  Receiver r(Config());
  for (int i = 0; i < 17; ++i) r.Segment(Ms(i), r.next());
  EXPECT_EQ(r.linux_ack.quick(), 0u);
  EXPECT_TRUE(r.Segment(Ms(20), 1));
  EXPECT_EQ(r.linux_ack.quick(), 15u);  // 16, less the ACK just sent.
  EXPECT_TRUE(r.Segment(Ms(21), r.next()));
  EXPECT_EQ(r.linux_ack.quick(), 14u);
}

// tcp_event_data_sent(): data sent within ato of the last data received makes the connection
// interactive (pingpong; TCP_PINGPONG_THRESH 1), where tcp_in_quickack_mode() is off and the timer
// is bounded by TCP_DELACK_MAX; a delayed ACK that fires leaves pingpong mode and deflates ato.
TEST(LinuxAckSchedulerTest, AReplyWithinTheTimeoutMakesTheConnectionInteractive) {
  Receiver r(Config());
  EXPECT_TRUE(r.Segment(Ms(0), r.next()));
  r.linux_ack.OnDataSent(Ms(5));
  EXPECT_TRUE(r.linux_ack.pingpong());
  EXPECT_FALSE(r.Segment(Ms(10), r.next()));
  EXPECT_TRUE(r.linux_ack.OnTimer(Ms(50), r.context));
  r.Ack();
  EXPECT_FALSE(r.linux_ack.pingpong());
  EXPECT_EQ(r.linux_ack.ato(), Ms(40));
}

// tcp_send_delayed_ack() counts on the kernel's jiffies (HZ 250: 4 ms ticks): the timer fires on a
// tick, up to one tick before now + ato.
TEST(LinuxAckSchedulerTest, TimersRunOnJiffies) {
  TcpConfig c = Config();
  c.linux_hz = 250;
  Receiver r(c);
  for (int i = 0; i < 16; ++i) r.Segment(Ms(i), r.next());
  EXPECT_FALSE(r.Segment(Ms(17), r.next()));
  EXPECT_EQ(*r.linux_ack.timer_deadline(), Ms(56));  // Tick 4 (16 ms) + 10 jiffies.
}

}  // namespace
}  // namespace tcb
