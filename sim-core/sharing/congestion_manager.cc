// The Congestion Manager.
#include "sharing/congestion_manager.h"

#include <algorithm>

namespace tcb {

// ---- The macroflow -------------------------------------------------------------------------------

class CmMacroflow final : public EnsembleGroup {
 public:
  CmMacroflow(const SharingConfig&, const SharingEnvironment& env, std::string key, const TcpConfig& config)
      : EnsembleGroup(env, "congestion-manager", std::move(key), config) {}

 protected:
  // The CM learns what its flows send from their pipes (below), not packet by packet.
  void OnSegmentSent(EnsembleMember&, const SentSegment&) override {}
  bool OnAck(EnsembleMember& f, const AckInfo& ack, bool new_data) override {
    if (new_data) return OnNewAck(f, ack);
    OnDuplicate(f);
    return false;
  }
  void OnRetransmissionTimeout(EnsembleMember& f) override;
  // What the macroflow has in the network: the flows' pipes.
  Bytes InFlight() const override;

 private:
  bool OnNewAck(EnsembleMember& f, const AckInfo& ack);
  void OnDuplicate(EnsembleMember& f);
  // Bytes of a flow in the network: sent up to snd_nxt and unacknowledged (after a timeout,
  // go-back-N starts again from snd_una), less a segment for every duplicate ACK since the last new
  // one (each says a segment left the network: cm_update's nrecd).
  static Bytes Pipe(const EnsembleMember& f) {
    const SenderHandle& s = f.sender();
    const Bytes sent = s.snd_nxt() - s.snd_una();
    // The pump sums this over every flow, asking the senders (virtual calls): a flow without
    // duplicate ACKs, the usual case, is not asked for its MSS.
    return std::max<Bytes>(0, f.dupacks() == 0 ? sent : sent - f.dupacks() * s.mss());
  }
  // cm_update() with `bytes` newly acknowledged: the window rule's growth (RFC 3124 §4.5: TCP-style
  // AIMD with slow start), up to the flows' receive windows.
  void Grow(Bytes bytes);
  // CM_LOSS_FEEDBACK: a transient loss. The window rule's reduction, at most once per round trip
  // (§4.1: the CM does not react to more than one loss report per RTT).
  void TransientLoss();
  // CM_PERSISTENT_CONGESTION (a timeout): one segment.
  void PersistentLoss();

  SimTime last_decrease_;
  bool decreased_ = false;
};

Bytes CmMacroflow::InFlight() const {
  Bytes total = 0;
  for (const EnsembleMember* f : members()) total += Pipe(*f);
  return total;
}

void CmMacroflow::Grow(Bytes bytes) {
  IncreaseWindow(bytes);
  mutable_tcb().cwnd = std::min(tcb().cwnd, config().receive_window * static_cast<Bytes>(std::max<size_t>(1, members().size())));
  Record();
}

void CmMacroflow::TransientLoss() {
  const SimTime now = Now();
  if (decreased_ && tcb().rtt.has_sample() && now - last_decrease_ < tcb().rtt.srtt()) return;
  mutable_tcb().ssthresh = SsThreshAfterLoss(InFlight());
  mutable_tcb().cwnd = tcb().ssthresh;
  last_decrease_ = now;
  decreased_ = true;
  Record();
}

void CmMacroflow::PersistentLoss() {
  mutable_tcb().ssthresh = SsThreshAfterLoss(InFlight());
  mutable_tcb().cwnd = tcb().mss;
  NoteTimeout();
  last_decrease_ = Now();
  decreased_ = true;
  Record();
}

// A flow (TCP over the CM) recovers its own losses and reports them.
bool CmMacroflow::OnNewAck(EnsembleMember& f, const AckInfo& ack) {
  if (!f.in_recovery()) Grow(ack.newly_acked);
  bool restart = true;
  if (f.in_recovery()) {
    if (ack.ack - 1 >= f.recover()) {
      f.LeaveRecovery();  // RFC 6582's full acknowledgement.
    } else {
      // RFC 6582's partial acknowledgement: the next hole goes at once.
      f.sender().RetransmitNow(ack.ack);
      restart = false;
    }
  }
  f.ClearDuplicates();
  Pump();
  return restart;
}

void CmMacroflow::OnDuplicate(EnsembleMember& f) {
  SenderHandle& sender = f.sender();
  f.CountDuplicate();
  if (f.dupacks() == f.config().dupack_threshold && !f.in_recovery() && sender.snd_una() - 1 > f.recover()) {
    // The flow's own fast retransmit, reported to the CM as a transient loss.
    f.EnterRecovery(sender.snd_max() - 1);
    TransientLoss();
    sender.RetransmitNow(sender.snd_una());
  }
  Pump();
}

void CmMacroflow::OnRetransmissionTimeout(EnsembleMember& f) {
  PersistentLoss();
  f.ClearDuplicates();
  f.LeaveRecovery();
  f.set_recover(f.sender().snd_max() - 1);
}

// ---- The scheme --------------------------------------------------------------------------------

CongestionManagerScheme::CongestionManagerScheme(const SharingConfig& config, const SharingEnvironment& env)
    : EnsembleScheme(config, env) {}

CongestionManagerScheme::~CongestionManagerScheme() = default;

std::unique_ptr<CongestionControl> CongestionManagerScheme::Attach(const TcpConfig& config,
                                                                   SenderHandle& sender,
                                                                   const ConnectionContext& context) {
  return JoinWithWeight(config, sender, context);
}

}  // namespace tcb
