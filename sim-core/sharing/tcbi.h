// The ensemble TCBI controllers of Savorić, Karl and Wolisz §3: a new connection of a TCBI
// connection set starts from the set's state. The mean-value controller (MV-TCBI, §3.1) gives the
// newcomer the mean cwnd and ssthresh of the others; the fair-share controller (FS-TCBI, §3.2)
// redistributes (sum + initial) / n to every member. Both keep an aggregated srtt/rttvar per set and
// do not pace (the first window goes out as a burst).
#pragma once

#include <map>
#include <memory>

#include "sharing/sharing_config.h"
#include "sharing/tcb_group.h"

namespace tcb {

class TcbiScheme final : public SharingScheme {
 public:
  TcbiScheme(const SharingConfig& config, const SharingEnvironment& env) : config_(config), env_(env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;
  void Describe(nlohmann::json& groups) const override;

  // A TCBI connection set.
  struct Set {
    explicit Set(TcbGroup g) : members(std::move(g)) {}
    TcbGroup members;  // Established, not yet closed.
    // §3.1: the aggregated smoothed RTT and RTT variance, updated after every member's change as
    // (n - 1)/n * old + 1/n * new.
    bool has_aggregate = false;
    SimTime srtt;
    SimTime rttvar;
  };
  // Applies the controller's rules for a connection joining `set` (exposed for the tests of the
  // rules themselves).
  static void Join(const SharingConfig& config, Set& set, ForwardingControl& newcomer);
  static void UpdateAggregate(Set& set, SimTime srtt, SimTime rttvar);

 private:
  class Member;
  Set& SetFor(uint64_t key, const ConnectionContext& context);

  SharingConfig config_;
  SharingEnvironment env_;
  std::map<uint64_t, Set> sets_;
};

}  // namespace tcb
