// Loss recovery after a fast retransmit, one rule per RFC behind one interface, as ns-3 splits
// TcpRecoveryOps (TcpClassicRecovery, TcpPrrRecovery) from the window rules, and Linux's
// tcp_fastretrans_alert() runs a recovery over any tcp_congestion_ops: Tahoe's go-back-N, Reno's
// fast recovery (RFC 5681 §3.2), NewReno's (RFC 6582), SACK-based recovery (RFC 6675) and
// Proportional Rate Reduction over it (RFC 9937). A rule decides how recovery starts (the window
// and the first retransmissions), what each ACK during it does to the window and resends, and when
// it ends; the window rule (CongestionOps) has already set ssthresh. A rule that sets the window
// itself (CongestionOps::ControlsWindow(), BBR) keeps doing so in recovery: the recovery rules then
// only decide what to resend.
#pragma once

#include <memory>
#include <string_view>

#include "tcp/congestion_control.h"
#include "tcp/congestion_ops.h"
#include "tcp/sent_log.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"

namespace tcb {

// What a recovery rule acts on: the connection's Tcb, its sender, its window rule and options, and
// its SentLog (kept with SACK-based recovery, else null), with the one way to change the
// congestion state. Owned by the connection's controller (tcp/connection_control.h).
class RecoveryContext {
 public:
  RecoveryContext(Tcb& tcb, SenderHandle& sender, CongestionOps& rule, const TcpConfig& config)
      : tcb(tcb), sender(sender), rule(rule), config(config) {}

  // Enters `state`, telling the window rule of a change (Linux's tcp_set_ca_state(), ns-3's
  // CongestionStateSet). Back in Open, a timeout's loss episode is over.
  void SetState(SimTime now, CongestionState state) {
    if (state == tcb.state) return;
    tcb.state = state;
    if (state == CongestionState::kOpen) timer_resent = false;
    rule.OnStateChange(tcb, now, state);
  }
  // Retransmits the segment at `seq` as lost (fast retransmit, NewReno's partial ACKs, Tahoe).
  void RetransmitLost(SeqNo seq) {
    if (log != nullptr) {
      if (SentRecord* r = log->Find(seq); r != nullptr && !r->lost) log->MarkLost(*r);
    }
    sender.RetransmitNow(seq);
  }

  Tcb& tcb;
  SenderHandle& sender;
  CongestionOps& rule;
  const TcpConfig& config;
  SentLog* log = nullptr;  // Not owned.
  // RFC 5681 §3.1: the retransmission timer has resent snd_una in the current loss episode, so a
  // further timeout holds ssthresh.
  bool timer_resent = false;
};

class RecoveryOps {
 public:
  virtual ~RecoveryOps() = default;

  virtual std::string_view name() const = 0;
  // Whether the rule recovers from the SACK scoreboard (RFC 6675's pipe and IsLost()); the owner
  // then keeps a SentLog.
  virtual bool UsesSack() const { return false; }

  // ---- Loss detection that belongs to the rule ----
  // RFC 6675 IsLost() over the scoreboard after an ACK; returns the bytes newly marked lost.
  virtual Bytes MarkLost(RecoveryContext&) { return 0; }
  // The first unacknowledged segment is already deemed lost (RFC 6675 §5: with SACK, before
  // DupThresh duplicate ACKs arrive).
  virtual bool HeadIsLost(const RecoveryContext&) const { return false; }
  // RFC 6582 §3.2 step 2: duplicate ACKs that do not cover more than "recover" start no recovery,
  // so that one window of losses causes one reduction. Classic Reno (RFC 5681) has no such check.
  virtual bool ChecksRecoverPoint() const { return true; }

  // ---- Recovery ----
  // Recovery starts at `sample`'s ACK: ssthresh is set and tcb.recover is HighData - 1. Sets the
  // window and the congestion state and sends the first retransmission(s).
  virtual void Enter(RecoveryContext& c, SimTime now, const AckSample& sample) = 0;
  // An ACK that advanced snd_una while in recovery (tcb.in_recovery()). Leaves recovery when it
  // ends. Returns whether to restart the retransmission timer (RFC 6298 §5.3).
  virtual bool OnAck(RecoveryContext& c, SimTime now, const AckInfo& ack, const AckSample& sample) = 0;
  // A duplicate ACK while in recovery.
  virtual void OnDuplicateAck(RecoveryContext& c, const AckSample& sample) = 0;
  // Must be called for every data segment sent (retransmissions included).
  virtual void OnSent(const RecoveryContext&, Bytes /*bytes*/) {}
  // Sends what the window allows of the segments marked lost, in recovery: a loss detector that
  // marks segments outside an ACK (RACK's reordering timer) calls it.
  virtual void SendRetransmissions(RecoveryContext&) {}

  // ---- Queries ----
  // Bytes in the network: RFC 6675's pipe for SACK-based recovery, else RFC 5681's FlightSize.
  virtual Bytes InFlight(const RecoveryContext& c) const { return c.sender.flight_size(); }
  // Whether `bytes` of new data may leave now.
  virtual bool WindowAllows(const RecoveryContext& c, Bytes bytes) const {
    return c.sender.snd_nxt() + bytes <= c.sender.snd_una() + c.tcb.cwnd;
  }
};

// The recovery of a connection with these options: `config.recovery`.
std::unique_ptr<RecoveryOps> MakeRecoveryOps(const TcpConfig& config);

}  // namespace tcb
