// Sessions of transfers.
#include "workload/sessions.h"

#include <cmath>
#include <string>

namespace tcb {

void SessionsApp::OnEvent() {
  if (context_.sim.Now() >= placement_.stop) return;
  if (left_in_session_ == 0) {
    left_in_session_ = -1;  // Endless, unless the model has sessions.
    if (model_.session_transfers) {
      const double n = std::floor(model_.session_transfers->Draw(rng_) + 0.5);
      left_in_session_ = n >= 1 ? static_cast<int64_t>(n < 1e9 ? n : 1e9) : 1;
    }
  }
  const double size = std::floor(model_.bytes.Draw(rng_) + 0.5);
  bytes_ = size >= 1 ? static_cast<Bytes>(size < 1e12 ? size : 1e12) : 1;
  TcpConnection& c = context_.flows.AddTcp(placement_.flow_name + "." + std::to_string(started_++),
                                           placement_.item, placement_.from, placement_.to, tcp_,
                                           context_.make_controller, placement_.traits);
  c.initiator().SetApplication(this);
  c.responder().SetApplication(this);
  transfer_ = context_.flows.BeginTransfer(c.id(), bytes_);
  c.responder().Listen();
  c.initiator().Open();
}

void SessionsApp::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  endpoint.Send(bytes_);
  endpoint.Close();
}

void SessionsApp::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  if (endpoint.initiator() || total != bytes_) return;
  const SimTime now = context_.sim.Now();
  context_.flows.EndTransfer(transfer_);
  context_.flows.EndFlow(endpoint.flow());
  double gap_s;
  if (left_in_session_ > 0 && --left_in_session_ == 0) {
    gap_s = model_.session_gap ? model_.session_gap->Draw(rng_) : 0.0;
  } else {
    gap_s = model_.gap.Draw(rng_);
  }
  // Heavy tails can draw gaps far beyond any run; clamp so that times stay representable.
  context_.sim.events().Schedule(*this, now + SimTime::FromSeconds(gap_s < 1e7 ? gap_s : 1e7));
}

void SessionsApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

}  // namespace tcb
