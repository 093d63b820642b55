// CUBIC as Linux runs it: net/ipv4/tcp_cubic.c (torvalds/linux 617e407cef5b, a Linux 6.x revision,
// with HyStart as reworked in Linux 5.8 and the January 2025 fix "tcp_cubic: fix incorrect HyStart
// round start detection", in mainline and the stable kernels since) followed function by function,
// with net/ipv4/tcp_cong.c's
// tcp_slow_start() and tcp_cong_avoid_ai(). Unlike RFC 9438 (tcp/cubic.h): the window is a whole
// number of segments that grows through the snd_cwnd_cnt credit by one segment per `cnt` segments
// acknowledged; the cubic curve is evaluated in integers (time in 1/1024 s, K from cubic_root()'s
// table and one Newton-Raphson step, the curve's lead the minimum RTT, at most once per jiffy); the
// Reno-friendly estimate counts acknowledged segments; ssthresh = cwnd * 717 / 1024 comes from cwnd,
// not from the flight; a retransmission timeout forgets W_max; and slow start leaves through
// Linux's HyStart (ACK train and delay increase), not RFC 9406's HyStart++. Every quantity is an
// unsigned integer of the kernel's width (u32, u64), so native and WASM builds agree bit for bit.
//
// The owner's side of Linux (net/ipv4/tcp_input.c, include/net/tcp.h) stays with the owner:
// cong_avoid runs only while tcp_is_cwnd_limited(), so IncreaseWindow() must be called only then
// (GrowsOnlyWhenCwndLimited()).
#pragma once

#include <cstdint>
#include <optional>

#include "tcp/congestion_ops.h"
#include "tcp/jiffies.h"

namespace tcb {

// tcp_cubic.c cubic_root(): the cube root of `a` from a 64-entry table of cbrt(x << 18) - 1 and one
// Newton-Raphson step (average error 0.195 %).
uint32_t LinuxCubicRoot(uint64_t a);

// tcp_cubic.c's module parameters and the scale factors cubictcp_register() computes from them.
struct LinuxCubicParameters {
  // The scenario's C and beta_cubic as Linux's integer parameters: bic_scale = C * 1024 / 10
  // (C = bic_scale * 10 / 1024 segments/s^3) and beta in 1/1024ths, rounded: 41 and 717 for C = 0.4,
  // beta = 0.7, Linux's defaults.
  static LinuxCubicParameters From(const CubicOptions& options);

  uint32_t beta = 717;       // beta_cubic * BICTCP_BETA_SCALE.
  uint32_t bic_scale = 41;   // C * 1024 / 10.
  bool fast_convergence = true;
  bool tcp_friendliness = true;
  bool hystart = true;
  // cubictcp_register(): beta_scale = 8 (1024 + beta) / 3 / (1024 - beta), the segments acknowledged
  // per segment of Reno-friendly growth, times 8 / cwnd; cube_rtt_scale = bic_scale * 10;
  // cube_factor = 2^40 / (bic_scale * 10), so that K = cubic_root(cube_factor * (W_max - cwnd)) in
  // 1/1024 s.
  uint32_t BetaScale() const;
  uint32_t CubeRttScale() const { return bic_scale * 10; }
  uint64_t CubeFactor() const;
};

class LinuxCubicOps final : public CongestionOps {
 public:
  // tcp_cubic.c's constants.
  static constexpr uint32_t kBetaScale = 1024;  // BICTCP_BETA_SCALE.
  static constexpr uint32_t kBictcpHz = 10;     // BICTCP_HZ: the curve's time unit is 2^-10 s.
  static constexpr uint32_t kHyStartLowWindow = 16;        // hystart_low_window, segments.
  static constexpr uint32_t kHyStartAckDeltaUs = 2000;     // hystart_ack_delta_us.
  static constexpr uint32_t kHyStartMinSamples = 8;        // HYSTART_MIN_SAMPLES.
  static constexpr uint32_t kHyStartDelayMinUs = 4000;     // HYSTART_DELAY_MIN.
  static constexpr uint32_t kHyStartDelayMaxUs = 16000;    // HYSTART_DELAY_MAX.
  // include/linux/netdevice.h GSO_LEGACY_MAX_SIZE: a device's default gso_max_size, which
  // hystart_ack_delay() reads as sk_gso_max_size.
  static constexpr uint64_t kGsoMaxSize = 65536;

  // `paced`: the connection paces (sk_pacing_status is not SK_PACING_NONE), which doubles the
  // ACK-train threshold. `linux_hz`: the kernel's CONFIG_HZ (tcp.linuxHz), the tick rate of
  // tcp_jiffies32, in which tcp_cubic.c keeps the epoch, the curve's clock and its once-per-HZ/32
  // update, and whose HZ it divides by (bictcp_update(), cubictcp_acked(), cubictcp_cwnd_event()).
  LinuxCubicOps(const CubicOptions& options, bool paced, int linux_hz);

  std::string_view name() const override { return "cubic-linux"; }
  // cubictcp_cong_avoid(): tcp_slow_start() below ssthresh, the leftover segments into
  // bictcp_update() and tcp_cong_avoid_ai(). Only while cwnd-limited (tcp_is_cwnd_limited()).
  // Like tcp_cong_control(), it counts the segments the ACK delivered, cumulatively or
  // selectively, each once (the SentLog's sample), not `acked`, how far snd_una moved, which counts
  // again what was SACKed before; `acked` serves only an owner without a SentLog (no SACK: the
  // same).
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  // cubictcp_recalc_ssthresh(): W_max with fast convergence, ssthresh = max(cwnd * beta / 1024, 2).
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
  // cubictcp_init().
  void Init(Tcb& tcb, SimTime now) override;
  // cubictcp_cong_avoid() returns at once unless tcp_is_cwnd_limited() (unless
  // cubic.appLimitedGrowth asks otherwise).
  bool GrowsOnlyWhenCwndLimited() const override { return !app_limited_growth_; }
  // Always: the SentLog's per-ACK delivery is the segment count Linux's cong_avoid receives
  // (tp->delivered), besides HyStart's RTT samples.
  bool NeedsSentLog() const override { return true; }
  // cubictcp_acked(): the minimum RTT, and HyStart's rounds and exits in slow start.
  void OnAckSample(Tcb& tcb, const AckSample& sample) override;
  // cubictcp_state(): TCP_CA_Loss resets everything, W_max included, and restarts HyStart.
  void OnStateChange(Tcb& tcb, SimTime now, CongestionState state) override;
  // cubictcp_cwnd_event(CA_EVENT_TX_START).
  void OnSendingResumed(Tcb& tcb, SimTime now, SimTime last_sent) override;
  void DescribeState(const Tcb& tcb, TcpSeriesRow& row) const override;

  const LinuxCubicParameters& parameters() const { return params_; }
  // struct bictcp, in the kernel's units: segments, jiffies, 1/1024 s, microseconds.
  uint32_t cnt() const { return cnt_; }
  uint32_t last_max_cwnd() const { return last_max_cwnd_; }
  uint32_t bic_origin_point() const { return bic_origin_point_; }
  uint32_t bic_k() const { return bic_k_; }
  uint32_t delay_min_us() const { return delay_min_us_; }
  std::optional<uint32_t> epoch_start() const { return epoch_start_; }
  uint32_t ack_cnt() const { return ack_cnt_; }
  uint32_t tcp_cwnd() const { return tcp_cwnd_; }
  bool hystart_found() const { return found_; }
  uint32_t curr_rtt_us() const { return curr_rtt_us_; }
  uint32_t round_start_us() const { return round_start_us_; }
  // tp->snd_cwnd_cnt: segments acknowledged towards the next one-segment increase.
  uint32_t snd_cwnd_cnt() const { return snd_cwnd_cnt_; }

  // HZ: jiffies per second.
  uint32_t hz() const { return hz_; }
  // tcp_jiffies32 and tcp_mstamp (bictcp_clock_us()) at simulated time `t`.
  uint32_t JiffiesAt(SimTime t) const { return static_cast<uint32_t>(jiffies_.At(t)); }
  static uint32_t ClockUs(SimTime t) { return static_cast<uint32_t>(t.ns() / 1000); }

 private:
  // bictcp_reset() and bictcp_hystart_reset().
  void Reset();
  void HyStartReset(uint32_t now_us);
  // bictcp_update(): sets cnt_, the segments to acknowledge per one-segment increase.
  void Update(uint32_t cwnd, uint32_t acked, uint32_t now_jiffies);
  // hystart_update() for one RTT sample `delay_us`; may set tcb.ssthresh = cwnd.
  void HyStartUpdate(Tcb& tcb, const AckSample& sample, uint32_t delay_us);
  // hystart_ack_delay(): the ACK-train threshold's allowance for TSO/GRO aggregation.
  uint32_t HyStartAckDelayUs(const Tcb& tcb, const AckSample& sample) const;
  // HyStart's round ends when the ACK passes end_seq, snd_nxt when the round began
  // (after(tp->snd_una, ca->end_seq)); see RoundEnded() in linux_cubic.cc.
  bool RoundEnded(const AckSample& sample) const;
  void BeginRound(const AckSample& sample);

  LinuxCubicParameters params_;
  bool paced_;
  Jiffies jiffies_;
  uint32_t hz_;
  bool app_limited_growth_;

  // struct bictcp.
  uint32_t cnt_ = 0;
  uint32_t last_max_cwnd_ = 0;
  uint32_t last_cwnd_ = 0;
  uint32_t last_time_ = 0;  // Jiffies.
  uint32_t bic_origin_point_ = 0;
  uint32_t bic_k_ = 0;  // 1/1024 s.
  uint32_t delay_min_us_ = 0;
  // Jiffies; empty where the kernel's epoch_start is 0 (no congestion avoidance epoch).
  std::optional<uint32_t> epoch_start_;
  uint32_t ack_cnt_ = 0;
  uint32_t tcp_cwnd_ = 0;
  uint32_t sample_cnt_ = 0;
  bool found_ = false;
  uint32_t round_start_us_ = 0;
  uint32_t last_ack_us_ = 0;
  uint32_t curr_rtt_us_ = ~0U;
  // The round's end_seq when the SentLog knew snd_nxt at the reset, and the data delivered then
  // (see RoundEnded()). A reset on a timeout learns snd_nxt from the next ACK.
  std::optional<SeqNo> end_seq_;
  Bytes end_delivered_ = 0;
  bool end_seq_pending_ = false;

  // tp->snd_cwnd_cnt (net/ipv4/tcp_cong.c), the congestion avoidance credit.
  uint32_t snd_cwnd_cnt_ = 0;
  // What the ACK being processed delivered by the SentLog (OnAckSample(), called before
  // IncreaseWindow() for each ACK that delivered data), and when.
  bool owner_keeps_log_ = false;
  std::optional<SimTime> delivered_at_;
  Bytes delivered_bytes_ = 0;
};

}  // namespace tcb
