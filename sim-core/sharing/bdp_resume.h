// Resumption of a saved bandwidth-delay product as Google QUIC deploys it (quiche: a server's
// CachedNetworkParameters hold a bandwidth estimate and a minimum RTT;
// QuicSentPacketManager::ResumeConnectionState() hands them to the congestion controller's
// AdjustNetworkParameters()): a closing connection saves the delivery rate and minimum RTT it
// observed for its endpoint, and the next connection to it starts with cwnd = saved bandwidth x
// saved minimum RTT, at most 200 packets of 1460 bytes by default (TcpCubicSenderBytes::
// SetCongestionWindowFromBandwidthAndRtt()'s kMaxResumptionCongestionWindow), paced at the saved
// bandwidth for that first window, without Careful Resume's path confirmation, validation or
// retreat: the aggressive reference point. Over BBR the saved values seed BBR's model instead, as
// quiche's BbrSender::AdjustNetworkParameters() does (BbrOps::ResumeFromCache()).
#pragma once

#include <memory>
#include <optional>

#include "sharing/cache_scheme.h"

namespace tcb {

struct SavedBdp {
  double bandwidth_bps = 0;
  SimTime min_rtt;
  SimTime saved_at;
};

struct BdpResumeEntry : CacheEntry {
  using CacheEntry::CacheEntry;
  std::optional<SavedBdp> saved;
  int64_t resumed = 0;  // Connections that started from the saved BDP.
};

class BdpResumeScheme final : public CacheScheme<BdpResumeEntry> {
 public:
  BdpResumeScheme(const SharingConfig& config, const SharingEnvironment& env)
      : CacheScheme("bdp-resume", config, env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;

  // The initial window a connection resuming from `saved` starts with: the saved BDP, no less than
  // `initial_window` and no more than the configured maximum.
  Bytes ResumedWindow(const SavedBdp& saved, Bytes initial_window) const;

 private:
  class Member;
  using Entry = BdpResumeEntry;
  void DescribeEntry(const Entry& e, nlohmann::json& group) const override;
};

}  // namespace tcb
