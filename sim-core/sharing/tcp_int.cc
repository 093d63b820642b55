// TCP-INT.
#include "sharing/tcp_int.h"

#include <algorithm>

namespace tcb {

// ---- The per-destination host structure ("struct chost") ---------------------------------------

class TcpIntScheme::Host {
 public:
  // A congestion window that grows by SMSS * `weight` per window of data (`count` is the bytes
  // acknowledged towards the next increase) and shrinks by 1/(2 weight) on a loss.
  struct Window {
    Bytes cwnd = 0;
    Bytes ssthresh = 0;
    Bytes count = 0;
    SimTime decr_ts;
    bool decreased = false;
  };

  Host(const SharingConfig& scheme, const SharingEnvironment& env, std::string key,
       const TcpConfig& config)
      : scheme_(scheme),
        env_(env),
        key_(std::move(key)),
        mss_(config.mss),
        receive_window_(config.receive_window),
        initial_window_(config.InitialWindowBytes()),
        initial_ssthresh_(config.initial_ssthresh),
        cwnd_(config.InitialWindowBytes()),
        ssthresh_(config.initial_ssthresh),
        // Lost from the seed copy: the duplicate-ACK threshold, TCP's usual 3 (RFC 5681).
        later_ack_threshold_(config.dupack_threshold) {
    if (env_.recorder != nullptr) id_ = env_.recorder->RegisterGroup("tcp-int " + key_);
    host_window_.cwnd = cwnd_;
    host_window_.ssthresh = ssthresh_;
  }

  void Join(Member* m, FlowId flow, double weight);
  void Leave(Member* m);
  void Sent(Member* m, const SentSegment& s);
  void Ack(Member* m, const AckInfo& ack, bool new_data);
  void Timeout(Member* m);
  // The new send routine: while the pipe holds less than cwnd, the next connection in round-robin
  // order sends a packet.
  void Pump();

  Bytes cwnd() const { return cwnd_; }
  Bytes ssthresh() const { return ssthresh_; }
  double total_weight() const;
  bool weighted() const { return scheme_.weighted; }
  nlohmann::json Describe() const {
    return {{"id", id_}, {"scheme", "tcp-int"}, {"key", key_}, {"flows", flows_}};
  }

 private:
  void Grow(Window& w, Bytes acked, double weight) const;
  void Shrink(Window& w, SimTime lost_sent_at, double weight, SimTime now) const;
  // The proxy case keeps a window per connection ("as if operating independently") and the host's
  // window is their sum; otherwise the host has one window.
  Window& WindowOf(Member* m);
  void SumWindows();
  bool IsCandidate(const OutstandingList<Member>::Entry& e, SimTime now) const;
  void Record() const;

  const SharingConfig& scheme_;
  SharingEnvironment env_;
  std::string key_;
  int32_t id_ = -1;
  Bytes mss_;
  Bytes receive_window_;
  Bytes initial_window_;
  Bytes initial_ssthresh_;
  Bytes cwnd_;
  Bytes ssthresh_;
  Window host_window_;  // cwnd, ssthresh, count and decr_ts of struct chost.
  int later_ack_threshold_;
  OutstandingList<Member> pkts_;
  std::vector<Member*> conns_;
  StrideScheduler<Member> round_robin_;  // Equal weights: plain round robin; weights: weighted.
  std::vector<FlowId> flows_;
  bool pumping_ = false;
};

// ---- A member connection -----------------------------------------------------------------------

class TcpIntScheme::Member final : public CongestionControl {
 public:
  Member(Host& host, SenderHandle& sender, const TcpConfig& config, double weight)
      : weight_(weight),
        host_(host),
        sender_(sender),
        // TCP-INT integrates congestion control and loss recovery only; RTT stays per connection.
        rtt_(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto) {}

  void OnEstablished(SimTime, bool) override { established_ = true; }
  void OnSendStart(SimTime, bool, Bytes) override {}
  void OnSegmentSent(SimTime, const SentSegment& s) override { host_.Sent(this, s); }
  bool OnAck(SimTime, const AckInfo& ack) override {
    host_.Ack(this, ack, true);
    return true;
  }
  void OnDuplicateAck(SimTime, const AckInfo& ack) override { host_.Ack(this, ack, false); }
  void OnRetransmissionTimeout(SimTime) override { host_.Timeout(this); }
  void OnRttSample(SimTime, SimTime rtt) override { rtt_.AddSample(rtt); }
  void OnClosed(SimTime) override { host_.Leave(this); }
  bool CanSend(Bytes) override {
    host_.Pump();
    return false;
  }

  Bytes cwnd() const override {
    const double total = host_.total_weight();
    return total > 0 ? static_cast<Bytes>(static_cast<double>(host_.cwnd()) * weight_ / total) : host_.cwnd();
  }
  Bytes ssthresh() const override { return host_.ssthresh(); }
  const RttEstimator& rtt() const override { return rtt_; }
  bool in_recovery() const override { return retransmission_pending_; }

  bool ready() const { return established_ && sender_.NextSegmentBytes() > 0; }
  SenderHandle& sender() { return sender_; }

  double weight_;
  bool retransmission_pending_ = false;
  Host::Window window_;  // The proxy case only.
  SeqNo pending_end_ = 0;      // The pending retransmission is done when the ACK passes this.
  uint64_t highest_echo_ = 0;  // Latest packet of this connection that an ACK of its own echoed.

 private:
  Host& host_;
  SenderHandle& sender_;
  RttEstimator rtt_;
  bool established_ = false;
};

// ---- Host methods ------------------------------------------------------------------------------

double TcpIntScheme::Host::total_weight() const {
  double total = 0;
  for (const Member* m : conns_) total += m->weight_;
  return total;
}

void TcpIntScheme::Host::Join(Member* m, FlowId flow, double weight) {
  // A new connection starts with the host's window instead of its own slow start (§5). In the proxy
  // case it brings a window of its own, as an independent connection would.
  m->window_.cwnd = initial_window_;
  m->window_.ssthresh = initial_ssthresh_;
  conns_.push_back(m);
  flows_.push_back(flow);
  round_robin_.Add(m, weight);
  SumWindows();
  Record();
}

void TcpIntScheme::Host::Leave(Member* m) {
  conns_.erase(std::remove(conns_.begin(), conns_.end(), m), conns_.end());
  round_robin_.Remove(m);
  pkts_.RemoveOwner(m);
  SumWindows();
  Record();
  Pump();
}

void TcpIntScheme::Host::Sent(Member* m, const SentSegment& s) {
  // "The connection prepares the packet ... adding an entry at the tail of the list of outstanding
  // packets. The entry contains the sequence number, size and timestamp" (a retransmission's entry
  // replaces the old one).
  pkts_.Sent(m, s.seq, s.bytes, s.uid, env_.sim->Now());
  Record();
}

bool TcpIntScheme::Host::IsCandidate(const OutstandingList<Member>::Entry& e, SimTime now) const {
  const Member& m = *e.owner;
  // Rule 1: enough ACKs for later packets ("to avoid unnecessary retransmission as a result of
  // network reordering").
  if (e.later_acks < later_ack_threshold_) return false;
  // Rule 2: the lowest unacknowledged packet of its connection.
  if (e.seq != const_cast<Member&>(m).sender().snd_una()) return false;
  // Rule 3: its connection has no retransmission pending.
  if (m.retransmission_pending_) return false;
  if (scheme_.delayed_ack_rules) {
    // Delayed-ACK receivers acknowledge every other packet, or 200 ms after a packet arrived, which
    // reorders ACKs. Our reading of the two extra rules: the packet is a candidate only if its own
    // connection has acknowledged a packet sent after it (so the receiver would have acknowledged
    // it too), or if 200 ms have passed since the first later packet was acknowledged (the bound by
    // which the receiver must acknowledge; "ms" in the seed copy, 200 ms here).
    const bool own_later_acked = m.highest_echo_ > e.uid;
    const bool overdue = now - e.first_later_ack >= scheme_.delayed_ack_bound;
    if (!own_later_acked && !overdue) return false;
  }
  return true;
}

TcpIntScheme::Host::Window& TcpIntScheme::Host::WindowOf(Member* m) {
  return scheme_.weighted ? m->window_ : host_window_;
}

void TcpIntScheme::Host::SumWindows() {
  if (!scheme_.weighted) {
    cwnd_ = host_window_.cwnd;
    ssthresh_ = host_window_.ssthresh;
    return;
  }
  cwnd_ = 0;
  ssthresh_ = 0;
  for (const Member* m : conns_) {
    cwnd_ += m->window_.cwnd;
    ssthresh_ = std::min(ssthresh_ + m->window_.ssthresh, TcpConfig::kInfiniteSsthresh);
  }
  cwnd_ = std::max(cwnd_, mss_);
}

void TcpIntScheme::Host::Grow(Window& w, Bytes acked, double weight) const {
  // "The sender increases the cwnd variable as appropriate": slow start, then `weight` segments
  // per window.
  if (w.cwnd < w.ssthresh) {
    w.cwnd += std::min(acked, mss_);
  } else {
    w.count += acked;
    if (static_cast<double>(w.count) * weight >= static_cast<double>(w.cwnd)) {
      w.count = 0;
      w.cwnd += mss_;
    }
  }
  w.cwnd = std::min(w.cwnd, receive_window_ * static_cast<Bytes>(std::max<size_t>(1, conns_.size())));
}

void TcpIntScheme::Host::Shrink(Window& w, SimTime lost_sent_at, double weight, SimTime now) const {
  // Congestion control on loss: halve (by 1/(2 weight) for a connection that stands for several),
  // once per window of data: only a packet sent after the last decrease (decr_ts) reduces again.
  if (w.decreased && lost_sent_at <= w.decr_ts) return;
  const double factor = 1.0 - 1.0 / (2.0 * std::max(1.0, weight));
  w.cwnd = std::max(static_cast<Bytes>(static_cast<double>(w.cwnd) * factor), 2 * mss_);
  w.ssthresh = w.cwnd;
  w.decr_ts = now;
  w.decreased = true;
}

void TcpIntScheme::Host::Ack(Member* m, const AckInfo& ack, bool new_data) {
  const SimTime now = env_.sim->Now();
  if (new_data) {
    // "The sender removes the packets from the pkts list up to the sequence number acknowledged ...
    // and decrements ownd by their size."
    pkts_.Acked(m, ack.ack);
    if (m->retransmission_pending_ && ack.ack >= m->pending_end_) m->retransmission_pending_ = false;
    Grow(WindowOf(m), ack.newly_acked, scheme_.weighted ? m->weight_ : 1.0);
  }
  if (ack.echo_uid > m->highest_echo_) m->highest_echo_ = ack.echo_uid;
  // "On the arrival of an ACK (new or duplicate), the sender uses the ACK's timestamp to increment
  // the acks field of each packet transmitted earlier than the packet just acknowledged."
  pkts_.CountLaterAck(ack.echo_uid, now);
  // "The sender traverses the list from the oldest to identify candidates for retransmission ... and
  // retransmits the single oldest lost packet."
  for (const auto& e : pkts_.entries()) {
    if (!IsCandidate(e, now)) continue;
    Member* owner = e.owner;
    const SeqNo seq = e.seq;
    const Bytes bytes = e.bytes;
    Shrink(WindowOf(owner), e.sent_at, scheme_.weighted ? owner->weight_ : 1.0, now);
    owner->retransmission_pending_ = true;
    owner->pending_end_ = seq + bytes;
    owner->sender().RetransmitNow(seq, bytes);  // Moves the entry to the tail.
    break;
  }
  SumWindows();
  Record();
  Pump();
}

void TcpIntScheme::Host::Timeout(Member* m) {
  // A coarse timeout: back to one segment; the connection resends from snd_una, so its entries
  // leave the list (go-back-N lists them again).
  Window& w = WindowOf(m);
  w.ssthresh = std::max((scheme_.weighted ? m->sender().flight_size() : pkts_.bytes()) / 2, 2 * mss_);
  w.cwnd = mss_;
  w.decr_ts = env_.sim->Now();
  w.decreased = true;
  pkts_.RemoveOwner(m);
  m->retransmission_pending_ = false;
  SumWindows();
  Record();
}

void TcpIntScheme::Host::Pump() {
  if (pumping_) return;
  pumping_ = true;
  // "Checks to see if the number of bytes in the pipe ... is greater than the desired size of the
  // pipe (cwnd)"; if there is room, the round robin picks the connection that sends.
  while (pkts_.bytes() + mss_ <= cwnd_) {
    Member* m = round_robin_.Next([](Member* c) { return c->ready(); });
    if (m == nullptr) break;
    m->sender().SendNewSegment();
  }
  pumping_ = false;
}

void TcpIntScheme::Host::Record() const {
  if (env_.recorder == nullptr || !env_.recorder->series()) return;
  env_.recorder->RecordGroup(env_.sim->Now(), id_, cwnd_, ssthresh_, SimTime::Zero(), SimTime::Zero(),
                             pkts_.bytes(), static_cast<int32_t>(conns_.size()));
}

// ---- The scheme --------------------------------------------------------------------------------

TcpIntScheme::TcpIntScheme(const SharingConfig& config, const SharingEnvironment& env)
    : config_(config), env_(env) {}

TcpIntScheme::~TcpIntScheme() = default;

std::unique_ptr<CongestionControl> TcpIntScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                        const ConnectionContext& context) {
  const uint64_t key = GroupKey(config_.scope, context);
  auto it = hosts_.find(key);
  if (it == hosts_.end()) {
    it = hosts_.emplace(key, std::make_unique<Host>(config_, env_, DescribeGroupKey(config_.scope, context), config)).first;
  }
  auto member = std::make_unique<Member>(*it->second, sender, config, context.traits.weight);
  it->second->Join(member.get(), context.flow, context.traits.weight);
  return member;
}

void TcpIntScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [key, host] : hosts_) groups.push_back(host->Describe());
}

}  // namespace tcb
