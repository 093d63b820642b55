// Window rules as functions over a Tcb, in the manner of ns-3's TcpCongestionOps over
// TcpSocketState (and Linux's tcp_congestion_ops): how cwnd grows on an ACK and what ssthresh
// becomes after a congestion event, plus the hooks today's rules need (per-ACK samples, state
// changes, a rule that sets the window itself, its own pacing rate). Loss detection and recovery
// are not here; they belong to whoever owns the Tcb (a connection's controller, or a sharing
// scheme's group), so that a group's window can follow any of these rules.
#pragma once

#include <algorithm>
#include <memory>
#include <string_view>

#include "core/rng.h"
#include "core/time.h"
#include "core/units.h"
#include "tcp/sent_log.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"
#include "trace/generated_columns.h"

namespace tcb {

// What one ACK told the sender, for rules that look beyond the bytes acknowledged (ns-3's
// PktsAcked and CongControl arguments; Linux's ack_sample and rate_sample).
struct AckSample {
  SimTime now;
  Bytes delivered = 0;        // Newly acknowledged, cumulatively or selectively.
  Bytes prior_in_flight = 0;  // In flight before the ACK (RFC 6675's pipe with SACK).
  Bytes in_flight = 0;        // In flight after it, before anything is sent in answer.
  Bytes lost = 0;             // Newly marked lost on this ACK.
  bool has_rtt = false;       // `rtt` is the RTT of the newest segment delivered, never retransmitted.
  SimTime rtt;
  // The delivery-rate sample, when the owner keeps a SentLog (see NeedsSentLog()); else null.
  const RateSample* rate = nullptr;
  Bytes total_delivered = 0;  // Everything delivered so far (the rate estimator's C.delivered).
  bool app_limited = false;   // The sender has less than a segment of new data to send.
  // Of `delivered`, what the cumulative ACK passed that was not SACKed before, and what SACK blocks
  // covered for the first time (RFC 9937 §6.1's RecoverFS needs them apart); 0 without a SentLog.
  Bytes newly_cumulative = 0;
  Bytes newly_sacked = 0;
  // The owner's SentLog when it keeps one, else null. Not owned. A rule may mark the sender
  // application-limited through it (SentLog::MarkAppLimited: BBR's ProbeRTT, as Linux's
  // bbr_update_min_rtt() sets tp->app_limited).
  SentLog* log = nullptr;
};

// Saved path state handed to a window rule when a connection resumes from it (quiche's
// SendAlgorithmInterface::NetworkParams): a cached bandwidth and minimum RTT (sharing/bdp_resume.h),
// or RFC 9959 Careful Resume's jump (sharing/careful_resume.h).
struct NetworkParams {
  // Bytes of payload per second: the saved delivery rate, or Careful Resume's probing rate
  // (jump_cwnd per current RTT, RFC 9959 §4.3 "Pacing transmission").
  double bandwidth = 0;
  SimTime rtt;             // The saved minimum RTT; zero when the scheme has none to give.
  Bytes window = 0;        // The window a rule that leaves its window to the owner jumps to.
  Bytes max_window = 0;    // The largest window a rule that sizes its own may take; 0: no limit.
  // RFC 9959: the jump is to be validated, and retreated from on congestion (a rule that sizes its
  // own window then runs Appendix C's "carefully-resuming" rounds); otherwise the resumed window is
  // kept unchecked (QUIC's cached network parameters).
  bool careful = false;
  Bytes total_delivered = 0;  // Everything delivered so far (the SentLog's C.delivered); the owner fills it.
};

// How a rule took saved path parameters.
enum class Resumption : uint8_t {
  kNone,    // It did not (nothing to gain, or not in a state that allows it).
  kWindow,  // cwnd is now params.window; the owner paces the jump (RFC 9959 §4.3, QUIC's paced window).
  kRate,    // The rule paces and sizes the jump itself (BBR: its Startup at the saved rate).
};

// Where a rule's own Careful Resume stands after a Resumption::kRate jump with params.careful
// (RFC 9959 Appendix C, in BBR's rounds).
enum class RateResumption : uint8_t {
  kOff,          // Not resuming (never started, or the rule ended it).
  kFirstRound,   // The round that started with the jump is not over: the Unvalidated Phase.
  kLaterRounds,  // Past it: the Validating Phase, until the rule or the scheme ends it.
  kDraining,     // The rule is draining the jump's queue (C.3: BBR's Drain is Safe Retreat).
};

class CongestionOps {
 public:
  virtual ~CongestionOps() = default;

  virtual std::string_view name() const = 0;
  // Grows tcb.cwnd for `acked` newly acknowledged bytes. Called outside loss recovery, after the
  // caller's own conditions (e.g. RFC 7661's window validation) allow growth; the caller applies
  // its cap (the receive window) afterwards.
  virtual void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) = 0;
  // The slow-start threshold after a congestion event (a loss found by fast retransmit, or a
  // retransmission timeout) with `flight` bytes outstanding. A rule may remember the event (e.g.
  // the window at which it happened).
  virtual Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) = 0;

  // ---- Optional hooks; the defaults suit RFC 5681's rule. ----
  // The connection is established, with its initial window in tcb.cwnd and the handshake's RTT in
  // tcb.rtt if one was measured (Linux's init(), ns-3's Init()); called once, before data is sent.
  virtual void Init(Tcb&, SimTime) {}
  // Whether the owner must keep a SentLog and pass per-ACK samples with RTTs and delivery rates.
  virtual bool NeedsSentLog() const { return false; }
  // Whether the window grows only while it limits the sender (RFC 9438 §5.8 for CUBIC; Linux's
  // tcp_cong_avoid() asks tcp_is_cwnd_limited() before every rule's cong_avoid): the owner then
  // calls IncreaseWindow() only when the sender is cwnd-limited, never while application-limited.
  virtual bool GrowsOnlyWhenCwndLimited() const { return false; }
  // Called for every ACK that delivered data (cumulatively or selectively), before the window
  // changes (Linux's pkts_acked, ns-3's PktsAcked): e.g. HyStart++'s RTT rounds.
  virtual void OnAckSample(Tcb&, const AckSample&) {}
  // The owner's loss-recovery state changed (Linux's set_state, ns-3's CongestionStateSet).
  virtual void OnStateChange(Tcb&, SimTime, CongestionState) {}
  // New data is sent while nothing is in flight, after the first, which left at `last_sent`
  // (Linux's CA_EVENT_TX_START).
  virtual void OnSendingResumed(Tcb&, SimTime /*now*/, SimTime /*last_sent*/) {}
  // A rule that sets cwnd itself on every ACK, in recovery too (Linux's cong_control, ns-3's
  // HasCongControl/CongControl: BBR). The owner then never changes cwnd but to one segment after
  // a retransmission timeout, and calls ControlWindow after each ACK's loss detection.
  virtual bool ControlsWindow() const { return false; }
  virtual void ControlWindow(Tcb&, const AckSample&) {}
  // The rate the rule paces at, in bits per second; 0 when it leaves pacing to the owner's options.
  virtual double PacingRateBps(const Tcb&) const { return 0; }
  // Fills the series columns only this rule knows (trace/columns.json).
  virtual void DescribeState(const Tcb&, TcpSeriesRow&) const {}

  // ---- Resuming from saved path state (quiche's SendAlgorithmInterface::AdjustNetworkParameters) ----
  // A connection starts from saved parameters. The default suits a rule that leaves its window to
  // the owner: cwnd jumps to params.window when that is larger (Resumption::kWindow), and the
  // scheme paces the jump. A rule that sizes its own window (ControlsWindow()) overrides it.
  virtual Resumption AdjustNetworkParameters(Tcb& tcb, const NetworkParams& params);
  // After a careful kRate jump: where the rule's resumption stands.
  virtual RateResumption rate_resumption() const { return RateResumption::kOff; }
  // Ends a careful kRate jump: with `retreat`, by the rule's Safe Retreat (RFC 9959 Appendix C.3:
  // BBR leaves Startup for Drain); without, as validated or rate-limited (the flag is cleared).
  virtual void EndRateResumption(bool /*retreat*/) {}
};

// RFC 5681 §3.1 eq. (4): the slow-start threshold after a loss, max(FlightSize / 2, 2 * SMSS), with
// `flight` bytes outstanding. RenoOps' rule, for a window that follows RFC 5681 without a Tcb of its
// own (TCP-INT's per-connection windows).
inline Bytes Rfc5681SsThresh(Bytes flight, Bytes mss) { return std::max(flight / 2, 2 * mss); }

// RFC 5681: slow start and congestion avoidance per ACK, ssthresh = max(FlightSize / 2, 2 * SMSS).
class RenoOps final : public CongestionOps {
 public:
  std::string_view name() const override { return "reno"; }
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
};

// The window rule of a connection with these options: `config.window_rule`. `random` is the stream
// the rule draws from (BBR's gain-cycle phase).
std::unique_ptr<CongestionOps> MakeCongestionOps(const TcpConfig& config, const Rng& random);
// The window rule of a group's one window (sharing/ensemble.h), which feeds it the acknowledged bytes
// only: RFC 5681's or CUBIC's. BBR needs each connection's delivery-rate samples; the scenario parser
// refuses it on hosts whose scheme shares one window.
std::unique_ptr<CongestionOps> MakeCongestionOps(const TcpConfig& config);

// RFC 7661 §4.3: the window counts as in use when an ACK finds at most one segment of it unused
// (`flight_before` is what was outstanding before the ACK); only then does it grow, with window
// validation on.
inline bool WindowInUse(const Tcb& tcb, Bytes flight_before) { return flight_before + tcb.mss >= tcb.cwnd; }

}  // namespace tcb
