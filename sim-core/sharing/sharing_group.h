// What every sharing group has, whatever its scheme: the scheme and key that name it, its id in the
// series, and every connection that ever joined it (the summary's "groups").
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sharing/sharing.h"

namespace tcb {

class SharingGroup {
 public:
  SharingGroup(const SharingEnvironment& env, std::string scheme, std::string key)
      : env_(env), scheme_(std::move(scheme)), key_(std::move(key)) {
    if (env_.trace != nullptr) id_ = env_.trace->RegisterGroup(scheme_ + " " + key_);
  }

  int32_t id() const { return id_; }
  const std::string& key() const { return key_; }
  const SharingEnvironment& env() const { return env_; }
  SimTime Now() const { return env_.sim->Now(); }
  // Whether the run records time series (group rows are written only then).
  bool recording() const { return env_.trace != nullptr && env_.trace->series(); }
  // Writes one row of the group series (call only when recording()).
  void RecordState(SimTime now, Bytes cwnd, Bytes ssthresh, SimTime srtt, SimTime rttvar, Bytes in_flight,
              size_t members) const {
    env_.trace->Record(GroupSeriesRow{now.ns(), id_, cwnd, ssthresh, srtt.ns(), rttvar.ns(), in_flight,
                                      static_cast<int32_t>(members)});
  }

  void AddFlow(FlowId flow) { flows_.push_back(flow); }
  // {"id", "scheme", "key", "flows"}; schemes add their own fields.
  nlohmann::json Describe() const { return {{"id", id_}, {"scheme", scheme_}, {"key", key_}, {"flows", flows_}}; }

 private:
  SharingEnvironment env_;
  std::string scheme_;
  std::string key_;
  int32_t id_ = -1;
  std::vector<FlowId> flows_;  // Every connection that ever joined.
};

// The group stored under `key` in `groups`, made by `make()` the first time the key is seen.
template <class Map, class Make>
typename Map::mapped_type& FindOrCreate(Map& groups, const typename Map::key_type& key, Make&& make) {
  auto it = groups.find(key);
  if (it == groups.end()) it = groups.emplace(key, make()).first;
  return it->second;
}

}  // namespace tcb
