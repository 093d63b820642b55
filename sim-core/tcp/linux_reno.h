// Reno's window as Linux runs it (net/ipv4/tcp_cong.c tcp_reno_cong_avoid(), tcp_reno_ssthresh()):
// a window of whole segments that grows by every segment an ACK delivered in slow start
// (tcp_slow_start(): with an ACK for every second segment it still doubles per round trip, where
// RFC 5681 §3.1's at most one SMSS per ACK grows it 1.5 times) and by one segment per window of
// segments delivered in congestion avoidance (tcp_cong_avoid_ai(): one per round trip whatever the
// ACK ratio, where RFC 5681's SMSS*SMSS/cwnd per ACK gives half a segment with delayed ACKs); after
// a congestion event ssthresh is half the window, not half the flight. `tcp.reno.rules: "linux"`.
//
// The owner's side of Linux stays with the owner: tcp_reno_cong_avoid() returns at once unless
// tcp_is_cwnd_limited(), so the owner calls IncreaseWindow() only while the window limits the
// sender (GrowsOnlyWhenCwndLimited()), and tcp_cong_control() calls it only for an ACK that
// acknowledged new data cumulatively outside a window reduction (tcp_may_raise_cwnd()).
#pragma once

#include <cstdint>

#include "tcp/congestion_ops.h"
#include "tcp/linux_cong.h"

namespace tcb {

class LinuxRenoOps final : public CongestionOps {
 public:
  std::string_view name() const override { return "reno-linux"; }
  // tcp_reno_cong_avoid(): tcp_slow_start() below ssthresh, what is left over past ssthresh into
  // tcp_cong_avoid_ai(tp, cwnd, acked). `acked` counts as tcp_cong_control()'s acked_sacked (see
  // LinuxDeliveredSegments).
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  // tcp_reno_ssthresh(): max(cwnd / 2, 2) segments, from the window (the flight does not enter).
  // tcp_init_cwnd_reduction() and tcp_enter_loss(), which ask for it, clear snd_cwnd_cnt.
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
  void Init(Tcb&, SimTime) override { credit_ = 0; }
  bool GrowsOnlyWhenCwndLimited() const override { return true; }
  void OnAckSample(Tcb&, const AckSample& sample) override { delivered_.OnAckSample(sample); }

  // tp->snd_cwnd_cnt: segments acknowledged towards the next one-segment increase.
  uint32_t snd_cwnd_cnt() const { return credit_; }

 private:
  uint32_t credit_ = 0;
  LinuxDeliveredSegments delivered_;
};

}  // namespace tcb
