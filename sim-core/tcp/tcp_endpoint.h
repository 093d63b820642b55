// One end of a TCP connection: the handshake, the sending half (segmentation, windows, the
// retransmission timer, Karn's rule, slow-start restart, Nagle) and the receiving half (via
// TcpReceiver, with delayed ACKs and piggybacking). Congestion control and loss recovery are behind
// the CongestionControl interface.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>

#include "core/event_list.h"
#include "net/network.h"
#include "tcp/congestion_control.h"
#include "tcp/connection_context.h"
#include "tcp/linux_delayed_ack.h"
#include "tcp/linux_rtt_sampler.h"
#include "tcp/tcp_config.h"
#include "tcp/sack_scoreboard.h"
#include "tcp/tcp_receiver.h"

namespace tcb {

class TcpEndpoint;

// Callbacks from an endpoint to the application using it. An application may call the endpoint's
// Send/Close from inside any callback.
class TcpApplication {
 public:
  virtual ~TcpApplication() = default;
  // The handshake completed (at once for a one-way transfer).
  virtual void OnConnected(TcpEndpoint&) {}
  // In-order data arrived; `total` counts all payload bytes received so far.
  virtual void OnDataReceived(TcpEndpoint&, Bytes total) {}
  // Every byte written so far has been acknowledged.
  virtual void OnSendComplete(TcpEndpoint&) {}
  // The peer's FIN arrived in sequence: it will send no more.
  virtual void OnPeerClosed(TcpEndpoint&) {}
  // Both directions are closed.
  virtual void OnClosed(TcpEndpoint&) {}
};

struct TcpStats {
  int64_t segments_sent = 0;       // Everything this endpoint put on the wire.
  int64_t data_segments_sent = 0;  // Segments with payload, retransmissions included.
  int64_t retransmissions = 0;     // Segments (data, SYN or FIN) sent again.
  int64_t timeouts = 0;            // Retransmission timer expiries.
  int64_t pure_acks_sent = 0;
  int64_t duplicate_acks_received = 0;
  Bytes payload_bytes_sent = 0;  // Retransmissions included.
};

// Values a connection started with, once it could send (the output for sharing schemes).
struct TcpInitialState {
  bool valid = false;
  Bytes cwnd = 0;
  Bytes ssthresh = 0;
  bool has_rtt = false;  // False when no round trip had been measured yet.
  SimTime srtt;
  SimTime rttvar;
  SimTime rto;  // The retransmission timeout the first data segment was sent with.
};

// Makes the controller of a new endpoint: a host's sharing scheme decides what it is.
using ControllerFactory = std::function<std::unique_ptr<CongestionControl>(
    const TcpConfig&, SenderHandle&, const ConnectionContext&)>;

class ConnectionControl;

class TcpEndpoint final : public PacketSink, public SenderHandle {
 public:
  enum class State : uint8_t { kIdle, kListen, kSynSent, kSynReceived, kEstablished, kClosed };

  TcpEndpoint(Network& network, const ConnectionContext& context, bool initiator,
              const TcpConfig& config, const ControllerFactory& make_controller);

  void SetPeer(TcpEndpoint* peer) { peer_ = peer; }  // Not owned.
  void SetApplication(TcpApplication* app) { app_ = app; }  // Not owned.

  // Application interface.
  // Active open: SYN, or ready to send at once for a one-way transfer, or, when either end's
  // controller allows it (E-TCP §5's T/TCP-style handshake avoidance), established at once.
  void Open();
  void Listen();  // Passive open.
  void Send(Bytes bytes);  // Appends `bytes` to the send stream.
  void SendUnlimited();    // An endless stream (bulk transfer without a size).
  void Close();            // Sends FIN after the data written so far (full connections only).

  State state() const { return state_; }
  bool established() const { return state_ == State::kEstablished; }
  bool closed() const { return state_ == State::kClosed; }
  bool initiator() const { return initiator_; }
  FlowId flow() const { return flow_; }
  NodeId local() const { return local_; }
  NodeId remote() const { return remote_; }
  Bytes bytes_written() const { return written_; }
  Bytes bytes_acked() const;  // Payload bytes the peer has acknowledged.
  Bytes bytes_received() const { return receiver_.bytes_delivered(); }
  bool all_data_acked() const { return bytes_acked() == written_; }
  const TcpConfig& config() const { return config_; }
  const TcpStats& stats() const { return stats_; }
  const CongestionControl& controller() const { return *cc_; }
  const TcpInitialState& initial_state() const { return initial_state_; }
  SimTime current_rto() const;
  // The latest time any of this endpoint's timers was scheduled for (see EventSource::LastEntryAt).
  SimTime LastTimerEntryAt() const;

  // PacketSink.
  void Receive(Packet& packet) override;

  // SenderHandle.
  SeqNo snd_una() const override { return snd_una_; }
  SeqNo snd_nxt() const override { return snd_nxt_; }
  SeqNo snd_max() const override { return snd_max_; }
  Bytes mss() const override { return config_.mss; }
  Bytes peer_window() const override { return peer_window_; }
  Bytes unsent_bytes() const override { return std::max<Bytes>(0, StreamEnd() - snd_max_); }
  Bytes NextSegmentBytes() const override;
  bool write_closed() const override { return fin_requested_; }
  const SackScoreboard& scoreboard() const override { return scoreboard_; }
  void RetransmitNow(SeqNo seq, Bytes max_bytes) override;
  void GoBackN() override { snd_nxt_ = snd_una_; }
  Bytes SendNewSegment() override;
  void SetControlTimer(SimTime at) override { control_timer_.Set(at); }
  void StopControlTimer() override { control_timer_.Stop(); }
  SimTime RetransmissionDeadline() const override {
    return rto_timer_.IsArmed() ? rto_timer_.Deadline() : SimTime::Infinite();
  }
  void RestartRetransmissionTimer() override { RestartRto(); }
  Rng RandomStream(std::string_view name) const override;

 private:
  // The SYN occupies sequence number 0 and data starts at 1, in both connection models.
  static constexpr SeqNo kIss = 0;
  static constexpr SeqNo kDataStart = 1;
  static constexpr Bytes kUnlimited = Bytes{1} << 60;

  SeqNo StreamEnd() const { return kDataStart + written_; }
  // Where the next segment starts: snd_nxt, moved past data the receiver has SACKed when the
  // sender has gone back to resend.
  SeqNo SendPoint() const;
  bool FinPending() const { return fin_requested_; }
  void Establish();
  // The responder's half of a handshake-free open.
  void AcceptWithoutHandshake();
  void TrySend();
  // Tells the controller that data starts flowing: the first data, or after an idle period.
  void NoteSendStart();
  void SendSegment(SeqNo seq, Bytes max_payload = SenderHandle::kNoLimit);
  void SendPureAck();
  void ProcessAck(const Packet& packet);
  void RestartRto();
  void OnRtoTimer();
  void OnDelayedAckTimer();
  void OnPacingTimer();
  void OnControlTimer();
  void RecordState();
  void FillAckFields(Packet& packet);
  void CheckClosed();
  // What Linux's receiver-side ACK rules know of this end of the connection.
  LinuxAckScheduler::Context AckContext() const;

  Network& network_;
  Simulation& sim_;
  TraceSink* trace_;  // Not owned; may be null.
  FlowId flow_;
  bool initiator_;
  NodeId local_;
  NodeId remote_;
  TcpConfig config_;
  TcpEndpoint* peer_ = nullptr;
  TcpApplication* app_ = nullptr;
  TcpReceiver receiver_;
  // With tcp.ackRules "linux" (and delayed ACKs on): the receiver's ACK decisions.
  std::unique_ptr<LinuxAckScheduler> linux_ack_;
  // With tcp.rtoRules "linux": an RTT sample from every ACK, instead of one timed segment.
  std::unique_ptr<LinuxRttSampler> linux_rtt_;
  State state_ = State::kIdle;

  // Send sequence space.
  SeqNo snd_una_ = kIss;
  SeqNo snd_nxt_ = kIss;
  SeqNo snd_max_ = kIss;
  Bytes written_ = 0;
  bool fin_requested_ = false;
  Bytes peer_window_;
  bool syn_retransmitted_ = false;
  bool send_start_noted_ = false;  // OnSendStart() was called for the current burst of data.
  SackScoreboard scoreboard_;
  uint64_t echo_uid_ = 0;  // The last segment received, echoed in ACKs.

  // Karn's rule: one timed segment at a time; any retransmission cancels the measurement.
  bool timing_ = false;
  SeqNo timed_seq_ = 0;
  SimTime timed_at_;

  int backoff_ = 0;  // RFC 6298 §5.5 exponent.
  Bytes acked_reported_ = 0;  // Stream length last reported through OnSendComplete.
  SimTime last_activity_;
  bool ack_now_ = false;

  Timer rto_timer_;
  Timer delayed_ack_timer_;
  Timer pacing_timer_;
  Timer control_timer_;

  TcpStats stats_;
  TcpInitialState initial_state_;
  // The last row written to the series, to record only changes.
  TcpSeriesRow last_row_;
  bool has_last_row_ = false;

  // Made last: a controller may read the sender's state (a group scheme sums its members' flight)
  // while it is being made.
  std::unique_ptr<CongestionControl> cc_;
  // cc_ when it is a plain ConnectionControl (no sharing scheme wraps it), else null; see Cc() in
  // tcp_endpoint.cc.
  ConnectionControl* direct_cc_ = nullptr;
};

}  // namespace tcb
