// TCP options.
#include "tcp/tcp_config.h"

#include <algorithm>

#include "core/enum_names.h"

namespace tcb {

namespace {
constexpr std::string_view kFlavorNames[] = {"tahoe", "reno", "newreno", "sack", "cubic", "bbr"};
constexpr std::string_view kRecoveryNames[] = {"go-back-n", "reno", "newreno", "sack-rfc6675", "prr"};
constexpr std::string_view kPacingRulesNames[] = {"even", "linux"};
constexpr std::string_view kRenoRulesNames[] = {"rfc5681", "linux"};
constexpr std::string_view kBbrRulesNames[] = {"linux-4.9", "linux"};
constexpr std::string_view kRtoRulesNames[] = {"rfc6298", "linux"};
constexpr std::string_view kAckRulesNames[] = {"rfc5681", "linux"};
constexpr std::string_view kCubicRulesNames[] = {"rfc9438", "linux"};
}  // namespace

bool ParseTcpFlavor(std::string_view name, TcpFlavor* flavor) { return ParseEnumName(kFlavorNames, name, flavor); }
std::string_view TcpFlavorName(TcpFlavor flavor) { return EnumName(kFlavorNames, flavor); }
bool ParseLossRecovery(std::string_view name, LossRecovery* recovery) {
  return ParseEnumName(kRecoveryNames, name, recovery);
}
std::string_view LossRecoveryName(LossRecovery recovery) { return EnumName(kRecoveryNames, recovery); }
bool ParsePacingRules(std::string_view name, PacingRules* rules) {
  return ParseEnumName(kPacingRulesNames, name, rules);
}
bool ParseRenoRules(std::string_view name, RenoRules* rules) { return ParseEnumName(kRenoRulesNames, name, rules); }
bool ParseBbrRules(std::string_view name, BbrRules* rules) { return ParseEnumName(kBbrRulesNames, name, rules); }
bool ParseRtoRules(std::string_view name, RtoRules* rules) { return ParseEnumName(kRtoRulesNames, name, rules); }
bool ParseAckRules(std::string_view name, AckRules* rules) {
  return ParseEnumName(kAckRulesNames, name, rules);
}
bool ParseCubicRules(std::string_view name, CubicRules* rules) { return ParseEnumName(kCubicRulesNames, name, rules); }
std::string_view CubicRulesName(CubicRules rules) { return EnumName(kCubicRulesNames, rules); }

WindowRule FlavorWindowRule(TcpFlavor flavor) {
  switch (flavor) {
    case TcpFlavor::kCubic:
      return WindowRule::kCubic;
    case TcpFlavor::kBbr:
      return WindowRule::kBbr;
    default:
      return WindowRule::kReno;
  }
}

LossRecovery FlavorRecovery(TcpFlavor flavor) {
  switch (flavor) {
    case TcpFlavor::kTahoe:
      return LossRecovery::kGoBackN;
    case TcpFlavor::kReno:
      return LossRecovery::kReno;
    case TcpFlavor::kNewReno:
      return LossRecovery::kNewReno;
    case TcpFlavor::kSack:
      return LossRecovery::kSackRfc6675;
    case TcpFlavor::kCubic:
    case TcpFlavor::kBbr:
      // Linux (tcp_cwnd_reduction(), since 3.2) and ns-3 (TcpPrrRecovery, the default recovery
      // since 3.32) run both with SACK and PRR (RFC 6937 there; RFC 9937 here, tcp/prr.h).
      return LossRecovery::kPrr;
  }
  return LossRecovery::kNewReno;
}

Bytes TcpConfig::InitialWindowBytes() const {
  switch (initial_window_rule) {
    case InitialWindowRule::kRfc3390:
      // RFC 3390 §1: min(4*MSS, max(2*MSS, 4380 bytes)).
      return std::min(4 * mss, std::max(2 * mss, Bytes{4380}));
    case InitialWindowRule::kRfc6928:
      // RFC 6928 §2: min(10*MSS, max(2*MSS, 14600 bytes)).
      return std::min(10 * mss, std::max(2 * mss, Bytes{14600}));
    case InitialWindowRule::kSegments:
      break;
  }
  return initial_window_segments * mss;
}

}  // namespace tcb
