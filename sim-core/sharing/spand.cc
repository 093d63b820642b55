// TCP/SPAND.
#include "sharing/spand.h"

#include <algorithm>

#include "sharing/spand_math.h"
#include "tcp/pacer.h"

namespace tcb {

// ---- The performance gateway -------------------------------------------------------------------

void SpandGateway::Expire(std::deque<Sample>& samples, SimTime now) const {
  while (!samples.empty() && now - samples.front().at > window_) samples.pop_front();
}

SpandGateway::Estimate SpandGateway::Lookup(uint32_t network, SimTime now) {
  Estimate e;
  auto it = networks_.find(network);
  if (it == networks_.end()) return e;
  Expire(it->second, now);
  if (it->second.empty()) return e;
  double wc = 0;
  int64_t rtt = 0;
  for (const Sample& s : it->second) {
    wc += s.wc_packets;
    rtt += s.rtt.ns();
  }
  e.samples = static_cast<int>(it->second.size());
  e.wc_packets = wc / e.samples;
  e.rtt = SimTime::Nanoseconds(rtt / e.samples);
  return e;
}

void SpandGateway::Report(uint32_t network, SimTime now, double wc_packets, SimTime rtt) {
  std::deque<Sample>& samples = networks_[network];
  samples.push_back(Sample{now, wc_packets, rtt});
  Expire(samples, now);
}

// ---- A sender ------------------------------------------------------------------------------------

class SpandScheme::Member final : public ForwardingControl {
 public:
  Member(const TcpConfig& config, SenderHandle& sender, const SharingConfig& scheme,
         const SharingEnvironment& env, SpandGateway& gateway, uint32_t network, TcbGroup& group)
      : ForwardingControl(config, sender),
        scheme_(scheme),
        env_(env),
        gateway_(gateway),
        network_(network),
        group_(group) {}

  void OnSendStart(SimTime now, bool first, Bytes pending) override {
    // A reused connection restarting after idle: its previous transfer ended without a loss report.
    if (!first && !loss_reported_ && tcb().rtt.has_sample()) Report(now, Packets(tcb().cwnd));
    loss_reported_ = false;
    pacer_.StopWindow();
    // §5.1: "At connection start up or upon restart after an idle period, the application ...
    // extracts the current estimation of W_c and RTT from the performance gateway".
    const SpandGateway::Estimate e = gateway_.Lookup(network_, now);
    if (e.samples < scheme_.min_samples || e.samples == 0) {
      // §5.2.3: "In case there is not enough performance information in the sliding window, the
      // performance gateway simply informs the TCP senders to do slow start."
      ForwardingControl::OnSendStart(now, first, pending);
      return;
    }
    const Bytes mss = tcb().mss;
    const int64_t f = std::max<int64_t>(1, (pending + mss - 1) / mss);
    const int64_t wc = std::max<int64_t>(1, static_cast<int64_t>(e.wc_packets + 0.5));
    const SpandWindow w = SpandInitialWindow(f, wc, scheme_.segments_per_ack, scheme_.shift_optimisation);
    // §5.1: set cwnd (and srtt) and enter congestion avoidance directly (ssthresh <= cwnd).
    tcb().cwnd = w.cwnd * mss;
    tcb().ssthresh = tcb().cwnd;
    if (!tcb().rtt.has_sample()) tcb().rtt.Set(e.rtt, e.rtt / 2);
    // §5.2.5: pace the initial window with a token bucket of depth 4 at cwnd/srtt; once it has all
    // been paced out, standard TCP takes over.
    const double srtt_s = std::max(tcb().rtt.srtt().seconds(), 1e-6);
    pacer_.PaceWindowWithBurst(now, static_cast<double>(w.cwnd) / srtt_s, scheme_.bucket_depth, w.cwnd);
    ++optimal_starts_;
    group_.Record(now, tcb().rtt.srtt(), tcb().rtt.rttvar());
  }

  double pacing_rate_bps() const override { return pacer_.window_rate_bps(tcb().mss); }

  SimTime NextSendTime(SimTime now) const override {
    return pacer_.pacing_window() ? pacer_.NextSendTime(now) : ForwardingControl::NextSendTime(now);
  }
  void OnSegmentSent(SimTime now, const SentSegment& s) override {
    ForwardingControl::OnSegmentSent(now, s);
    if (!s.retransmission) pacer_.OnWindowSegmentSent(now);
  }

  void OnDuplicateAck(SimTime now, const AckInfo& ack) override {
    const bool was_in_recovery = in_recovery();
    const Bytes cwnd = tcb().cwnd;
    const bool avoidance = tcb().cwnd >= tcb().ssthresh;
    ForwardingControl::OnDuplicateAck(now, ack);
    // §5.1: "W_c can be estimated as one segment smaller than the current congestion window size
    // when a TCP sender detects a loss during congestion avoidance."
    if (!was_in_recovery && in_recovery() && avoidance) LossReport(now, cwnd);
  }
  void OnRetransmissionTimeout(SimTime now) override {
    if (tcb().cwnd >= tcb().ssthresh) LossReport(now, tcb().cwnd);
    ForwardingControl::OnRetransmissionTimeout(now);
  }
  void OnClosed(SimTime now) override {
    // §5.1: "its W_c can be estimated as the congestion window size when the connection terminates".
    if (!loss_reported_ && tcb().rtt.has_sample()) Report(now, Packets(tcb().cwnd));
    ForwardingControl::OnClosed(now);
    group_.Remove(this);
  }
  ~Member() override { group_.Remove(this); }

  int optimal_starts_ = 0;

 private:
  double Packets(Bytes bytes) const { return static_cast<double>(bytes) / static_cast<double>(tcb().mss); }
  void LossReport(SimTime now, Bytes cwnd) {
    if (loss_reported_ || !tcb().rtt.has_sample()) return;
    Report(now, std::max(1.0, Packets(cwnd) - 1.0));
    loss_reported_ = true;
  }
  void Report(SimTime now, double wc_packets) { gateway_.Report(network_, now, wc_packets, tcb().rtt.srtt()); }

  const SharingConfig& scheme_;
  SharingEnvironment env_;
  SpandGateway& gateway_;
  uint32_t network_;
  TcbGroup& group_;
  bool loss_reported_ = false;
  Pacer pacer_;  // Paces the optimal initial window (§5.2.5), then the ACK clock takes over.
};

// ---- The scheme --------------------------------------------------------------------------------

SpandScheme::SpandScheme(const SharingConfig& config, const SharingEnvironment& env, SpandGateway& gateway)
    : config_(config), env_(env), gateway_(gateway) {}

SpandScheme::~SpandScheme() = default;

std::unique_ptr<CongestionControl> SpandScheme::Attach(const TcpConfig& config, SenderHandle& sender,
                                                       const ConnectionContext& context) {
  // §5.2.1: "the network locality ... IP addresses sharing the most significant 24 bits".
  const uint32_t network = context.remote_address >> 8;
  TcbGroup& group = FindOrCreate(networks_, network, [&] {
    return TcbGroup(env_, "spand", DescribeGroupKey(SharingScope::kNetwork, context));
  });
  auto member = std::make_unique<Member>(config, sender, config_, env_, gateway_, network, group);
  group.Add(member.get(), context.flow);
  return member;
}

void SpandScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [network, group] : networks_) {
    nlohmann::json g = group.Describe();
    const SpandGateway::Estimate e = gateway_.Lookup(network, env_.sim->Now());
    g["gatewaySamples"] = e.samples;
    g["gatewayWcPackets"] = e.samples > 0 ? nlohmann::json(e.wc_packets) : nlohmann::json(nullptr);
    groups.push_back(std::move(g));
  }
}

}  // namespace tcb
