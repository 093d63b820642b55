// TCP options.
#include "tcp/tcp_config.h"

#include <algorithm>

#include "core/enum_names.h"

namespace tcb {

namespace {
constexpr std::string_view kFlavorNames[] = {"tahoe", "reno", "newreno", "sack"};
}  // namespace

bool ParseTcpFlavor(std::string_view name, TcpFlavor* flavor) { return ParseEnumName(kFlavorNames, name, flavor); }
std::string_view TcpFlavorName(TcpFlavor flavor) { return EnumName(kFlavorNames, flavor); }

Bytes TcpConfig::InitialWindowBytes() const {
  // RFC 3390 §1: min(4*MSS, max(2*MSS, 4380 bytes)).
  if (initial_window_rfc3390) return std::min(4 * mss, std::max(2 * mss, Bytes{4380}));
  return initial_window_segments * mss;
}

}  // namespace tcb
