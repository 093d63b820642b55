// Transfers at given times.
#include "workload/transfers.h"

#include <algorithm>

namespace tcb {

TransfersApp::TransfersApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp,
                           Bytes bytes, std::vector<SimTime> starts, bool reuse_connection)
    : Application(context, std::move(placement)),
      tcp_(tcp),
      bytes_(bytes),
      starts_(std::move(starts)),
      reuse_(reuse_connection) {
  std::sort(starts_.begin(), starts_.end());
}

void TransfersApp::Start() {
  if (!starts_.empty()) context_.sim.events().Schedule(*this, starts_.front());
}

void TransfersApp::OnEvent() {
  const size_t index = next_++;
  if (next_ < starts_.size()) context_.sim.events().Schedule(*this, starts_[next_]);

  if (reuse_) {
    if (shared_ == nullptr) {
      shared_ = &context_.flows.AddTcp(placement_.flow_name, placement_.item, placement_.from,
                                       placement_.to, tcp_, context_.make_controller, placement_.traits);
      shared_->initiator().SetApplication(this);
      shared_->responder().SetApplication(this);
      shared_->responder().Listen();
      requested_ += bytes_;
      pending_.push_back({context_.flows.BeginTransfer(shared_->id(), bytes_), requested_});
      shared_->initiator().Open();
      return;
    }
    requested_ += bytes_;
    pending_.push_back({context_.flows.BeginTransfer(shared_->id(), bytes_), requested_});
    if (shared_->initiator().established()) shared_->initiator().Send(bytes_);
    return;
  }

  std::string name = placement_.flow_name;
  if (starts_.size() > 1) name += "." + std::to_string(index);
  TcpConnection& c = context_.flows.AddTcp(std::move(name), placement_.item, placement_.from,
                                           placement_.to, tcp_, context_.make_controller, placement_.traits);
  c.initiator().SetApplication(this);
  c.responder().SetApplication(this);
  by_flow_.emplace_back(c.id(), context_.flows.BeginTransfer(c.id(), bytes_));
  c.responder().Listen();
  c.initiator().Open();
}

void TransfersApp::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  // A reused connection sends everything requested before the handshake completed.
  endpoint.Send(reuse_ ? requested_ : bytes_);
  if (!reuse_) endpoint.Close();
}

void TransfersApp::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  if (endpoint.initiator()) return;
  if (reuse_) {
    while (next_pending_ < pending_.size() && pending_[next_pending_].received_end <= total) {
      context_.flows.EndTransfer(pending_[next_pending_++].transfer);
    }
    if (next_ == starts_.size() && total == requested_) context_.flows.EndFlow(endpoint.flow());
    return;
  }
  if (total != bytes_) return;
  // Flows are created in increasing id order, so by_flow_ is sorted.
  auto it = std::lower_bound(by_flow_.begin(), by_flow_.end(), endpoint.flow(),
                             [](const auto& entry, FlowId f) { return entry.first < f; });
  context_.flows.EndTransfer(it->second);
  context_.flows.EndFlow(endpoint.flow());
}

void TransfersApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

}  // namespace tcb
