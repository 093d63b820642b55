// The per-host scheme registry.
#include "sharing/registry.h"

#include "sharing/bdp_resume.h"
#include "sharing/careful_resume.h"
#include "sharing/congestion_manager.h"
#include "sharing/etcp.h"
#include "sharing/rfc9040.h"
#include "sharing/sharing_group.h"
#include "sharing/tcbi.h"
#include "sharing/tcp_int.h"
#include "sharing/tcp_metrics.h"
#include "tcp/tcp_connection.h"

namespace tcb {

std::unique_ptr<SharingScheme> SharingRegistry::MakeScheme(const SharingConfig& config) {
  switch (config.scheme) {
    case SchemeKind::kIndependent: return nullptr;
    case SchemeKind::kRfc9040Temporal: return std::make_unique<Rfc9040TemporalScheme>(config, env_);
    case SchemeKind::kRfc9040Ensemble: return std::make_unique<Rfc9040EnsembleScheme>(config, env_);
    case SchemeKind::kMvTcbi:
    case SchemeKind::kFsTcbi: return std::make_unique<TcbiScheme>(config, env_);
    case SchemeKind::kEtcp: return std::make_unique<EtcpScheme>(config, env_);
    case SchemeKind::kTcpInt: return std::make_unique<TcpIntScheme>(config, env_);
    case SchemeKind::kSpand: return std::make_unique<SpandScheme>(config, env_, Gateway(config));
    case SchemeKind::kCongestionManager: return std::make_unique<CongestionManagerScheme>(config, env_);
    case SchemeKind::kCarefulResume: return std::make_unique<CarefulResumeScheme>(config, env_);
    case SchemeKind::kLinuxTcpMetrics: return std::make_unique<LinuxTcpMetricsScheme>(config, env_);
    case SchemeKind::kBdpResume: return std::make_unique<BdpResumeScheme>(config, env_);
  }
  return nullptr;
}

SpandGateway& SharingRegistry::Gateway(const SharingConfig& config) {
  SpandGateway& gateway = *FindOrCreate(gateways_, config.gateway,
                                        [&] { return std::make_unique<SpandGateway>(config.spand_window); });
  // Priors are what the gateway had heard before the run began.
  for (const SharingConfig::SpandPrior& p : config.spand_priors) {
    gateway.Report(p.network, SimTime::Zero(), p.wc_packets, p.rtt);
  }
  return gateway;
}

SharingRegistry::~SharingRegistry() = default;

SharingScheme* SharingRegistry::SchemeFor(NodeId node) {
  auto it = schemes_.find(node);
  if (it != schemes_.end()) return it->second.get();
  auto config = configs_.find(node);
  const SharingConfig* chosen = config != configs_.end() ? &config->second : (default_ ? &*default_ : nullptr);
  std::unique_ptr<SharingScheme> scheme = chosen != nullptr ? MakeScheme(*chosen) : nullptr;
  return schemes_.emplace(node, std::move(scheme)).first->second.get();
}

std::unique_ptr<CongestionControl> SharingRegistry::MakeController(const TcpConfig& config,
                                                                   SenderHandle& sender,
                                                                   const ConnectionContext& context) {
  SharingScheme* scheme = SchemeFor(context.local);
  if (scheme == nullptr) return MakeIndependentController(config, sender, context);
  return scheme->Attach(config, sender, context);
}

nlohmann::json SharingRegistry::Describe() const {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& [node, scheme] : schemes_) {
    if (scheme == nullptr) continue;
    nlohmann::json mine = nlohmann::json::array();
    scheme->Describe(mine);
    for (nlohmann::json& g : mine) {
      g["host"] = node;
      groups.push_back(std::move(g));
    }
  }
  return groups;
}

}  // namespace tcb
