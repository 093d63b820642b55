// When a receiver acknowledges, as Linux decides it (net/ipv4/tcp_input.c tcp_event_data_recv(),
// tcp_measure_rcv_mss(), __tcp_ack_snd_check(); net/ipv4/tcp_output.c tcp_send_delayed_ack(),
// tcp_event_ack_sent(); net/ipv4/tcp_timer.c tcp_delack_timer_handler(); net/ipv4/tcp.c
// tcp_cleanup_rbuf()), selected by `tcp.ackRules: "linux"` with `tcp.delayedAck` on:
//
// - Quick-ACK mode: the first data segment (and data after a silence longer than the RTO, and a
//   duplicate segment) makes the next min(receive window / 2 rcv_mss, 16) ACKs of new data go out
//   at once (tcp_incr_quickack(), TCP_MAX_QUICKACKS), unless the connection is interactive
//   ("pingpong": it sent data within the delayed-ACK timeout of receiving some).
// - Otherwise an ACK once more than one full segment (rcv_mss) is unacknowledged, or when a short
//   segment arrived and the application, reading at once, drained it (tcp_cleanup_rbuf()'s
//   ICSK_ACK_PUSHED), or when the last hole is filled; else the delayed-ACK timer, whose timeout
//   `ato` starts at TCP_ATO_MIN (`tcp.delayedAckTimeoutMs`), follows the gaps between segments
//   (tcp_event_data_recv()), is bounded by the SRTT and by 200 or 500 ms (tcp_send_delayed_ack()),
//   and doubles when the timer fires (tcp_delack_timer_handler()). Timers run on the kernel's
//   jiffies.
// - SACK compression for out-of-order data (since Linux 4.20): after three immediate duplicate
//   ACKs for the same rcv_nxt, further ones wait min(1 ms, 5 % of the RTT), at most 44 at a time
//   (sysctl_tcp_comp_sack_delay_ns, sysctl_tcp_comp_sack_nr). With these rules an ACK carries as
//   many SACK blocks as fit (tcp_established_options(): four without timestamps; the endpoint).
//
// Left out: the receive window's share in the decision (__tcp_ack_snd_check() also waits while the
// window it could offer is below the one offered, until the application reads), the window updates
// a read sends (tcp_cleanup_rbuf()), and the ACK of a FIN, which is sent at once here (Linux enters
// pingpong mode and lets the application's close() carry it).
#pragma once

#include <cstdint>
#include <optional>

#include "core/time.h"
#include "core/units.h"
#include "tcp/jiffies.h"
#include "tcp/tcp_config.h"
#include "tcp/tcp_receiver.h"

namespace tcb {

class LinuxAckScheduler {
 public:
  // tcp_incr_quickack(sk, TCP_MAX_QUICKACKS).
  static constexpr uint32_t kMaxQuickAcks = 16;
  // include/net/tcp.h TCP_MSS_DEFAULT and TCP_MIN_MSS.
  static constexpr Bytes kMssDefault = 536;
  // TCP_FASTRETRANS_THRESH: duplicate ACKs sent at once before SACK compression.
  static constexpr uint32_t kFastRetransThresh = 3;
  // The sysctls' defaults: net.ipv4.tcp_comp_sack_nr and tcp_comp_sack_delay_ns.
  static constexpr uint32_t kCompSackNr = 44;
  static constexpr SimTime kCompSackDelay = SimTime::Milliseconds(1);
  // TCP_PINGPONG_THRESH (Linux 6.5 on; 3 from 5.3 to 6.4).
  static constexpr uint32_t kPingpongThresh = 1;

  explicit LinuxAckScheduler(const TcpConfig& config);

  // What the receiving endpoint knows of its own connection: its smoothed RTT (zero without a
  // sample) and current RTO (icsk_rto).
  struct Context {
    SimTime srtt;
    SimTime rto;
  };
  // A segment with `payload` bytes (or a FIN) arrived and TcpReceiver made `in` of it; `rcv_nxt` is
  // the next byte expected afterwards and `gaps` whether out-of-order data still waits. Returns
  // whether to acknowledge now; otherwise the ACK waits for timer_deadline() (or for data to ride
  // on).
  bool OnSegment(SimTime now, const TcpReceiver::Outcome& in, Bytes payload, SeqNo rcv_nxt, bool gaps,
                 const Context& context);
  // An ACK of everything received went out, pure or on data (tcp_event_ack_sent()).
  void OnAckSent(SeqNo rcv_nxt);
  // The connection sent data (tcp_event_data_sent()): a reply within ato of the last data received
  // counts towards pingpong mode.
  void OnDataSent(SimTime now);
  // When the delayed-ACK or the SACK-compression timer expires, if either is pending.
  std::optional<SimTime> timer_deadline() const;
  // The timer expired at `now`: whether an ACK is to be sent (tcp_delack_timer_handler(),
  // tcp_compressed_ack_kick()).
  bool OnTimer(SimTime now, const Context& context);

  uint32_t quick() const { return quick_; }            // icsk_ack.quick
  SimTime ato() const { return jiffies_.Time(ato_); }   // icsk_ack.ato
  bool pingpong() const { return pingpong_ >= kPingpongThresh; }
  Bytes rcv_mss() const { return rcv_mss_; }            // icsk_ack.rcv_mss
  uint32_t compressed_acks() const { return compressed_ack_; }

 private:
  bool InQuickAckMode() const { return quick_ > 0 && !pingpong(); }
  void IncrQuickAck(uint32_t max_quickacks);
  void EnterQuickAckMode();
  void MeasureRcvMss(Bytes len);
  void OnDataReceived(SimTime now, const Context& context);
  // tcp_send_delayed_ack(): arms the timer; returns true when the ACK should go now instead.
  bool ScheduleDelayedAck(SimTime now, const Context& context);
  // The SACK-compression branch of __tcp_ack_snd_check(); returns whether to send now.
  bool CompressSack(SimTime now, SeqNo rcv_nxt, const Context& context);

  Jiffies jiffies_;
  Bytes advmss_;
  Bytes receive_window_;
  bool sack_;
  int64_t ato_min_;  // TCP_ATO_MIN (= TCP_DELACK_MIN), jiffies.
  int64_t delack_max_;  // TCP_DELACK_MAX, HZ / 5.

  // struct inet_connection_sock icsk_ack.
  uint32_t quick_ = 0;
  uint32_t pingpong_ = 0;
  int64_t ato_ = 0;  // Jiffies; 0 until the first data segment.
  int64_t lrcvtime_ = 0;
  bool scheduled_ = false;  // ICSK_ACK_SCHED
  bool pushed_ = false;     // ICSK_ACK_PUSHED
  bool pushed2_ = false;    // ICSK_ACK_PUSHED2
  bool ack_now_ = false;    // ICSK_ACK_NOW
  std::optional<int64_t> timeout_;  // ICSK_ACK_TIMER and icsk_ack.timeout, jiffies.
  Bytes rcv_mss_;
  Bytes last_seg_size_ = 0;
  // tp->rcv_wup: rcv_nxt when the last ACK went out.
  SeqNo rcv_wup_ = -1;
  // SACK compression (struct tcp_sock).
  uint32_t compressed_ack_ = 0;
  SeqNo compressed_ack_rcv_nxt_ = -1;
  uint32_t dup_ack_counter_ = 0;
  std::optional<SimTime> compressed_ack_timer_;
};

}  // namespace tcb
