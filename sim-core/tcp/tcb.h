// The congestion-control part of a TCP control block: the state that RFC 9040 and the seed papers
// share between connections.
#pragma once

#include "core/units.h"
#include "tcp/rtt_estimator.h"
#include "tcp/tcp_config.h"

namespace tcb {

// The loss-recovery state (Linux's tcp_ca_state, ns-3's TcpCongState_t).
enum class CongestionState : uint8_t {
  kOpen,      // No loss being repaired.
  kRecovery,  // Fast recovery after a fast retransmit.
  kLoss,      // After a retransmission timeout (or Tahoe's go-back-N), until what was outstanding
              // then is acknowledged.
};

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

  // Loss recovery (tcp/recovery_ops.h): one state for the owner, its recovery rule and its
  // window rule.
  CongestionState state = CongestionState::kOpen;
  bool in_recovery() const { return state == CongestionState::kRecovery; }
  int dupacks = 0;
  // RFC 6582 "recover" (RFC 6675 "RecoveryPoint"): the highest sequence number sent when recovery
  // (or a timeout) began.
  SeqNo recover = -1;
};

}  // namespace tcb
