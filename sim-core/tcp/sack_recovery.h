// SACK-based loss recovery (RFC 6675) over the connection's SentLog, and Proportional Rate Reduction
// (RFC 9937) over it. With RACK-TLP (RFC 8985) the loss marks are RACK's and the rule only repairs.
#pragma once

#include "tcp/prr.h"
#include "tcp/recovery_ops.h"

namespace tcb {

// RFC 6675 §5: on entering recovery cwnd = ssthresh and the first segment presumed lost is resent;
// then, on every ACK, NextSeg() picks what to send while cwnd - pipe allows a segment; recovery ends
// when the cumulative ACK covers RecoveryPoint. After a timeout the window counts the pipe too.
class SackRecovery : public RecoveryOps {
 public:
  // `rack`: RACK-TLP marks the losses (RFC 8985).
  explicit SackRecovery(bool rack) : rack_(rack) {}

  std::string_view name() const override { return "sack-rfc6675"; }
  bool UsesSack() const override { return true; }
  // RFC 6675 IsLost(), applied from the oldest segment upwards: a segment is lost once DupThresh
  // discontiguous SACKed blocks, or more than (DupThresh - 1) * SMSS SACKed bytes, lie above it.
  Bytes MarkLost(RecoveryContext& c) override;
  bool HeadIsLost(const RecoveryContext& c) const override;

  void Enter(RecoveryContext& c, SimTime now, const AckSample& sample) override;
  bool OnAck(RecoveryContext& c, SimTime now, const AckInfo& ack, const AckSample& sample) override;
  void OnDuplicateAck(RecoveryContext& c, const AckSample& sample) override;
  // RFC 6675 §5 step (C): while cwnd - pipe allows a segment, send what NextSeg() returns: a
  // retransmission (rules 1, 3, 4) here, new data (rule 2) through the sender's CanSend() once this
  // returns. A loss detector that marks segments outside an ACK (RACK's reordering timer) calls it.
  void SendRetransmissions(RecoveryContext& c) override;

  Bytes InFlight(const RecoveryContext& c) const override { return c.log->in_flight(); }
  bool WindowAllows(const RecoveryContext& c, Bytes bytes) const override;

 protected:
  // The window on entering recovery and on each ACK during it (`safe_ack`: the ACK advanced snd_una
  // and marked nothing lost): the rule's own when it sets the window, else RFC 6675's cwnd =
  // ssthresh, kept.
  virtual void EnterWindow(RecoveryContext& c, const AckSample& sample);
  virtual void UpdateWindow(RecoveryContext& c, const AckSample& sample, bool safe_ack);

 private:
  // RFC 6675 §4 NextSeg() for a retransmission: the segment to resend and the rule that chose it,
  // or rule 0 when the next segment is new data (rule 2) or there is none (rule 5).
  struct NextSegment {
    int rule = 0;
    SeqNo seq = 0;
    Bytes bytes = 0;
  };
  NextSegment NextSeg(const RecoveryContext& c) const;

  bool rack_;
  // RFC 6675 §2 HighRxt and RescueRxt for the current recovery, each as one past the sequence
  // number the RFC names: the end of the highest segment retransmitted by NextSeg() rules (1) and
  // (3), and the end of the first retransmission, then RecoveryPoint + 1 once rule (4) has sent its
  // rescue.
  SeqNo high_rxt_ = 0;
  SeqNo rescue_rxt_ = 0;
};

// RFC 9937 Proportional Rate Reduction over RFC 6675's accounting: the window in recovery follows
// PRR (tcp/prr.h) instead of dropping to ssthresh at once.
class PrrRecovery final : public SackRecovery {
 public:
  using SackRecovery::SackRecovery;

  std::string_view name() const override { return "prr"; }
  void OnSent(const RecoveryContext& c, Bytes bytes) override {
    // RFC 9937 §6: prr_out += data sent, on any transmission in recovery.
    if (c.tcb.in_recovery()) prr_.OnSent(bytes);
  }
  const Prr& prr() const { return prr_; }

 protected:
  void EnterWindow(RecoveryContext& c, const AckSample& sample) override;
  void UpdateWindow(RecoveryContext& c, const AckSample& sample, bool safe_ack) override;

 private:
  Prr prr_;
};

}  // namespace tcb
