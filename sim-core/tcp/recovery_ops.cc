// The classic recoveries without SACK: Tahoe's go-back-N, Reno (RFC 5681 §3.2) and NewReno
// (RFC 6582); the SACK-based ones are in tcp/sack_recovery.cc.
#include "tcp/recovery_ops.h"

#include <algorithm>

#include "tcp/sack_recovery.h"

namespace tcb {

namespace {

// The window during a classic recovery: the rule's own when it sets the window (BBR), else `cwnd`.
void SetRecoveryWindow(RecoveryContext& c, const AckSample& sample, Bytes cwnd) {
  if (c.rule.ControlsWindow()) {
    c.rule.ControlWindow(c.tcb, sample);
  } else {
    c.tcb.cwnd = cwnd;
  }
}

// Leaves recovery with the window `cwnd` (a rule that sets the window sets it after the state change).
void LeaveRecovery(RecoveryContext& c, SimTime now, const AckSample& sample, Bytes cwnd) {
  const bool rule_sets_window = c.rule.ControlsWindow();
  c.tcb.dupacks = 0;
  if (!rule_sets_window) c.tcb.cwnd = cwnd;
  c.SetState(now, CongestionState::kOpen);
  if (rule_sets_window) c.rule.ControlWindow(c.tcb, sample);
}

// RFC 5681 §3.2: fast retransmit and fast recovery.
class RenoRecovery : public RecoveryOps {
 public:
  std::string_view name() const override { return "reno"; }
  // Classic Reno (RFC 5681) enters recovery on every third duplicate ACK.
  bool ChecksRecoverPoint() const override { return false; }

  void Enter(RecoveryContext& c, SimTime now, const AckSample& sample) override {
    // Steps 2-3: retransmit, then cwnd = ssthresh + 3*SMSS for the three segments that left the
    // network.
    c.RetransmitLost(c.sender.snd_una());
    first_partial_ack_ = true;
    c.SetState(now, CongestionState::kRecovery);
    SetRecoveryWindow(c, sample, c.tcb.ssthresh + 3 * c.tcb.mss);
  }

  bool OnAck(RecoveryContext& c, SimTime now, const AckInfo&, const AckSample& sample) override {
    // Step 6: the next ACK of new data ends fast recovery and deflates the window.
    LeaveRecovery(c, now, sample, c.tcb.ssthresh);
    return true;
  }

  void OnDuplicateAck(RecoveryContext& c, const AckSample& sample) override {
    // Step 4: each further duplicate inflates cwnd by SMSS.
    SetRecoveryWindow(c, sample, c.tcb.cwnd + c.tcb.mss);
  }

 protected:
  // RFC 6582 §3.2 step 3 and §4 ("impatient" variant): only the first partial ACK resets the timer.
  bool first_partial_ack_ = true;
};

// RFC 6582: NewReno's partial acknowledgements keep the sender in recovery until everything
// outstanding when it began is acknowledged.
class NewRenoRecovery final : public RenoRecovery {
 public:
  std::string_view name() const override { return "newreno"; }
  bool ChecksRecoverPoint() const override { return true; }

  bool OnAck(RecoveryContext& c, SimTime now, const AckInfo& ack, const AckSample& sample) override {
    Tcb& tcb = c.tcb;
    // §3.2 step 3.
    if (ack.ack - 1 >= tcb.recover) {
      // Full acknowledgement: deflate to min(ssthresh, max(FlightSize, SMSS) + SMSS) and leave
      // recovery.
      LeaveRecovery(c, now, sample, std::min(tcb.ssthresh, std::max(c.sender.flight_size(), tcb.mss) + tcb.mss));
      return true;
    }
    // Partial acknowledgement: retransmit the first unacknowledged segment, deflate by the amount
    // acknowledged, add back one SMSS if at least one SMSS was acknowledged, stay in recovery.
    c.RetransmitLost(ack.ack);
    Bytes cwnd = std::max(tcb.cwnd - ack.newly_acked, tcb.mss);
    if (ack.newly_acked >= tcb.mss) cwnd += tcb.mss;
    SetRecoveryWindow(c, sample, cwnd);
    const bool restart = first_partial_ack_;
    first_partial_ack_ = false;
    return restart;
  }
};

// Tahoe (4.3BSD-Tahoe): no fast recovery; a fast retransmit goes back N and slow-starts from one
// segment (the Loss state, as after a timeout). RFC 6582's "recover" check is ns-2's default
// "bugfix" for Tahoe, which the seed papers' ns-2 TCP had.
class GoBackNRecovery final : public RenoRecovery {
 public:
  std::string_view name() const override { return "go-back-n"; }
  bool ChecksRecoverPoint() const override { return true; }

  void Enter(RecoveryContext& c, SimTime now, const AckSample&) override {
    c.tcb.cwnd = c.tcb.mss;
    c.tcb.dupacks = 0;
    c.SetState(now, CongestionState::kLoss);
    const SeqNo una = c.sender.snd_una();
    c.sender.GoBackN();
    c.RetransmitLost(una);
  }

  void OnDuplicateAck(RecoveryContext& c, const AckSample& sample) override {
    // No window inflation (Tahoe never is in fast recovery; a rule that sets its window keeps it).
    if (c.rule.ControlsWindow()) c.rule.ControlWindow(c.tcb, sample);
  }
};

}  // namespace

std::unique_ptr<RecoveryOps> MakeRecoveryOps(const TcpConfig& config) {
  switch (config.recovery) {
    case LossRecovery::kGoBackN:
      return std::make_unique<GoBackNRecovery>();
    case LossRecovery::kReno:
      return std::make_unique<RenoRecovery>();
    case LossRecovery::kNewReno:
      return std::make_unique<NewRenoRecovery>();
    case LossRecovery::kSackRfc6675:
      return std::make_unique<SackRecovery>(config.rack);
    case LossRecovery::kPrr:
      return std::make_unique<PrrRecovery>(config.rack);
  }
  return std::make_unique<NewRenoRecovery>();
}

}  // namespace tcb
