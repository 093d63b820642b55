// RFC 9438 CUBIC's window rule: after a congestion event the window follows
// W_cubic(t) = C (t - K)^3 + W_max, concave up to the window of the last event and convex beyond it,
// never below what Reno would have reached (the Reno-friendly region), with fast convergence, a
// multiplicative decrease by beta_cubic, and HyStart++ (RFC 9406) in the initial slow start.
// Windows are in segments inside the formulas (C is in segments / s^3) and in bytes in the Tcb.
#pragma once

#include <optional>

#include "tcp/congestion_ops.h"
#include "tcp/hystart.h"

namespace tcb {

class CubicOps final : public CongestionOps {
 public:
  // `paced`: the connection paces (HyStart++'s L).
  CubicOps(const CubicOptions& options, bool paced);

  std::string_view name() const override { return "cubic"; }
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
  bool NeedsSentLog() const override { return hystart_.has_value(); }
  // RFC 9438 §5.8: "CUBIC does not increase its congestion window if a flow is application limited".
  bool GrowsOnlyWhenCwndLimited() const override { return !options_.app_limited_growth; }
  void OnAckSample(Tcb& tcb, const AckSample& sample) override;
  void OnStateChange(Tcb& tcb, SimTime now, CongestionState state) override;
  void OnSendingResumed(Tcb& tcb, SimTime now, SimTime last_sent) override;
  void DescribeState(const Tcb& tcb, TcpSeriesRow& row) const override;

  // W_cubic(t) in segments, `t` after the epoch began (RFC 9438 §4.2 Figure 1).
  double WCubic(SimTime t) const;
  double w_max() const { return w_max_; }       // Segments.
  double k_seconds() const { return k_; }       // RFC 9438 §4.2 Figure 2.
  double w_est() const { return w_est_; }       // Segments (§4.3).
  bool in_epoch() const { return epoch_start_.has_value(); }
  const HyStartPlusPlus* hystart() const { return hystart_ ? &*hystart_ : nullptr; }

 private:
  // RFC 9438 §4.2: a congestion avoidance stage begins.
  void StartEpoch(const Tcb& tcb, SimTime now);

  CubicOptions options_;
  double alpha_reno_;  // §4.3: alpha_cubic = 3 (1 - beta) / (1 + beta).
  bool paced_;
  std::optional<HyStartPlusPlus> hystart_;
  std::optional<SimTime> epoch_start_;  // t_epoch; empty outside a congestion avoidance stage.
  double w_max_ = 0;       // Segments; 0 before the first congestion event.
  double k_ = 0;           // Seconds.
  double cwnd_epoch_ = 0;  // Segments.
  double w_est_ = 0;       // Segments.
  double cwnd_prior_ = 0;  // Segments: cwnd when ssthresh was last set.
  double alpha_ = 0;       // The Reno-friendly increase in use (alpha_reno_, or 1 once W_est >= cwnd_prior).
  bool after_timeout_ = false;  // §4.8: the next stage starts with K = 0 and W_max = cwnd_epoch.
  double fraction_ = 0;    // Bytes of growth below one byte, carried to the next ACK.
};

}  // namespace tcb
