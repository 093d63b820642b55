// A set of connections that keep their own TCBs but share information: the groups of RFC 9040's
// ensemble sharing and of the TCBI controllers (and the users of a temporal cache entry).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "sharing/forwarding_control.h"
#include "sharing/sharing_group.h"

namespace tcb {

class TcbGroup : public SharingGroup {
 public:
  using SharingGroup::SharingGroup;

  void Add(ForwardingControl* member, FlowId flow) {
    members_.push_back(member);
    AddFlow(flow);
  }
  void Remove(ForwardingControl* member) {
    members_.erase(std::remove(members_.begin(), members_.end(), member), members_.end());
  }
  const std::vector<ForwardingControl*>& members() const { return members_; }

  // Records the members' summed windows with the given RTT state (at series level only).
  void Record(SimTime now, SimTime srtt, SimTime rttvar) const {
    if (!recording()) return;
    Bytes cwnd = 0, ssthresh = 0, in_flight = 0;
    for (const ForwardingControl* m : members_) {
      cwnd += m->cwnd();
      ssthresh = std::min(ssthresh + m->ssthresh(), TcpConfig::kInfiniteSsthresh);
      in_flight += m->flight_size();
    }
    RecordState(now, cwnd, ssthresh, srtt, rttvar, in_flight, members_.size());
  }

 private:
  std::vector<ForwardingControl*> members_;  // Live members. Not owned.
};

}  // namespace tcb
