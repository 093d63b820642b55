// TCP options of one connection, as chosen in the scenario (defaults live in the scenario schema).
#pragma once

#include <string_view>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

// Loss recovery: Tahoe (go-back-N), Reno (RFC 5681), NewReno (RFC 6582), SACK (RFC 2018 blocks,
// RFC 6675 recovery).
enum class TcpFlavor : uint8_t { kTahoe, kReno, kNewReno, kSack };
bool ParseTcpFlavor(std::string_view name, TcpFlavor* flavor);
std::string_view TcpFlavorName(TcpFlavor flavor);

// Full connections model SYN, SYN-ACK and FIN, so handshakes cost real round trips. One-way transfers
// start sending at once and end when the last byte is acknowledged, like ns-2's TcpAgent, which
// several seed papers measured with (e.g. TCP/SPAND §6.2).
enum class ConnectionModel : uint8_t { kFull, kOneWay };

struct TcpConfig {
  TcpFlavor flavor = TcpFlavor::kNewReno;
  ConnectionModel model = ConnectionModel::kFull;
  Bytes mss = 1460;  // Payload bytes per full segment.
  // Initial window: `initial_window_segments` segments, or RFC 3390's min(4*MSS, max(2*MSS, 4380)).
  int initial_window_segments = 1;
  bool initial_window_rfc3390 = false;
  Bytes initial_ssthresh = kInfiniteSsthresh;
  // The receiver's advertised window; also caps the sender's congestion window.
  Bytes receive_window = 65535;
  bool delayed_ack = false;
  SimTime delayed_ack_timeout = SimTime::Milliseconds(200);
  // RFC 6298: G is the clock granularity, RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max].
  SimTime rto_granularity = SimTime::Milliseconds(10);
  SimTime min_rto = SimTime::Seconds(1);
  SimTime max_rto = SimTime::Seconds(60);
  SimTime initial_rto = SimTime::Seconds(1);
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

  Bytes InitialWindowBytes() const;
};

}  // namespace tcb
