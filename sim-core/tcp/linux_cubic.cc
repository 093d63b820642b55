// CUBIC as Linux runs it.
#include "tcp/linux_cubic.h"

#include <algorithm>
#include <bit>

#include "tcp/pacer.h"

namespace tcb {

namespace {

// The window in whole segments, as Linux's tp->snd_cwnd (at least one). The Tcb keeps bytes; a
// window the owner left between two whole segments counts as the smaller.
uint32_t Segments(Bytes bytes, Bytes mss) { return static_cast<uint32_t>(std::max<Bytes>(1, bytes / mss)); }

// tcp_in_slow_start() (include/net/tcp.h): snd_cwnd < snd_ssthresh, both in segments.
bool InSlowStart(const Tcb& tcb) {
  return static_cast<Bytes>(Segments(tcb.cwnd, tcb.mss)) < tcb.ssthresh / tcb.mss;
}

// include/linux/jiffies.h after(a, b): `a` is later than `b`, modulo 2^32.
bool After(uint32_t a, uint32_t b) { return static_cast<int32_t>(b - a) < 0; }

}  // namespace

uint32_t LinuxCubicRoot(uint64_t a) {
  // tcp_cubic.c cubic_root(): "cbrt(x) MSB values for x MSB values in [0..63]. Precomputed then
  // refined by hand - Willy Tarreau. For x in [0..63], v = cbrt(x << 18) - 1, cbrt(x) = (v[x] +
  // 10) >> 6." The table is the kernel's, so that K is the kernel's to the last bit.
  static constexpr uint8_t v[] = {
      0,   54,  54,  54,  118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156,
      157, 161, 164, 168, 170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199,
      200, 202, 204, 206, 209, 211, 213, 215, 217, 219, 221, 222, 224, 225, 227, 229,
      231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250, 251, 252, 254,
  };
  uint32_t b = static_cast<uint32_t>(std::bit_width(a));  // fls64(a).
  if (b < 7) return (static_cast<uint32_t>(v[static_cast<uint32_t>(a)]) + 35) >> 6;  // a in [0..63].
  b = ((b * 84) >> 8) - 1;
  const auto shift = static_cast<uint32_t>(a >> (b * 3));
  uint32_t x = static_cast<uint32_t>((static_cast<uint32_t>(v[shift]) + 10) << b) >> 6;
  // One Newton-Raphson step, x' = (2x + a / x^2) / 3, with x (x - 1) for x^2 and * 341 / 1024 for / 3.
  x = 2 * x + static_cast<uint32_t>(a / (static_cast<uint64_t>(x) * static_cast<uint64_t>(x - 1)));
  return (x * 341) >> 10;
}

LinuxCubicParameters LinuxCubicParameters::From(const CubicOptions& options) {
  LinuxCubicParameters p;
  p.beta = static_cast<uint32_t>(options.beta * LinuxCubicOps::kBetaScale + 0.5);
  p.bic_scale = static_cast<uint32_t>(options.c * 1024 / 10 + 0.5);
  p.fast_convergence = options.fast_convergence;
  p.hystart = options.hystart;
  return p;
}

uint32_t LinuxCubicParameters::BetaScale() const {
  constexpr uint32_t s = LinuxCubicOps::kBetaScale;
  return 8 * (s + beta) / 3 / (s - beta);
}

uint64_t LinuxCubicParameters::CubeFactor() const {
  return (uint64_t{1} << (10 + 3 * LinuxCubicOps::kBictcpHz)) / (uint64_t{bic_scale} * 10);
}

LinuxCubicOps::LinuxCubicOps(const CubicOptions& options, bool paced, int linux_hz)
    : params_(LinuxCubicParameters::From(options)),
      paced_(paced),
      jiffies_(linux_hz),
      hz_(static_cast<uint32_t>(linux_hz)),
      app_limited_growth_(options.app_limited_growth) {}

void LinuxCubicOps::Reset() {
  // bictcp_reset(): every field of struct bictcp before `unused` is zeroed (W_max and the minimum
  // RTT too), and `found`.
  cnt_ = last_max_cwnd_ = last_cwnd_ = last_time_ = 0;
  bic_origin_point_ = bic_k_ = delay_min_us_ = 0;
  epoch_start_.reset();
  ack_cnt_ = tcp_cwnd_ = 0;
  found_ = false;
}

void LinuxCubicOps::HyStartReset(uint32_t now_us) {
  // bictcp_hystart_reset(): a new round from now; end_seq = snd_nxt is set by the caller.
  round_start_us_ = last_ack_us_ = now_us;
  curr_rtt_us_ = ~0U;
  sample_cnt_ = 0;
}

void LinuxCubicOps::Init(Tcb&, SimTime now) {
  // cubictcp_init(): bictcp_reset(), and bictcp_hystart_reset() with HyStart on. (With HyStart off
  // the kernel applies its initial_ssthresh module parameter, 0 by default: nothing.) end_seq is
  // the snd_nxt of a connection that has sent no data, which the first ACK of data passes.
  Reset();
  if (params_.hystart) {
    HyStartReset(ClockUs(now));
    end_seq_.reset();
    end_delivered_ = 0;
    end_seq_pending_ = false;
  }
  snd_cwnd_cnt_ = 0;
}

void LinuxCubicOps::IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked_bytes) {
  // net/ipv4/tcp_input.c tcp_cong_control(sk, ack, tp->delivered - prior_delivered, ...): the
  // segments this ACK delivered. After a recovery a cumulative ACK may cover hundreds of segments
  // SACKed before; tp->delivered counted each when it was SACKed, and so does the SentLog.
  Bytes delivered = acked_bytes;
  if (owner_keeps_log_) delivered = delivered_at_ == now ? delivered_bytes_ : 0;
  delivered_at_.reset();
  // A segment shorter than the MSS counts as one, as tcp_skb_pcount() counts it
  // (DIV_ROUND_UP(len, mss)).
  auto acked = static_cast<uint32_t>((delivered + tcb.mss - 1) / tcb.mss);
  uint32_t cwnd = Segments(tcb.cwnd, tcb.mss);
  const auto ssthresh = static_cast<uint64_t>(tcb.ssthresh / tcb.mss);
  // cubictcp_cong_avoid(): tcp_is_cwnd_limited() is the owner's (GrowsOnlyWhenCwndLimited()).
  if (cwnd < ssthresh) {
    // tcp_cong.c tcp_slow_start(): cwnd = min(cwnd + acked, ssthresh); what is left of `acked`
    // past ssthresh goes on to congestion avoidance.
    const auto next = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{cwnd} + acked, ssthresh));
    acked -= next - cwnd;
    cwnd = next;
    if (acked == 0) {
      tcb.cwnd = Bytes{cwnd} * tcb.mss;
      return;
    }
  }
  Update(cwnd, acked, JiffiesAt(now));
  // tcp_cong.c tcp_cong_avoid_ai(tp, ca->cnt, acked): one segment per `cnt` segments acknowledged,
  // "if credits accumulated at a higher w, apply them gently now" (one segment, and start again).
  const uint32_t w = cnt_;
  if (snd_cwnd_cnt_ >= w) {
    snd_cwnd_cnt_ = 0;
    ++cwnd;
  }
  snd_cwnd_cnt_ += acked;
  if (snd_cwnd_cnt_ >= w) {
    const uint32_t delta = snd_cwnd_cnt_ / w;
    snd_cwnd_cnt_ -= delta * w;
    cwnd += delta;
  }
  // snd_cwnd_clamp is the owner's: it caps cwnd by the receive window afterwards.
  tcb.cwnd = Bytes{cwnd} * tcb.mss;
}

void LinuxCubicOps::Update(uint32_t cwnd, uint32_t acked, uint32_t now) {
  // bictcp_update(). cnt_ is only ever 0 right after a reset, when last_cwnd_ is 0 too, so the
  // first return below never leaves tcp_cong_avoid_ai() a zero divisor.
  ack_cnt_ += acked;  // "count the number of ACKed packets"
  // At most every HZ / 32 jiffies while cwnd stands: 31 ms at HZ 1000, 28 ms at HZ 250.
  if (last_cwnd_ == cwnd && static_cast<int32_t>(now - last_time_) <= static_cast<int32_t>(hz_ / 32)) return;
  // "The CUBIC function can update ca->cnt at most once per jiffy. On all cwnd reduction events,
  // ca->epoch_start is set to 0, which will force a recalculation of ca->cnt."
  const bool curve_this_jiffy = !(epoch_start_ && now == last_time_);
  if (curve_this_jiffy) {
    last_cwnd_ = cwnd;
    last_time_ = now;
    if (!epoch_start_) {
      epoch_start_ = now;  // "record beginning"
      ack_cnt_ = acked;    // "start counting"
      tcp_cwnd_ = cwnd;    // "syn with cubic"
      if (last_max_cwnd_ <= cwnd) {
        bic_k_ = 0;
        bic_origin_point_ = cwnd;
      } else {
        // K = cubic_root((W_max - cwnd) * 2^40 / (bic_scale * 10)), in 1/1024 s.
        bic_k_ = LinuxCubicRoot(params_.CubeFactor() * (last_max_cwnd_ - cwnd));
        bic_origin_point_ = last_max_cwnd_;
      }
    }
    // t = now - epoch_start + delay_min, in 1/1024 s (the curve one minimum RTT ahead): jiffies,
    // delay_min rounded up to a whole jiffy (usecs_to_jiffies()), then << BICTCP_HZ and
    // do_div(t, HZ).
    auto t = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(now - *epoch_start_)));
    t += static_cast<uint64_t>(jiffies_.FromTime(SimTime::Microseconds(delay_min_us_)));
    t <<= kBictcpHz;
    t /= hz_;
    const uint64_t offs = t < bic_k_ ? bic_k_ - t : t - bic_k_;
    // "c/rtt * (t-K)^3": cube_rtt_scale = bic_scale * 10 = 1024 C, and (t - K)^3 carries 2^30.
    const auto delta =
        static_cast<uint32_t>((uint64_t{params_.CubeRttScale()} * offs * offs * offs) >> (10 + 3 * kBictcpHz));
    const uint32_t bic_target = t < bic_k_ ? bic_origin_point_ - delta : bic_origin_point_ + delta;
    // One segment per cnt acknowledged: the curve's target reached in one round trip.
    cnt_ = bic_target > cwnd ? cwnd / (bic_target - cwnd) : 100 * cwnd;  // "very small increment"
    // "The initial growth of cubic function may be too conservative when the available bandwidth
    // is still unknown": 5 % per RTT at least before the first loss.
    if (last_max_cwnd_ == 0 && cnt_ > 20) cnt_ = 20;
  }
  if (params_.tcp_friendliness) {
    // "TCP Friendly": Reno's window, one segment per cwnd * beta_scale / 8 segments acknowledged
    // (Reno's one per cwnd, times 3 (1 - beta) / (1 + beta) for the same average throughput); where
    // it is ahead, cnt closes the gap within one round trip. (A beta below about 0.5 makes
    // cwnd * beta_scale / 8 zero for small windows, where the kernel's loop would not end; one
    // segment then.)
    const uint32_t per_segment = std::max<uint32_t>((cwnd * params_.BetaScale()) >> 3, 1);
    while (ack_cnt_ > per_segment) {
      ack_cnt_ -= per_segment;
      ++tcp_cwnd_;
    }
    if (tcp_cwnd_ > cwnd) {
      const uint32_t max_cnt = cwnd / (tcp_cwnd_ - cwnd);
      if (cnt_ > max_cnt) cnt_ = max_cnt;
    }
  }
  // "The maximum rate of cwnd increase CUBIC allows is 1 packet per 2 packets ACKed, meaning cwnd
  // grows at 1.5x per RTT."
  cnt_ = std::max<uint32_t>(cnt_, 2);
}

Bytes LinuxCubicOps::SsThresh(Tcb& tcb, SimTime, Bytes) {
  // cubictcp_recalc_ssthresh(): from cwnd; the flight does not enter.
  const uint32_t cwnd = Segments(tcb.cwnd, tcb.mss);
  epoch_start_.reset();  // "end of epoch"
  // "Wmax and fast convergence": a window that shrank since the last loss remembers
  // cwnd * (1 + beta) / 2.
  if (cwnd < last_max_cwnd_ && params_.fast_convergence) {
    last_max_cwnd_ = (cwnd * (kBetaScale + params_.beta)) / (2 * kBetaScale);
  } else {
    last_max_cwnd_ = cwnd;
  }
  // net/ipv4/tcp_input.c tcp_init_cwnd_reduction() and tcp_enter_loss(), which ask for ssthresh,
  // clear snd_cwnd_cnt.
  snd_cwnd_cnt_ = 0;
  return Bytes{std::max<uint32_t>((cwnd * params_.beta) / kBetaScale, 2)} * tcb.mss;
}

void LinuxCubicOps::OnStateChange(Tcb&, SimTime now, CongestionState state) {
  if (state != CongestionState::kLoss) return;
  // cubictcp_state(TCP_CA_Loss): bictcp_reset() (W_max and delay_min forgotten, HyStart re-armed)
  // and bictcp_hystart_reset(), whose end_seq is snd_nxt now: the next ACK tells it (what the
  // SentLog holds then was sent before the timeout, the one retransmission aside).
  Reset();
  HyStartReset(ClockUs(now));
  end_seq_pending_ = true;
  // tcp_enter_loss() clears snd_cwnd_cnt.
  snd_cwnd_cnt_ = 0;
}

void LinuxCubicOps::OnSendingResumed(Tcb&, SimTime now, SimTime last_sent) {
  // cubictcp_cwnd_event(CA_EVENT_TX_START): "We were application limited (idle) for a while.
  // Shift epoch_start to keep cwnd growth to cubic curve." lsndtime is the last send, in jiffies.
  const uint32_t now_j = JiffiesAt(now);
  const auto delta = static_cast<int32_t>(now_j - JiffiesAt(last_sent));
  if (epoch_start_ && delta > 0) {
    *epoch_start_ += static_cast<uint32_t>(delta);
    if (After(*epoch_start_, now_j)) epoch_start_ = now_j;
  }
}

bool LinuxCubicOps::RoundEnded(const AckSample& sample) const {
  // after(tp->snd_una, ca->end_seq). The SentLog's oldest record starts at snd_una; with a known
  // end_seq the test is the kernel's. Without one (snd_nxt was snd_una at the reset), or with
  // nothing outstanding (snd_una is snd_nxt, past end_seq if anything was sent since), the ACK
  // passes end_seq when its newest delivered segment left after the reset: sent with at least
  // end_delivered_ bytes delivered.
  if (end_seq_ && sample.log != nullptr && !sample.log->empty()) {
    return sample.log->records().front().seq > *end_seq_;
  }
  return sample.rate != nullptr && sample.rate->prior_delivered >= end_delivered_;
}

void LinuxCubicOps::BeginRound(const AckSample& sample) {
  // end_seq = tp->snd_nxt: the end of the newest segment sent.
  if (sample.log != nullptr && !sample.log->empty()) {
    end_seq_ = sample.log->records().back().end;
  } else {
    end_seq_.reset();
  }
  end_delivered_ = sample.total_delivered;
}

uint32_t LinuxCubicOps::HyStartAckDelayUs(const Tcb& tcb, const AckSample& sample) const {
  // hystart_ack_delay(): min(1 ms, sk_gso_max_size * 4 / sk_pacing_rate) "to account for TSO/GRO
  // delays"; 0 before there is a pacing rate. sk_pacing_rate is tcp_update_pacing_rate()'s, kept
  // whether or not the connection paces.
  const SimTime srtt = tcb.rtt.has_sample() ? tcb.rtt.srtt() : SimTime::Zero();
  const double rate_bps = LinuxPacingRateBps(tcb.cwnd, tcb.ssthresh, sample.prior_in_flight, srtt);
  const auto rate = static_cast<uint64_t>(rate_bps / 8);  // Bytes per second.
  if (rate == 0) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(1000, kGsoMaxSize * 4 * 1'000'000 / rate));
}

void LinuxCubicOps::HyStartUpdate(Tcb& tcb, const AckSample& sample, uint32_t delay) {
  // hystart_update().
  const uint32_t now = ClockUs(sample.now);
  if (RoundEnded(sample)) {
    HyStartReset(now);
    BeginRound(sample);
  }
  // "hystart triggers when cwnd is larger than some threshold": tested after the round's reset since
  // commit "tcp_cubic: fix incorrect HyStart round start detection" (January 2025), so that rounds
  // begin where the ACK trains begin from the first window on, not wherever the window passed 16.
  const uint32_t cwnd = Segments(tcb.cwnd, tcb.mss);
  if (cwnd < kHyStartLowWindow) return;
  const Bytes exit_at = Bytes{cwnd} * tcb.mss;
  // "first detection parameter - ack-train detection": ACKs at most hystart_ack_delta_us apart
  // since the round began; once the train lasts longer than half the minimum RTT (the whole of it
  // when paced: "Pacing might have delayed packets up to RTT/2 during slow start"), slow start ends.
  if (static_cast<int32_t>(now - last_ack_us_) <= static_cast<int32_t>(kHyStartAckDeltaUs)) {
    last_ack_us_ = now;
    uint32_t threshold = delay_min_us_ + HyStartAckDelayUs(tcb, sample);
    if (!paced_) threshold >>= 1;
    if (static_cast<uint32_t>(static_cast<int32_t>(now - round_start_us_)) > threshold) {
      found_ = true;
      tcb.ssthresh = exit_at;
    }
  }
  // Delay increase: the minimum RTT of the round, once HYSTART_MIN_SAMPLES samples are in, above
  // delay_min + clamp(delay_min / 8, 4 ms, 16 ms).
  if (curr_rtt_us_ > delay) curr_rtt_us_ = delay;
  if (sample_cnt_ < kHyStartMinSamples) {
    ++sample_cnt_;
  } else if (curr_rtt_us_ > delay_min_us_ + std::clamp(delay_min_us_ >> 3, kHyStartDelayMinUs, kHyStartDelayMaxUs)) {
    found_ = true;
    tcb.ssthresh = exit_at;
  }
}

void LinuxCubicOps::OnAckSample(Tcb& tcb, const AckSample& sample) {
  // What IncreaseWindow() will count for this ACK (see there).
  owner_keeps_log_ = owner_keeps_log_ || sample.log != nullptr;
  delivered_at_ = sample.now;
  delivered_bytes_ = sample.delivered;
  if (end_seq_pending_) {
    // The timeout's bictcp_hystart_reset() learns snd_nxt, or, with nothing left outstanding, that
    // snd_nxt was what is acknowledged now.
    end_seq_pending_ = false;
    BeginRound(sample);
  }
  // cubictcp_acked(). "Some calls are for duplicates without timestamps": no RTT sample.
  if (!sample.has_rtt) return;
  // "Discard delay samples right after fast recovery": for a second (HZ jiffies) after the epoch
  // began.
  if (epoch_start_ && static_cast<int32_t>(JiffiesAt(sample.now) - *epoch_start_) < static_cast<int32_t>(hz_)) return;
  uint32_t delay = static_cast<uint32_t>(sample.rtt.ns() / 1000);
  if (delay == 0) delay = 1;
  // "first time call or link delay decreases"
  if (delay_min_us_ == 0 || delay_min_us_ > delay) delay_min_us_ = delay;
  // hystart_update() tests hystart_low_window itself (see there).
  if (!found_ && InSlowStart(tcb) && params_.hystart) HyStartUpdate(tcb, sample, delay);
}

void LinuxCubicOps::DescribeState(const Tcb& tcb, TcpSeriesRow& row) const {
  // The curve's W_max is bic_origin_point during an epoch (the last W_max, or cwnd when the epoch
  // began above it), last_max_cwnd between epochs.
  const uint32_t w_max = epoch_start_ ? bic_origin_point_ : last_max_cwnd_;
  row.w_max_bytes = static_cast<int64_t>(w_max) * tcb.mss;
  row.cubic_k_ns = static_cast<int64_t>(bic_k_) * 1'000'000'000 / 1024;
  row.cubic_epoch_ns = epoch_start_ ? jiffies_.Time(*epoch_start_).ns() : 0;
}

}  // namespace tcb
