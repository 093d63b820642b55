// Proportional Rate Reduction per RFC 9937 (which obsoletes RFC 6937): the per-ACK sending
// quantity (sndcnt) on the initial conditions of the RFC's examples, its changes from RFC 6937, and
// PRR recovery over the connection's controller ending with cwnd = ssthresh.
#include "tcp/prr.h"

#include <gtest/gtest.h>

#include <vector>

#include "tcp/connection_control.h"
#include "testing/fake_sender.h"

namespace tcb {
namespace {

// The RFC's examples count in segments: one byte stands for one segment here (Prr is unit-free).
constexpr Bytes kSeg = 1;

// One ACK's sndcnt: the window PRR returns less the pipe it was given.
Bytes SndCnt(Prr& prr, Bytes delivered, Bytes pipe, Bytes ssthresh, bool safe_ack) {
  const auto cwnd = prr.OnAck(delivered, pipe, ssthresh, kSeg, safe_ack);
  EXPECT_TRUE(cwnd.has_value());
  return cwnd.value_or(pipe) - pipe;
}

// RFC 9937 §6.1: RecoverFS leaves out what the scoreboard held SACKed before the ACK that starts
// recovery, and counts what that ACK acknowledged cumulatively.
TEST(PrrTest, RecoverFsLeavesOutDataSackedBeforeRecovery) {
  // The examples' start: 22 segments outstanding (20, plus 2 sent by limited transmit), 3 SACKed of
  // which the third duplicate ACK SACKed one: RecoverFS = 22 - 2 = 20 segments.
  EXPECT_EQ(Prr::RecoverFs(22 * kSeg, 3 * kSeg, 1 * kSeg, 0), 20 * kSeg);
  // An ACK that both advances SND.UNA by 2 segments and starts recovery.
  EXPECT_EQ(Prr::RecoverFs(18 * kSeg, 4 * kSeg, 1 * kSeg, 2 * kSeg), 17 * kSeg);
}

// RFC 9937's examples, one loss: cwnd = FlightSize = 20 segments, ssthresh = 10, segment 0 lost,
// limited transmit (RFC 3042) sent 2 new segments on the first two duplicate ACKs and the third
// starts recovery. While pipe > ssthresh the proportional part sends one segment per two ACKs (the
// examples' "sent" row for PRR: R, -, N, -, N, ...), starting with the fast retransmit.
TEST(PrrTest, SingleLossSendsOneSegmentPerTwoAcks) {
  const Bytes ssthresh = 10 * kSeg;
  Prr prr;
  prr.Start(Prr::RecoverFs(22 * kSeg, 3 * kSeg, 1 * kSeg, 0));
  Bytes pipe = 22 * kSeg - 3 * kSeg - 1 * kSeg;  // Outstanding, less SACKed, less segment 0 lost.
  std::vector<Bytes> sndcnt;
  for (int ack = 3; ack <= 18; ++ack) {
    if (ack > 3) pipe -= kSeg;  // Each further ACK SACKs one segment; the third's is counted above.
    const Bytes n = SndCnt(prr, kSeg, pipe, ssthresh, /*safe_ack=*/false);
    sndcnt.push_back(n / kSeg);
    prr.OnSent(n);
    pipe += n;
  }
  // §6.2: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out: with RecoverFS = 2 ssthresh,
  // one segment on each odd-numbered ACK, none on the others, until pipe reaches ssthresh.
  const std::vector<Bytes> expected{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
  EXPECT_EQ(sndcnt, expected);
  EXPECT_EQ(prr.prr_delivered(), 16 * kSeg);
  EXPECT_EQ(prr.prr_out(), 8 * kSeg);
  EXPECT_EQ(pipe, 11 * kSeg);
  // The next ACK takes pipe to ssthresh: the reduction bound's ssthresh - pipe = 0 ("s" in the
  // examples' RB row) sends nothing more, and the window has come down to ssthresh.
  pipe -= kSeg;
  EXPECT_EQ(SndCnt(prr, kSeg, pipe, ssthresh, false), 0);
  EXPECT_EQ(pipe, ssthresh);
}

// RFC 9937's examples, a burst: segments 0-14 of the 20 lost, so that pipe falls to 4 segments,
// below ssthresh = 10, on the ACK that starts recovery (the third duplicate, for segment 17), and
// the reduction bound decides. PRR-CRB (§6.2, the default) sends what was delivered ("b": one
// retransmission per ACK, pipe 4 4 4); PRR-SSRB one segment more ("bd", "d": two per ACK, pipe 4 5 6).
TEST(PrrTest, BurstLossReductionBounds) {
  const Bytes ssthresh = 10 * kSeg;
  for (const bool safe : {false, true}) {
    Prr prr;
    prr.Start(Prr::RecoverFs(22 * kSeg, 3 * kSeg, 1 * kSeg, 0));
    Bytes pipe = 22 * kSeg - 3 * kSeg - 15 * kSeg;
    std::vector<Bytes> sndcnt, pipes;
    for (int ack = 17; ack <= 19; ++ack) {
      if (ack > 17) pipe -= kSeg;
      pipes.push_back(pipe / kSeg);
      const Bytes n = SndCnt(prr, kSeg, pipe, ssthresh, safe);
      sndcnt.push_back(n / kSeg);
      prr.OnSent(n);
      pipe += n;
    }
    if (safe) {
      EXPECT_EQ(sndcnt, (std::vector<Bytes>{2, 2, 2}));
      EXPECT_EQ(pipes, (std::vector<Bytes>{4, 5, 6}));
    } else {
      EXPECT_EQ(sndcnt, (std::vector<Bytes>{1, 1, 1}));
      EXPECT_EQ(pipes, (std::vector<Bytes>{4, 4, 4}));
    }
  }
}

// RFC 9937 §6.2: the reduction bound never takes pipe above ssthresh, and PRR-CRB catches up
// what earlier ACKs allowed but were not sent (prr_delivered - prr_out, "banked").
TEST(PrrTest, ReductionBoundCatchesUpButStopsAtSsthresh) {
  Prr prr;
  prr.Start(20 * kSeg);
  // Three ACKs deliver a segment each while nothing is sent (say the application stalled).
  for (int i = 0; i < 3; ++i) prr.OnAck(kSeg, 12 * kSeg, 10 * kSeg, kSeg, false);
  prr.OnSent(kSeg);  // Only the fast retransmit went out.
  // pipe 5 < ssthresh 10: CRB sends the banked 4 - 1 = 3 segments; SSRB would send 4 (+1 MSS).
  EXPECT_EQ(SndCnt(prr, kSeg, 5 * kSeg, 10 * kSeg, false), 3 * kSeg);
  Prr ssrb = prr;
  EXPECT_EQ(SndCnt(ssrb, kSeg, 9 * kSeg, 10 * kSeg, true), 1 * kSeg);  // Capped by ssthresh - pipe.
}

// RFC 9937 §6.2: on entering recovery the fast retransmit goes out even when the proportional part
// allows nothing yet (prr_out = 0 and sndcnt = 0 give sndcnt = SMSS).
TEST(PrrTest, FastRetransmitAlwaysGoesOut) {
  Prr prr;
  prr.Start(100 * kSeg);
  // pipe = ssthresh: the reduction bound allows ssthresh - pipe = 0, yet the first ACK lets one
  // segment out.
  EXPECT_EQ(SndCnt(prr, kSeg, 10 * kSeg, 10 * kSeg, false), kSeg);
  prr.OnSent(kSeg);
  EXPECT_EQ(SndCnt(prr, kSeg, 10 * kSeg, 10 * kSeg, false), 0);  // Only the first time.
}

// RFC 9937 §6.2: an ACK that delivers nothing (a duplicate ACK without new SACKed data) changes
// neither PRR's state nor the window.
TEST(PrrTest, AckDeliveringNothingLeavesTheWindow) {
  Prr prr;
  prr.Start(20 * kSeg);
  EXPECT_FALSE(prr.OnAck(0, 15 * kSeg, 10 * kSeg, kSeg, false).has_value());
  EXPECT_EQ(prr.prr_delivered(), 0);
}

// RFC 9937 §6 (the step at the end of recovery): recovery ends with cwnd = ssthresh, over the
// connection's controller with `recovery: prr` and RFC 6675 loss marking.
TEST(PrrTest, RecoveryOverTheControllerEndsWithCwndAtSsthresh) {
  constexpr Bytes kCtlMss = testing::FakeSender::kMss;
  TcpConfig config;
  config.SetFlavor(TcpFlavor::kSack);
  config.recovery = LossRecovery::kPrr;
  config.mss = kCtlMss;
  config.initial_window_segments = 20;
  config.receive_window = 1 << 30;
  testing::FakeSender sender;
  ConnectionControl cc(config, sender);
  sender.controller = &cc;
  cc.OnEstablished(SimTime::Zero(), false);
  sender.SendTo(1 + 20 * kCtlMss);  // Segments 0..19; segment 0 is lost.
  SimTime now = SimTime::Milliseconds(100);
  sender.now = now;
  // Duplicate ACKs SACK segments 1, 2, 3: RFC 6675's DupThresh starts recovery on the third.
  auto dup = [&](int sacked_through) {
    SackBlock b{1 + kCtlMss, 1 + (sacked_through + 1) * kCtlMss};
    sender.sacks.Update(sender.una, &b, 1);
    AckInfo info;
    info.ack = sender.una;
    info.sack_blocks = &b;
    info.sack_count = 1;
    cc.OnDuplicateAck(now, info);
  };
  for (int s = 1; s <= 3; ++s) dup(s);
  ASSERT_TRUE(cc.in_recovery());
  EXPECT_EQ(cc.ssthresh(), 10 * kCtlMss);  // RFC 6675 §5 (4.2): FlightSize / 2.
  ASSERT_FALSE(sender.retransmitted.empty());
  EXPECT_EQ(sender.retransmitted.front(), 1);  // The fast retransmit went out.
  for (int s = 4; s <= 10; ++s) dup(s);
  EXPECT_LT(cc.cwnd(), 20 * kCtlMss);
  // The retransmission arrives: the cumulative ACK covers everything sent (RecoveryPoint).
  const SeqNo all = sender.max;
  AckInfo info;
  info.ack = all;
  info.newly_acked = all - sender.una;
  sender.una = all;
  sender.nxt = std::max(sender.nxt, all);
  sender.sacks.Update(all, nullptr, 0);
  cc.OnAck(now, info);
  EXPECT_FALSE(cc.in_recovery());
  EXPECT_EQ(cc.cwnd(), cc.ssthresh());
  EXPECT_EQ(cc.cwnd(), 10 * kCtlMss);
}

}  // namespace
}  // namespace tcb
