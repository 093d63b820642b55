// A TCP connection: the initiator's and the responder's endpoints, wired to each other.
#pragma once

#include <string>

#include "tcp/tcp_endpoint.h"

namespace tcb {

class TcpConnection {
 public:
  TcpConnection(Network& network, FlowId id, NodeId initiator, NodeId responder,
                const TcpConfig& config, const ControllerFactory& make_controller)
      : id_(id),
        initiator_(network, id, true, initiator, responder, config, make_controller),
        responder_(network, id, false, responder, initiator, config, make_controller) {
    initiator_.SetPeer(&responder_);
    responder_.SetPeer(&initiator_);
    network.EnsureRoutesTo(initiator);
    network.EnsureRoutesTo(responder);
  }

  FlowId id() const { return id_; }
  TcpEndpoint& initiator() { return initiator_; }
  TcpEndpoint& responder() { return responder_; }
  const TcpEndpoint& initiator() const { return initiator_; }
  const TcpEndpoint& responder() const { return responder_; }

 private:
  FlowId id_;
  TcpEndpoint initiator_;
  TcpEndpoint responder_;
};

// The default: each connection runs its own Tahoe/Reno/NewReno controller.
std::unique_ptr<CongestionControl> MakeIndependentController(const TcpConfig& config,
                                                             SenderHandle& sender);

}  // namespace tcb
