// Window rules.
#include "tcp/congestion_ops.h"

#include "tcp/bbr.h"
#include "tcp/cubic.h"
#include "tcp/linux_reno.h"
#include "tcp/linux_cubic.h"

#include <algorithm>
#include <stdexcept>

namespace tcb {

void RenoOps::IncreaseWindow(Tcb& tcb, SimTime, Bytes acked) {
  if (tcb.cwnd < tcb.ssthresh) {
    // RFC 5681 §3.1 eq. (2): cwnd += min(N, SMSS) per ACK in slow start.
    tcb.cwnd += std::min(acked, tcb.mss);
  } else {
    // RFC 5681 §3.1 eq. (3): cwnd += SMSS*SMSS/cwnd per ACK, at least one byte.
    tcb.cwnd += std::max<Bytes>(1, tcb.mss * tcb.mss / tcb.cwnd);
  }
}

Resumption CongestionOps::AdjustNetworkParameters(Tcb& tcb, const NetworkParams& params) {
  if (params.window <= tcb.cwnd) return Resumption::kNone;
  tcb.cwnd = params.window;
  return Resumption::kWindow;
}

Bytes RenoOps::SsThresh(Tcb& tcb, SimTime, Bytes flight) { return Rfc5681SsThresh(flight, tcb.mss); }

std::unique_ptr<CongestionOps> MakeCongestionOps(const TcpConfig& config, const Rng& random) {
  if (config.window_rule == WindowRule::kBbr) return std::make_unique<BbrOps>(random, config.bbr_rules, config.linux_hz);
  return MakeCongestionOps(config);
}

std::unique_ptr<CongestionOps> MakeCongestionOps(const TcpConfig& config) {
  switch (config.window_rule) {
    case WindowRule::kReno:
      if (config.reno_rules == RenoRules::kLinux) return std::make_unique<LinuxRenoOps>();
      return std::make_unique<RenoOps>();
    case WindowRule::kCubic:
      if (config.cubic.rules == CubicRules::kLinux) {
        return std::make_unique<LinuxCubicOps>(config.cubic, config.pacing != PacingMode::kOff, config.linux_hz);
      }
      return std::make_unique<CubicOps>(config.cubic, config.pacing != PacingMode::kOff);
    case WindowRule::kBbr:
      break;
  }
  throw std::logic_error("flavor " + std::string(TcpFlavorName(config.flavor)) +
                         " needs a connection's delivery-rate samples; a group window cannot follow it");
}

}  // namespace tcb
