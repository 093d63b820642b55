// The seam between a TCP sender and its congestion control and loss recovery (as quiche's
// SendAlgorithmInterface and ns-3's TcpSocketState/TcpCongestionOps split). Window state lives in a
// Tcb that a controller owns, or that a sharing scheme owns on behalf of a group of connections; the
// sender never knows which.
#pragma once

#include "core/time.h"
#include "core/units.h"
#include "tcp/rtt_estimator.h"

namespace tcb {

// What a controller may see of, and ask of, the sender it controls.
class SenderHandle {
 public:
  virtual ~SenderHandle() = default;
  virtual SeqNo snd_una() const = 0;  // First unacknowledged sequence number.
  virtual SeqNo snd_nxt() const = 0;  // Next sequence number to send.
  virtual SeqNo snd_max() const = 0;  // One past the highest sequence number sent.
  virtual Bytes mss() const = 0;
  // RFC 5681 FlightSize: data sent and not yet acknowledged.
  Bytes flight_size() const { return snd_max() - snd_una(); }
  // Sends the segment that starts at `seq` at once, whatever the window (fast retransmit, partial ACKs).
  virtual void RetransmitNow(SeqNo seq) = 0;
  // Rewinds snd_nxt to snd_una so that the window refills from the first unacknowledged byte.
  virtual void GoBackN() = 0;
};

// Congestion control and loss recovery of one connection. The sender calls the On* methods and
// reads the window; controllers act on the sender only through its SenderHandle.
class CongestionControl {
 public:
  virtual ~CongestionControl() = default;

  // The connection may send data from now on: after the handshake, or at the first send of a one-way
  // transfer. `syn_lost`: the SYN or SYN-ACK was retransmitted (RFC 5681 §3.1 then allows only
  // a one-segment initial window).
  virtual void OnEstablished(SimTime now, bool syn_lost) = 0;
  // Must be called for every data segment sent, retransmissions included.
  virtual void OnSegmentSent(SimTime now, SeqNo seq, Bytes len, bool retransmission) = 0;
  // An ACK advanced snd_una to `ack`, acknowledging `acked` new bytes (the sender has already moved
  // snd_una). Returns whether to restart the retransmission timer (RFC 6298 §5.3).
  virtual bool OnNewAck(SimTime now, SeqNo ack, Bytes acked) = 0;
  // A duplicate ACK (RFC 5681 §2 definition) arrived.
  virtual void OnDuplicateAck(SimTime now, SeqNo ack) = 0;
  // The retransmission timer expired; the sender goes back to snd_una afterwards.
  virtual void OnRetransmissionTimeout(SimTime now) = 0;
  // A round-trip measurement that obeys Karn's rule.
  virtual void OnRttSample(SimTime now, SimTime rtt) = 0;
  // The sender resumes sending after an idle period longer than the RTO (RFC 5681 §4.1).
  virtual void OnIdleRestart(SimTime now) = 0;
  // The connection has closed; a sharing scheme may cache its state.
  virtual void OnClosed(SimTime now) = 0;

  virtual Bytes cwnd() const = 0;
  virtual Bytes ssthresh() const = 0;
  virtual const RttEstimator& rtt() const = 0;
  virtual bool in_recovery() const = 0;
  // Earliest time the next segment may leave; `now` when the controller does not pace.
  virtual SimTime NextSendTime(SimTime now) const { return now; }
};

}  // namespace tcb
