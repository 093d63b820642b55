// The seam between a TCP sender and its congestion control and loss recovery (as quiche's
// SendAlgorithmInterface and ns-3's TcpSocketState/TcpCongestionOps split). Window state lives in a
// Tcb that a controller owns, or that a sharing scheme owns on behalf of a group of connections; the
// sender never knows which.
#pragma once

#include <string_view>

#include "core/rng.h"
#include "core/time.h"
#include "core/units.h"
#include "tcp/rtt_estimator.h"
#include "tcp/sack_scoreboard.h"
#include "trace/generated_columns.h"

namespace tcb {

// What the sender learnt from one ACK.
struct AckInfo {
  SeqNo ack = 0;           // The cumulative ACK field.
  Bytes newly_acked = 0;   // How far snd_una advanced (0 for a duplicate).
  // The segment whose arrival made the receiver send this ACK, as a timestamp echo would identify
  // it (RFC 7323): "the ACK'ed packet" of TCP-INT and E-TCP. Packet uids grow in send order.
  uint64_t echo_uid = 0;
  // The ACK's SACK blocks (RFC 2018), valid during the call only.
  const SackBlock* sack_blocks = nullptr;
  int sack_count = 0;
};

// A data segment (or FIN) the sender just transmitted.
struct SentSegment {
  SeqNo seq = 0;
  Bytes bytes = 0;
  bool retransmission = false;
  uint64_t uid = 0;  // The packet's uid, which later ACKs echo.
};

// What a controller may see of, and ask of, the sender it controls.
class SenderHandle {
 public:
  virtual ~SenderHandle() = default;
  virtual SeqNo snd_una() const = 0;  // First unacknowledged sequence number.
  virtual SeqNo snd_nxt() const = 0;  // Next sequence number to send.
  virtual SeqNo snd_max() const = 0;  // One past the highest sequence number sent.
  virtual Bytes mss() const = 0;
  virtual Bytes peer_window() const = 0;  // The receiver's advertised window.
  // Bytes the application wrote that were never sent.
  virtual Bytes unsent_bytes() const = 0;
  // The application has closed its side: nothing will be written after what is unsent now.
  virtual bool write_closed() const = 0;
  // Payload of the next new segment the sender would send, 0 when it has none ready.
  virtual Bytes NextSegmentBytes() const = 0;
  // SACK information received so far (empty unless the connection uses SACK).
  virtual const SackScoreboard& scoreboard() const = 0;
  // RFC 5681 FlightSize: data sent and not yet acknowledged.
  Bytes flight_size() const { return snd_max() - snd_una(); }

  // Sends at once, whatever the window, the segment that starts at `seq` (at most `max_bytes` of
  // payload): fast retransmit, partial ACKs, SACK holes.
  virtual void RetransmitNow(SeqNo seq, Bytes max_bytes = kNoLimit) = 0;
  // Rewinds snd_nxt to snd_una so that the window refills from the first unacknowledged byte.
  virtual void GoBackN() = 0;
  // Sends the next new segment if the application has data and the peer's window allows it,
  // without asking CanSend(): group schedulers pull segments this way, and right-edge recovery
  // sends beyond the window. Returns the payload sent (0: nothing).
  virtual Bytes SendNewSegment() = 0;
  // Arms the controller's own timer (RACK's reordering timer, RFC 8985's tail loss probe) for
  // `at`, replacing an earlier deadline; CongestionControl::OnControlTimer() runs then.
  virtual void SetControlTimer(SimTime at) = 0;
  virtual void StopControlTimer() = 0;
  // When the retransmission timer will expire, Infinite while it is not armed (RFC 8985 §7.2: a
  // tail loss probe is never scheduled later than the RTO).
  virtual SimTime RetransmissionDeadline() const = 0;
  // Restarts the retransmission timer from now (RFC 8985 §7.3: after a loss probe the RTO, not
  // another probe, is armed).
  virtual void RestartRetransmissionTimer() = 0;
  // The run's random stream called `name` for this endpoint's controller (core/rng.h: the stream
  // is named after the connection, so that it never shifts another source's numbers): e.g. BBR's
  // gain-cycle phase.
  virtual Rng RandomStream(std::string_view name) const = 0;

  static constexpr Bytes kNoLimit = Bytes{1} << 60;
};

// Congestion control and loss recovery of one connection. The sender calls the On* methods and
// asks CanSend() before each new segment; controllers act on the sender only through SenderHandle.
class CongestionControl {
 public:
  virtual ~CongestionControl() = default;

  // The connection may send data from now on: after the handshake, or at once for a one-way
  // transfer. `syn_lost`: the SYN or SYN-ACK was retransmitted (RFC 5681 §3.1 then allows only a
  // one-segment initial window).
  virtual void OnEstablished(SimTime now, bool syn_lost) = 0;
  // The sender is about to send new data with nothing outstanding: its first data (`first`), or
  // data after an idle period longer than the RTO (RFC 5681 §4.1). `pending` is what the
  // application has written and not sent: the transfer size of TCP/SPAND §5.1.
  virtual void OnSendStart(SimTime now, bool first, Bytes pending) = 0;
  // Must be called for every data segment sent (SYNs excluded), retransmissions included.
  virtual void OnSegmentSent(SimTime now, const SentSegment& segment) = 0;
  // An ACK advanced snd_una (the sender has already moved it). Returns whether to restart the
  // retransmission timer (RFC 6298 §5.3).
  virtual bool OnAck(SimTime now, const AckInfo& ack) = 0;
  // A duplicate ACK (RFC 5681 §2 definition) arrived.
  virtual void OnDuplicateAck(SimTime now, const AckInfo& ack) = 0;
  // The retransmission timer expired; the sender goes back to snd_una afterwards.
  virtual void OnRetransmissionTimeout(SimTime now) = 0;
  // A round-trip measurement that obeys Karn's rule.
  virtual void OnRttSample(SimTime now, SimTime rtt) = 0;
  // The connection has closed; a sharing scheme may cache its state.
  virtual void OnClosed(SimTime now) = 0;
  // The timer set through SenderHandle::SetControlTimer() expired.
  virtual void OnControlTimer(SimTime) {}

  // May the sender send `bytes` of new data now? A group scheme may answer no and send for the
  // connection later itself, through SendNewSegment().
  virtual bool CanSend(Bytes bytes) = 0;
  // Earliest time the next new segment may leave; `now` when the controller does not pace.
  virtual SimTime NextSendTime(SimTime now) const { return now; }
  // True when the connection may skip the three-way handshake (E-TCP §5: T/TCP-style handshake
  // avoidance on a cached ensemble).
  virtual bool AvoidsHandshake() const { return false; }

  virtual Bytes cwnd() const = 0;
  virtual Bytes ssthresh() const = 0;
  virtual const RttEstimator& rtt() const = 0;
  virtual bool in_recovery() const = 0;
  // The rate at which the controller paces this connection's new segments, in bits per second;
  // 0 while it does not pace (for the series: E-TCP §3.1 and TCP/SPAND §5.2.5 pace).
  virtual double pacing_rate_bps() const { return 0; }
  // Fills the series columns only this controller knows (trace/columns.json), e.g. a model's
  // estimates or a phase; the sender has filled the common ones.
  virtual void DescribeState(TcpSeriesRow&) const {}
};

}  // namespace tcb
