// TCP/SPAND (Zhang, Qiu and Keshav, seed 004, §5): a performance gateway per organisation keeps, per
// destination /24 network (§5.2.1), an S-minute sliding window of the W_c and RTT reports of every
// host behind it (§5.2.2-5.2.3). At start-up and at restart after idle, a sender computes the optimal
// initial window for its transfer from the gateway's averages (§4, eq. 3 and 4), enters congestion
// avoidance directly and paces that window with a token bucket of depth 4 at cwnd/srtt (§5.2.5);
// with too little information it does slow start. W_c is reported as one segment less than cwnd at a
// loss in congestion avoidance, or as cwnd when a transfer ends without loss (§5.1).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>

#include "sharing/sharing_config.h"
#include "sharing/tcb_group.h"

namespace tcb {

class SpandGateway {
 public:
  explicit SpandGateway(SimTime window) : window_(window) {}

  struct Estimate {
    int samples = 0;
    double wc_packets = 0;
    SimTime rtt;
  };
  // §5.2.3: the averages of the reports of the last S (the window).
  Estimate Lookup(uint32_t network, SimTime now);
  void Report(uint32_t network, SimTime now, double wc_packets, SimTime rtt);

 private:
  struct Sample {
    SimTime at;
    double wc_packets;
    SimTime rtt;
  };
  void Expire(std::deque<Sample>& samples, SimTime now) const;

  SimTime window_;
  std::map<uint32_t, std::deque<Sample>> networks_;  // By the /24 prefix (address >> 8).
};

class SpandScheme final : public SharingScheme {
 public:
  SpandScheme(const SharingConfig& config, const SharingEnvironment& env, SpandGateway& gateway);
  ~SpandScheme() override;

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
  void Describe(nlohmann::json& groups) const override;

 private:
  class Member;
  SharingConfig config_;
  SharingEnvironment env_;
  SpandGateway& gateway_;
  std::map<uint64_t, TcbGroup> networks_;  // The host's connections per destination network.
};

}  // namespace tcb
