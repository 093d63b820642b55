// RFC 6298 round-trip time estimation with a configurable clock granularity.
#pragma once

#include "core/time.h"

namespace tcb {

class RttEstimator {
 public:
  RttEstimator(SimTime granularity, SimTime min_rto, SimTime max_rto, SimTime initial_rto)
      : granularity_(granularity), min_rto_(min_rto), max_rto_(max_rto), rto_(initial_rto) {}

  // Adds one measurement (Karn's rule is the caller's: never a retransmitted segment). With a coarse
  // clock a measurement is a whole number of ticks, at least one (as BSD's tick counter).
  void AddSample(SimTime rtt);
  // Sets the estimate directly, e.g. from shared or cached state (RFC 9040).
  void Set(SimTime srtt, SimTime rttvar);
  // Sets the retransmission timeout until the next measurement recomputes it, without touching the
  // estimate (Linux's tcp_init_metrics() seeds the first RTO from a cached RTT this way).
  void SeedRto(SimTime rto) { rto_ = Min(rto, max_rto_); }
  SimTime min_rto() const { return min_rto_; }

  bool has_sample() const { return has_sample_; }
  SimTime srtt() const { return srtt_; }
  SimTime rttvar() const { return rttvar_; }
  // The retransmission timeout before any backoff.
  SimTime rto() const { return rto_; }
  SimTime granularity() const { return granularity_; }
  SimTime max_rto() const { return max_rto_; }

 private:
  void UpdateRto();

  SimTime granularity_;
  SimTime min_rto_;
  SimTime max_rto_;
  SimTime rto_;
  SimTime srtt_;
  SimTime rttvar_;
  bool has_sample_ = false;
};

}  // namespace tcb
