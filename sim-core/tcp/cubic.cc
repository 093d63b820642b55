// CUBIC.
#include "tcp/cubic.h"

#include <algorithm>

#include "core/det_math.h"

namespace tcb {

namespace {
// The real cube root, from IEEE operations only (core/det_math.h), so that native and WASM agree.
double CubeRoot(double x) { return x < 0 ? -DetPow(-x, 1.0 / 3.0) : DetPow(x, 1.0 / 3.0); }

// RFC 9406 §4.2 (and RFC 5681 §3.1 with RFC 3465's limit L): slow start adds min(N, L * SMSS) per
// ACK, L = 8 segments unless the sender paces.
Bytes SlowStartIncrease(const Tcb& tcb, Bytes acked, bool paced) {
  return paced ? acked : std::min(acked, 8 * tcb.mss);
}
}  // namespace

CubicOps::CubicOps(const CubicOptions& options, bool paced)
    : options_(options), alpha_reno_(3 * (1 - options.beta) / (1 + options.beta)), paced_(paced), alpha_(alpha_reno_) {
  if (options_.hystart) hystart_.emplace(paced);
}

double CubicOps::WCubic(SimTime t) const {
  // RFC 9438 §4.2 Figure 1: W_cubic(t) = C * (t - K)^3 + W_max.
  const double d = t.seconds() - k_;
  return options_.c * d * d * d + w_max_;
}

void CubicOps::StartEpoch(const Tcb& tcb, SimTime now) {
  epoch_start_ = now;
  cwnd_epoch_ = static_cast<double>(tcb.cwnd) / static_cast<double>(tcb.mss);
  // RFC 9438 §4.3: W_est starts at cwnd_epoch.
  w_est_ = cwnd_epoch_;
  if (after_timeout_ || w_max_ < cwnd_epoch_) {
    // §4.8: the first stage after a timeout has K = 0 and W_max = cwnd_epoch; so does a stage that
    // starts above the last W_max (no congestion event yet, or slow start overshot it), as Linux's
    // bictcp_update() sets bic_K = 0 and the origin at cwnd.
    w_max_ = cwnd_epoch_;
    after_timeout_ = false;
  }
  // §4.2 Figure 2: K = cubic_root((W_max - cwnd_epoch) / C).
  k_ = CubeRoot((w_max_ - cwnd_epoch_) / options_.c);
}

void CubicOps::IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) {
  if (tcb.cwnd < tcb.ssthresh) {
    // §4.10: slow start, with HyStart++ in the initial one (RFC 9406).
    tcb.cwnd += hystart_ ? hystart_->Increase(tcb, acked) : SlowStartIncrease(tcb, acked, paced_);
    return;
  }
  if (hystart_) hystart_->Finish();
  if (!epoch_start_) StartEpoch(tcb, now);
  const double mss = static_cast<double>(tcb.mss);
  const double cwnd = static_cast<double>(tcb.cwnd) / mss;
  const double segments_acked = static_cast<double>(acked) / mss;
  const SimTime t = now - *epoch_start_;
  // §4.2: target = W_cubic(t + RTT), bounded to [cwnd, 1.5 cwnd]; RTT is the smoothed RTT.
  const SimTime rtt = tcb.rtt.has_sample() ? tcb.rtt.srtt() : SimTime::Zero();
  const double target = std::clamp(WCubic(t + rtt), cwnd, 1.5 * cwnd);
  // §4.3: the Reno-friendly estimate grows by alpha_cubic per window of ACKs, and alpha_cubic
  // becomes 1 once W_est reaches cwnd_prior.
  w_est_ += alpha_ * segments_acked / cwnd;
  if (w_est_ >= cwnd_prior_) alpha_ = 1;
  double next;
  if (WCubic(t) < w_est_) {
    // §4.3 Reno-friendly region: cwnd = W_est.
    next = std::max(cwnd, w_est_);
  } else {
    // §4.4 (concave) and §4.5 (convex): cwnd += (target - cwnd) / cwnd per segment acknowledged.
    next = cwnd + (target - cwnd) / cwnd * segments_acked;
  }
  const double grow = (next - cwnd) * mss + fraction_;
  const Bytes whole = static_cast<Bytes>(grow);
  fraction_ = grow - static_cast<double>(whole);
  tcb.cwnd += whole;
}

Bytes CubicOps::SsThresh(Tcb& tcb, SimTime, Bytes flight) {
  const double cwnd = static_cast<double>(tcb.cwnd) / static_cast<double>(tcb.mss);
  // §4.7 fast convergence: a window that shrank since the last event releases bandwidth by
  // remembering W_max = cwnd * (1 + beta_cubic) / 2.
  w_max_ = options_.fast_convergence && cwnd < w_max_ ? cwnd * (1 + options_.beta) / 2 : cwnd;
  // §4.6: cwnd_prior for the Reno-friendly region; the next stage starts afresh.
  cwnd_prior_ = cwnd;
  alpha_ = alpha_reno_;
  epoch_start_.reset();
  fraction_ = 0;
  // RFC 9406 §4.2: a loss in slow start or CSS ends HyStart++.
  if (hystart_) hystart_->Finish();
  // §4.6: ssthresh = flight_size * beta_cubic, at least two segments.
  return std::max(static_cast<Bytes>(static_cast<double>(flight) * options_.beta), 2 * tcb.mss);
}

void CubicOps::OnAckSample(Tcb& tcb, const AckSample& sample) {
  if (hystart_ && tcb.cwnd < tcb.ssthresh) hystart_->OnAckSample(tcb, sample);
}

void CubicOps::OnStateChange(Tcb&, SimTime, CongestionState state) {
  // §4.8: after a timeout CUBIC follows Reno (the owner sets cwnd to one segment and ssthresh from
  // SsThresh()); the next congestion avoidance stage starts with K = 0.
  if (state == CongestionState::kLoss) after_timeout_ = true;
}

void CubicOps::OnSendingResumed(Tcb&, SimTime now, SimTime last_sent) {
  // RFC 9438 §5.8 (application-limited flows): idle time is not growth time. Linux's
  // bictcp_cwnd_event(CA_EVENT_TX_START) moves the epoch's start forward by the idle period.
  if (!epoch_start_ || now <= last_sent) return;
  epoch_start_ = Min(*epoch_start_ + (now - last_sent), now);
}

void CubicOps::DescribeState(const Tcb& tcb, TcpSeriesRow& row) const {
  row.w_max_bytes = static_cast<int64_t>(w_max_ * static_cast<double>(tcb.mss) + 0.5);
  row.cubic_k_ns = SimTime::FromSeconds(k_).ns();
  row.cubic_epoch_ns = epoch_start_ ? epoch_start_->ns() : 0;
}

}  // namespace tcb
