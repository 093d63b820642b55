// The Linux kernel's TCP metrics cache as it behaves today (net/ipv4/tcp_metrics.c): per
// destination, a closing connection's RTT, RTTVAR, ssthresh and cwnd are merged into the entry
// (tcp_update_metrics()), and a new connection to the destination reads it once established
// (tcp_init_metrics()): the cached RTT seeds only the first retransmission timeout, ssthresh is
// restored only when net.ipv4.tcp_no_ssthresh_metrics_save is 0 (its default has been 1 since
// Linux 5.6: commit 65e6d90168f3, "net-tcp: Disable TCP ssthresh metrics cache by default",
// applied to net-next on 9 December 2019), and the cached cwnd limits a connection only when the route locks it. Entries older
// than an hour are reset (TCP_METRICS_TIMEOUT). The route's initcwnd sets the initial window. The
// reordering metric is left out: see docs/SCHEMES.md ("Linux tcp_metrics").
#pragma once

#include <memory>

#include "sharing/cache_scheme.h"

namespace tcb {

// One tcp_metrics_block's values, in Linux's units: RTT scaled by 8 and RTTVAR by 4 (as tp->srtt_us
// and tp->mdev_us are), windows in bytes; 0 means not set.
struct TcpMetricsEntry {
  SimTime rtt8;
  SimTime rttvar4;
  Bytes ssthresh = 0;
  Bytes cwnd = 0;
  SimTime stamp;  // tcpm_stamp: the last update.
  bool exists = false;
};

struct TcpMetricsCacheEntry : CacheEntry {
  using CacheEntry::CacheEntry;
  TcpMetricsEntry metrics;
  int64_t restored_ssthresh = 0;  // Connections that started from a cached ssthresh.
  int64_t seeded_rto = 0;         // Connections whose first RTO came from the cached RTT.
};

class LinuxTcpMetricsScheme final : public CacheScheme<TcpMetricsCacheEntry> {
 public:
  LinuxTcpMetricsScheme(const SharingConfig& config, const SharingEnvironment& env)
      : CacheScheme("linux-tcp-metrics", config, env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;

  // The entry for `key` as a lookup at `now` sees it: reset once older than the timeout
  // (tcp_get_metrics() -> tcpm_check_stamp()).
  TcpMetricsEntry* Lookup(uint64_t key, SimTime now);

 private:
  class Member;
  using Entry = TcpMetricsCacheEntry;
  void DescribeEntry(const Entry& e, nlohmann::json& group) const override;
};

}  // namespace tcb
