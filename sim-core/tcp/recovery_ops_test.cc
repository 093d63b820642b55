// The recovery rules on their own (tcp/recovery_ops.h), each over a RecoveryContext and a scripted
// sender: what entering recovery does, what an ACK during it does, and when it ends.
#include "tcp/recovery_ops.h"

#include <gtest/gtest.h>

#include <vector>

#include "tcp/sack_recovery.h"
#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

// Tells the SentLog and the rule of what the scripted sender sends, as the connection's controller
// does (ConnectionControl::OnSegmentSent()).
class SendTap final : public CongestionControl {
 public:
  SendTap(SentLog* log, RecoveryOps& ops, const RecoveryContext& context) : log_(log), ops_(ops), context_(context) {}
  void OnSegmentSent(SimTime now, const SentSegment& s) override {
    if (log_ != nullptr) log_->OnSent(now, s.seq, s.bytes);
    ops_.OnSent(context_, s.bytes);
  }
  void OnEstablished(SimTime, bool) override {}
  void OnSendStart(SimTime, bool, Bytes) override {}
  bool OnAck(SimTime, const AckInfo&) override { return false; }
  void OnDuplicateAck(SimTime, const AckInfo&) override {}
  void OnRetransmissionTimeout(SimTime) override {}
  void OnRttSample(SimTime, SimTime) override {}
  void OnClosed(SimTime) override {}
  bool CanSend(Bytes) override { return false; }
  Bytes cwnd() const override { return 0; }
  Bytes ssthresh() const override { return 0; }
  const RttEstimator& rtt() const override { return rtt_; }
  bool in_recovery() const override { return false; }

 private:
  SentLog* log_;
  RecoveryOps& ops_;
  const RecoveryContext& context_;
  RttEstimator rtt_{SimTime::Zero(), SimTime::Zero(), SimTime::Seconds(60), SimTime::Seconds(1)};
};

// A connection with `in_flight` segments outstanding from sequence number 1, ssthresh set as the
// window rule would (half the flight), the given recovery rule.
struct Rig {
  Rig(LossRecovery recovery, int in_flight) : config(Config(recovery)), tcb(config), context(tcb, sender, reno, config) {
    if (ops = MakeRecoveryOps(config); ops->UsesSack()) {
      log = std::make_unique<SentLog>();
      context.log = log.get();
    }
    tcb.cwnd = in_flight * kMss;
    sender.max = sender.nxt = 1 + in_flight * kMss;
    if (log != nullptr) {
      for (int i = 0; i < in_flight; ++i) log->OnSent(SimTime::Zero(), 1 + i * kMss, kMss);
    }
    tcb.ssthresh = in_flight * kMss / 2;
    tcb.recover = sender.max - 1;
    tap = std::make_unique<SendTap>(log.get(), *ops, context);
    sender.controller = tap.get();
  }
  static TcpConfig Config(LossRecovery recovery) {
    TcpConfig c;
    c.mss = kMss;
    c.recovery = recovery;
    return c;
  }
  // A cumulative ACK for `ack` (and the sample the owner would build from it).
  AckSample Ack(SeqNo ack, AckInfo* info) {
    info->ack = ack;
    info->newly_acked = ack - sender.una;
    sender.una = ack;
    sender.sacks.Update(ack, nullptr, 0);
    AckSample s;
    s.delivered = info->newly_acked;
    if (log != nullptr) {
      const AckDelivery& d = log->OnAck(SimTime::Zero(), ack, nullptr, 0);
      s.delivered = d.newly_delivered();
    }
    return s;
  }

  TcpConfig config;
  testing::FakeSender sender;
  RenoOps reno;
  Tcb tcb;
  std::unique_ptr<SentLog> log;
  RecoveryContext context;
  std::unique_ptr<RecoveryOps> ops;
  std::unique_ptr<SendTap> tap;
};

// RFC 5681 §3.2 steps 2-6: retransmit, cwnd = ssthresh + 3 SMSS, inflate by one SMSS per further
// duplicate, and the next ACK of new data ends recovery with cwnd = ssthresh.
TEST(RecoveryOpsTest, RenoInflatesThenDeflatesOnTheFirstNewAck) {
  Rig r(LossRecovery::kReno, 10);
  EXPECT_FALSE(r.ops->ChecksRecoverPoint());  // RFC 5681 has no "recover" check.
  r.ops->Enter(r.context, SimTime::Zero(), {});
  EXPECT_EQ(r.sender.retransmitted, std::vector<SeqNo>{1});
  EXPECT_EQ(r.tcb.state, CongestionState::kRecovery);
  EXPECT_EQ(r.tcb.cwnd, 8 * kMss);
  r.ops->OnDuplicateAck(r.context, {});
  EXPECT_EQ(r.tcb.cwnd, 9 * kMss);
  AckInfo ack;
  const AckSample s = r.Ack(1 + 2 * kMss, &ack);  // Only partly: Reno leaves recovery anyway.
  EXPECT_TRUE(r.ops->OnAck(r.context, SimTime::Zero(), ack, s));
  EXPECT_EQ(r.tcb.state, CongestionState::kOpen);
  EXPECT_EQ(r.tcb.cwnd, 5 * kMss);
}

// RFC 6582 §3.2 step 3: a partial ACK retransmits the next hole and deflates by what it
// acknowledged (plus one SMSS); only the first resets the timer (§4, "impatient"); the full ACK
// leaves recovery with min(ssthresh, max(FlightSize, SMSS) + SMSS).
TEST(RecoveryOpsTest, NewRenoStaysInRecoveryUntilTheRecoverPointIsAcknowledged) {
  Rig r(LossRecovery::kNewReno, 10);
  EXPECT_TRUE(r.ops->ChecksRecoverPoint());
  r.ops->Enter(r.context, SimTime::Zero(), {});
  ASSERT_EQ(r.tcb.cwnd, 8 * kMss);
  AckInfo ack;
  AckSample s = r.Ack(1 + 3 * kMss, &ack);
  EXPECT_TRUE(r.ops->OnAck(r.context, SimTime::Zero(), ack, s));
  EXPECT_EQ(r.sender.retransmitted, (std::vector<SeqNo>{1, 1 + 3 * kMss}));
  EXPECT_EQ(r.tcb.cwnd, 8 * kMss - 3 * kMss + kMss);
  EXPECT_TRUE(r.tcb.in_recovery());
  s = r.Ack(1 + 5 * kMss, &ack);
  EXPECT_FALSE(r.ops->OnAck(r.context, SimTime::Zero(), ack, s));  // Not the first partial ACK.
  s = r.Ack(1 + 10 * kMss, &ack);
  EXPECT_TRUE(r.ops->OnAck(r.context, SimTime::Zero(), ack, s));
  EXPECT_EQ(r.tcb.state, CongestionState::kOpen);
  EXPECT_EQ(r.tcb.cwnd, 2 * kMss);  // Nothing in flight: min(5 SMSS, max(0, SMSS) + SMSS).
}

// Tahoe: no fast recovery; the fast retransmit goes back N from one segment in the Loss state.
TEST(RecoveryOpsTest, TahoeGoesBackNFromOneSegment) {
  Rig r(LossRecovery::kGoBackN, 10);
  r.ops->Enter(r.context, SimTime::Zero(), {});
  EXPECT_EQ(r.tcb.cwnd, kMss);
  EXPECT_EQ(r.tcb.state, CongestionState::kLoss);
  EXPECT_EQ(r.sender.go_back_n, 1);
  EXPECT_EQ(r.sender.retransmitted, std::vector<SeqNo>{1});
}

// RFC 6675 §5 step 4: cwnd = ssthresh, the first segment is resent whatever cwnd - pipe says; the
// window counts the pipe while in recovery; recovery ends on the ACK of RecoveryPoint with cwnd =
// ssthresh.
TEST(RecoveryOpsTest, SackRecoveryCountsThePipeAndEndsAtTheRecoveryPoint) {
  Rig r(LossRecovery::kSackRfc6675, 10);
  EXPECT_TRUE(r.ops->UsesSack());
  r.ops->Enter(r.context, SimTime::Zero(), {});
  EXPECT_EQ(r.tcb.cwnd, 5 * kMss);
  EXPECT_EQ(r.sender.retransmitted, std::vector<SeqNo>{1});
  // Pipe: the 9 originals not deemed lost and the retransmission, more than cwnd: no new data.
  EXPECT_EQ(r.ops->InFlight(r.context), 10 * kMss);
  EXPECT_FALSE(r.ops->WindowAllows(r.context, kMss));
  AckInfo ack;
  const AckSample s = r.Ack(1 + 10 * kMss, &ack);
  EXPECT_TRUE(r.ops->OnAck(r.context, SimTime::Zero(), ack, s));
  EXPECT_EQ(r.tcb.state, CongestionState::kOpen);
  EXPECT_EQ(r.tcb.cwnd, 5 * kMss);
}

// RFC 9937 §6.1-§6.2 through the rule: PRR starts with RecoverFS and sets cwnd on the ACK that
// starts recovery, letting the fast retransmit out (sndcnt forced to one SMSS), and counts what
// recovery sends as prr_out.
TEST(RecoveryOpsTest, PrrSetsTheWindowFromRecoverFsAndCountsWhatIsSent) {
  Rig r(LossRecovery::kPrr, 10);
  AckSample start;
  start.delivered = kMss;  // The duplicate ACK that starts recovery (its SACK block not in the log).
  r.ops->Enter(r.context, SimTime::Zero(), start);
  const auto& prr = static_cast<const PrrRecovery&>(*r.ops).prr();
  // RecoverFS: the 10 outstanding, less what was SACKed before this ACK (nothing).
  EXPECT_EQ(prr.recover_fs(), 10 * kMss);
  // pipe (9, the first deemed lost) > ssthresh (5): sndcnt = CEIL(1 * 5 / 10) - 0 = 1 segment, which
  // lets the fast retransmit out and is counted as prr_out.
  EXPECT_EQ(r.sender.retransmitted, std::vector<SeqNo>{1});
  EXPECT_EQ(prr.prr_out(), kMss);
}

}  // namespace
}  // namespace tcb
