// A set of connections that keep their own TCBs but share information: the groups of RFC 9040's
// ensemble sharing and of the TCBI controllers (and the users of a temporal cache entry).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sharing/forwarding_control.h"
#include "sharing/sharing.h"

namespace tcb {

class TcbGroup {
 public:
  TcbGroup(const SharingEnvironment& env, std::string scheme, std::string key)
      : env_(env), scheme_(std::move(scheme)), key_(std::move(key)) {
    if (env_.recorder != nullptr) id_ = env_.recorder->RegisterGroup(scheme_ + " " + key_);
  }

  void Add(ForwardingControl* member, FlowId flow) {
    members_.push_back(member);
    flows_.push_back(flow);
  }
  void Remove(ForwardingControl* member) {
    members_.erase(std::remove(members_.begin(), members_.end(), member), members_.end());
  }
  const std::vector<ForwardingControl*>& members() const { return members_; }

  // Records the members' summed windows with the given RTT state (at series level only).
  void Record(SimTime now, SimTime srtt, SimTime rttvar) const {
    if (env_.recorder == nullptr || !env_.recorder->series()) return;
    Bytes cwnd = 0, ssthresh = 0, in_flight = 0;
    for (const ForwardingControl* m : members_) {
      cwnd += m->cwnd();
      ssthresh = std::min(ssthresh + m->ssthresh(), TcpConfig::kInfiniteSsthresh);
      in_flight += const_cast<ForwardingControl*>(m)->sender().flight_size();
    }
    env_.recorder->RecordGroup(now, id_, cwnd, ssthresh, srtt, rttvar, in_flight,
                               static_cast<int32_t>(members_.size()));
  }

  nlohmann::json Describe() const {
    return {{"id", id_}, {"scheme", scheme_}, {"key", key_}, {"flows", flows_}};
  }
  int32_t id() const { return id_; }

 private:
  SharingEnvironment env_;
  std::string scheme_;
  std::string key_;
  int32_t id_ = -1;
  std::vector<ForwardingControl*> members_;  // Live members. Not owned.
  std::vector<FlowId> flows_;                // Every connection that ever joined.
};

}  // namespace tcb
