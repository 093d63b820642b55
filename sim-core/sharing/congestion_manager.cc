// The Congestion Manager.
#include "sharing/congestion_manager.h"

#include <algorithm>

namespace tcb {

// ---- The macroflow -------------------------------------------------------------------------------

class CongestionManagerScheme::Macroflow {
 public:
  Macroflow(const SharingEnvironment& env, std::string key, const TcpConfig& config)
      : env_(env),
        key_(std::move(key)),
        mss_(config.mss),
        receive_window_(config.receive_window),
        cwnd_(config.InitialWindowBytes()),
        ssthresh_(config.initial_ssthresh),
        rtt_(config.rto_granularity, config.min_rto, config.max_rto, config.initial_rto) {
    if (env_.recorder != nullptr) id_ = env_.recorder->RegisterGroup("congestion-manager " + key_);
  }

  void Open(Flow* f, FlowId flow, double weight) {
    flows_.push_back(f);
    flow_ids_.push_back(flow);
    scheduler_.Add(f, weight);
    Record();
  }
  void Close(Flow* f);
  // cm_update() with `bytes` newly acknowledged: TCP-style growth of the macroflow's window.
  void Grow(Bytes bytes);
  // What the macroflow has in the network: the flows' pipes (see Flow::Pipe()).
  Bytes Outstanding() const;
  // CM_LOSS_FEEDBACK: a transient loss. The window halves, at most once per round trip (§4.1: the
  // CM does not react to more than one loss report per RTT).
  void TransientLoss();
  // CM_PERSISTENT_CONGESTION (a timeout): one segment.
  void PersistentLoss();
  void AddRttSample(SimTime rtt) {
    rtt_.AddSample(rtt);
    Record();
  }
  // The scheduler grants sends (cmapp_send) while the window has room.
  void Pump();

  Bytes cwnd() const { return cwnd_; }
  Bytes ssthresh() const { return ssthresh_; }
  const RttEstimator& rtt() const { return rtt_; }
  double total_weight() const;
  nlohmann::json Describe() const {
    return {{"id", id_}, {"scheme", "congestion-manager"}, {"key", key_}, {"flows", flow_ids_}};
  }

 private:
  void Record() const {
    if (env_.recorder == nullptr || !env_.recorder->series()) return;
    env_.recorder->RecordGroup(env_.sim->Now(), id_, cwnd_, ssthresh_, rtt_.srtt(), rtt_.rttvar(),
                               Outstanding(), static_cast<int32_t>(flows_.size()));
  }

  SharingEnvironment env_;
  std::string key_;
  int32_t id_ = -1;
  Bytes mss_;
  Bytes receive_window_;
  Bytes cwnd_;
  Bytes ssthresh_;
  RttEstimator rtt_;
  SimTime last_decrease_;
  bool decreased_ = false;
  std::vector<Flow*> flows_;
  std::vector<FlowId> flow_ids_;
  StrideScheduler<Flow> scheduler_;
  bool pumping_ = false;
};

// ---- A flow (TCP over the CM) --------------------------------------------------------------------

class CongestionManagerScheme::Flow final : public CongestionControl {
 public:
  Flow(Macroflow& macroflow, SenderHandle& sender, const TcpConfig& config, double weight)
      : weight_(weight), macroflow_(macroflow), sender_(sender), config_(config) {}

  void OnEstablished(SimTime, bool) override { established_ = true; }
  void OnSendStart(SimTime, bool, Bytes) override {}
  void OnSegmentSent(SimTime, const SentSegment&) override {}
  bool OnAck(SimTime, const AckInfo& ack) override {
    if (!in_recovery_) macroflow_.Grow(ack.newly_acked);
    bool restart = true;
    if (in_recovery_) {
      if (ack.ack - 1 >= recover_) {
        in_recovery_ = false;  // RFC 6582's full acknowledgement.
      } else {
        // RFC 6582's partial acknowledgement: the next hole goes at once.
        sender_.RetransmitNow(ack.ack);
        restart = false;
      }
    }
    dupacks_ = 0;
    macroflow_.Pump();
    return restart;
  }
  void OnDuplicateAck(SimTime, const AckInfo&) override {
    if (++dupacks_ == config_.dupack_threshold && !in_recovery_ &&
        sender_.snd_una() - 1 > recover_) {
      // The flow's own fast retransmit, reported to the CM as a transient loss.
      in_recovery_ = true;
      recover_ = sender_.snd_max() - 1;
      macroflow_.TransientLoss();
      sender_.RetransmitNow(sender_.snd_una());
    }
    macroflow_.Pump();
  }
  void OnRetransmissionTimeout(SimTime) override {
    macroflow_.PersistentLoss();
    dupacks_ = 0;
    in_recovery_ = false;
    recover_ = sender_.snd_max() - 1;
  }
  void OnRttSample(SimTime, SimTime rtt) override { macroflow_.AddRttSample(rtt); }
  void OnClosed(SimTime) override { macroflow_.Close(this); }
  // cm_request(): the flow asks, and the CM calls back (cmapp_send) when the scheduler grants it.
  bool CanSend(Bytes) override {
    macroflow_.Pump();
    return false;
  }

  Bytes cwnd() const override {
    const double total = macroflow_.total_weight();
    return total > 0 ? static_cast<Bytes>(static_cast<double>(macroflow_.cwnd()) * weight_ / total) : macroflow_.cwnd();
  }
  Bytes ssthresh() const override { return macroflow_.ssthresh(); }
  const RttEstimator& rtt() const override { return macroflow_.rtt(); }
  bool in_recovery() const override { return in_recovery_; }

  bool ready() const { return established_ && sender_.NextSegmentBytes() > 0; }
  // Bytes of this flow in the network: sent up to snd_nxt and unacknowledged (after a timeout,
  // go-back-N starts again from snd_una), less a segment for every duplicate ACK since the last new
  // one (each says a segment left the network: cm_update's nrecd).
  Bytes Pipe() const {
    return std::max<Bytes>(0, sender_.snd_nxt() - sender_.snd_una() - dupacks_ * config_.mss);
  }
  SenderHandle& sender() { return sender_; }
  double weight_;

 private:
  Macroflow& macroflow_;
  SenderHandle& sender_;
  TcpConfig config_;
  bool established_ = false;
  int dupacks_ = 0;
  bool in_recovery_ = false;
  SeqNo recover_ = -1;
};

// ---- Macroflow methods -------------------------------------------------------------------------

double CongestionManagerScheme::Macroflow::total_weight() const {
  double total = 0;
  for (const Flow* f : flows_) total += f->weight_;
  return total;
}

Bytes CongestionManagerScheme::Macroflow::Outstanding() const {
  Bytes total = 0;
  for (const Flow* f : flows_) total += f->Pipe();
  return total;
}

void CongestionManagerScheme::Macroflow::Close(Flow* f) {
  flows_.erase(std::remove(flows_.begin(), flows_.end(), f), flows_.end());
  scheduler_.Remove(f);
  Record();
  Pump();
}

void CongestionManagerScheme::Macroflow::Grow(Bytes bytes) {
  // RFC 3124 §4.5: TCP-style AIMD with slow start, applied to the macroflow.
  if (cwnd_ < ssthresh_) {
    cwnd_ += std::min(bytes, mss_);
  } else {
    cwnd_ += std::max<Bytes>(1, mss_ * mss_ / cwnd_);
  }
  cwnd_ = std::min(cwnd_, receive_window_ * static_cast<Bytes>(std::max<size_t>(1, flows_.size())));
  Record();
}

void CongestionManagerScheme::Macroflow::TransientLoss() {
  const SimTime now = env_.sim->Now();
  if (decreased_ && rtt_.has_sample() && now - last_decrease_ < rtt_.srtt()) return;
  ssthresh_ = std::max(Outstanding() / 2, 2 * mss_);
  cwnd_ = ssthresh_;
  last_decrease_ = now;
  decreased_ = true;
  Record();
}

void CongestionManagerScheme::Macroflow::PersistentLoss() {
  ssthresh_ = std::max(Outstanding() / 2, 2 * mss_);
  cwnd_ = mss_;
  last_decrease_ = env_.sim->Now();
  decreased_ = true;
  Record();
}

void CongestionManagerScheme::Macroflow::Pump() {
  if (pumping_) return;
  pumping_ = true;
  while (Outstanding() + mss_ <= cwnd_) {
    Flow* f = scheduler_.Next([](Flow* c) { return c->ready(); });
    if (f == nullptr) break;
    f->sender().SendNewSegment();
  }
  pumping_ = false;
}

// ---- The scheme --------------------------------------------------------------------------------

CongestionManagerScheme::CongestionManagerScheme(const SharingConfig& config, const SharingEnvironment& env)
    : config_(config), env_(env) {}

CongestionManagerScheme::~CongestionManagerScheme() = default;

std::unique_ptr<CongestionControl> CongestionManagerScheme::Attach(const TcpConfig& config,
                                                                   SenderHandle& sender,
                                                                   const ConnectionContext& context) {
  const uint64_t key = GroupKey(config_.scope, context);
  auto it = macroflows_.find(key);
  if (it == macroflows_.end()) {
    it = macroflows_.emplace(key, std::make_unique<Macroflow>(env_, DescribeGroupKey(config_.scope, context), config)).first;
  }
  auto flow = std::make_unique<Flow>(*it->second, sender, config, context.traits.weight);
  it->second->Open(flow.get(), context.flow, context.traits.weight);
  return flow;
}

void CongestionManagerScheme::Describe(nlohmann::json& groups) const {
  for (const auto& [key, m] : macroflows_) groups.push_back(m->Describe());
}

}  // namespace tcb
