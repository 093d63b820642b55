// What Linux's window rules share (net/ipv4/tcp_cong.c, include/net/tcp.h): a window counted in
// whole segments, slow start and additive increase by the segments an ACK delivered, and the
// count of those segments from the owner's per-ACK sample.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/time.h"
#include "core/units.h"
#include "tcp/congestion_ops.h"
#include "tcp/tcb.h"

namespace tcb {

// The window in whole segments, as tp->snd_cwnd (at least one). The Tcb keeps bytes; a window the
// owner left between two whole segments (PRR's byte counts) counts as the smaller.
inline uint32_t LinuxSegments(Bytes bytes, Bytes mss) {
  return static_cast<uint32_t>(std::max<Bytes>(1, bytes / mss));
}

// tcp_in_slow_start() (include/net/tcp.h): snd_cwnd < snd_ssthresh, both in segments.
inline bool LinuxInSlowStart(const Tcb& tcb) {
  return static_cast<Bytes>(LinuxSegments(tcb.cwnd, tcb.mss)) < tcb.ssthresh / tcb.mss;
}

// tcp_cong.c tcp_slow_start(): cwnd = min(cwnd + acked, ssthresh), "a stretch ACK of degree N as
// if N acks of degree 1" (RFC 3465's byte counting without its limit L). Returns the segments left
// over past ssthresh, for congestion avoidance.
uint32_t LinuxSlowStart(uint32_t* cwnd, uint32_t acked, uint64_t ssthresh);

// tcp_cong.c tcp_cong_avoid_ai(tp, w, acked): one segment per `w` segments acknowledged, counted in
// `credit` (tp->snd_cwnd_cnt); "if credits accumulated at a higher w, apply them gently now".
void LinuxCongAvoidAi(uint32_t* cwnd, uint32_t* credit, uint32_t w, uint32_t acked);

// The segments one ACK delivered, as tcp_cong_control() hands them to a rule's cong_avoid
// (tp->delivered - prior_delivered: cumulatively or selectively, each once). A rule records the
// owner's per-ACK sample in OnAckSample(), which the owner calls before IncreaseWindow() for every
// ACK that delivered data; an owner without a per-segment log (no SACK) passes only the bytes
// snd_una moved, which are then the same thing.
class LinuxDeliveredSegments {
 public:
  void OnAckSample(const AckSample& sample) {
    owner_keeps_log_ = owner_keeps_log_ || sample.log != nullptr;
    delivered_at_ = sample.now;
    delivered_bytes_ = sample.delivered;
  }
  // For the ACK at `now` whose cumulative part moved snd_una by `acked_bytes`: a segment shorter
  // than the MSS counts as one (tcp_skb_pcount(): DIV_ROUND_UP(len, mss)).
  uint32_t Take(SimTime now, Bytes acked_bytes, Bytes mss) {
    Bytes delivered = acked_bytes;
    if (owner_keeps_log_) delivered = delivered_at_ == now ? delivered_bytes_ : 0;
    delivered_at_.reset();
    return static_cast<uint32_t>((delivered + mss - 1) / mss);
  }

 private:
  bool owner_keeps_log_ = false;
  std::optional<SimTime> delivered_at_;
  Bytes delivered_bytes_ = 0;
};

}  // namespace tcb
