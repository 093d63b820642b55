// One connection's own congestion control over a Tcb: its window follows the connection's
// CongestionOps (RFC 5681's rule, CUBIC or BBR), its losses are repaired by its RecoveryOps (Tahoe's
// go-back-N, Reno, NewReno, RFC 6675 SACK, PRR; tcp/recovery_ops.h), and this class ties them to the
// sender: duplicate-ACK and RACK-TLP (RFC 8985) loss detection, retransmission timeouts, window
// growth with its conditions (RFC 7661's window validation, RFC 9438 §5.8's application-limited
// rule), Balakrishnan et al.'s right-edge recovery, and pacing when the rule or the options ask.
#pragma once

#include <memory>

#include "tcp/congestion_control.h"
#include "tcp/congestion_ops.h"
#include "tcp/pacer.h"
#include "tcp/rack.h"
#include "tcp/recovery_ops.h"
#include "tcp/sent_log.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"

namespace tcb {

class ConnectionControl final : public CongestionControl {
 public:
  ConnectionControl(const TcpConfig& config, SenderHandle& sender);

  void OnEstablished(SimTime now, bool syn_lost) override;
  void OnSendStart(SimTime now, bool first, Bytes pending) override;
  void OnSegmentSent(SimTime now, const SentSegment& segment) override;
  bool OnAck(SimTime now, const AckInfo& ack) override;
  void OnDuplicateAck(SimTime now, const AckInfo& ack) override;
  void OnRetransmissionTimeout(SimTime now) override;
  void OnRttSample(SimTime, SimTime rtt) override { tcb_.rtt.AddSample(rtt, sender_.snd_una(), sender_.snd_max()); }
  void OnClosed(SimTime) override {}
  void OnControlTimer(SimTime now) override;
  bool CanSend(Bytes bytes) override;
  SimTime NextSendTime(SimTime now) const override;

  Bytes cwnd() const override { return tcb_.cwnd; }
  Bytes ssthresh() const override { return tcb_.ssthresh; }
  const RttEstimator& rtt() const override { return tcb_.rtt; }
  bool in_recovery() const override { return tcb_.in_recovery(); }
  double pacing_rate_bps() const override;
  void DescribeState(TcpSeriesRow& row) const override { ops_->DescribeState(tcb_, row); }

  // Sharing schemes that initialise or redistribute a connection's state (RFC 9040, the TCBI
  // controllers) set it here.
  Tcb& tcb() { return tcb_; }
  // Resumption from saved path state (sharing/bdp_resume.h, sharing/careful_resume.h), through the
  // window rule's CongestionOps::AdjustNetworkParameters(); this fills params.total_delivered.
  Resumption AdjustNetworkParameters(NetworkParams params);
  RateResumption rate_resumption() const { return ops_->rate_resumption(); }
  void EndRateResumption(bool retreat) { ops_->EndRateResumption(retreat); }
  // A sharing scheme's pacing rate, in bits per second, which replaces the rule's and the options'
  // while it is nonzero (RFC 9959's paced Unvalidated Phase, a resumed window paced at the saved
  // rate); 0 gives pacing back. The connection keeps one pacing clock whoever sets the rate, as
  // Linux keeps one sk_pacing_rate: a segment the scheme paced is charged at the scheme's rate,
  // never again at the rule's.
  void SetSchemePacingRate(double rate_bps) { scheme_pacing_bps_ = rate_bps; }
  const Tcb& tcb() const { return tcb_; }
  const TcpConfig& config() const { return config_; }
  CongestionState state() const { return tcb_.state; }
  // The per-segment record (kept with SACK-based recovery or a rule that needs it), else null.
  const SentLog* sent_log() const { return log_.get(); }
  // RACK-TLP's state (RFC 8985), meaningful with `tcp.rack`.
  const Rack& rack() const { return rack_; }
  const RecoveryOps& recovery() const { return *recovery_; }

 private:
  void SetState(SimTime now, CongestionState state) { context_.SetState(now, state); }
  // The window rule's growth, capped by the receive window.
  void GrowWindow(SimTime now, Bytes acked, Bytes flight_before);
  // Linux's tcp_cwnd_validate() (net/ipv4/tcp_output.c), after each attempt to send new data:
  // whether the window limited the sender in the current window of data, and otherwise the most
  // that was in flight in it.
  void NoteWindowUse(bool cwnd_limited);
  // Linux's tcp_is_cwnd_limited() (include/net/tcp.h): the window limited the sender in the current
  // window of data, or, in slow start, is below twice the most that was in flight.
  bool CwndLimited() const;
  // Bytes in the network: RFC 6675's pipe with SACK-based recovery, else RFC 5681's FlightSize.
  Bytes InFlight() const { return recovery_->InFlight(context_); }
  // Feeds one ACK to the SentLog and the window rule's per-ACK hook; returns the sample.
  AckSample Sample(SimTime now, const AckInfo& ack);
  // Duplicate ACKs (or RACK's marks) found a loss: the window rule's ssthresh, RecoveryPoint =
  // HighData, and the recovery rule takes over (RFC 5681 §3.2 step 2, RFC 6582 §3.2 step 2, RFC
  // 6675 §5 step 4).
  void StartRecovery(SimTime now, const AckSample& sample);

  // ---- RACK-TLP (RFC 8985), with `tcp.rack` ----
  // RFC 8985 §6.2 for one ACK: RACK's state from the segments it delivered, then loss detection;
  // returns the bytes newly marked lost and leaves the reordering timer's timeout in rack_timeout_.
  Bytes RackDetectLoss(SimTime now, const AckDelivery* delivery);
  // RFC 8985 §6.2 step 5: losses RACK marked start fast recovery (RFC 6675, with PRR when chosen),
  // outside recovery and RTO recovery.
  bool RackStartsRecovery() const;
  // RFC 8985 §7.4 on every ACK of a TLP episode (see the definition).
  void ProcessTlpAck(SimTime now, const AckInfo& ack, const AckSample& sample, bool advanced);
  // RFC 8985 §7.2: a probe may be scheduled while data is outstanding, in neither fast nor RTO
  // recovery, and with nothing SACKed (SACKed data leaves losses to RACK).
  bool ProbeAllowed() const;
  // Arms the controller timer after an ACK or a transmission: RACK's reordering timer when a
  // segment awaits its deadline, else the PTO when `schedule_probe` and a probe is allowed.
  void ArmRackTimers(SimTime now, bool schedule_probe);
  // RFC 8985 §7.2: schedules the probe a PTO from now. After an ACK the sender restarts the RTO
  // once the controller has answered (`after_ack`), so the RTO bounds the PTO from now on.
  void ArmProbe(SimTime now, bool after_ack);
  // RFC 8985 §7.3 TLP_send_probe().
  void SendProbe();

  TcpConfig config_;
  Tcb tcb_;
  std::unique_ptr<CongestionOps> ops_;
  std::unique_ptr<RecoveryOps> recovery_;
  SenderHandle& sender_;
  std::unique_ptr<SentLog> log_;
  RecoveryContext context_;
  bool rack_on_ = false;
  Rack rack_;
  SimTime rack_timeout_;
  enum class ControlTimer : uint8_t { kNone, kReorder, kProbe };
  ControlTimer timer_ = ControlTimer::kNone;
  // RFC 8985 §7.4: TLP.end_seq (SND.NXT when the probe left) while a probe is unacknowledged, and
  // whether that probe was a retransmission (TLP.is_retrans).
  bool tlp_in_flight_ = false;
  bool tlp_is_retrans_ = false;
  SeqNo tlp_end_seq_ = 0;
  bool sending_probe_ = false;
  // NoteWindowUse()'s state: tp->is_cwnd_limited, tp->max_packets_out (in bytes) and
  // tp->cwnd_usage_seq.
  bool cwnd_limited_ = false;
  Bytes max_in_flight_ = 0;
  SeqNo cwnd_usage_seq_ = 0;
  Pacer pacer_{config_.pacing_rules};
  double scheme_pacing_bps_ = 0;  // See SetSchemePacingRate().
  bool sent_any_ = false;
  SimTime last_sent_;  // The latest data segment's departure.
};

}  // namespace tcb
