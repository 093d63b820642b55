// The congestion-control part of a TCP control block: the state that RFC 9040 and the seed papers
// share between connections.
#pragma once

#include "core/units.h"
#include "tcp/rtt_estimator.h"
#include "tcp/tcp_config.h"

namespace tcb {

struct Tcb {
  explicit Tcb(const TcpConfig& config)
      : mss(config.mss),
        cwnd(config.InitialWindowBytes()),
        ssthresh(config.initial_ssthresh),
        rtt(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto, config.rto_rules,
            config.linux_hz) {}

  Bytes mss;
  Bytes cwnd;
  Bytes ssthresh;
  RttEstimator rtt;

  // Loss recovery.
  int dupacks = 0;
  bool in_recovery = false;
  // RFC 6582 "recover" (RFC 6675 "RecoveryPoint"): the highest sequence number sent when recovery
  // (or a timeout) began.
  SeqNo recover = -1;
  bool first_partial_ack = true;
};

}  // namespace tcb
