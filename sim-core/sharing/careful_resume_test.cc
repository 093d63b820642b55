// RFC 9959 Careful Resume, rule by rule, on a hand-driven connection with Appendix B's numbers (the
// phases on whole runs are in tests/careful_resume_runs_test.cc).
#include "sharing/careful_resume.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

using nlohmann::json;

// A Reno (RFC 6675 recovery) connection of 1000-byte segments, resuming from a saved_cwnd of 300
// packets and a saved_rtt of 100 ms, driven by hand so that 29 packets are in flight when the path
// is confirmed, as in Appendix B (an initial window of 20 lets slow start reach that before the
// initial window is acknowledged).
class HandDriven {
 public:
  static constexpr Bytes kMss = 1000;
  static constexpr SimTime kRtt = SimTime::Milliseconds(100);

  explicit HandDriven(double beta = 0.5) {
    SharingConfig config;
    config.scheme = SchemeKind::kCarefulResume;
    config.cache_lifetime = SimTime::Seconds(3600);
    config.cr_beta = beta;
    scheme_ = std::make_unique<CarefulResumeScheme>(config, SharingEnvironment{&sim_, nullptr});
    ConnectionContext context;
    context.remote = 7;
    TcpConfig tcp;
    tcp.SetFlavor(TcpFlavor::kSack);
    tcp.mss = kMss;
    tcp.initial_window_segments = 20;
    tcp.receive_window = 1 << 30;
    sender.unsent = 1'000'000 * kMss;
    // The path's entry exists once a connection to it has opened.
    testing::FakeSender earlier;
    scheme_->Attach(tcp, earlier, context).reset();
    scheme_->Save(GroupKey(config.scope, context), SavedPath{300 * kMss, kRtt, SimTime::Zero(), false});
    cc = scheme_->Attach(tcp, sender, context);
    sender.controller = cc.get();
    cc->OnEstablished(now(), false);
  }
  // The member is destroyed before the scheme whose entry it leaves.
  ~HandDriven() { cc.reset(); }

  SimTime now() const { return sender.now; }
  void Advance(SimTime by) { sender.now = sender.now + by; }
  // Sends new data up to `segments` segments in flight (never beyond what the window allows).
  void Fill(int segments) {
    while (sender.max < sender.una + segments * kMss && cc->CanSend(kMss)) sender.SendNewSegment();
  }
  // The next `n` segments are acknowledged one ACK each, an RTT sample with each.
  void AckSegments(int n) {
    for (int i = 0; i < n; ++i) {
      AckInfo ack;
      ack.ack = sender.una + kMss;
      ack.newly_acked = kMss;
      sender.una = ack.ack;
      sender.sacks.Update(ack.ack, nullptr, 0);
      cc->OnRttSample(now(), kRtt);
      cc->OnAck(now(), ack);
    }
  }
  // Three duplicate ACKs SACKing the segments above the first unacknowledged one.
  void ThreeDuplicates() {
    for (int i = 1; i <= 3; ++i) {
      SackBlock block{sender.una + kMss, sender.una + (1 + i) * kMss};
      sender.sacks.Update(sender.una, &block, 1);
      AckInfo dup;
      dup.ack = sender.una;
      dup.sack_blocks = &block;
      dup.sack_count = 1;
      cc->OnDuplicateAck(now(), dup);
    }
  }
  // Confirms the path as Appendix B does: the initial window in flight, then 30 packets while it is
  // acknowledged; the ACK of the last initial-window packet jumps, leaving 29 in flight.
  void ConfirmWith29InFlight() {
    Fill(20);
    Advance(kRtt);
    AckSegments(19);
    Fill(30);
    ASSERT_EQ(Phase(), CrPhase::kReconnaissance);
    AckSegments(1);
    ASSERT_EQ(Phase(), CrPhase::kUnvalidated);
  }
  CrPhase Phase() const {
    TcpSeriesRow row;
    cc->DescribeState(row);
    return static_cast<CrPhase>(row.cr_phase);
  }
  int64_t Outcome(const char* name) const {
    json groups = json::array();
    scheme_->Describe(groups);
    return groups[0]["carefulResume"][name].get<int64_t>();
  }

  testing::FakeSender sender;
  std::unique_ptr<CongestionControl> cc;

 private:
  Simulation sim_{1};
  std::unique_ptr<CarefulResumeScheme> scheme_;
};

// §4.3 "Setting the jump_cwnd": CWND = jump_cwnd = saved_cwnd / 2; Appendix A: in the Unvalidated
// Phase "CWND is not increased" (the window rule's slow start does not run on top of the jump).
TEST(CarefulResumeTest, TheUnvalidatedPhaseHoldsTheJumpWindow) {
  HandDriven d;
  d.ConfirmWith29InFlight();
  EXPECT_EQ(d.cc->cwnd(), 150 * HandDriven::kMss);
  d.Fill(120);
  d.Advance(SimTime::Milliseconds(50));
  d.AckSegments(20);  // Most of the pre-jump flight, acknowledged while unvalidated.
  EXPECT_EQ(d.Phase(), CrPhase::kUnvalidated);
  EXPECT_EQ(d.cc->cwnd(), 150 * HandDriven::kMss);
}

// Appendix B.4 ("Example with Loss detected in the Validating Phase"): 29 packets in flight at the
// jump, "The received ACKs acknowledge the reception of the first 34 unvalidated packets. The
// PipeSize at this time is equal to 63 (29 + 34) packets", and on the loss "the CWND is reset to
// ... PS/2": 31.5 packets here (the RFC's Max(10, 63/2) = 31 counts whole packets). The ACKs of the
// 29 pre-jump packets are not counted again.
TEST(CarefulResumeTest, PipeSizeCountsThePreJumpFlightOnceAsAppendixBDoes) {
  HandDriven d;
  d.ConfirmWith29InFlight();
  d.Fill(150);
  d.Advance(HandDriven::kRtt);
  d.AckSegments(29 + 34);  // The 29 of the pre-jump flight, then 34 unvalidated packets.
  ASSERT_EQ(d.Phase(), CrPhase::kValidating);
  d.ThreeDuplicates();  // Unvalidated packet 35 is lost.
  EXPECT_EQ(d.Phase(), CrPhase::kSafeRetreat);
  EXPECT_EQ(d.cc->cwnd(), 63 * HandDriven::kMss / 2);
}

// §4.5: "On leaving the Safe Retreat Phase, the ssthresh MUST be set to no larger than the most
// recently measured PipeSize * Beta": no larger than loss recovery's ssthresh either (it is never
// raised), on the ACK of the last unvalidated packet as after a timeout while draining, which is
// counted as the retreat it ends.
TEST(CarefulResumeTest, LeavingSafeRetreatTakesTheSmallerSsthreshAlsoOnATimeout) {
  for (const bool timeout : {false, true}) {
    SCOPED_TRACE(timeout);
    HandDriven d(/*beta=*/1.0);
    d.ConfirmWith29InFlight();
    d.Fill(150);
    d.Advance(HandDriven::kRtt);
    d.AckSegments(29 + 34);
    d.ThreeDuplicates();
    ASSERT_EQ(d.Phase(), CrPhase::kSafeRetreat);
    const Bytes recovery_ssthresh = d.cc->ssthresh();
    if (timeout) {
      d.cc->OnRetransmissionTimeout(d.now());
      EXPECT_EQ(d.Outcome("timeout"), 0);
    } else {
      d.AckSegments(static_cast<int>((d.sender.max - d.sender.una) / HandDriven::kMss));
    }
    EXPECT_EQ(d.Phase(), CrPhase::kNormal);
    EXPECT_EQ(d.Outcome("retreated"), 1);
    // PipeSize x Beta is 63 packets or more; recovery's ssthresh (half the flight) is less.
    EXPECT_LE(d.cc->ssthresh(), recovery_ssthresh);
    EXPECT_LT(recovery_ssthresh, 63 * HandDriven::kMss + 1);
  }
}

// Appendix B.1: "Each time a packet is sent, the sender checks whether 1 RTT has passed since
// entering the Unvalidated Phase (otherwise, the Validating Phase is entered)": a sender whose
// jump window is not full leaves the phase on its first transmission more than one RTT after the
// jump, with no ACK to tell it.
TEST(CarefulResumeTest, TheOneRttLimitIsCheckedOnEveryTransmission) {
  HandDriven d;
  d.ConfirmWith29InFlight();
  d.Fill(60);
  d.Advance(HandDriven::kRtt + SimTime::Milliseconds(1));
  ASSERT_EQ(d.Phase(), CrPhase::kUnvalidated);
  d.Fill(61);
  EXPECT_EQ(d.Phase(), CrPhase::kValidating);
  EXPECT_EQ(d.cc->cwnd(), 61 * HandDriven::kMss);  // §4.3 "Check flight_size": CWND = flight_size.
}

TEST(CarefulResumeTest, PhaseNamesComeFromTheSeriesColumn) {
  EXPECT_EQ(CrPhaseName(CrPhase::kSafeRetreat), "safe-retreat");
  EXPECT_EQ(CrPhaseName(CrPhase::kReconnaissance), "reconnaissance");
}

}  // namespace
}  // namespace tcb
