// BBR version 1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based Congestion
// Control", ACM Queue 14(5), 2016), as Linux 4.9 runs it (net/ipv4/tcp_bbr.c; the function named at
// each rule). BBR models the path from delivery-rate samples: the bottleneck bandwidth is the
// windowed maximum delivery rate of the last 10 round trips, the propagation RTT the windowed minimum
// RTT of the last 10 s. It paces at pacing_gain x bandwidth and bounds what is in flight by
// cwnd_gain x bandwidth x min RTT, moving through Startup (gain 2/ln 2 until the bandwidth stops
// growing), Drain (the inverse gain, until the queue Startup built is gone), ProbeBW (the gain cycle
// 5/4, 3/4, 1 x 6) and, every 10 s without a lower RTT, ProbeRTT (4 segments in flight for 200 ms
// and a round). It sets the window itself on every ACK (Linux's cong_control), in loss recovery too.
//
// Windows and in-flight counts are bytes here where Linux counts packets; with full-sized segments
// the two are the same, and every rule that Linux states in packets is applied in segments of the
// MSS. Gains are Linux's integers in units of 1/256 (BBR_UNIT).
//
// Left out: Linux 4.9's long-term bandwidth sampling (lt_bw, its policer detection), which ns-3 3.44's
// TcpBbr does not have either. Where ns-3 3.44 (src/internet/model/tcp-bbr.cc) follows a later Linux
// or chooses otherwise, the rule's comment says so.
//
// With BbrRules::kLinux (`tcp.bbr.rules: "linux"`) it runs the Linux 6.x tcp_bbr.c instead, whose
// differences from 4.9 each rule's comment names: the ACK-aggregation estimate that the window
// target grows by (bbr_update_ack_aggregation(), bbr_ack_aggregation_cwnd(), Linux 5.1), two more
// segments in flight in the 5/4 phase (bbr_quantization_budget(), 4.19), pacing 1 % below the
// bandwidth (bbr_pacing_margin_percent, 4.20) in payload bytes (4.9 counted whole packets), the
// pacing rate raised in Startup only until the pipe is full, the first RTT sample resetting the
// initial pacing rate (bbr_init_pacing_rate_from_rtt()), ssthresh set when Startup ends
// (bbr_check_drain()), ProbeRTT's cap on every ACK, its end restoring the window at once
// (bbr_check_probe_rtt_done()) and its stamps in jiffies, and idle_restart cleared only by an ACK
// that delivered data. Left out of it: bbr_packets_in_net_at_edt() (the in-flight estimate less
// what the bandwidth delivers before the next paced departure, in the phase and Drain tests) and
// rs->is_ack_delayed in the min-RTT filter.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/rng.h"
#include "tcp/jiffies.h"
#include "tcp/congestion_ops.h"
#include "tcp/windowed_max.h"

namespace tcb {

class BbrOps final : public CongestionOps {
 public:
  // tcp_bbr.c enum bbr_mode.
  enum class Mode : uint8_t { kStartup, kDrain, kProbeBw, kProbeRtt };

  // tcp_bbr.c's constants. Gains are in units of 1/kUnit (BBR_UNIT = 1 << BBR_SCALE).
  static constexpr int kUnit = 256;
  // 2/ln 2, the smallest gain that doubles the sending rate every round trip (bbr_high_gain).
  static constexpr int kHighGain = kUnit * 2885 / 1000 + 1;
  // Its inverse, to drain Startup's queue in about one round (bbr_drain_gain).
  static constexpr int kDrainGain = kUnit * 1000 / 2885;
  static constexpr int kCwndGain = kUnit * 2;  // bbr_cwnd_gain.
  static constexpr int kCycleLength = 8;       // CYCLE_LEN.
  static constexpr int kPacingGain[kCycleLength] = {kUnit * 5 / 4, kUnit * 3 / 4, kUnit, kUnit,
                                                    kUnit,         kUnit,         kUnit, kUnit};
  static constexpr int kCycleRand = 7;                  // bbr_cycle_rand.
  static constexpr uint64_t kBwRounds = kCycleLength + 2;  // bbr_bw_rtts.
  static constexpr SimTime kMinRttWindow = SimTime::Seconds(10);         // bbr_min_rtt_win_sec.
  static constexpr SimTime kProbeRttDuration = SimTime::Milliseconds(200);  // bbr_probe_rtt_mode_ms.
  static constexpr int64_t kMinTsoRateBps = 1200000;    // bbr_min_tso_rate.
  static constexpr int64_t kCwndMinTarget = 4;          // bbr_cwnd_min_target, segments.
  static constexpr int kFullBwThresh = kUnit * 5 / 4;   // bbr_full_bw_thresh.
  static constexpr int kFullBwCount = 3;                // bbr_full_bw_cnt.
  static constexpr int64_t kInitCwnd = 10;              // TCP_INIT_CWND, segments.

  // bbr_extra_acked_win_rtts, bbr_extra_acked_max_us (Linux 5.1 on).
  static constexpr int kExtraAckedWinRounds = 5;
  static constexpr SimTime kExtraAckedMax = SimTime::Milliseconds(100);
  // bbr_ack_epoch_acked_reset_thresh, and the 20-bit field ack_epoch_acked lives in.
  static constexpr int64_t kAckEpochAckedResetThresh = int64_t{1} << 20;
  // bbr_pacing_margin_percent (Linux 4.20 on).
  static constexpr int kPacingMarginPercent = 1;

  // `random`: the stream that picks the first ProbeBW phase (Linux's prandom_u32_max()); `rules`:
  // Linux 4.9's tcp_bbr.c or 6.x's; `linux_hz`: the jiffies of 6.x's ProbeRTT stamps.
  explicit BbrOps(const Rng& random, BbrRules rules = BbrRules::kLinux49, int linux_hz = 1000)
      : random_(random), rules_(rules), jiffies_(linux_hz) {}

  std::string_view name() const override { return "bbr"; }
  // Never called: BBR sets the window in ControlWindow(); throws std::logic_error.
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
  bool NeedsSentLog() const override { return true; }
  void Init(Tcb& tcb, SimTime now) override;
  void OnStateChange(Tcb& tcb, SimTime now, CongestionState state) override;
  void OnSendingResumed(Tcb& tcb, SimTime now, SimTime last_sent) override;
  bool ControlsWindow() const override { return true; }
  void ControlWindow(Tcb& tcb, const AckSample& sample) override;
  double PacingRateBps(const Tcb&) const override { return pacing_rate_bps_; }
  void DescribeState(const Tcb& tcb, TcpSeriesRow& row) const override;

  Mode mode() const { return mode_; }
  int pacing_gain() const { return pacing_gain_; }  // Units of 1/kUnit.
  int cwnd_gain() const { return cwnd_gain_; }
  int cycle_index() const { return cycle_index_; }
  // The bottleneck-bandwidth estimate: bytes of payload per second.
  double bandwidth() const { return bw_.best(); }
  SimTime min_rtt() const { return min_rtt_; }  // Infinite before the first sample.
  bool full_bw_reached() const { return full_bw_count_ >= kFullBwCount; }
  uint64_t round_count() const { return round_count_; }
  bool packet_conservation() const { return packet_conservation_; }
  Bytes prior_cwnd() const { return prior_cwnd_; }
  // The segments Linux would put in one TSO burst at the current pacing rate (tso_segs_goal).
  int64_t tso_segs_goal() const { return tso_segs_goal_; }
  // The window BBR aims for at `bw` (bytes per second) and `gain`: bbr_target_cwnd() in 4.9,
  // bbr_inflight() in 6.x (without the ACK-aggregation allowance, which only bbr_set_cwnd() adds).
  Bytes TargetCwnd(const Tcb& tcb, double bw, int gain) const;
  BbrRules rules() const { return rules_; }
  // Linux 6.x's ACK-aggregation estimate, in segments: the most data acknowledged beyond what the
  // bandwidth estimate explains in an epoch, over the last 5-10 rounds (bbr_extra_acked()).
  int64_t extra_acked() const { return std::max(extra_acked_[0], extra_acked_[1]); }
  // What bbr_ack_aggregation_cwnd() adds to the window target, in segments (0 before the pipe is
  // full, and under 4.9's rules).
  int64_t AckAggregationCwnd(const Tcb& tcb) const;

  // ---- Resuming from saved path state (sharing/bdp_resume.h, sharing/careful_resume.h) ----
  // Careful jumps start RFC 9959 Appendix C's rounds (StartCarefulResume()); others resume from
  // cached parameters as Google QUIC does (ResumeFromCache(), with min_window the current cwnd).
  Resumption AdjustNetworkParameters(Tcb& tcb, const NetworkParams& params) override;
  RateResumption rate_resumption() const override;
  // Without `retreat`: clears the flag (RFC 9959's "rate-limited" exit of the Unvalidated Phase, or
  // the Validating Phase's end); with it: RetreatCarefulResume().
  void EndRateResumption(bool retreat) override;

  // Google QUIC's resumption from cached network parameters, as quiche's
  // quic/core/congestion_control/bbr_sender.cc BbrSender::AdjustNetworkParameters() does it: a
  // saved minimum RTT below BBR's own becomes its min RTT; in Startup the window becomes the saved
  // bandwidth `bw` (bytes per second) x min RTT, at least `min_window` and at most `max_window`
  // (when > 0), and the pacing rate at least that window per min RTT. Startup's pacing only ever
  // rises (bbr_set_pacing_rate()), so the connection paces at the saved rate until its own
  // estimate x 2/ln 2 exceeds it. The bandwidth filter is not seeded (quiche dropped that with
  // quic_bbr_donot_inject_bandwidth: a seeded filter would hold the saved rate for 10 rounds
  // whatever the path delivers). Returns whether the window grew; outside Startup nothing changes.
  bool ResumeFromCache(Tcb& tcb, double bw, SimTime rtt, Bytes min_window, Bytes max_window);

  // RFC 9959 Appendix C ("Implementation Notes for Using BBR"): Careful Resume over BBR. Sets the
  // "carefully-resuming" flag and starts a round (C.1: "the sender starts the Unvalidated Phase at
  // the beginning of a BBR round"); while it is set in Startup, the pacing rate is the larger of
  // BBR's own (bw x Startup gain) and `probing_bw` (bytes per second: half the saved bandwidth),
  // and cwnd is set from the larger of the two x min RTT x Startup's cwnd gain. Only in Startup,
  // and only when the probing rate exceeds the current pacing rate; returns whether it started.
  // `total_delivered`: everything delivered so far (the SentLog's C.delivered).
  bool StartCarefulResume(Tcb& tcb, double probing_bw, Bytes total_delivered);
  // C.3: Safe Retreat is Drain. While carefully resuming in Startup, leaves Startup for Drain as on
  // congestion; the flag stays set until Drain ends, and delivery-rate samples taken meanwhile
  // are discarded.
  void RetreatCarefulResume();
  bool carefully_resuming() const { return carefully_resuming_; }
  // round_count() when StartCarefulResume() started its round.
  uint64_t careful_resume_round() const { return cr_round_; }

 private:
  void UpdateModel(Tcb& tcb, const AckSample& sample);
  void UpdateBandwidth(const AckSample& sample);
  // Linux 6.x bbr_update_ack_aggregation().
  void UpdateAckAggregation(const Tcb& tcb, const AckSample& sample);
  // bbr_bdp(): gain x BDP in whole segments, rounded up; TCP_INIT_CWND before any RTT sample.
  int64_t BdpSegments(const Tcb& tcb, double bw, int gain) const;
  // bbr_quantization_budget() (6.x; 4.9's bbr_target_cwnd() without the ProbeBW 5/4 addition).
  int64_t QuantizationBudget(int64_t cwnd) const;
  // 6.x bbr_init_pacing_rate_from_rtt(): high_gain x cwnd / SRTT (1 ms without an RTT sample).
  void InitPacingRateFromRtt(const Tcb& tcb);
  // 6.x bbr_check_probe_rtt_done(): after 200 ms and a round at 4 segments, restore the window and
  // leave ProbeRTT.
  void CheckProbeRttDone(Tcb& tcb, SimTime now);
  bool Linux6() const { return rules_ == BbrRules::kLinux; }
  void UpdateCyclePhase(const Tcb& tcb, const AckSample& sample);
  bool IsNextCyclePhase(const Tcb& tcb, const AckSample& sample) const;
  void AdvanceCyclePhase();
  void CheckFullBandwidthReached(const AckSample& sample);
  void CheckDrain(Tcb& tcb, const AckSample& sample);
  void UpdateMinRtt(Tcb& tcb, const AckSample& sample);
  void ResetStartupMode();
  void ResetProbeBwMode();
  void ResetMode();
  void SetPacingRate(double bw, int gain);
  void SetTsoSegsGoal(const Tcb& tcb);
  void SetCwnd(Tcb& tcb, const AckSample& sample, double bw, int gain);
  // Packet conservation in recovery's first round and the window restored after it; returns
  // whether conservation sets the window (`cwnd`).
  bool SetCwndToRecoverOrRestore(const Tcb& tcb, const AckSample& sample, Bytes* cwnd);
  void SaveCwnd(const Tcb& tcb);

  Rng random_;
  BbrRules rules_;
  Jiffies jiffies_;
  Mode mode_ = Mode::kStartup;
  int pacing_gain_ = kHighGain;
  int cwnd_gain_ = kHighGain;
  double pacing_rate_bps_ = 0;  // Payload bits per second (Linux's sk_pacing_rate).
  int64_t tso_segs_goal_ = 0;

  // The model.
  WindowedMax bw_;  // Bytes of payload per second, over rounds.
  SimTime min_rtt_ = SimTime::Infinite();
  SimTime min_rtt_stamp_;
  uint64_t round_count_ = 0;          // rtt_cnt.
  Bytes next_round_delivered_ = 0;    // next_rtt_delivered.
  bool round_start_ = false;
  SimTime delivered_time_;            // tp->delivered_mstamp: the latest delivery.

  // Full pipe (Startup's exit).
  double full_bw_ = 0;
  int full_bw_count_ = 0;

  // ProbeBW's gain cycle.
  int cycle_index_ = 0;
  SimTime cycle_stamp_;

  // ProbeRTT.
  std::optional<SimTime> probe_rtt_done_stamp_;
  bool probe_rtt_round_done_ = false;
  bool idle_restart_ = false;

  // Loss recovery.
  CongestionState state_ = CongestionState::kOpen;       // icsk_ca_state.
  CongestionState prev_state_ = CongestionState::kOpen;  // prev_ca_state: as of the last ACK.
  bool packet_conservation_ = false;
  bool restore_cwnd_ = false;
  Bytes prior_cwnd_ = 0;
  // tp->app_limited as of the last ACK (see OnSendingResumed()).
  bool app_limited_ = false;
  // Linux 6.x: has_seen_rtt, and the ACK-aggregation state (segments; the epoch's start time).
  bool has_seen_rtt_ = false;
  SimTime ack_epoch_start_;
  int64_t ack_epoch_acked_ = 0;
  int64_t extra_acked_[2] = {0, 0};
  int extra_acked_win_rounds_ = 0;
  int extra_acked_win_idx_ = 0;

  // RFC 9959 Appendix C's "carefully-resuming" flag, the round it was set in, and the probing
  // rate (bytes per second).
  bool carefully_resuming_ = false;
  uint64_t cr_round_ = 0;
  double cr_probing_bw_ = 0;
  // Leaves Startup for Drain, as bbr_check_drain() does once the pipe is full.
  void EnterDrain();
};

}  // namespace tcb
