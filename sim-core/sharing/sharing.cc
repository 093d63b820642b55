// TCB sharing vocabulary.
#include "sharing/sharing.h"

#include <iterator>

#include "net/topology.h"

namespace tcb {

namespace {
constexpr std::string_view kScopeNames[] = {"host-pair", "network", "host"};

template <class Enum, size_t N>
bool ParseName(const std::string_view (&names)[N], std::string_view name, Enum* out) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) {
      *out = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}
}  // namespace

bool ParseSharingScope(std::string_view name, SharingScope* scope) { return ParseName(kScopeNames, name, scope); }
std::string_view SharingScopeName(SharingScope scope) { return kScopeNames[static_cast<int>(scope)]; }

uint64_t GroupKey(SharingScope scope, const ConnectionContext& c) {
  switch (scope) {
    case SharingScope::kHostPair: return static_cast<uint64_t>(c.remote);
    case SharingScope::kNetwork: return c.remote_address >> 8;  // TCP/SPAND §5.2.1: the 24-bit heuristic.
    case SharingScope::kHost: return 0;
  }
  return 0;
}

std::string DescribeGroupKey(SharingScope scope, const ConnectionContext& c) {
  switch (scope) {
    case SharingScope::kHostPair: return FormatIpv4(c.remote_address);
    case SharingScope::kNetwork: return FormatIpv4(c.remote_address & 0xFFFFFF00u) + "/24";
    case SharingScope::kHost: return "*";
  }
  return "";
}

}  // namespace tcb
