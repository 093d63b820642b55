// When a receiver acknowledges, as Linux decides it.
#include "tcp/linux_delayed_ack.h"

#include <algorithm>

namespace tcb {

LinuxAckScheduler::LinuxAckScheduler(const TcpConfig& config)
    : jiffies_(config.linux_hz),
      advmss_(config.mss),
      receive_window_(config.receive_window),
      sack_(config.sack()),
      ato_min_(jiffies_.FromTime(config.delayed_ack_timeout)),
      delack_max_(jiffies_.FromTime(SimTime::Milliseconds(200))) {
  // tcp_initialize_rcv_mss(): min(advmss, rcv_wnd / 2, TCP_MSS_DEFAULT), at least TCP_MIN_MSS (88).
  rcv_mss_ = std::max<Bytes>(std::min({advmss_, receive_window_ / 2, kMssDefault}), 88);
}

void LinuxAckScheduler::IncrQuickAck(uint32_t max_quickacks) {
  // tcp_incr_quickack(): as many immediate ACKs as half the receive window holds segments.
  uint32_t quickacks = static_cast<uint32_t>(std::min<Bytes>(receive_window_ / (2 * rcv_mss_), UINT32_MAX));
  if (quickacks == 0) quickacks = 2;
  quickacks = std::min(quickacks, max_quickacks);
  if (quickacks > quick_) quick_ = quickacks;
}

void LinuxAckScheduler::EnterQuickAckMode() {
  // tcp_enter_quickack_mode(): quick ACKs, out of pingpong mode, the shortest ato.
  IncrQuickAck(kMaxQuickAcks);
  pingpong_ = 0;
  ato_ = ato_min_;
}

void LinuxAckScheduler::MeasureRcvMss(Bytes len) {
  // tcp_measure_rcv_mss(): the largest segment seen, at most our MSS; a run of two equal shorter
  // ones of at least TCP_MSS_DEFAULT sets it too. A shorter segment is "pushed": the application's
  // read of it sends the ACK (tcp_cleanup_rbuf()). Linux also takes a run of segments from
  // TCP_MIN_MSS up when they carry no PSH; a short segment here is taken for the end of a write,
  // which carries PSH.
  const Bytes lss = last_seg_size_;
  last_seg_size_ = 0;
  if (len >= rcv_mss_) {
    rcv_mss_ = std::min(len, advmss_);
    return;
  }
  if (len >= kMssDefault) {
    last_seg_size_ = len;
    if (len == lss) {
      rcv_mss_ = len;
      return;
    }
  }
  if (pushed_) pushed2_ = true;
  pushed_ = true;
}

void LinuxAckScheduler::OnDataReceived(SimTime now, const Context& context) {
  // tcp_event_data_recv(): the delayed-ACK timeout follows the gaps between data segments.
  const int64_t now_j = jiffies_.At(now);
  const int64_t rto = jiffies_.FromTime(context.rto);
  if (ato_ == 0) {
    // "The _first_ data packet received, initialize delayed ACK engine."
    IncrQuickAck(kMaxQuickAcks);
    ato_ = ato_min_;
  } else {
    const int64_t m = now_j - lrcvtime_;
    if (m <= ato_min_ / 2) {
      ato_ = (ato_ >> 1) + ato_min_ / 2;  // "The fastest case is the first."
    } else if (m < ato_) {
      ato_ = (ato_ >> 1) + m;
      if (ato_ > rto) ato_ = rto;
    } else if (m > rto) {
      // "Too long gap. Apparently sender failed to restart window, so that we send ACKs quickly."
      IncrQuickAck(kMaxQuickAcks);
    }
  }
  lrcvtime_ = now_j;
}

bool LinuxAckScheduler::OnSegment(SimTime now, const TcpReceiver::Outcome& in, Bytes payload, SeqNo rcv_nxt,
                                  bool gaps, const Context& context) {
  const SegmentArrival arrival = in.arrival;
  if (rcv_wup_ < 0) rcv_wup_ = rcv_nxt - in.delivered;
  scheduled_ = true;  // inet_csk_schedule_ack()
  switch (arrival) {
    case SegmentArrival::kDuplicate:
      // tcp_data_queue(): "A retransmit, 2nd most common case. Force an immediate ack."
      EnterQuickAckMode();
      return true;
    case SegmentArrival::kOutOfOrder:
      break;
    case SegmentArrival::kInOrder:
      if (payload > 0) {
        MeasureRcvMss(payload);
        OnDataReceived(now, context);
      }
      // "RFC5681. 4.2. SHOULD send immediate ACK, when gap in queue is filled."
      if (in.filled_last_gap) ack_now_ = true;
      // See the header: the ACK of a FIN goes at once.
      if (in.fin_now) return true;
      break;
  }
  // __tcp_ack_snd_check(): "More than one full frame received", quick-ACK mode, or an ACK due now.
  if (rcv_nxt - rcv_wup_ > rcv_mss_ || InQuickAckMode() || ack_now_) return true;
  // tcp_cleanup_rbuf(), as the application reads what arrived in order at once: a short segment
  // drained from the queue is acknowledged (ICSK_ACK_PUSHED outside pingpong mode, the second
  // one, ICSK_ACK_PUSHED2, in it).
  if (arrival == SegmentArrival::kInOrder && payload > 0 && (pushed2_ || (pushed_ && !pingpong()))) return true;
  if (!gaps) return ScheduleDelayedAck(now, context);
  return CompressSack(now, rcv_nxt, context);
}

bool LinuxAckScheduler::ScheduleDelayedAck(SimTime now, const Context& context) {
  // tcp_send_delayed_ack().
  int64_t ato = ato_;
  if (ato > ato_min_) {
    // "Slow path, intersegment interval is 'high'": at most 500 ms (200 ms when interactive or
    // after a short segment), and at most the SRTT ("If some rtt estimate is known, use it to
    // bound delayed ack").
    int64_t max_ato = jiffies_.FromTime(SimTime::Milliseconds(500));
    if (pingpong() || pushed_) max_ato = delack_max_;
    if (context.srtt > SimTime::Zero()) {
      const int64_t rtt = std::max(jiffies_.FromTime(context.srtt), ato_min_);
      if (rtt < max_ato) max_ato = rtt;
    }
    ato = std::min(ato, max_ato);
  }
  ato = std::min(ato, delack_max_);  // icsk_delack_max
  const int64_t now_j = jiffies_.At(now);
  int64_t timeout = now_j + ato;
  if (timeout_) {
    // "If delack timer is about to expire, send ACK now"; otherwise the earlier timeout stays.
    if (*timeout_ <= now_j + (ato >> 2)) return true;
    if (timeout >= *timeout_) timeout = *timeout_;
  }
  timeout_ = timeout;
  return false;
}

bool LinuxAckScheduler::CompressSack(SimTime now, SeqNo rcv_nxt, const Context& context) {
  // __tcp_ack_snd_check() with out-of-order data queued: without SACK, or with 44 ACKs held back,
  // at once; the first three duplicate ACKs for one rcv_nxt at once too (so that the sender's fast
  // retransmit is not delayed); later ones wait for the compression timer.
  if (!sack_ || compressed_ack_ >= kCompSackNr) return true;
  if (compressed_ack_rcv_nxt_ != rcv_nxt) {
    compressed_ack_rcv_nxt_ = rcv_nxt;
    dup_ack_counter_ = 0;
  }
  if (dup_ack_counter_ < kFastRetransThresh) {
    ++dup_ack_counter_;
    return true;
  }
  ++compressed_ack_;
  if (compressed_ack_timer_) return false;
  // "compress ack timer : 5 % of rtt, but no more than tcp_comp_sack_delay_ns" (the receiver's RTT:
  // the smaller of its own receive-side estimate and its SRTT; here the SRTT).
  compressed_ack_timer_ = now + Min(kCompSackDelay, SimTime::Nanoseconds(context.srtt.ns() / 20));
  return false;
}

void LinuxAckScheduler::OnAckSent(SeqNo rcv_nxt) {
  // tcp_event_ack_sent(): held-back SACKs are sent with it; tcp_dec_quickack_mode() counts it
  // against the quick ACKs when it acknowledged new data ("Leaving quickack mode we deflate ATO");
  // the delayed-ACK timer and every pending flag are cleared (inet_csk_clear_xmit_timer()).
  compressed_ack_ = 0;
  compressed_ack_timer_.reset();
  if (quick_ > 0) {
    const uint32_t pkts = scheduled_ ? 1 : 0;
    if (pkts >= quick_) {
      quick_ = 0;
      ato_ = ato_min_;
    } else {
      quick_ -= pkts;
    }
  }
  scheduled_ = pushed_ = pushed2_ = ack_now_ = false;
  timeout_.reset();
  rcv_wup_ = rcv_nxt;  // tcp_select_window()
}

void LinuxAckScheduler::OnDataSent(SimTime now) {
  // tcp_event_data_sent(): "If it is a reply for ato after last received packet, increase pingpong
  // count."
  if (ato_ > 0 && jiffies_.At(now) - lrcvtime_ < ato_) ++pingpong_;
}

std::optional<SimTime> LinuxAckScheduler::timer_deadline() const {
  std::optional<SimTime> at = compressed_ack_timer_;
  if (timeout_) at = at ? Min(*at, jiffies_.Time(*timeout_)) : jiffies_.Time(*timeout_);
  return at;
}

bool LinuxAckScheduler::OnTimer(SimTime now, const Context& context) {
  bool send = false;
  // tcp_compressed_ack_kick(): the held-back SACKs go out.
  if (compressed_ack_timer_ && *compressed_ack_timer_ <= now) {
    compressed_ack_timer_.reset();
    send = compressed_ack_ > 0;
  }
  // tcp_delack_timer_handler(): "Delayed ACK missed: inflate ATO" (at most the RTO), or in pingpong
  // mode leave it and deflate ATO.
  if (timeout_ && jiffies_.Time(*timeout_) <= now) {
    timeout_.reset();
    if (scheduled_) {
      if (!pingpong()) {
        ato_ = std::min(ato_ << 1, jiffies_.FromTime(context.rto));
      } else {
        pingpong_ = 0;
        ato_ = ato_min_;
      }
      send = true;
    }
  }
  return send;
}

}  // namespace tcb
