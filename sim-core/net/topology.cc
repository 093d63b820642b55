// Topology builders.
#include "net/topology.h"

#include <cstdio>
#include <memory>

namespace tcb {

uint32_t Ipv4(int a, int b, int c, int d) {
  return (static_cast<uint32_t>(a) << 24) | (static_cast<uint32_t>(b) << 16) |
         (static_cast<uint32_t>(c) << 8) | static_cast<uint32_t>(d);
}

std::string FormatIpv4(uint32_t address) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", address >> 24, (address >> 16) & 255,
                (address >> 8) & 255, address & 255);
  return buf;
}

std::optional<uint32_t> ParseIpv4(const std::string& text) {
  uint32_t parts[4];
  size_t pos = 0;
  for (int i = 0; i < 4; ++i) {
    if (pos >= text.size() || text[pos] < '0' || text[pos] > '9') return std::nullopt;
    uint32_t v = 0;
    size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 4) {
      v = v * 10 + static_cast<uint32_t>(text[pos] - '0');
      ++pos;
      ++digits;
    }
    if (v > 255 || digits > 3) return std::nullopt;
    parts[i] = v;
    if (i < 3) {
      if (pos >= text.size() || text[pos] != '.') return std::nullopt;
      ++pos;
    }
  }
  if (pos != text.size()) return std::nullopt;
  return (parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3];
}

namespace {

// Hosts of one side share a /24 so that network-scoped sharing (TCP/SPAND §5.2.1) groups them;
// 250 hosts per /24, then the next /24.
uint32_t HostAddress(int side, int index) { return Ipv4(10, side, index / 250, 1 + index % 250); }
uint32_t RouterAddress(int index) { return Ipv4(10, 255, index / 250, 1 + index % 250); }

LinkParams WithQueue(BitsPerSec rate, SimTime delay, const QueueLimit& queue) {
  LinkParams p;
  p.rate = rate;
  p.delay = delay;
  p.queue = queue;
  return p;
}

}  // namespace

TopologySpec SingleLink(const LinkParams& link) {
  TopologySpec t;
  t.nodes = {{"server", HostAddress(1, 0)}, {"client", HostAddress(2, 0)}};
  t.links = {{"path", "server", "client", link}};
  return t;
}

TopologySpec Dumbbell(int pairs, const LinkParams& bottleneck, const LinkParams& access) {
  TopologySpec t;
  t.nodes.push_back({"router0", RouterAddress(0)});
  t.nodes.push_back({"router1", RouterAddress(1)});
  for (int i = 0; i < pairs; ++i) t.nodes.push_back({"left" + std::to_string(i), HostAddress(1, i)});
  for (int i = 0; i < pairs; ++i) t.nodes.push_back({"right" + std::to_string(i), HostAddress(2, i)});
  t.links.push_back({"bottleneck", "router0", "router1", bottleneck});
  for (int i = 0; i < pairs; ++i) {
    const std::string n = std::to_string(i);
    t.links.push_back({"left" + n, "left" + n, "router0", access});
  }
  for (int i = 0; i < pairs; ++i) {
    const std::string n = std::to_string(i);
    // Forward is the sending side's direction: router1 -> right host.
    t.links.push_back({"right" + n, "router1", "right" + n, access});
  }
  return t;
}

TopologySpec ParkingLot(int hops, int users, int cross_per_router, const LinkParams& hop,
                        const LinkParams& access) {
  TopologySpec t;
  for (int r = 0; r <= hops; ++r) t.nodes.push_back({"r" + std::to_string(r), RouterAddress(r)});
  for (int r = 0; r < hops; ++r) {
    t.links.push_back({"hop" + std::to_string(r), "r" + std::to_string(r),
                       "r" + std::to_string(r + 1), hop});
  }
  for (int i = 0; i < users; ++i) {
    const std::string n = std::to_string(i);
    t.nodes.push_back({"src" + n, HostAddress(1, i)});
    t.nodes.push_back({"dst" + n, HostAddress(2, i)});
    t.links.push_back({"src" + n, "src" + n, "r0", access});
    t.links.push_back({"dst" + n, "r" + std::to_string(hops), "dst" + n, access});
  }
  for (int k = 1; k < hops; ++k) {
    for (int j = 0; j < cross_per_router; ++j) {
      const std::string s = "x" + std::to_string(k) + "s" + std::to_string(j);
      const std::string d = "x" + std::to_string(k) + "d" + std::to_string(j);
      t.nodes.push_back({s, HostAddress(10 + k, j)});
      t.nodes.push_back({d, HostAddress(110 + k, j)});
      t.links.push_back({s, s, "r" + std::to_string(k), access});
      t.links.push_back({d, "r" + std::to_string(k + 1), d, access});
    }
  }
  return t;
}

TopologySpec TwoLans(const LinkParams& backbone, const LinkParams& access, const LinkParams& lan,
                     double receiver_lan_loss) {
  TopologySpec t;
  t.nodes = {{"router0", RouterAddress(0)}, {"router1", RouterAddress(1)},
             {"slan", RouterAddress(2)},    {"rlan", RouterAddress(3)},
             {"tcbi", HostAddress(1, 0)},   {"BS1", HostAddress(1, 1)},
             {"BS2", HostAddress(3, 0)},    {"BS3", HostAddress(3, 1)},
             {"R1", HostAddress(2, 0)},     {"R2", HostAddress(2, 1)},
             {"R3", HostAddress(2, 2)},     {"BR3", HostAddress(2, 3)},
             {"BR1", HostAddress(4, 0)},    {"BR2", HostAddress(4, 1)}};
  t.links.push_back({"backbone", "router0", "router1", backbone});
  // Each LAN is a hub joined to its router by one LAN-rate link, so its hosts share that capacity.
  t.links.push_back({"slan", "slan", "router0", lan});
  t.links.push_back({"rlan", "router1", "rlan", lan});
  for (const char* host : {"tcbi", "BS1"}) t.links.push_back({host, host, "slan", lan});
  LinkParams last_hop = lan;
  if (receiver_lan_loss > 0) last_hop.loss_forward.rate = receiver_lan_loss;
  for (const char* host : {"R1", "R2", "R3", "BR3"}) t.links.push_back({host, "rlan", host, last_hop});
  for (const char* host : {"BS2", "BS3"}) t.links.push_back({host, host, "router0", access});
  for (const char* host : {"BR1", "BR2"}) t.links.push_back({host, "router1", host, access});
  return t;
}

TopologySpec ClientGateway(const std::vector<SimTime>& client_delays,
                           const std::vector<SimTime>& server_delays, const LinkParams& wan,
                           BitsPerSec lan_rate, const QueueLimit& lan_queue) {
  TopologySpec t;
  t.nodes = {{"gwc", RouterAddress(0)}, {"gws", RouterAddress(1)}};
  t.links.push_back({"wan", "gws", "gwc", wan});
  for (size_t i = 0; i < server_delays.size(); ++i) {
    const std::string s = "s" + std::to_string(i + 1);
    t.nodes.push_back({s, HostAddress(1, static_cast<int>(i))});
    t.links.push_back({s, s, "gws", WithQueue(lan_rate, server_delays[i], lan_queue)});
  }
  for (size_t i = 0; i < client_delays.size(); ++i) {
    const std::string c = "c" + std::to_string(i + 1);
    t.nodes.push_back({c, HostAddress(2, static_cast<int>(i))});
    t.links.push_back({c, "gwc", c, WithQueue(lan_rate, client_delays[i], lan_queue)});
  }
  return t;
}

namespace {

std::unique_ptr<LossModel> MakeLoss(const LossSpec& spec, const Simulation& sim,
                                    const std::string& link_name) {
  if (!spec.packets.empty()) return std::make_unique<ListLoss>(spec.packets);
  if (spec.rate > 0) return std::make_unique<BernoulliLoss>(spec.rate, sim.MakeRng("loss/" + link_name));
  return nullptr;
}

}  // namespace

void Instantiate(const TopologySpec& spec, Network& network) {
  for (const NodeSpec& n : spec.nodes) network.AddNode(n.name, n.address);
  for (const LinkSpec& l : spec.links) {
    const LinkId ab = network.AddDuplexLink(network.FindNode(l.a), network.FindNode(l.b), l.name,
                                            l.params.rate, l.params.delay, l.params.queue);
    Link& forward = network.link(ab);
    Link& reverse = network.link(ab + 1);
    forward.SetLossModel(MakeLoss(l.params.loss_forward, network.sim(), forward.name()));
    reverse.SetLossModel(MakeLoss(l.params.loss_reverse, network.sim(), reverse.name()));
    forward.SetFramingBytes(l.params.framing_bytes);
    reverse.SetFramingBytes(l.params.framing_bytes);
  }
}

}  // namespace tcb
