// Telnet-like interactive traffic.
#include "workload/telnet.h"

#include "core/distributions.h"

namespace tcb {

void TelnetApp::OnEvent() {
  const SimTime now = context_.sim.Now();
  if (connection_ == nullptr) {
    connection_ = &context_.flows.AddTcp(placement_.flow_name, placement_.item, placement_.from,
                                         placement_.to, tcp_, context_.make_controller, placement_.traits);
    connection_->initiator().SetApplication(this);
    connection_->responder().SetApplication(this);
    connection_->responder().Listen();
    connection_->initiator().Open();
    return;
  }
  if (now >= placement_.stop) {
    connection_->initiator().Close();
    return;
  }
  connection_->initiator().Send(write_bytes_);
  ScheduleNextWrite();
}

void TelnetApp::ScheduleNextWrite() {
  const SimTime gap = SimTime::FromSeconds(Exponential(rng_, mean_interval_.seconds()));
  // Past the stop time, the event closes the session instead of writing.
  context_.sim.events().Schedule(*this, Min(context_.sim.Now() + gap, placement_.stop));
}

void TelnetApp::OnConnected(TcpEndpoint& endpoint) {
  if (endpoint.initiator()) ScheduleNextWrite();
}

void TelnetApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

void TelnetApp::OnClosed(TcpEndpoint& endpoint) {
  if (endpoint.initiator()) context_.flows.EndFlow(endpoint.flow());
}

}  // namespace tcb
