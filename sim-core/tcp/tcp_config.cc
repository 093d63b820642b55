// TCP options.
#include "tcp/tcp_config.h"

#include <algorithm>

namespace tcb {

namespace {
constexpr std::string_view kFlavorNames[] = {"tahoe", "reno", "newreno", "sack"};
}  // namespace

bool ParseTcpFlavor(std::string_view name, TcpFlavor* flavor) {
  for (size_t i = 0; i < std::size(kFlavorNames); ++i) {
    if (kFlavorNames[i] == name) {
      *flavor = static_cast<TcpFlavor>(i);
      return true;
    }
  }
  return false;
}

std::string_view TcpFlavorName(TcpFlavor flavor) { return kFlavorNames[static_cast<int>(flavor)]; }

Bytes TcpConfig::InitialWindowBytes() const {
  // RFC 3390 §1: min(4*MSS, max(2*MSS, 4380 bytes)).
  if (initial_window_rfc3390) return std::min(4 * mss, std::max(2 * mss, Bytes{4380}));
  return initial_window_segments * mss;
}

}  // namespace tcb
