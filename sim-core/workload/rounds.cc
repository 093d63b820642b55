// Experiment rounds.
#include "workload/rounds.h"

#include <string>

#include "core/distributions.h"

namespace tcb {

void RoundSchedule::OnEvent() {
  if (round_ >= rounds_ || senders_.empty()) return;
  waiting_ = senders_.size();
  for (RoundsApp* s : senders_) s->BeginRound(round_, round_ + 1 == rounds_);
  ++round_;
}

void RoundSchedule::TransferDone() {
  if (--waiting_ == 0) sim_.events().Schedule(*this, sim_.Now() + idle_);
}

RoundsApp::RoundsApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, Bytes bytes,
                     SimTime jitter, bool reuse_connection, RoundSchedule& schedule, Rng rng)
    : Application(context, std::move(placement)),
      tcp_(tcp),
      bytes_(bytes),
      jitter_(jitter),
      reuse_(reuse_connection),
      schedule_(schedule),
      rng_(rng) {}

void RoundsApp::BeginRound(int round, bool last) {
  round_ = round;
  last_ = last;
  const SimTime offset = jitter_.ns() > 0 ? SimTime::FromSeconds(Uniform(rng_, 0.0, jitter_.seconds()))
                                          : SimTime::Zero();
  context_.sim.events().Schedule(*this, context_.sim.Now() + offset);
}

void RoundsApp::OnEvent() {
  if (reuse_ && shared_ != nullptr) {
    requested_ += bytes_;
    transfer_ = context_.flows.BeginTransfer(shared_->id(), bytes_);
    if (shared_->initiator().established()) shared_->initiator().Send(bytes_);
    return;
  }
  std::string name = placement_.flow_name;
  if (!reuse_) name += "." + std::to_string(round_);
  TcpConnection& c = context_.flows.AddTcp(std::move(name), placement_.item, placement_.from,
                                           placement_.to, tcp_, context_.make_controller, placement_.traits);
  c.initiator().SetApplication(this);
  c.responder().SetApplication(this);
  if (reuse_) shared_ = &c;
  requested_ = reuse_ ? requested_ + bytes_ : bytes_;
  transfer_ = context_.flows.BeginTransfer(c.id(), bytes_);
  c.responder().Listen();
  c.initiator().Open();
}

void RoundsApp::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  // A reused connection sends everything requested before its handshake completed.
  endpoint.Send(requested_);
  if (!reuse_) endpoint.Close();
}

void RoundsApp::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  if (endpoint.initiator() || total != requested_) return;
  context_.flows.EndTransfer(transfer_);
  if (!reuse_ || last_) context_.flows.EndFlow(endpoint.flow());
  if (reuse_ && last_) shared_->initiator().Close();
  schedule_.TransferDone();
}

void RoundsApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

}  // namespace tcb
