// TCB sharing vocabulary.
#include "sharing/sharing.h"

#include "core/enum_names.h"
#include "net/topology.h"

namespace tcb {

namespace {
constexpr std::string_view kScopeNames[] = {"host-pair", "network", "host"};

}  // namespace

bool ParseSharingScope(std::string_view name, SharingScope* scope) { return ParseEnumName(kScopeNames, name, scope); }
std::string_view SharingScopeName(SharingScope scope) { return EnumName(kScopeNames, scope); }

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
