// Topology descriptions and the builders for the seed papers' topologies. A builder expands its few
// parameters into explicit nodes and links; Instantiate() turns a description into a Network.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "net/link.h"
#include "net/network.h"

namespace tcb {

// Loss on one link direction: a probability, or a list of packet ordinals.
struct LossSpec {
  double rate = 0;
  std::vector<int64_t> packets;
  bool empty() const { return rate == 0 && packets.empty(); }
};

struct LinkParams {
  BitsPerSec rate = 0;
  SimTime delay;
  QueueLimit queue;
  Bytes framing_bytes = 0;  // Link-layer bytes sent with every packet (Link::SetFramingBytes).
  LossSpec loss_forward;  // From the first end to the second.
  LossSpec loss_reverse;
};

struct NodeSpec {
  std::string name;
  uint32_t address = 0;  // IPv4, host byte order.
};

struct LinkSpec {
  std::string name;
  std::string a;
  std::string b;
  LinkParams params;
};

struct TopologySpec {
  std::vector<NodeSpec> nodes;
  std::vector<LinkSpec> links;
};

// E-TCP §4: server and client on one link "path".
TopologySpec SingleLink(const LinkParams& link);
// TCP/SPAND Fig. 8: left<i> -- router0 == bottleneck == router1 -- right<i>.
TopologySpec Dumbbell(int pairs, const LinkParams& bottleneck, const LinkParams& access);
// TCP/SPAND Fig. 9: r0..rK in a chain; src<i> at r0, dst<i> at rK; cross sources x<k>s<j> at each
// intermediate router r1..r(K-1) with their sinks x<k>d<j> at the next router (§6.4: i = 1..4 for K = 5).
TopologySpec ParkingLot(int hops, int users, int cross_per_router, const LinkParams& hop,
                        const LinkParams& access);
// Savorić et al. §4.1, Fig. 2.
TopologySpec TwoLans(const LinkParams& backbone, const LinkParams& access, const LinkParams& lan,
                     double receiver_lan_loss);
// Gürkan §4.1, Fig. 4.1: c1..cN -- gwc == wan == gws -- s1..sM.
TopologySpec ClientGateway(const std::vector<SimTime>& client_delays,
                           const std::vector<SimTime>& server_delays, const LinkParams& wan,
                           BitsPerSec lan_rate, const QueueLimit& lan_queue);

// Builds the network of `spec` (nodes and links in order, loss models seeded per link direction)
// and computes routes.
void Instantiate(const TopologySpec& spec, Network& network);

uint32_t Ipv4(int a, int b, int c, int d);
std::string FormatIpv4(uint32_t address);
// Parses dotted-quad IPv4; nullopt when malformed.
std::optional<uint32_t> ParseIpv4(const std::string& text);

}  // namespace tcb
