// TcpEndpoint's own rules, outside whole runs (those are in tests/tcp_model_test.cc).
#include "tcp/tcp_endpoint.h"

#include <gtest/gtest.h>

#include "net/network.h"
#include "tcp/tcp_connection.h"

namespace tcb {
namespace {

// A connection's random streams are the run's streams named "tcp/<flow>/initiator/<name>" and
// "tcp/<flow>/responder/<name>" (RandomStream hashes the name part by part instead of spelling it
// out; every seeded result depends on these names staying what they were).
TEST(TcpEndpointTest, RandomStreamsAreNamedByFlowSideAndName) {
  Simulation sim(7);
  Network net(sim, nullptr);
  const NodeId a = net.AddNode("a", 0x0a000001);
  const NodeId b = net.AddNode("b", 0x0a000002);
  net.AddDuplexLink(a, b, "link", 10'000'000, SimTime::Milliseconds(20), QueueLimit::Unlimited());
  for (FlowId flow : {0, 7, 1234, 2147483647}) {
    TcpConnection c(net, flow, a, b, TcpConfig{}, MakeIndependentController);
    const std::string id = std::to_string(flow);
    for (const char* name : {"window-rule", "", "x"}) {
      Rng initiator = c.initiator().RandomStream(name);
      Rng responder = c.responder().RandomStream(name);
      Rng initiator_by_name = sim.MakeRng("tcp/" + id + "/initiator/" + name);
      Rng responder_by_name = sim.MakeRng("tcp/" + id + "/responder/" + name);
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(initiator.NextU64(), initiator_by_name.NextU64()) << flow << " " << name;
        EXPECT_EQ(responder.NextU64(), responder_by_name.NextU64()) << flow << " " << name;
      }
    }
  }
}

}  // namespace
}  // namespace tcb
