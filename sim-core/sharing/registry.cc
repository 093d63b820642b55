// The per-host scheme registry.
#include "sharing/registry.h"

#include "sharing/etcp.h"
#include "sharing/rfc9040.h"
#include "sharing/tcbi.h"
#include "sharing/tcp_int.h"
#include "tcp/tcp_connection.h"

namespace tcb {

namespace {

std::unique_ptr<SharingScheme> MakeScheme(const SharingConfig& config, const SharingEnvironment& env) {
  switch (config.scheme) {
    case SchemeKind::kRfc9040Temporal: return std::make_unique<Rfc9040TemporalScheme>(config, env);
    case SchemeKind::kRfc9040Ensemble: return std::make_unique<Rfc9040EnsembleScheme>(config, env);
    case SchemeKind::kMvTcbi:
    case SchemeKind::kFsTcbi: return std::make_unique<TcbiScheme>(config, env);
    case SchemeKind::kEtcp: return std::make_unique<EtcpScheme>(config, env);
    case SchemeKind::kTcpInt: return std::make_unique<TcpIntScheme>(config, env);
    default: return nullptr;
  }
}

}  // namespace

SharingRegistry::~SharingRegistry() = default;

SharingScheme* SharingRegistry::SchemeFor(NodeId node) {
  auto it = schemes_.find(node);
  if (it != schemes_.end()) return it->second.get();
  auto config = configs_.find(node);
  const SharingConfig* chosen = config != configs_.end() ? &config->second : (default_ ? &*default_ : nullptr);
  std::unique_ptr<SharingScheme> scheme =
      chosen != nullptr && chosen->scheme != SchemeKind::kIndependent ? MakeScheme(*chosen, env_) : nullptr;
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
