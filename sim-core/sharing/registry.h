// The sharing schemes of a run: one per host that has one, made when the host's first connection
// opens, and the controller factory that hands every new endpoint to its host's scheme.
#pragma once

#include <map>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "sharing/sharing.h"
#include "sharing/spand.h"
#include "sharing/sharing_config.h"
#include "tcp/tcp_endpoint.h"

namespace tcb {

class SharingRegistry {
 public:
  explicit SharingRegistry(const SharingEnvironment& env) : env_(env) {}
  SharingRegistry(const SharingRegistry&) = delete;
  SharingRegistry& operator=(const SharingRegistry&) = delete;
  ~SharingRegistry();

  // The scheme of `node`, and of every host without its own (`default_config`).
  void SetHost(NodeId node, const SharingConfig& config) { configs_[node] = config; }
  void SetDefault(const SharingConfig& config) { default_ = config; }

  std::unique_ptr<CongestionControl> MakeController(const TcpConfig& config, SenderHandle& sender,
                                                    const ConnectionContext& context);
  ControllerFactory Factory() {
    return [this](const TcpConfig& c, SenderHandle& s, const ConnectionContext& x) {
      return MakeController(c, s, x);
    };
  }
  // Every group every scheme formed, for the summary.
  nlohmann::json Describe() const;

 private:
  SharingScheme* SchemeFor(NodeId node);
  std::unique_ptr<SharingScheme> MakeScheme(const SharingConfig& config);
  SpandGateway& Gateway(const SharingConfig& config);

  SharingEnvironment env_;
  std::map<NodeId, SharingConfig> configs_;
  std::optional<SharingConfig> default_;
  std::map<NodeId, std::unique_ptr<SharingScheme>> schemes_;  // Ordered, for a stable summary.
  // TCP/SPAND performance gateways by name: hosts naming the same one share it (§5.1).
  std::map<std::string, std::unique_ptr<SpandGateway>> gateways_;
};

}  // namespace tcb
