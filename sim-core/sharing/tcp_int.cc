// TCP-INT.
#include "sharing/tcp_int.h"

#include <algorithm>
#include <map>

namespace tcb {

// ---- The per-destination host structure ("struct chost") ---------------------------------------

class TcpIntHost final : public EnsembleGroup {
 public:
  TcpIntHost(const SharingConfig& scheme, const SharingEnvironment& env, std::string key, const TcpConfig& config)
      : EnsembleGroup(env, "tcp-int", std::move(key), config),
        scheme_(scheme),
        // §5: "the sender increases the cwnd variable as appropriate", which the paper's TCP does
        // by RFC 5681's AIMD (our Grow() and Shrink(), the seed flavors keep them). With another
        // window rule (CUBIC) the host's one window follows that rule through the group's
        // CongestionOps, as E-TCP's and the Congestion Manager's do. The proxy case keeps its
        // weighted AIMD: a connection standing for `weight` grows by `weight` segments per window
        // and gives up 1/(2 weight) on a loss, which has no counterpart in CUBIC's rule.
        follows_rule_(!scheme.weighted && config.window_rule != WindowRule::kReno) {
    host_window_.cwnd = config.InitialWindowBytes();
    host_window_.ssthresh = config.initial_ssthresh;
  }

  // TCP-INT integrates congestion control and loss recovery only; RTT stays per connection.
  const RttEstimator& RttOf(const EnsembleMember& m) const override { return m.own_rtt(); }

 protected:
  void OnJoined(EnsembleMember& m) override {
    // A new connection starts with the host's window instead of its own slow start (§5). In the
    // proxy case it brings a window of its own, as an independent connection would.
    if (scheme_.weighted) {
      Window& w = member_windows_[&m];
      w.cwnd = config().InitialWindowBytes();
      w.ssthresh = config().initial_ssthresh;
    }
    SumWindows();
  }
  void OnLeft(EnsembleMember& m) override {
    member_windows_.erase(&m);
    SumWindows();
  }
  void OnResumeAfterIdle(EnsembleMember&, bool) override {
    // §5: one congestion window for the host's connections, halved on a loss, "achieving the effect
    // of a single persistent TCP connection"; such a connection restarts its window after an idle
    // period (RFC 5681 §4.1: min(IW, cwnd), with tcp.slowStartRestart). Without the restart, the
    // first connection after idle sends the host's whole window, grown before the idle period, in
    // one burst, and a burst that loses N packets of one connection costs N round trips (OnAck). In
    // the proxy case every connection's window restarts, as each independent connection's would.
    if (!config().slow_start_restart) return;
    const Bytes restart = config().InitialWindowBytes();
    host_window_.cwnd = std::min(host_window_.cwnd, restart);
    for (auto& [member, w] : member_windows_) w.cwnd = std::min(w.cwnd, restart);
    SumWindows();
    Record();
  }
  void OnSegmentSent(EnsembleMember& m, const SentSegment& s) override {
    // "The connection prepares the packet ... adding an entry at the tail of the list of
    // outstanding packets. The entry contains the sequence number, size and timestamp" (a
    // retransmission's entry replaces the old one).
    outstanding().Sent(&m, s.seq, s.bytes, s.uid, Now());
    Record();
  }
  bool OnAck(EnsembleMember& m, const AckInfo& ack, bool new_data) override;
  void OnRetransmissionTimeout(EnsembleMember& m) override;
  void OnRttSample(EnsembleMember& m, SimTime rtt) override { m.own_rtt().AddSample(rtt); }

 private:
  // A congestion window that grows by SMSS * `weight` per window of data (`count` is the bytes
  // acknowledged towards the next increase) and shrinks by 1/(2 weight) on a loss.
  struct Window {
    Bytes cwnd = 0;
    Bytes ssthresh = 0;
    Bytes count = 0;
    SimTime decr_ts;
    bool decreased = false;
  };

  void Grow(Window& w, Bytes acked, double weight) const;
  void Shrink(Window& w, SimTime lost_sent_at, double weight, SimTime now) const;
  // The proxy case keeps a window per connection ("as if operating independently") and the host's
  // window is their sum; otherwise the host has one window.
  Window& WindowOf(EnsembleMember& m) { return scheme_.weighted ? member_windows_[&m] : host_window_; }
  double WeightOf(const EnsembleMember& m) const { return scheme_.weighted ? m.share() : 1.0; }
  void SumWindows();
  bool IsCandidate(const OutstandingList<EnsembleMember>::Entry& e, SimTime now) const;

  // The host's one window grows and shrinks by the connection's window rule (CUBIC), not by
  // Grow()/Shrink(); host_window_ then mirrors the group's Tcb.
  void FollowRule(Window& w) {
    w.cwnd = tcb().cwnd;
    w.ssthresh = tcb().ssthresh;
  }

  const SharingConfig& scheme_;
  const bool follows_rule_;
  Window host_window_;  // cwnd, ssthresh, count and decr_ts of struct chost.
  std::map<const EnsembleMember*, Window> member_windows_;  // The proxy case only.
};

bool TcpIntHost::IsCandidate(const OutstandingList<EnsembleMember>::Entry& e, SimTime now) const {
  const EnsembleMember& m = *e.owner;
  // Rule 1: enough ACKs for later packets ("to avoid unnecessary retransmission as a result of
  // network reordering"). Lost from the seed copy: the threshold, TCP's usual 3 duplicate ACKs
  // (RFC 5681).
  if (e.later_acks < config().dupack_threshold) return false;
  // Rule 2: the lowest unacknowledged packet of its connection.
  if (e.seq != m.sender().snd_una()) return false;
  // Rule 3: its connection has no retransmission pending.
  if (m.in_recovery()) return false;
  if (scheme_.delayed_ack_rules) {
    // Delayed-ACK receivers acknowledge every other packet, or 200 ms after a packet arrived, which
    // reorders ACKs. Our reading of the two extra rules: the packet is a candidate only if its own
    // connection has acknowledged a packet sent after it (so the receiver would have acknowledged
    // it too), or if 200 ms have passed since the first later packet was acknowledged (the bound by
    // which the receiver must acknowledge; "ms" in the seed copy, 200 ms here).
    const bool own_later_acked = m.highest_echo() > e.uid;
    const bool overdue = now - e.first_later_ack >= scheme_.delayed_ack_bound;
    if (!own_later_acked && !overdue) return false;
  }
  return true;
}

void TcpIntHost::SumWindows() {
  if (!scheme_.weighted) {
    mutable_tcb().cwnd = host_window_.cwnd;
    mutable_tcb().ssthresh = host_window_.ssthresh;
    return;
  }
  Bytes cwnd = 0, ssthresh = 0;
  for (const EnsembleMember* m : members()) {
    const Window& w = member_windows_.at(m);
    cwnd += w.cwnd;
    ssthresh = std::min(ssthresh + w.ssthresh, TcpConfig::kInfiniteSsthresh);
  }
  mutable_tcb().cwnd = std::max(cwnd, tcb().mss);
  mutable_tcb().ssthresh = ssthresh;
}

void TcpIntHost::Grow(Window& w, Bytes acked, double weight) const {
  // "The sender increases the cwnd variable as appropriate": slow start, then `weight` segments
  // per window.
  const Bytes mss = tcb().mss;
  if (w.cwnd < w.ssthresh) {
    w.cwnd += std::min(acked, mss);
  } else {
    w.count += acked;
    if (static_cast<double>(w.count) * weight >= static_cast<double>(w.cwnd)) {
      w.count = 0;
      w.cwnd += mss;
    }
  }
  w.cwnd = std::min(w.cwnd, config().receive_window * static_cast<Bytes>(std::max<size_t>(1, members().size())));
}

void TcpIntHost::Shrink(Window& w, SimTime lost_sent_at, double weight, SimTime now) const {
  // Congestion control on loss: halve (by 1/(2 weight) for a connection that stands for several),
  // once per window of data: only a packet sent after the last decrease (decr_ts) reduces again.
  if (w.decreased && lost_sent_at <= w.decr_ts) return;
  const double factor = 1.0 - 1.0 / (2.0 * std::max(1.0, weight));
  w.cwnd = std::max(static_cast<Bytes>(static_cast<double>(w.cwnd) * factor), 2 * tcb().mss);
  w.ssthresh = w.cwnd;
  w.decr_ts = now;
  w.decreased = true;
}

bool TcpIntHost::OnAck(EnsembleMember& m, const AckInfo& ack, bool new_data) {
  const SimTime now = Now();
  if (new_data) {
    // "The sender removes the packets from the pkts list up to the sequence number acknowledged ...
    // and decrements ownd by their size."
    outstanding().Acked(&m, ack.ack);
    if (m.in_recovery() && ack.ack >= m.recover()) m.LeaveRecovery();
    if (follows_rule_) {
      IncreaseWindow(ack.newly_acked);
      mutable_tcb().cwnd = std::min(tcb().cwnd, config().receive_window * static_cast<Bytes>(std::max<size_t>(1, members().size())));
      FollowRule(host_window_);
    } else {
      Grow(WindowOf(m), ack.newly_acked, WeightOf(m));
    }
  }
  // "On the arrival of an ACK (new or duplicate), the sender uses the ACK's timestamp to increment
  // the acks field of each packet transmitted earlier than the packet just acknowledged."
  outstanding().CountLaterAck(ack.echo_uid, now);
  // "The sender traverses the list from the oldest to identify candidates for retransmission ... and
  // retransmits the single oldest lost packet." Later ACKs do not increase along the list
  // (sharing/outstanding_list.h), so past the first entry with too few (rule 1) there is none.
  for (const auto& e : outstanding().entries()) {
    if (e.later_acks < config().dupack_threshold) break;
    if (!IsCandidate(e, now)) continue;
    EnsembleMember& owner = *e.owner;
    const SeqNo seq = e.seq;
    const Bytes bytes = e.bytes;
    if (follows_rule_) {
      // The rule's reduction (RFC 9438 §4.6 for CUBIC) over the host's packets, once per window of
      // data as Shrink() (decr_ts).
      Window& w = host_window_;
      if (!w.decreased || e.sent_at > w.decr_ts) {
        mutable_tcb().ssthresh = SsThreshAfterLoss(outstanding().bytes());
        mutable_tcb().cwnd = tcb().ssthresh;
        FollowRule(w);
        w.decr_ts = now;
        w.decreased = true;
      }
    } else {
      Shrink(WindowOf(owner), e.sent_at, WeightOf(owner), now);
    }
    // The retransmission is pending until the ACK passes it.
    owner.EnterRecovery(seq + bytes);
    owner.sender().RetransmitNow(seq, bytes);  // Moves the entry to the tail.
    break;
  }
  SumWindows();
  Record();
  Pump();
  // RFC 6298 §5.3: every ACK of new data restarts the retransmission timer, also one that passes a
  // retransmission while later packets of the connection wait for theirs (NewReno's partial ACK, and
  // RFC 6582 §4's Slow-but-Steady variant). The paper's TCP-INT recovers its losses without a coarse
  // timeout (§5's sequence plot); the price is one repair per round trip when a connection loses
  // many packets of one window.
  return true;
}

void TcpIntHost::OnRetransmissionTimeout(EnsembleMember& m) {
  // A coarse timeout: back to one segment, ssthresh as RFC 5681 §3.1 eq. (4) over the host's
  // packets (or, in the proxy case, the connection's); the connection resends from snd_una, so its
  // entries leave the list (go-back-N lists them again).
  Window& w = WindowOf(m);
  const Bytes flight = scheme_.weighted ? m.sender().flight_size() : outstanding().bytes();
  if (follows_rule_) {
    // The rule's ssthresh (RFC 9438 §4.8 for CUBIC: beta_cubic) and a loss window of one segment.
    mutable_tcb().ssthresh = SsThreshAfterLoss(flight);
    mutable_tcb().cwnd = tcb().mss;
    NoteTimeout();
    FollowRule(w);
  } else {
    w.ssthresh = Rfc5681SsThresh(flight, tcb().mss);
    w.cwnd = tcb().mss;
  }
  w.decr_ts = Now();
  w.decreased = true;
  outstanding().RemoveOwner(&m);
  m.LeaveRecovery();
  SumWindows();
  Record();
}

// ---- The scheme --------------------------------------------------------------------------------

TcpIntScheme::TcpIntScheme(const SharingConfig& config, const SharingEnvironment& env)
    : EnsembleScheme(config, env) {}

TcpIntScheme::~TcpIntScheme() = default;

std::unique_ptr<CongestionControl> TcpIntScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                        const ConnectionContext& context) {
  return JoinWithWeight(config, sender, context);
}

}  // namespace tcb
