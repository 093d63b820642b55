// A TCP connection: the initiator's and the responder's endpoints, wired to each other.
#pragma once

#include <string>

#include "tcp/tcp_endpoint.h"

namespace tcb {

class TcpConnection {
 public:
  TcpConnection(Network& network, FlowId id, NodeId initiator, NodeId responder,
                const TcpConfig& config, const ControllerFactory& make_controller,
                const ConnectionTraits& traits = {})
      : id_(id),
        initiator_(network, Context(network, id, initiator, responder, traits), true, config, make_controller),
        responder_(network, Context(network, id, responder, initiator, traits), false, config, make_controller) {
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
  static ConnectionContext Context(const Network& network, FlowId id, NodeId local, NodeId remote,
                                   const ConnectionTraits& traits) {
    return {id, local, remote, network.node(local).address(), network.node(remote).address(), traits};
  }

  FlowId id_;
  TcpEndpoint initiator_;
  TcpEndpoint responder_;
};

// The default: each connection runs its own Tahoe/Reno/NewReno/SACK controller.
std::unique_ptr<CongestionControl> MakeIndependentController(const TcpConfig& config,
                                                             SenderHandle& sender,
                                                             const ConnectionContext& context);

}  // namespace tcb
