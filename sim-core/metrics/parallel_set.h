// Savorić et al. §5's evaluation metric over a set of connections (the connections a TCBI end
// system opens towards one LAN):
//  - "new" connections: those that start while another member of the set is open and has measured
//    the path ("at least one parallel TCP connection to the same LAN is already established and
//    useful information found out from the network is available"), so a TCBI controller could
//    initialise them. Per traffic item: T1 = sum(s_i) / sum(d_i) and T2 = mean(s_i / d_i), with s_i
//    the segments a connection delivered and d_i its duration, and the mean initial cwnd, ssthresh,
//    srtt and rttvar (Savorić Tables 2 and 4);
//  - parallel connections: members that ran at the same time as another member. T1 and T2 over them,
//    and the mean of Jain's fairness index over the periods in which n >= 2 members ran in parallel,
//    each period's index over the members' mean throughputs in that period (§5's I_f).
// The set is followed as it changes, through the flow registry's start and end notices, and each
// member is folded into the metrics when it ends, so that only the members alive are kept.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/flow_registry.h"

namespace tcb {

class ParallelSetMonitor final : public FlowObserver {
 public:
  ParallelSetMonitor(const FlowRegistry& flows, std::vector<std::string> items);

  void OnFlowStart(const FlowInfo& flow) override;
  void OnFlowEnd(const FlowInfo& flow) override;

  // The metrics, for connections that had finished by `stop` (the last period is closed there).
  nlohmann::json Summary(SimTime stop);

 private:
  struct Live {
    FlowId flow;
    Bytes bytes_at_period_start;
    bool could_share;  // Started beside an established, measured member.
    bool overlapped;   // Ran at the same time as another member.
  };
  // Sums for T1 and T2 over finished connections.
  struct Throughput {
    int64_t count = 0;
    double segments = 0;
    double seconds = 0;
    double rate_sum = 0;

    void Add(double s, double d);
    nlohmann::json Json() const;
  };
  struct Mean {
    double sum = 0;
    int64_t n = 0;
    void Add(double x);
    nlohmann::json Json() const;
  };
  // New connections of one traffic item.
  struct NewStats {
    Throughput throughput;
    Mean cwnd, ssthresh, srtt, rttvar;
  };
  bool InSet(const FlowInfo& flow) const;
  Bytes Delivered(FlowId flow) const;
  void ClosePeriod(SimTime now);

  const FlowRegistry& flows_;
  std::vector<std::string> items_;
  std::vector<Live> live_;
  SimTime period_start_;
  double jain_sum_ = 0;
  int64_t periods_ = 0;
  int64_t members_ = 0;
  // Folded in as members end, in end order.
  std::map<std::string, NewStats> fresh_;
  Throughput parallel_;
};

}  // namespace tcb
