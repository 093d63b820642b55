// RFC 9040 (TCP Control Block Interdependence, after RFC 2140): temporal sharing, a per-destination
// cache written when connections close and read when they open, with merge and ageing; and ensemble
// sharing, initialising a new connection from the live group and sharing RTT state while it lives.
#pragma once

#include <deque>
#include <optional>
#include <map>
#include <memory>

#include "sharing/cache_scheme.h"

namespace tcb {

// What RFC 9040 Tables 1 and 3 cache per destination (sendMSS is fixed per connection in this
// simulator, so it is recorded but never differs).
struct CachedTcb {
  Bytes mss = 0;
  Bytes cwnd = 0;
  Bytes ssthresh = 0;
  SimTime srtt;
  SimTime rttvar;
  bool has_rtt = false;
};

struct Rfc9040CacheEntry : CacheEntry {
  using CacheEntry::CacheEntry;
  bool valid = false;
  CachedTcb value;
  SimTime stored_at;
  std::deque<CachedTcb> recent;  // The last merge_window closes, for the mean.
  int hits = 0;                  // Opens that started from the cache.
};

class Rfc9040TemporalScheme final : public CacheScheme<Rfc9040CacheEntry> {
 public:
  Rfc9040TemporalScheme(const SharingConfig& config, const SharingEnvironment& env)
      : CacheScheme("rfc9040-temporal", config, env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;

  // The entry a connection opening now would start from: aged (the cwnd halved per idle RTT,
  // RFC 7661 §4.4 after Handley et al., never below the initial window) and null once older than the
  // lifetime. `initial_window` is the opening connection's.
  std::optional<CachedTcb> Lookup(uint64_t key, SimTime now, Bytes initial_window) const;
  // Merges a closing connection's TCB into the cache (RFC 9040 Table 3's merge()).
  void Store(uint64_t key, SimTime now, const CachedTcb& closing);

 private:
  class Member;
  using Entry = Rfc9040CacheEntry;
  void DescribeEntry(const Entry& e, nlohmann::json& group) const override;
};

class Rfc9040EnsembleScheme final : public SharingScheme {
 public:
  Rfc9040EnsembleScheme(const SharingConfig& config, const SharingEnvironment& env)
      : config_(config), env_(env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
  void Describe(nlohmann::json& groups) const override;

 private:
  class Member;
  struct Group {
    Group(TcbGroup g, const TcpConfig& config)
        : members(std::move(g)), rtt(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto) {}
    TcbGroup members;
    // RFC 9040 Table 7: one RTT/RTTVAR estimate for the live ensemble.
    RttEstimator rtt;
  };
  Group& GroupFor(uint64_t key, const TcpConfig& config, const ConnectionContext& context);

  SharingConfig config_;
  SharingEnvironment env_;
  std::map<uint64_t, Group> groups_;
};

}  // namespace tcb
