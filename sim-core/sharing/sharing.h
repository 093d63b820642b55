// The vocabulary of TCB sharing: what a scheme knows about a connection, how connections are grouped
// (scope), and the interface every scheme implements. A scheme owns the shared state and hands each
// member connection a CongestionControl adapter over it; the sender never asks "am I shared?".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/simulation.h"
#include "trace/trace_sink.h"
#include "tcp/congestion_control.h"
#include "tcp/connection_context.h"
#include "tcp/tcp_config.h"

namespace tcb {

// Which connections of a host share state (TCP/SPAND §5.2.1 calls these host and network
// locality): the same remote host, the same remote /24 network, or every connection of the host.
enum class SharingScope : uint8_t { kHostPair, kNetwork, kHost };
bool ParseSharingScope(std::string_view name, SharingScope* scope);
std::string_view SharingScopeName(SharingScope scope);
uint64_t GroupKey(SharingScope scope, const ConnectionContext& c);
std::string DescribeGroupKey(SharingScope scope, const ConnectionContext& c);

// The environment schemes run in.
struct SharingEnvironment {
  Simulation* sim = nullptr;  // Not owned.
  TraceSink* trace = nullptr;  // Not owned; may be null.
};

// A sharing scheme of one host.
class SharingScheme {
 public:
  virtual ~SharingScheme() = default;
  // The controller for a new connection endpoint on this host.
  virtual std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                                    const ConnectionContext& context) = 0;
  // One entry per group the scheme formed, for the summary: {"scheme", "key", "members", ...}.
  virtual void Describe(nlohmann::json& groups) const = 0;
};

}  // namespace tcb
