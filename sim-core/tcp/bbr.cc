// BBR version 1, after Linux 4.9's net/ipv4/tcp_bbr.c ("tcp_bbr.c" below).
#include "tcp/bbr.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "net/packet.h"

namespace tcb {

namespace {
// tcp_tso_autosize()'s cap on one burst: sk_gso_max_size (GSO_MAX_SIZE, 64 KB) - 1 - MAX_TCP_HEADER
// (320 bytes in a usual x86-64 build).
constexpr int64_t kGsoMaxBytes = 65536 - 1 - 320;
}  // namespace

void BbrOps::IncreaseWindow(Tcb&, SimTime, Bytes) {
  throw std::logic_error("BBR sets its window in ControlWindow(); IncreaseWindow() must not be called");
}

Bytes BbrOps::SsThresh(Tcb& tcb, SimTime, Bytes) {
  // tcp_bbr.c bbr_ssthresh(): entering loss recovery (or a timeout) saves cwnd for when it ends;
  // BBR does not use ssthresh: 4.9 returns TCP_INFINITE_SSTHRESH, 6.x the ssthresh it set when
  // Startup ended (bbr_check_drain()). ns-3 3.44's GetSsThresh keeps ssthresh as it was, and sets it
  // to the BDP when Startup ends, as 6.x.
  SaveCwnd(tcb);
  return Linux6() ? tcb.ssthresh : TcpConfig::kInfiniteSsthresh;
}

void BbrOps::SaveCwnd(const Tcb& tcb) {
  // tcp_bbr.c bbr_save_cwnd(): remember the last window not cut by recovery or ProbeRTT.
  if (prev_state_ == CongestionState::kOpen && mode_ != Mode::kProbeRtt) {
    prior_cwnd_ = tcb.cwnd;
  } else {
    prior_cwnd_ = std::max(prior_cwnd_, tcb.cwnd);
  }
}

void BbrOps::Init(Tcb& tcb, SimTime now) {
  // tcp_bbr.c bbr_init(), when the connection is established. The min RTT starts from the
  // handshake's RTT (tcp_min_rtt()): here the RTT estimator's, which a coarse clock rounds up to
  // whole ticks, so that the first exact sample replaces it. ns-3 3.44 starts from the SRTT too.
  prior_cwnd_ = 0;
  tso_segs_goal_ = 0;
  round_count_ = 0;
  next_round_delivered_ = 0;
  prev_state_ = state_ = CongestionState::kOpen;
  packet_conservation_ = false;
  probe_rtt_done_stamp_.reset();
  probe_rtt_round_done_ = false;
  min_rtt_ = tcb.rtt.has_sample() ? tcb.rtt.srtt() : SimTime::Infinite();
  min_rtt_stamp_ = now;
  bw_.Reset(round_count_, 0);
  // The first pacing rate: high_gain x init_cwnd / SRTT, with a nominal 1 ms without an RTT
  // sample. ns-3 3.44 (InitPacingRate) uses whole milliseconds of its min RTT, recomputes the rate at
  // the first RTT sample (later Linux's bbr_init_pacing_rate_from_rtt()) and does not pace the
  // initial window (TcpSocketBase's PaceInitialWindow is off).
  const SimTime rtt = tcb.rtt.has_sample() && tcb.rtt.srtt() > SimTime::Zero() ? tcb.rtt.srtt() : SimTime::Milliseconds(1);
  pacing_rate_bps_ = 0;
  mode_ = Mode::kStartup;
  full_bw_ = 0;
  full_bw_count_ = 0;
  // 6.x bbr_init() sets has_seen_rtt when the handshake measured an RTT, and so does 4.9's rate.
  has_seen_rtt_ = tcb.rtt.has_sample();
  SetPacingRate(static_cast<double>(tcb.cwnd) / rtt.seconds(), kHighGain);
  // 6.x bbr_init(): the ACK-aggregation epoch starts now.
  ack_epoch_start_ = now;
  ack_epoch_acked_ = 0;
  extra_acked_[0] = extra_acked_[1] = 0;
  extra_acked_win_rounds_ = 0;
  extra_acked_win_idx_ = 0;
  restore_cwnd_ = false;
  round_start_ = false;
  idle_restart_ = false;
  cycle_stamp_ = SimTime::Zero();
  cycle_index_ = 0;
  delivered_time_ = now;
  app_limited_ = false;
  // RFC 9959 Appendix C: the flag "is initialised to False when a BBR flow starts".
  carefully_resuming_ = false;
  cr_round_ = 0;
  cr_probing_bw_ = 0;
  ResetStartupMode();
}

void BbrOps::OnStateChange(Tcb&, SimTime, CongestionState state) {
  state_ = state;
  if (state == CongestionState::kLoss) {
    // tcp_bbr.c bbr_set_state(TCP_CA_Loss): a timeout ends a round, and Startup's plateau
    // detection starts over (full_bw = 0; a pipe already found full stays full).
    prev_state_ = CongestionState::kLoss;
    full_bw_ = 0;
    round_start_ = true;
  }
  // RFC 9959 Appendix C.1: "If congestion is detected while the 'carefully-resuming' flag is True,
  // BBR exits the Startup state and enters the Drain state (implementing the Safe Retreat Phase)";
  // §4.6 (persistent congestion): a timeout does the same.
  if (carefully_resuming_ && state != CongestionState::kOpen) RetreatCarefulResume();
}

void BbrOps::OnSendingResumed(Tcb& tcb, SimTime now, SimTime) {
  // tcp_bbr.c bbr_cwnd_event(CA_EVENT_TX_START) with tp->app_limited: restarting from idle, pace at
  // the estimated bandwidth rather than above it, and skip ProbeRTT on this ACK. tp->app_limited
  // here is what the last ACK left it: nothing was sent since (nothing is in flight), and only a
  // send can set it. (ns-3 3.44 tests its own m_appLimited, which only ProbeRTT sets.) 6.x also
  // starts a new ACK-aggregation epoch and, in ProbeRTT, ends it if it is due (Linux 4.17).
  if (!app_limited_) return;
  idle_restart_ = true;
  if (Linux6()) {
    ack_epoch_start_ = now;
    ack_epoch_acked_ = 0;
  }
  if (mode_ == Mode::kProbeBw) {
    SetPacingRate(bandwidth(), kUnit);
  } else if (mode_ == Mode::kProbeRtt && Linux6()) {
    CheckProbeRttDone(tcb, now);
  }
}

void BbrOps::ControlWindow(Tcb& tcb, const AckSample& sample) {
  // tcp_bbr.c bbr_main(), on every ACK: update the model, then pace and set the window from it.
  if (sample.delivered > 0) delivered_time_ = sample.now;  // tcp_rate_gen(): tp->delivered_mstamp.
  UpdateModel(tcb, sample);
  const double bw = bandwidth();
  if (Linux6() && !has_seen_rtt_ && tcb.rtt.has_sample()) InitPacingRateFromRtt(tcb);
  SetPacingRate(bw, pacing_gain_);
  // RFC 9959 Appendix C.1: while carefully resuming in Startup, pace at the larger of BBR's rate
  // and the probing rate, and aim the window at the larger of the two bandwidths.
  const bool resuming = carefully_resuming_ && mode_ == Mode::kStartup;
  if (resuming) pacing_rate_bps_ = std::max(pacing_rate_bps_, cr_probing_bw_ * 8);
  SetTsoSegsGoal(tcb);
  SetCwnd(tcb, sample, resuming ? std::max(bw, cr_probing_bw_) : bw, cwnd_gain_);
  app_limited_ = sample.log != nullptr ? sample.log->app_limited() : sample.app_limited;
}

void BbrOps::UpdateModel(Tcb& tcb, const AckSample& sample) {
  // tcp_bbr.c bbr_update_model().
  UpdateBandwidth(sample);
  if (Linux6()) UpdateAckAggregation(tcb, sample);
  UpdateCyclePhase(tcb, sample);
  CheckFullBandwidthReached(sample);
  CheckDrain(tcb, sample);
  UpdateMinRtt(tcb, sample);
}

void BbrOps::UpdateBandwidth(const AckSample& sample) {
  // tcp_bbr.c bbr_update_bw().
  round_start_ = false;
  const RateSample* rs = sample.rate;
  if (rs == nullptr || !rs->valid) return;  // Not a valid observation.
  // A round ends when a segment sent after the previous round ended is delivered.
  if (rs->prior_delivered >= next_round_delivered_) {
    next_round_delivered_ = sample.total_delivered;
    ++round_count_;
    round_start_ = true;
    packet_conservation_ = false;
    // RFC 9959 Appendix C.1: the flag "is reset to False two rounds after it is set, i.e., after
    // all the packets sent in the first round of 'carefully resuming' have been ... acknowledged"
    // (unless Safe Retreat's Drain holds it until Drain ends).
    if (carefully_resuming_ && mode_ == Mode::kStartup && round_count_ >= cr_round_ + 2) carefully_resuming_ = false;
  }
  // RFC 9959 Appendix C.3: "any delivery rates measured in the Drain state MUST be discarded if
  // the 'carefully-resuming' flag is set": the jump's packets still queued taint them.
  if (carefully_resuming_ && mode_ == Mode::kDrain) return;
  const double bw = static_cast<double>(rs->delivered) / rs->interval.seconds();
  // An application-limited sample only counts when it shows at least the bandwidth already
  // estimated: it measures the application, not the path.
  if (!rs->is_app_limited || bw >= bandwidth()) bw_.Update(kBwRounds, round_count_, bw);
}

int64_t BbrOps::BdpSegments(const Tcb& tcb, double bw, int gain) const {
  // tcp_bbr.c bbr_bdp() (inside 4.9's bbr_target_cwnd()): rounded up "to avoid a negative feedback
  // loop"; before any RTT sample, the default initial window.
  if (min_rtt_.IsInfinite()) return kInitCwnd;
  const double bdp_segments = bw * min_rtt_.seconds() / static_cast<double>(tcb.mss);
  return static_cast<int64_t>(std::ceil(bdp_segments * gain / kUnit));
}

int64_t BbrOps::QuantizationBudget(int64_t cwnd) const {
  // bbr_quantization_budget(): three TSO bursts for the end hosts' queues, rounded up to an even
  // count against delayed ACKs; 6.x (Linux 4.19) adds two segments in ProbeBW's 5/4 phase "to
  // ensure gain cycling gets inflight above BDP even for small BDPs".
  cwnd += 3 * tso_segs_goal_;
  cwnd = (cwnd + 1) & ~int64_t{1};
  if (Linux6() && mode_ == Mode::kProbeBw && cycle_index_ == 0) cwnd += 2;
  return cwnd;
}

Bytes BbrOps::TargetCwnd(const Tcb& tcb, double bw, int gain) const {
  // 4.9 bbr_target_cwnd(): the BDP's quantization budget, but the initial window as it is before
  // any RTT sample; 6.x bbr_inflight(): the budget in either case. (ns-3 3.44 adds 3 segments, its
  // send quantum being one, 2 more in the 5/4 phase and an ACK-aggregation allowance, the last two
  // from later Linux.)
  if (!Linux6() && min_rtt_.IsInfinite()) return kInitCwnd * tcb.mss;
  return QuantizationBudget(BdpSegments(tcb, bw, gain)) * tcb.mss;
}

void BbrOps::UpdateAckAggregation(const Tcb& tcb, const AckSample& sample) {
  // Linux 6.x bbr_update_ack_aggregation(): "Degree of ack aggregation is estimated as extra data
  // acked beyond expected", the data (S)ACKed since an epoch began less the bandwidth estimate times
  // the epoch; the epoch restarts whenever ACKs come no faster than the estimate. The estimate is a
  // max filter over two windows of five rounds ("an approximate sliding window of 5-10 (packet
  // timed) round trips"), each value at most cwnd.
  const RateSample* rs = sample.rate;
  if (sample.delivered <= 0 || rs == nullptr || !rs->valid) return;
  if (round_start_) {
    extra_acked_win_rounds_ = std::min(0x1F, extra_acked_win_rounds_ + 1);
    if (extra_acked_win_rounds_ >= kExtraAckedWinRounds) {
      extra_acked_win_rounds_ = 0;
      extra_acked_win_idx_ = extra_acked_win_idx_ != 0 ? 0 : 1;
      extra_acked_[extra_acked_win_idx_] = 0;
    }
  }
  const auto acked = static_cast<int64_t>((sample.delivered + tcb.mss - 1) / tcb.mss);  // rs->acked_sacked
  // epoch_us from tp->delivered_mstamp, this ACK's time; expected_acked = bw x epoch, in segments.
  const SimTime epoch = delivered_time_ - ack_epoch_start_;
  auto expected = static_cast<int64_t>(bandwidth() * epoch.seconds() / static_cast<double>(tcb.mss));
  if (ack_epoch_acked_ <= expected || ack_epoch_acked_ + acked >= kAckEpochAckedResetThresh) {
    ack_epoch_acked_ = 0;
    ack_epoch_start_ = delivered_time_;
    expected = 0;
  }
  ack_epoch_acked_ = std::min<int64_t>(0xFFFFF, ack_epoch_acked_ + acked);
  const int64_t extra = std::min(ack_epoch_acked_ - expected, tcb.cwnd / tcb.mss);
  if (extra > extra_acked_[extra_acked_win_idx_]) extra_acked_[extra_acked_win_idx_] = extra;
}

int64_t BbrOps::AckAggregationCwnd(const Tcb& tcb) const {
  // Linux 6.x bbr_ack_aggregation_cwnd(): once the pipe is full, extra_acked x bbr_extra_acked_gain
  // (1), at most what the bandwidth estimate delivers in 100 ms.
  if (!Linux6() || !full_bw_reached()) return 0;
  const auto max_aggr = static_cast<int64_t>(bandwidth() * kExtraAckedMax.seconds() / static_cast<double>(tcb.mss));
  return std::min(extra_acked(), max_aggr);
}

void BbrOps::UpdateCyclePhase(const Tcb& tcb, const AckSample& sample) {
  // tcp_bbr.c bbr_update_cycle_phase(): gain cycling, to converge to a fair share of the bandwidth.
  if (mode_ == Mode::kProbeBw && IsNextCyclePhase(tcb, sample)) AdvanceCyclePhase();
}

bool BbrOps::IsNextCyclePhase(const Tcb& tcb, const AckSample& sample) const {
  // tcp_bbr.c bbr_is_next_cycle_phase(): a phase lasts at least the min RTT.
  const bool is_full_length = delivered_time_ - cycle_stamp_ > min_rtt_;
  // At gain 1 the estimated bandwidth is used without adding to the queue: time alone decides.
  if (pacing_gain_ == kUnit) return is_full_length;
  const Bytes inflight = sample.prior_in_flight;
  const double bw = bandwidth();
  // Gain 5/4 probes for more bandwidth until in flight reaches 5/4 BDP, or a loss says it will not
  // fit.
  if (pacing_gain_ > kUnit) {
    return is_full_length && (sample.lost > 0 || inflight >= TargetCwnd(tcb, bw, pacing_gain_));
  }
  // Gain 3/4 drains what probing queued; once in flight is down to the BDP, going on would leave
  // the pipe underused.
  return is_full_length || inflight <= TargetCwnd(tcb, bw, kUnit);
}

void BbrOps::AdvanceCyclePhase() {
  // tcp_bbr.c bbr_advance_cycle_phase().
  cycle_index_ = (cycle_index_ + 1) & (kCycleLength - 1);
  cycle_stamp_ = delivered_time_;
  pacing_gain_ = kPacingGain[cycle_index_];
}

void BbrOps::CheckFullBandwidthReached(const AckSample& sample) {
  // tcp_bbr.c bbr_check_full_bw_reached(): the pipe is full when three rounds in a row (not
  // application-limited) failed to raise the bandwidth estimate by 25 %.
  if (full_bw_reached() || !round_start_ || sample.rate->is_app_limited) return;
  if (bandwidth() >= full_bw_ * kFullBwThresh / kUnit) {
    full_bw_ = bandwidth();
    full_bw_count_ = 0;
    return;
  }
  ++full_bw_count_;
}

void BbrOps::CheckDrain(Tcb& tcb, const AckSample& sample) {
  // tcp_bbr.c bbr_check_drain(): once the pipe is full, drain the queue Startup built, then probe
  // the bandwidth once in flight is down to the BDP. (6.x, and ns-3 3.44, also set ssthresh to the
  // BDP's budget here.)
  if (mode_ == Mode::kStartup && full_bw_reached()) {
    EnterDrain();
    if (Linux6()) tcb.ssthresh = TargetCwnd(tcb, bandwidth(), kUnit);
  }
  if (mode_ == Mode::kDrain && sample.in_flight <= TargetCwnd(tcb, bandwidth(), kUnit)) {
    // RFC 9959 Appendix C.3: the "carefully-resuming" flag "is cleared upon exiting the Drain
    // state".
    carefully_resuming_ = false;
    ResetProbeBwMode();
  }
}

void BbrOps::EnterDrain() {
  mode_ = Mode::kDrain;
  pacing_gain_ = kDrainGain;
  cwnd_gain_ = kHighGain;
}

void BbrOps::UpdateMinRtt(Tcb& tcb, const AckSample& sample) {
  // tcp_bbr.c bbr_update_min_rtt(): the min RTT of the last 10 s; when it expires without a lower
  // sample, ProbeRTT drains the queue to 4 segments for max(200 ms, one round) to measure it again.
  const SimTime now = sample.now;
  // 6.x counts the window and ProbeRTT's 200 ms in jiffies: after(tcp_jiffies32, min_rtt_stamp +
  // bbr_min_rtt_win_sec * HZ).
  const bool filter_expired = Linux6() ? jiffies_.At(now) > jiffies_.At(min_rtt_stamp_) + jiffies_.FromTime(kMinRttWindow)
                                       : now > min_rtt_stamp_ + kMinRttWindow;
  if (sample.has_rtt && (sample.rtt <= min_rtt_ || filter_expired)) {
    min_rtt_ = sample.rtt;
    min_rtt_stamp_ = now;
  }
  if (filter_expired && !idle_restart_ && mode_ != Mode::kProbeRtt) {
    mode_ = Mode::kProbeRtt;
    pacing_gain_ = kUnit;
    cwnd_gain_ = kUnit;
    SaveCwnd(tcb);
    probe_rtt_done_stamp_.reset();
  }
  if (mode_ == Mode::kProbeRtt) {
    // Samples taken while in flight is held down measure ProbeRTT, not the path: mark them
    // application-limited (tp->app_limited = delivered + in flight).
    if (sample.log != nullptr) sample.log->MarkAppLimited(sample.log->in_flight());
    if (!probe_rtt_done_stamp_ && sample.in_flight <= kCwndMinTarget * tcb.mss) {
      probe_rtt_done_stamp_ = Linux6() ? jiffies_.Time(jiffies_.At(now) + jiffies_.FromTime(kProbeRttDuration))
                                       : now + kProbeRttDuration;
      probe_rtt_round_done_ = false;
      next_round_delivered_ = sample.total_delivered;
    } else if (probe_rtt_done_stamp_) {
      if (round_start_) probe_rtt_round_done_ = true;
      if (Linux6()) {
        if (probe_rtt_round_done_) CheckProbeRttDone(tcb, now);
      } else if (probe_rtt_round_done_ && now > *probe_rtt_done_stamp_) {
        min_rtt_stamp_ = now;
        restore_cwnd_ = true;  // Snap back to the window before ProbeRTT.
        ResetMode();
      }
    }
  }
  // Linux 4.9 clears idle_restart on every ACK; 6.x ("Restart after idle ends only once we process a
  // new S/ACK for data") and ns-3 3.44 only on one that delivered data.
  if (!Linux6() || (sample.rate != nullptr && sample.rate->delivered > 0)) idle_restart_ = false;
}

void BbrOps::CheckProbeRttDone(Tcb& tcb, SimTime now) {
  // 6.x bbr_check_probe_rtt_done(): after(tcp_jiffies32, probe_rtt_done_stamp).
  if (!probe_rtt_done_stamp_ || jiffies_.At(now) <= jiffies_.At(*probe_rtt_done_stamp_)) return;
  min_rtt_stamp_ = now;  // "wait a while until PROBE_RTT"
  tcb.cwnd = std::max(tcb.cwnd, prior_cwnd_);
  ResetMode();
}

void BbrOps::ResetStartupMode() {
  // tcp_bbr.c bbr_reset_startup_mode().
  mode_ = Mode::kStartup;
  pacing_gain_ = kHighGain;
  cwnd_gain_ = kHighGain;
}

void BbrOps::ResetProbeBwMode() {
  // tcp_bbr.c bbr_reset_probe_bw_mode(): start the gain cycle in a random phase other than 3/4
  // (index 7 - U{0..6}, then advanced: 0 or 2..7), so that flows do not probe in step. ns-3 3.44
  // draws 8 - U{0..5}: never phase 2 either, and every TcpBbr draws from the same stream (4).
  mode_ = Mode::kProbeBw;
  pacing_gain_ = kUnit;
  cwnd_gain_ = kCwndGain;
  cycle_index_ = kCycleLength - 1 - static_cast<int>(random_.UniformInt(kCycleRand));
  AdvanceCyclePhase();
}

void BbrOps::ResetMode() {
  // tcp_bbr.c bbr_reset_mode(): after ProbeRTT, back to Startup unless the pipe was found full.
  if (full_bw_reached()) {
    ResetProbeBwMode();
  } else {
    ResetStartupMode();
  }
}

void BbrOps::SetPacingRate(double bw, int gain) {
  // tcp_bbr.c bbr_set_pacing_rate(): pace at gain x bw; in Startup only ever faster. Linux counts
  // bytes of whole packets (tcp_mss_to_mtu()) and paces packets of that size; pacing the payload
  // at the payload rate spaces the same packets per second. The ~1 % below the bandwidth that Linux
  // gets from leaving out link-layer headers comes here from leaving out the 40 bytes of IP and TCP
  // headers; ns-3 3.44 takes 1 % off explicitly (m_pacingMargin, as later Linux), and raises the
  // rate only until the pipe is full (as later Linux) where 4.9 tests the mode.
  // 6.x (Linux 4.20) counts payload bytes (mss_cache) and takes bbr_pacing_margin_percent off, "to
  // reduce queue at bottleneck", and lowers the rate once the pipe is full, whatever the mode.
  if (Linux6()) {
    const double rate = bw * 8 * gain / kUnit * (100 - kPacingMarginPercent) / 100;
    if (full_bw_reached() || rate > pacing_rate_bps_) pacing_rate_bps_ = rate;
    return;
  }
  const double rate = bw * 8 * gain / kUnit;
  if (mode_ != Mode::kStartup || rate > pacing_rate_bps_) pacing_rate_bps_ = rate;
}

void BbrOps::InitPacingRateFromRtt(const Tcb& tcb) {
  // 6.x bbr_init_pacing_rate_from_rtt(), from bbr_set_pacing_rate() on the first RTT sample.
  has_seen_rtt_ = true;
  const SimTime rtt = Max(tcb.rtt.srtt(), SimTime::Microseconds(1));
  pacing_rate_bps_ = static_cast<double>(tcb.cwnd) / rtt.seconds() * 8 * kHighGain / kUnit * (100 - kPacingMarginPercent) / 100;
}

void BbrOps::SetTsoSegsGoal(const Tcb& tcb) {
  // tcp_bbr.c bbr_set_tso_segs_goal() with tcp_tso_autosize(): the segments of one TSO burst, about
  // a millisecond of sending at the pacing rate (sk_pacing_rate >> 10 bytes), at least 2 (1 below
  // bbr_min_tso_rate), at most 127. sk_pacing_rate counts whole packets.
  // 6.x's bbr_tso_segs_goal() reads the same from a pacing rate in payload bytes.
  const double mss = static_cast<double>(tcb.mss);
  const double rate_bytes =
      Linux6() ? pacing_rate_bps_ / 8 : pacing_rate_bps_ / 8 * (mss + kIpHeaderBytes + kTcpHeaderBytes) / mss;
  const int64_t min_segs = rate_bytes < static_cast<double>(kMinTsoRateBps >> 3) ? 1 : 2;
  const int64_t bytes = std::min(static_cast<int64_t>(rate_bytes) >> 10, kGsoMaxBytes);
  tso_segs_goal_ = std::min<int64_t>(std::max(bytes / tcb.mss, min_segs), 0x7F);
}

bool BbrOps::SetCwndToRecoverOrRestore(const Tcb& tcb, const AckSample& sample, Bytes* new_cwnd) {
  // tcp_bbr.c bbr_set_cwnd_to_recover_or_restore(): an ACK for P segments releases at most 2P:
  // lost segments come off the window here, and bbr_set_cwnd() slow-starts it back. The first round
  // of recovery follows packet conservation (send what was delivered); leaving recovery restores
  // the window saved when it began.
  const CongestionState prev = prev_state_;
  const CongestionState state = state_;
  const Bytes acked = sample.delivered;
  Bytes cwnd = tcb.cwnd;
  if (sample.lost > 0) cwnd = std::max(cwnd - sample.lost, tcb.mss);
  if (state == CongestionState::kRecovery && prev != CongestionState::kRecovery) {
    packet_conservation_ = true;
    next_round_delivered_ = sample.total_delivered;  // The round starts now.
    cwnd = sample.in_flight + acked;  // Cut what the application or pacing left unused.
  } else if (prev != CongestionState::kOpen && state == CongestionState::kOpen) {
    restore_cwnd_ = true;
    packet_conservation_ = false;
  }
  prev_state_ = state;
  if (restore_cwnd_) {
    // After recovery or ProbeRTT.
    cwnd = std::max(cwnd, prior_cwnd_);
    restore_cwnd_ = false;
  }
  if (packet_conservation_) {
    *new_cwnd = std::max(cwnd, sample.in_flight + acked);
    return true;
  }
  *new_cwnd = cwnd;
  return false;
}

void BbrOps::SetCwnd(Tcb& tcb, const AckSample& sample, double bw, int gain) {
  // tcp_bbr.c bbr_set_cwnd(): slow-start towards the target (while the bandwidth estimate grows, or
  // after losses drew the window down), or snap down to it once the pipe has been found full.
  // Linux 4.9 leaves the window alone on an ACK that delivered nothing; ns-3 3.44 still applies
  // ProbeRTT's cap then, as later Linux does.
  const Bytes acked = sample.delivered;
  if (acked <= 0) {
    // 6.x: "no packet fully ACKed; just apply caps".
    if (Linux6() && mode_ == Mode::kProbeRtt) tcb.cwnd = std::min(tcb.cwnd, kCwndMinTarget * tcb.mss);
    return;
  }
  Bytes cwnd = 0;
  if (!SetCwndToRecoverOrRestore(tcb, sample, &cwnd)) {
    // 6.x: "Increment the cwnd to account for excess ACKed data that seems due to aggregation (of
    // data and/or ACKs) visible in the ACK stream", inside the quantization budget.
    const Bytes target = Linux6() ? QuantizationBudget(BdpSegments(tcb, bw, gain) + AckAggregationCwnd(tcb)) * tcb.mss
                                  : TargetCwnd(tcb, bw, gain);
    if (full_bw_reached()) {
      cwnd = std::min(cwnd + acked, target);
    } else if (cwnd < target || sample.total_delivered < kInitCwnd * tcb.mss) {
      cwnd += acked;
    }
    cwnd = std::max(cwnd, kCwndMinTarget * tcb.mss);
  }
  tcb.cwnd = cwnd;
  // ProbeRTT: 4 segments at most, to drain the queue and measure the min RTT.
  if (mode_ == Mode::kProbeRtt) tcb.cwnd = std::min(tcb.cwnd, kCwndMinTarget * tcb.mss);
}

Resumption BbrOps::AdjustNetworkParameters(Tcb& tcb, const NetworkParams& params) {
  const bool resumed = params.careful ? StartCarefulResume(tcb, params.bandwidth, params.total_delivered)
                                      : ResumeFromCache(tcb, params.bandwidth, params.rtt, tcb.cwnd, params.max_window);
  return resumed ? Resumption::kRate : Resumption::kNone;
}

RateResumption BbrOps::rate_resumption() const {
  if (!carefully_resuming_) return RateResumption::kOff;
  if (mode_ == Mode::kDrain) return RateResumption::kDraining;
  return round_count_ <= cr_round_ ? RateResumption::kFirstRound : RateResumption::kLaterRounds;
}

void BbrOps::EndRateResumption(bool retreat) {
  if (retreat) {
    RetreatCarefulResume();
  } else {
    carefully_resuming_ = false;
  }
}

bool BbrOps::ResumeFromCache(Tcb& tcb, double bw, SimTime rtt, Bytes min_window, Bytes max_window) {
  // quiche BbrSender::AdjustNetworkParameters() (see the header).
  if (rtt > SimTime::Zero() && rtt < min_rtt_) min_rtt_ = rtt;
  if (mode_ != Mode::kStartup || bw <= 0 || min_rtt_.IsInfinite()) return false;
  Bytes window = static_cast<Bytes>(bw * min_rtt_.seconds());
  if (max_window > 0) window = std::min(window, max_window);
  window = std::max(window, min_window);
  // params.allow_cwnd_to_decrease is false for a resumed connection.
  if (window <= tcb.cwnd) return false;
  tcb.cwnd = window;
  pacing_rate_bps_ = std::max(pacing_rate_bps_, static_cast<double>(window) * 8 / min_rtt_.seconds());
  return true;
}

bool BbrOps::StartCarefulResume(Tcb& tcb, double probing_bw, Bytes total_delivered) {
  // RFC 9959 Appendix C.1: "Careful Resume is allowed to transmit unvalidated packets only when
  // the BBR flow is in the Startup state."
  if (mode_ != Mode::kStartup || min_rtt_.IsInfinite() || probing_bw * 8 <= pacing_rate_bps_) return false;
  carefully_resuming_ = true;
  cr_probing_bw_ = probing_bw;
  // The Unvalidated Phase starts a round: the first packet sent from now on ends it when
  // delivered (as recovery starts one in bbr_set_cwnd_to_recover_or_restore()).
  next_round_delivered_ = total_delivered;
  cr_round_ = round_count_;
  pacing_rate_bps_ = std::max(pacing_rate_bps_, probing_bw * 8);
  SetTsoSegsGoal(tcb);
  // "CWND is set to the larger of BBR.bw and the probing rate, multiplied by BBR.rtt_min times
  // BBRStartupCwndGain": here Linux 4.9's Startup cwnd gain (2/ln 2; the IETF draft's is 2), in
  // bbr_target_cwnd()'s terms.
  tcb.cwnd = std::max(tcb.cwnd, TargetCwnd(tcb, std::max(bandwidth(), probing_bw), cwnd_gain_));
  return true;
}

void BbrOps::RetreatCarefulResume() {
  // RFC 9959 Appendix C.3 (Safe Retreat for BBR): Startup ends as if the pipe were full, so that
  // Drain leads to ProbeBW and a later ProbeRTT does not return to Startup.
  if (!carefully_resuming_ || mode_ != Mode::kStartup) return;
  full_bw_ = bandwidth();
  full_bw_count_ = kFullBwCount;
  EnterDrain();
}

void BbrOps::DescribeState(const Tcb&, TcpSeriesRow& row) const {
  row.btl_bw_bps = static_cast<int64_t>(bandwidth() * 8 + 0.5);
  row.bbr_min_rtt_ns = min_rtt_.IsInfinite() ? 0 : min_rtt_.ns();
  row.bbr_state = static_cast<uint8_t>(static_cast<int>(mode_) + 1);
  row.bbr_pacing_gain_milli = (pacing_gain_ * 1000 + kUnit / 2) / kUnit;
}

}  // namespace tcb
