// One end of a TCP connection.
#include "tcp/tcp_endpoint.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <stdexcept>
#include <string>

#include "tcp/connection_control.h"

namespace tcb {

namespace {

// Calls `f` with the endpoint's controller: as the ConnectionControl itself when it is one (a final
// class, so the calls are direct and may be inlined), else through the interface. The per-packet
// calls go through here because WebAssembly's indirect calls are dear under V8 (a table bounds
// check, a signature check, no prediction of the target across calls), and the link-time
// devirtualisation (wasm/CMakeLists.txt) cannot resolve these: a sharing scheme's member
// controllers implement the interface too. In Node 20 this cut the WASM run of dumbbell-bulk from
// 302 to 278 ms, modern-bulk-cubic 344 -> 324, flavor-cubic 15.2 -> 14.2 and savoric-table4
// 2513 -> 2400 (fastest of 11, 11, 11 and 5 alternating runs); native unchanged within 1%.
template <class F>
decltype(auto) Cc(ConnectionControl* direct, CongestionControl& any, F&& f) {
  return direct != nullptr ? f(*direct) : f(any);
}

}  // namespace

TcpEndpoint::TcpEndpoint(Network& network, const ConnectionContext& context, bool initiator,
                         const TcpConfig& config, const ControllerFactory& make_controller)
    : network_(network),
      sim_(network.sim()),
      trace_(network.trace()),
      flow_(context.flow),
      initiator_(initiator),
      local_(context.local),
      remote_(context.remote),
      config_(config),
      receiver_(config.delayed_ack),
      peer_window_(config.receive_window),
      rto_timer_(Timer::For<&TcpEndpoint::OnRtoTimer>(sim_.events(), this)),
      delayed_ack_timer_(Timer::For<&TcpEndpoint::OnDelayedAckTimer>(sim_.events(), this)),
      pacing_timer_(Timer::For<&TcpEndpoint::OnPacingTimer>(sim_.events(), this)),
      control_timer_(Timer::For<&TcpEndpoint::OnControlTimer>(sim_.events(), this)),
      cc_(make_controller(config_, *this, context)),
      direct_cc_(dynamic_cast<ConnectionControl*>(cc_.get())) {
  if (config_.delayed_ack && config_.ack_rules == AckRules::kLinux) {
    linux_ack_ = std::make_unique<LinuxAckScheduler>(config_);
  }
  if (config_.rto_rules == RtoRules::kLinux) linux_rtt_ = std::make_unique<LinuxRttSampler>();
}

Bytes TcpEndpoint::bytes_acked() const {
  return std::clamp<Bytes>(snd_una_ - kDataStart, 0, written_);
}

SimTime TcpEndpoint::current_rto() const {
  // RFC 6298 §5.5: back off by doubling, up to the maximum.
  const RttEstimator& rtt =
      Cc(direct_cc_, *cc_, [](auto& cc) -> const RttEstimator& { return cc.rtt(); });
  SimTime rto = rtt.rto();
  const SimTime max_rto = Max(rtt.max_rto(), rto);
  for (int i = 0; i < backoff_ && rto < max_rto; ++i) rto = rto * 2;
  return Min(rto, max_rto);
}

void TcpEndpoint::Open() {
  last_activity_ = sim_.Now();
  if (config_.model == ConnectionModel::kOneWay) {
    snd_una_ = snd_nxt_ = snd_max_ = kDataStart;
    Establish();
    if (app_ != nullptr) app_->OnConnected(*this);
    TrySend();
    return;
  }
  if (peer_ != nullptr && peer_->state_ == State::kListen &&
      (cc_->AvoidsHandshake() || peer_->cc_->AvoidsHandshake())) {
    // The peer is known (a cached connection count, T/TCP): no SYN round trip.
    peer_->AcceptWithoutHandshake();
    snd_una_ = snd_nxt_ = snd_max_ = kDataStart;
    receiver_.Start(kDataStart);
    Establish();
    if (app_ != nullptr) app_->OnConnected(*this);
    TrySend();
    return;
  }
  state_ = State::kSynSent;
  SendSegment(kIss);
}

void TcpEndpoint::AcceptWithoutHandshake() {
  last_activity_ = sim_.Now();
  snd_una_ = snd_nxt_ = snd_max_ = kDataStart;
  receiver_.Start(kDataStart);
  Establish();
  if (app_ != nullptr) app_->OnConnected(*this);
}

void TcpEndpoint::Listen() {
  if (config_.model == ConnectionModel::kOneWay) {
    // The sink of a one-way transfer needs no handshake (and sends nothing but ACKs).
    snd_una_ = snd_nxt_ = snd_max_ = kDataStart;
    receiver_.Start(kDataStart);
    state_ = State::kEstablished;
    return;
  }
  state_ = State::kListen;
}

void TcpEndpoint::Send(Bytes bytes) {
  if (fin_requested_) throw std::logic_error("Send after Close");
  written_ = std::min(written_ + bytes, kUnlimited);
  TrySend();
  RecordState();
}

void TcpEndpoint::SendUnlimited() { Send(kUnlimited); }

void TcpEndpoint::Close() {
  if (fin_requested_) return;
  fin_requested_ = true;
  if (config_.model == ConnectionModel::kOneWay) {
    // No FIN on a one-way transfer: the sender is done once everything is acknowledged.
    CheckClosed();
    return;
  }
  TrySend();
}

void TcpEndpoint::Establish() {
  state_ = State::kEstablished;
  cc_->OnEstablished(sim_.Now(), syn_retransmitted_);
  RecordState();
}

SeqNo TcpEndpoint::SendPoint() const {
  // After a timeout the sender goes back to snd_una (GoBackN), and what it sends again skips the
  // data the SACK scoreboard says the receiver holds: RFC 6675 §5.1 (SACK information kept across
  // the timeout, OnRtoTimer) and Linux's tcp_xmit_retransmit_queue(), which resends only segments
  // not SACKed.
  SeqNo seq = snd_nxt_;
  if (seq >= snd_max_) return seq;
  for (const SackBlock& b : scoreboard_.blocks()) {  // Sorted and disjoint.
    if (seq < b.start) break;
    if (seq < b.end) seq = b.end;
  }
  return seq;
}

Bytes TcpEndpoint::NextSegmentBytes() const {
  if (state_ != State::kEstablished) return 0;
  const SeqNo end = StreamEnd();
  const SeqNo seq = SendPoint();
  if (seq >= end) return 0;
  Bytes len = std::min(config_.mss, end - seq);
  if (seq < snd_max_) {
    // A segment sent again stops where the receiver's next SACKed block starts.
    if (const SackBlock* b = scoreboard_.NextBlockAtOrAfter(seq); b != nullptr) len = std::min(len, b->start - seq);
  }
  // Flow control: the receiver's window.
  if (seq + len > snd_una_ + peer_window_) return 0;
  // RFC 896 (Nagle): hold a small new segment while data is unacknowledged.
  if (config_.nagle && len < config_.mss && seq >= snd_max_ && snd_max_ > snd_una_) return 0;
  return len;
}

void TcpEndpoint::NoteSendStart() {
  if (send_start_noted_ || snd_una_ != snd_max_) return;
  const SimTime now = sim_.Now();
  const bool first = stats_.payload_bytes_sent == 0;
  // RFC 5681 §4.1: an idle period is one longer than the RTO without sending or receiving.
  if (first || now - last_activity_ > current_rto()) {
    send_start_noted_ = true;
    cc_->OnSendStart(now, first, unsent_bytes());
    RecordState();
  }
}

void TcpEndpoint::TrySend() {
  if (state_ != State::kEstablished) return;
  const SimTime now = sim_.Now();
  for (;;) {
    const Bytes len = NextSegmentBytes();
    if (len > 0) {
      NoteSendStart();
      if (!Cc(direct_cc_, *cc_, [&](auto& cc) { return cc.CanSend(len); })) break;
      const SimTime earliest =
          Cc(direct_cc_, *cc_, [&](auto& cc) { return cc.NextSendTime(now); });
      if (earliest > now) {
        pacing_timer_.Set(earliest);
        break;
      }
      snd_nxt_ = SendPoint();
      SendSegment(snd_nxt_, len);
    } else if (fin_requested_ && snd_nxt_ == StreamEnd() && config_.model == ConnectionModel::kFull) {
      SendSegment(snd_nxt_);  // A FIN on its own.
    } else {
      break;
    }
  }
}

Bytes TcpEndpoint::SendNewSegment() {
  const Bytes len = NextSegmentBytes();
  if (len == 0) return 0;
  NoteSendStart();
  snd_nxt_ = SendPoint();
  SendSegment(snd_nxt_, len);
  return len;
}

void TcpEndpoint::OnPacingTimer() { TrySend(); }

Rng TcpEndpoint::RandomStream(std::string_view name) const {
  // The stream "tcp/<flow>/initiator/<name>" (or /responder/), hashed part by part instead of
  // spelled out: every connection opened makes two, and a run may open thousands.
  char flow[16];
  const char* flow_end = std::to_chars(std::begin(flow), std::end(flow), flow_).ptr;
  uint64_t hash = Fnv1a64("tcp/");
  hash = Fnv1a64(std::string_view(flow, flow_end - flow), hash);
  hash = Fnv1a64(initiator_ ? "/initiator/" : "/responder/", hash);
  return sim_.MakeRngForNameHash(Fnv1a64(name, hash));
}

void TcpEndpoint::OnControlTimer() {
  if (state_ != State::kEstablished) return;
  cc_->OnControlTimer(sim_.Now());
  TrySend();
  RecordState();
}

void TcpEndpoint::RetransmitNow(SeqNo seq, Bytes max_bytes) { SendSegment(seq, max_bytes); }

void TcpEndpoint::FillAckFields(Packet& p) {
  if (!receiver_.started()) return;
  p.flags |= tcp_flags::kAck;
  p.ack = receiver_.rcv_nxt();
  p.echo_uid = echo_uid_;
  if (config_.sack()) {
    // RFC 2018: up to three blocks fit beside a timestamp option; the option costs 2 + 8n bytes,
    // padded to a multiple of four. Linux sends as many as the 40 bytes of option space hold
    // (net/ipv4/tcp_output.c tcp_established_options()): four, as this model's headers carry no
    // timestamps (and the kernel's do not with net.ipv4.tcp_timestamps = 0).
    const int most = config_.ack_rules == AckRules::kLinux ? kMaxSackBlocks : 3;
    p.sack_count = static_cast<uint8_t>(receiver_.SackBlocks(p.sack.data(), most));
    if (p.sack_count > 0) p.size += 4 + 8 * p.sack_count;
  }
  receiver_.OnAckSent();
  if (linux_ack_ != nullptr) linux_ack_->OnAckSent(receiver_.rcv_nxt());
  delayed_ack_timer_.Stop();
  ack_now_ = false;
}

void TcpEndpoint::SendSegment(SeqNo seq, Bytes max_payload) {
  const SimTime now = sim_.Now();
  Packet& p = network_.NewPacket();
  p.flow = flow_;
  p.src = local_;
  p.dst = remote_;
  p.endpoint = peer_;
  p.from_initiator = initiator_;
  p.protocol = Protocol::kTcp;
  p.seq = seq;
  p.window = config_.receive_window;

  SeqNo consumed;
  if (seq == kIss && config_.model == ConnectionModel::kFull) {
    p.flags = tcp_flags::kSyn;
    consumed = 1;
  } else {
    const SeqNo end = StreamEnd();
    p.payload = std::clamp<Bytes>(end - seq, 0, std::min(config_.mss, max_payload));
    consumed = p.payload;
    if (fin_requested_ && seq + p.payload == end && config_.model == ConnectionModel::kFull) {
      p.flags |= tcp_flags::kFin;
      consumed += 1;
    }
  }
  p.size = kIpHeaderBytes + kTcpHeaderBytes + p.payload;
  FillAckFields(p);

  const bool retransmission = seq < snd_max_;
  if (linux_rtt_ != nullptr) linux_rtt_->OnSent(now, seq, seq + consumed);
  if (linux_ack_ != nullptr && p.payload > 0) linux_ack_->OnDataSent(now);
  if (seq == snd_nxt_) snd_nxt_ = seq + consumed;
  snd_max_ = std::max(snd_max_, seq + consumed);

  ++stats_.segments_sent;
  if (p.payload > 0) {
    ++stats_.data_segments_sent;
    send_start_noted_ = false;
    if (!initial_state_.valid) {
      initial_state_ = {true, cc_->cwnd(), cc_->ssthresh(), cc_->rtt().has_sample(),
                        cc_->rtt().srtt(), cc_->rtt().rttvar(), current_rto()};
    }
  }
  stats_.payload_bytes_sent += p.payload;
  if (retransmission) {
    ++stats_.retransmissions;
    timing_ = false;  // Karn's rule.
  } else if (!timing_) {
    timing_ = true;
    timed_seq_ = seq;
    timed_at_ = now;
  }
  if (!rto_timer_.IsArmed()) RestartRto();
  if (p.payload > 0 || p.Has(tcp_flags::kFin)) {
    const SentSegment sent{seq, p.payload, retransmission, p.uid};
    Cc(direct_cc_, *cc_, [&](auto& cc) { cc.OnSegmentSent(now, sent); });
  }
  if (trace_ != nullptr && trace_->packets()) {
    trace_->Record(TraceRow(now, retransmission ? PacketEvent::kRetransmit : PacketEvent::kSend, p));
  }
  last_activity_ = now;
  network_.Inject(p);
}

void TcpEndpoint::SendPureAck() {
  Packet& p = network_.NewPacket();
  p.flow = flow_;
  p.src = local_;
  p.dst = remote_;
  p.endpoint = peer_;
  p.from_initiator = initiator_;
  p.protocol = Protocol::kTcp;
  p.seq = snd_nxt_;
  p.window = config_.receive_window;
  p.size = kIpHeaderBytes + kTcpHeaderBytes;
  FillAckFields(p);
  ++stats_.segments_sent;
  ++stats_.pure_acks_sent;
  network_.Inject(p);
}

void TcpEndpoint::RestartRto() {
  if (config_.rto_rules == RtoRules::kLinux) {
    // inet_csk_reset_xmit_timer(sk, ICSK_TIME_RETRANS, icsk_rto, ...): a timer_list due icsk_rto
    // jiffies after the current tick.
    const Jiffies jiffies(config_.linux_hz);
    rto_timer_.Set(jiffies.Expiry(sim_.Now(), jiffies.FromTime(current_rto())));
    return;
  }
  // With a coarse clock the timer can only expire on a tick (RFC 6298's G; BSD's 500 ms slow timer).
  rto_timer_.Set(CeilToTick(sim_.Now() + current_rto(), config_.rto_granularity));
}

void TcpEndpoint::OnRtoTimer() {
  if (snd_una_ >= snd_max_) return;
  const SimTime now = sim_.Now();
  ++stats_.timeouts;
  ++backoff_;
  timing_ = false;
  if (state_ == State::kSynSent || state_ == State::kSynReceived) {
    syn_retransmitted_ = true;
    snd_nxt_ = kIss;
    SendSegment(kIss);
  } else {
    cc_->OnRetransmissionTimeout(now);
    // RFC 6675 §5.1: SACK information may be kept across a timeout where there is a robust test
    // for reneging (RFC 2018 Errata 1610; RFC 2018 §8 had the sender forget it). Ours is Linux's
    // (tcp_timeout_mark_lost()): the receiver reneged if the first unacknowledged byte is SACKed,
    // i.e. its cumulative ACK stopped at data it had reported holding; only then is the scoreboard
    // forgotten. The go-back-N below skips what the receiver holds (SendPoint()).
    if (scoreboard_.IsSacked(snd_una_)) scoreboard_.Clear();
    GoBackN();
    TrySend();
    RecordState();
  }
  RestartRto();
}

void TcpEndpoint::OnDelayedAckTimer() {
  if (!receiver_.started()) return;
  if (linux_ack_ != nullptr && !linux_ack_->OnTimer(sim_.Now(), AckContext())) {
    if (const std::optional<SimTime> at = linux_ack_->timer_deadline()) delayed_ack_timer_.Set(*at);
    return;
  }
  SendPureAck();
}

LinuxAckScheduler::Context TcpEndpoint::AckContext() const {
  const RttEstimator& rtt = cc_->rtt();
  return {rtt.has_sample() ? rtt.srtt() : SimTime::Zero(), current_rto()};
}

void TcpEndpoint::ProcessAck(const Packet& p) {
  const SimTime now = sim_.Now();
  peer_window_ = p.window;
  const SeqNo ack = p.ack;
  if (ack > snd_max_) return;  // Acknowledges data never sent: ignore.
  if (config_.sack()) {
    scoreboard_.Update(std::max(snd_una_, ack), p.sack.data(), p.sack_count);
  }
  AckInfo info;
  info.ack = ack;
  info.echo_uid = p.echo_uid;
  info.sack_blocks = p.sack.data();
  info.sack_count = p.sack_count;
  // Linux's RTT sampling (tcp.rtoRules "linux"): tcp_ack_update_rtt() after the ACK moved snd_una,
  // for any ACK that did not fall behind it, with a sample from nearly every one.
  std::optional<SimTime> linux_sample;
  if (linux_rtt_ != nullptr && ack >= snd_una_) linux_sample = linux_rtt_->OnAck(now, ack, p.sack.data(), p.sack_count);
  auto linux_rtt_sample = [&] {
    if (!linux_sample) return;
    backoff_ = 0;  // "RFC6298: only reset backoff on valid RTT measurement."
    Cc(direct_cc_, *cc_, [&](auto& cc) { cc.OnRttSample(now, *linux_sample); });
  };
  if (ack > snd_una_) {
    info.newly_acked = ack - snd_una_;
    const bool syn_acked = snd_una_ == kIss && config_.model == ConnectionModel::kFull;
    if (linux_rtt_ == nullptr && timing_ && ack > timed_seq_) {
      timing_ = false;
      backoff_ = 0;  // A valid sample ends the backoff (Karn).
      Cc(direct_cc_, *cc_, [&](auto& cc) { cc.OnRttSample(now, now - timed_at_); });
    }
    snd_una_ = ack;
    if (snd_nxt_ < snd_una_) snd_nxt_ = snd_una_;
    linux_rtt_sample();
    bool restart = true;
    if (!syn_acked && state_ == State::kEstablished) {
      restart = Cc(direct_cc_, *cc_, [&](auto& cc) { return cc.OnAck(now, info); });
    }
    if (snd_una_ == snd_max_) {
      rto_timer_.Stop();
    } else if (restart) {
      RestartRto();  // RFC 6298 §5.3.
    }
    return;
  }
  linux_rtt_sample();
  // RFC 5681 §2: a duplicate ACK carries no data, no SYN/FIN, the same ACK number and window, and
  // arrives while data is outstanding.
  if (ack == snd_una_ && p.payload == 0 && !p.Has(tcp_flags::kSyn) && !p.Has(tcp_flags::kFin) &&
      snd_max_ > snd_una_ && state_ == State::kEstablished) {
    ++stats_.duplicate_acks_received;
    Cc(direct_cc_, *cc_, [&](auto& cc) { cc.OnDuplicateAck(now, info); });
  }
}

void TcpEndpoint::Receive(Packet& p) {
  const SimTime now = sim_.Now();
  if (trace_ != nullptr && trace_->packets() && p.Has(tcp_flags::kAck)) {
    trace_->Record(TraceRow(now, PacketEvent::kAck, p));
  }
  last_activity_ = now;
  // The segment that triggers our next ACK (a timestamp echo, RFC 7323).
  if (p.payload > 0 || p.Has(tcp_flags::kSyn) || p.Has(tcp_flags::kFin)) echo_uid_ = p.uid;

  if (state_ == State::kIdle) {
    network_.Release(p);
    return;
  }
  if (state_ == State::kListen) {
    if (p.Has(tcp_flags::kSyn)) {
      receiver_.Start(p.seq + 1);
      state_ = State::kSynReceived;
      SendSegment(kIss);  // SYN-ACK.
    }
    network_.Release(p);
    return;
  }
  if (state_ == State::kSynReceived && p.Has(tcp_flags::kSyn) && !p.Has(tcp_flags::kAck)) {
    // The initiator resent its SYN, so our SYN-ACK was probably lost: resend it.
    snd_nxt_ = kIss;
    SendSegment(kIss);
    network_.Release(p);
    return;
  }
  if (state_ == State::kSynSent && p.Has(tcp_flags::kSyn)) receiver_.Start(p.seq + 1);

  const bool was_established = established() || closed();
  if (p.Has(tcp_flags::kAck)) ProcessAck(p);
  bool connected_now = false;
  if (!was_established && snd_una_ > kIss && receiver_.started()) {
    Establish();
    connected_now = true;
  }
  // RFC 9293 §3.10.7.3 (SYN-SENT): a SYN-ACK that acknowledges our SYN is answered with an ACK at
  // once; data queued for transmission may ride on it, but when none may go now (a group's window
  // is full, a pacer waits), the ACK goes alone rather than leave the peer to resend its SYN-ACK.
  if (connected_now && p.Has(tcp_flags::kSyn)) ack_now_ = true;

  TcpReceiver::Outcome in;
  if (receiver_.started()) {
    const SeqNo data_seq = p.seq + (p.Has(tcp_flags::kSyn) ? 1 : 0);
    const bool fin = p.Has(tcp_flags::kFin);
    if (p.payload > 0 || fin) {
      const Bytes before = receiver_.bytes_delivered();
      in = receiver_.OnSegment(data_seq, p.payload, fin);
      if (linux_ack_ != nullptr) {
        const bool now_ack = linux_ack_->OnSegment(now, in, p.payload, receiver_.rcv_nxt(), receiver_.has_gaps(),
                                                   AckContext());
        in.ack = now_ack ? AckUrgency::kNow : AckUrgency::kDelayed;
      }
      // Invariant: in-order delivery never runs past what the peer wrote and actually transmitted.
      const Bytes transmitted = std::min(peer_->bytes_written(), peer_->snd_max() - kDataStart);
      if (before + in.delivered > transmitted) {
        throw std::logic_error("flow " + std::to_string(flow_) + ": delivered " +
                               std::to_string(before + in.delivered) + " bytes but only " +
                               std::to_string(transmitted) + " were sent");
      }
    } else if (p.Has(tcp_flags::kSyn) && was_established) {
      in.ack = AckUrgency::kNow;  // A repeated SYN-ACK: our ACK was lost.
    }
  }
  network_.Release(p);

  if (in.ack == AckUrgency::kNow) ack_now_ = true;
  if (state_ == State::kClosed) {
    // As in TIME-WAIT: keep acknowledging a peer that resends its FIN.
    if (ack_now_) SendPureAck();
    return;
  }

  if (connected_now && app_ != nullptr) app_->OnConnected(*this);
  if (in.delivered > 0 && app_ != nullptr) app_->OnDataReceived(*this, receiver_.bytes_delivered());
  if (in.fin_now && app_ != nullptr) app_->OnPeerClosed(*this);
  if (p.Has(tcp_flags::kAck) && written_ > 0 && all_data_acked() && app_ != nullptr &&
      stats_.payload_bytes_sent > 0) {
    // Reported once per write that completes, when the ACK for its last byte arrives.
    if (acked_reported_ < written_) {
      acked_reported_ = written_;
      app_->OnSendComplete(*this);
    }
  }
  TrySend();
  RecordState();

  if (ack_now_) {
    SendPureAck();
  } else if (linux_ack_ != nullptr) {
    // Linux's timers: the delayed ACK's and SACK compression's, whichever is due first (none when
    // data sent meanwhile carried the ACK).
    if (const std::optional<SimTime> at = linux_ack_->timer_deadline()) delayed_ack_timer_.Set(*at);
  } else if (in.ack == AckUrgency::kDelayed && !delayed_ack_timer_.IsArmed()) {
    delayed_ack_timer_.Set(now + config_.delayed_ack_timeout);
  }
  CheckClosed();
}

void TcpEndpoint::CheckClosed() {
  if (state_ != State::kEstablished) return;
  if (config_.model == ConnectionModel::kOneWay) {
    if (!initiator_ || !fin_requested_ || snd_una_ != StreamEnd()) return;
  } else {
    const bool fin_acked = fin_requested_ && snd_una_ == StreamEnd() + 1;
    if (!fin_acked || !receiver_.fin_received()) return;
  }
  state_ = State::kClosed;
  rto_timer_.Stop();
  pacing_timer_.Stop();
  control_timer_.Stop();
  cc_->OnClosed(sim_.Now());
  if (app_ != nullptr) app_->OnClosed(*this);
  // A one-way transfer has no FIN: its receiving end is done when its sender is (everything it
  // will ever receive has been acknowledged).
  if (config_.model == ConnectionModel::kOneWay && peer_ != nullptr && peer_->state_ == State::kEstablished) {
    peer_->state_ = State::kClosed;
    peer_->rto_timer_.Stop();
    peer_->pacing_timer_.Stop();
    peer_->control_timer_.Stop();
    peer_->delayed_ack_timer_.Stop();
    peer_->cc_->OnClosed(sim_.Now());
    if (peer_->app_ != nullptr) peer_->app_->OnClosed(*peer_);
  }
}

SimTime TcpEndpoint::LastTimerEntryAt() const {
  return Max(Max(rto_timer_.LastEntryAt(), control_timer_.LastEntryAt()),
             Max(delayed_ack_timer_.LastEntryAt(), pacing_timer_.LastEntryAt()));
}

void TcpEndpoint::RecordState() {
  // Endpoints that never send data (e.g. the sink of a bulk transfer) have no window worth plotting.
  if (trace_ == nullptr || !trace_->series() || written_ == 0) return;
  TcpSeriesRow row;
  row.time_ns = sim_.Now().ns();
  row.flow = flow_;
  row.endpoint = initiator_ ? 0 : 1;
  row.cwnd = cc_->cwnd();
  row.ssthresh = cc_->ssthresh();
  row.srtt_ns = cc_->rtt().srtt().ns();
  row.rttvar_ns = cc_->rtt().rttvar().ns();
  row.in_flight = snd_max_ - snd_una_;
  row.pacing_bps = static_cast<int64_t>(cc_->pacing_rate_bps() + 0.5);
  cc_->DescribeState(row);
  // A row is written when the controller's state changed; time and flight alone are no change.
  TcpSeriesRow unchanged = row;
  unchanged.time_ns = last_row_.time_ns;
  unchanged.in_flight = last_row_.in_flight;
  if (has_last_row_ && unchanged == last_row_) return;
  last_row_ = row;
  has_last_row_ = true;
  trace_->Record(row);
}

}  // namespace tcb
