// Bulk transfer.
#include "workload/bulk.h"

namespace tcb {

void BulkApp::StartFile() {
  if (context_.sim.Now() >= placement_.stop) return;
  if (files_ != kForever && files_started_ >= files_) return;
  const bool several = files_ != 1;
  std::string name = placement_.flow_name;
  if (several) name += "." + std::to_string(files_started_);
  ++files_started_;
  TcpConnection& c = context_.flows.AddTcp(std::move(name), placement_.item, placement_.from,
                                           placement_.to, tcp_, context_.make_controller, placement_.traits);
  c.initiator().SetApplication(this);
  c.responder().SetApplication(this);
  if (file_bytes_ != kUnlimited) transfer_ = context_.flows.BeginTransfer(c.id(), file_bytes_);
  c.responder().Listen();
  c.initiator().Open();
}

void BulkApp::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  if (file_bytes_ == kUnlimited) {
    endpoint.SendUnlimited();
  } else {
    endpoint.Send(file_bytes_);
    endpoint.Close();
  }
}

void BulkApp::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  if (endpoint.initiator() || file_bytes_ == kUnlimited || total != file_bytes_) return;
  context_.flows.EndTransfer(transfer_);
  context_.flows.EndFlow(endpoint.flow());
  StartFile();
}

void BulkApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

}  // namespace tcb
