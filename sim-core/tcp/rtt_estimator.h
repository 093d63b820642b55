// Round-trip time estimation and the retransmission timeout: RFC 6298 with a configurable clock
// granularity, or Linux's (net/ipv4/tcp_input.c tcp_rtt_estimator(), tcp_set_rto(), tcp_bound_rto()).
#pragma once

#include <cstdint>

#include "core/time.h"
#include "core/units.h"
#include "tcp/jiffies.h"
#include "tcp/tcp_config.h"

namespace tcb {

class RttEstimator {
 public:
  RttEstimator(SimTime granularity, SimTime min_rto, SimTime max_rto, SimTime initial_rto,
               RtoRules rules = RtoRules::kRfc6298, int linux_hz = 1000)
      : granularity_(granularity),
        min_rto_(min_rto),
        max_rto_(max_rto),
        rto_(initial_rto),
        rules_(rules),
        jiffies_(linux_hz) {}

  // Adds one measurement (Karn's rule is the caller's: never a retransmitted segment). With a coarse
  // clock a measurement is a whole number of ticks, at least one (as BSD's tick counter). RFC 6298
  // only: Linux's estimator needs the sequence numbers of the next overload (std::logic_error).
  void AddSample(SimTime rtt);
  // The same, with the sender's snd_una (this ACK taken into account) and snd_nxt, which Linux's
  // tcp_rtt_estimator() uses to end its variance window once per round of data; RFC 6298 ignores
  // them.
  void AddSample(SimTime rtt, SeqNo snd_una, SeqNo snd_nxt);
  // Sets the estimate directly, e.g. from shared or cached state (RFC 9040).
  void Set(SimTime srtt, SimTime rttvar);
  // Sets the retransmission timeout until the next measurement recomputes it, without touching the
  // estimate (Linux's tcp_init_metrics() seeds the first RTO from a cached RTT this way).
  void SeedRto(SimTime rto) { rto_ = Min(rto, max_rto_); }
  SimTime min_rto() const { return min_rto_; }

  RtoRules rules() const { return rules_; }
  bool has_sample() const { return has_sample_; }
  SimTime srtt() const { return srtt_; }
  // RFC 6298's RTTVAR; with Linux's rules the mean deviation mdev (tcp_info's tcpi_rttvar,
  // mdev_us / 4), of which the RTO takes four times the largest of a round, at least the minimum
  // RTO (linux_rttvar()).
  SimTime rttvar() const { return rttvar_; }
  // The retransmission timeout before any backoff (with Linux's rules a whole number of jiffies).
  SimTime rto() const { return rto_; }
  SimTime granularity() const { return granularity_; }
  SimTime max_rto() const { return max_rto_; }
  // Linux's tp->rttvar_us and tp->mdev_max_us (microseconds, the variance term of the RTO and the
  // largest 4 * mdev of the current round); 0 under RFC 6298.
  int64_t linux_rttvar_us() const { return rttvar_us_; }
  int64_t linux_mdev_max_us() const { return mdev_max_us_; }
  // The kernel's tick clock of Linux's rules.
  const Jiffies& jiffies() const { return jiffies_; }

 private:
  void UpdateRto();
  // tcp_rtt_estimator() for `m_us`, then tcp_set_rto() and tcp_bound_rto().
  void AddLinuxSample(int64_t m_us, SeqNo snd_una, SeqNo snd_nxt);

  SimTime granularity_;
  SimTime min_rto_;
  SimTime max_rto_;
  SimTime rto_;
  SimTime srtt_;
  SimTime rttvar_;
  bool has_sample_ = false;
  RtoRules rules_;
  Jiffies jiffies_;
  // Linux's struct tcp_sock fields, in the kernel's fixed point: srtt_us is 8 x SRTT, mdev_us
  // 4 x mdev, mdev_max_us and rttvar_us 4 x a deviation; rtt_seq is snd_nxt when the round began.
  int64_t srtt_us_ = 0;
  int64_t mdev_us_ = 0;
  int64_t mdev_max_us_ = 0;
  int64_t rttvar_us_ = 0;
  SeqNo rtt_seq_ = 0;
};

}  // namespace tcb
