// TCP options of one connection, as chosen in the scenario (defaults live in the scenario schema).
#pragma once

#include <string_view>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

// The scenario's `tcp.flavor`: the window rule and, unless `tcp.recovery` says otherwise, the loss
// recovery. The seed papers' flavors grow the window by RFC 5681's rule and differ in recovery:
// Tahoe (go-back-N), Reno (RFC 5681), NewReno (RFC 6582), SACK (RFC 2018 blocks, RFC 6675
// recovery). Today's stacks: CUBIC (RFC 9438) and BBR (version 1, as Linux 4.9 and ns-3), both with
// SACK and PRR (RFC 9937, which obsoletes RFC 6937) recovery by default, as Linux and ns-3 run them.
enum class TcpFlavor : uint8_t { kTahoe, kReno, kNewReno, kSack, kCubic, kBbr };
bool ParseTcpFlavor(std::string_view name, TcpFlavor* flavor);
std::string_view TcpFlavorName(TcpFlavor flavor);

// How the window grows and what a congestion event does to it (tcp/congestion_ops.h).
enum class WindowRule : uint8_t { kReno, kCubic, kBbr };

// What happens after a loss is detected. kGoBackN is Tahoe's (no fast recovery); the others are the
// scenario's `tcp.recovery` values.
enum class LossRecovery : uint8_t { kGoBackN, kReno, kNewReno, kSackRfc6675, kPrr };
bool ParseLossRecovery(std::string_view name, LossRecovery* recovery);
std::string_view LossRecoveryName(LossRecovery recovery);

// The flavor's window rule, and the recovery it implies when `tcp.recovery` is not given.
WindowRule FlavorWindowRule(TcpFlavor flavor);
LossRecovery FlavorRecovery(TcpFlavor flavor);

// Full connections model SYN, SYN-ACK and FIN, so handshakes cost real round trips. One-way transfers
// start sending at once and end when the last byte is acknowledged, like ns-2's TcpAgent, which
// several seed papers measured with (e.g. TCP/SPAND §6.2).
enum class ConnectionModel : uint8_t { kFull, kOneWay };

// `tcp.pacing`: none (the ACK clock), or Linux's rate (tcp_update_pacing_rate()): cwnd / srtt
// times 200 % in slow start and 120 % afterwards. BBR paces at its own rate either way.
enum class PacingMode : uint8_t { kOff, kRate };

// How paced segments are spaced (`tcp.pacingRules`): each by its length at the rate from the first
// segment on, or as Linux 6.x's tcp_update_skb_after_send() (tcp/pacer.h).
enum class PacingRules : uint8_t { kEven, kLinux };
bool ParsePacingRules(std::string_view name, PacingRules* rules);

// Which Reno window (`tcp.reno.rules`, for the flavors that grow the window as Reno does): RFC 5681
// §3.1's, at most one SMSS per ACK in slow start and SMSS*SMSS/cwnd per ACK in congestion avoidance
// (tcp/congestion_ops.h RenoOps), or Linux's net/ipv4/tcp_cong.c, which counts every segment an ACK
// delivered (tcp/linux_reno.h).
enum class RenoRules : uint8_t { kRfc5681, kLinux };
bool ParseRenoRules(std::string_view name, RenoRules* rules);

// Which BBR (`tcp.bbr.rules`): Linux 4.9's net/ipv4/tcp_bbr.c, or the Linux 6.x one, with its ACK
// aggregation estimate and the changes between (tcp/bbr.h).
enum class BbrRules : uint8_t { kLinux49, kLinux };
bool ParseBbrRules(std::string_view name, BbrRules* rules);

// How the retransmission timeout follows the RTT (`tcp.rtoRules`): RFC 6298, one segment timed per
// round trip, or Linux's net/ipv4/tcp_input.c, a sample from every ACK (tcp_clean_rtx_queue())
// into tcp_rtt_estimator(), whose variance term never falls below the minimum RTO
// (tcp/rtt_estimator.h).
enum class RtoRules : uint8_t { kRfc6298, kLinux };
bool ParseRtoRules(std::string_view name, RtoRules* rules);

// When the receiver acknowledges (`tcp.ackRules`, with `tcp.delayedAck`): RFC 5681 §4.2,
// every second full-sized segment or after the delayed-ACK timeout, or Linux's
// net/ipv4/tcp_input.c, with its quick-ACK mode, its adaptive delayed-ACK timeout and SACK
// compression (tcp/tcp_receiver.h).
enum class AckRules : uint8_t { kRfc5681, kLinux };
bool ParseAckRules(std::string_view name, AckRules* rules);

// Which CUBIC (`tcp.cubic.rules`): RFC 9438 with RFC 9406 HyStart++ (tcp/cubic.h), or Linux's
// net/ipv4/tcp_cubic.c with its HyStart (tcp/linux_cubic.h).
enum class CubicRules : uint8_t { kRfc9438, kLinux };
bool ParseCubicRules(std::string_view name, CubicRules* rules);
std::string_view CubicRulesName(CubicRules rules);

// CUBIC's parameters (`tcp.cubic`).
struct CubicOptions {
  CubicRules rules = CubicRules::kRfc9438;
  double c = 0.4;     // §5.1: the scaling constant C, in segments / s^3.
  double beta = 0.7;  // §4.6: beta_cubic, the multiplicative decrease factor.
  bool fast_convergence = true;  // §4.7.
  bool hystart = true;           // RFC 9406 HyStart++ in slow start (Linux's HyStart with kLinux).
  // §5.8: cwnd does not grow while the sender is application-limited; true grows anyway (RFC 8312,
  // ns-3 3.44's TcpCubic).
  bool app_limited_growth = false;
};

struct TcpConfig {
  TcpFlavor flavor = TcpFlavor::kNewReno;
  WindowRule window_rule = WindowRule::kReno;
  LossRecovery recovery = LossRecovery::kNewReno;
  // RFC 8985 RACK-TLP: time-based loss detection and tail loss probes (needs SACK).
  bool rack = false;
  PacingMode pacing = PacingMode::kOff;
  PacingRules pacing_rules = PacingRules::kEven;
  CubicOptions cubic;
  RenoRules reno_rules = RenoRules::kRfc5681;
  BbrRules bbr_rules = BbrRules::kLinux49;
  ConnectionModel model = ConnectionModel::kFull;
  Bytes mss = 1460;  // Payload bytes per full segment.
  // Initial window: `initial_window_segments` segments, or RFC 3390's min(4*MSS, max(2*MSS, 4380)),
  // or RFC 6928's min(10*MSS, max(2*MSS, 14600)).
  enum class InitialWindowRule : uint8_t { kSegments, kRfc3390, kRfc6928 };
  InitialWindowRule initial_window_rule = InitialWindowRule::kSegments;
  int initial_window_segments = 1;
  Bytes initial_ssthresh = kInfiniteSsthresh;
  // The receiver's advertised window; also caps the sender's congestion window.
  Bytes receive_window = 65535;
  bool delayed_ack = false;
  // With AckRules::kLinux, the shortest delayed-ACK timeout (TCP_ATO_MIN), from which it adapts.
  SimTime delayed_ack_timeout = SimTime::Milliseconds(200);
  AckRules ack_rules = AckRules::kRfc5681;
  // RFC 6298: G is the clock granularity, RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max].
  SimTime rto_granularity = SimTime::Milliseconds(10);
  SimTime min_rto = SimTime::Seconds(1);
  SimTime max_rto = SimTime::Seconds(60);
  SimTime initial_rto = SimTime::Seconds(1);
  RtoRules rto_rules = RtoRules::kRfc6298;
  // The kernel's tick rate (CONFIG_HZ) for the Linux rules that count jiffies: the RTO, the
  // delayed-ACK timer, BBR's ProbeRTT stamps and Linux CUBIC's epoch and curve (tcp_cubic.c).
  int linux_hz = 1000;
  int dupack_threshold = 3;
  // Balakrishnan et al. §4 "right-edge recovery": each duplicate ACK below the threshold sends one
  // new segment, so that small windows still produce enough duplicate ACKs for fast retransmit.
  bool right_edge_recovery = false;
  // RFC 7661 §4.3: grow cwnd only while the window is in use, so that an application-limited
  // sender does not build (and cache) a window it never tested. Off in the seed papers' ns-2 TCP.
  bool cwnd_validation = false;
  bool slow_start_restart = true;  // "ssr"; false is "nssr".
  bool nagle = false;

  static constexpr Bytes kInfiniteSsthresh = Bytes{1} << 40;

  // Chooses `f` with its window rule and the recovery it implies.
  void SetFlavor(TcpFlavor f) {
    flavor = f;
    window_rule = FlavorWindowRule(f);
    recovery = FlavorRecovery(f);
  }
  Bytes InitialWindowBytes() const;
  // Whether the receiver sends SACK blocks (RFC 2018) and the sender keeps a scoreboard: SACK-based
  // recovery and RACK need them.
  bool sack() const {
    return recovery == LossRecovery::kSackRfc6675 || recovery == LossRecovery::kPrr || rack;
  }
};

}  // namespace tcb
