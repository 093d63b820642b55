// Nodes, routing and packet lifecycle.
#include "net/network.h"

#include <deque>
#include <limits>
#include <stdexcept>

namespace tcb {

void Node::Arrive(Packet& packet, NodeId dst, Bytes size) {
  if (dst == id_) {
    network_.Deliver(packet);
    return;
  }
  Link* next = next_hop_[dst];
  if (next == nullptr) {
    // The scenario parser rejects unreachable destinations, so this is a bug, not bad input.
    throw std::logic_error("no route from " + name_ + " to node " + std::to_string(dst));
  }
  next->Enqueue(packet, dst, size);
}

Network::Network(Simulation& sim, TraceSink* trace) : sim_(sim), trace_(trace) {
  pool_.SetBudget(&sim_.memory());
  memory_registration_ = sim_.memory().Register(this);
}

size_t Network::PacketsOutsideLinks() const {
  size_t in_links = 0;
  for (const auto& link : links_) in_links += link->in_flight();
  return pool_.live() > in_links ? pool_.live() - in_links : 0;
}

Bytes Network::MemoryBytes() const {
  return static_cast<Bytes>(PacketsOutsideLinks()) * kBytesPerPacket +
         static_cast<Bytes>(flows_.capacity() * sizeof(FlowNetworkStats));
}

std::string Network::DescribeMemory() const {
  return std::to_string(PacketsOutsideLinks()) + " packets are held by endpoints, outside every link, and " +
         std::to_string(flows_.size()) + " flows have sent packets";
}

NodeId Network::AddNode(std::string name, uint32_t address) {
  const NodeId id = static_cast<NodeId>(nodes_.size());
  by_name_.emplace(name, id);
  nodes_.push_back(std::make_unique<Node>(*this, id, std::move(name), address));
  links_into_.emplace_back();
  routed_.push_back(false);
  return id;
}

LinkId Network::AddDuplexLink(NodeId a, NodeId b, std::string name, BitsPerSec rate, SimTime delay,
                              QueueLimit limit) {
  const LinkId ab = static_cast<LinkId>(links_.size());
  Node& na = *nodes_[a];
  Node& nb = *nodes_[b];
  links_.push_back(std::make_unique<Link>(*this, ab, name + ":" + na.name() + ">" + nb.name(), na,
                                          nb, rate, delay, limit));
  links_.push_back(std::make_unique<Link>(*this, ab + 1, name + ":" + nb.name() + ">" + na.name(),
                                          nb, na, rate, delay, limit));
  links_into_[b].push_back(links_[ab].get());
  links_into_[a].push_back(links_[ab + 1].get());
  return ab;
}

void Network::EnsureRoutesTo(NodeId dst) {
  if (routed_[dst]) return;
  routed_[dst] = true;
  const size_t n = nodes_.size();
  std::vector<LinkId> next(n, -1);
  // BFS from `dst` over reversed links. Visiting each node's incoming links in id order and keeping
  // the first link found makes ties go to the lowest link id.
  std::vector<int> dist(n, std::numeric_limits<int>::max());
  dist[dst] = 0;
  std::deque<NodeId> frontier{dst};
  while (!frontier.empty()) {
    const NodeId v = frontier.front();
    frontier.pop_front();
    for (Link* l : links_into_[v]) {
      const NodeId u = l->from().id();
      if (dist[u] == std::numeric_limits<int>::max()) {
        dist[u] = dist[v] + 1;
        next[u] = l->id();
        frontier.push_back(u);
      } else if (dist[u] == dist[v] + 1 && l->id() < next[u]) {
        next[u] = l->id();
      }
    }
  }
  for (size_t u = 0; u < n; ++u) {
    std::vector<Link*>& table = nodes_[u]->next_hop_;
    if (table.size() < n) table.resize(n, nullptr);
    table[dst] = next[u] < 0 ? nullptr : links_[next[u]].get();
  }
}

bool Network::Reachable(NodeId from, NodeId to) {
  if (from == to) return true;
  EnsureRoutesTo(to);
  return nodes_[from]->next_hop_[to] != nullptr;
}

NodeId Network::FindNode(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? kNoNode : it->second;
}

Packet& Network::NewPacket() {
  Packet* p = pool_.Acquire();
  p->uid = next_uid_++;
  return *p;
}

void Network::Inject(Packet& packet) {
  ++counters_.injected;
  if (packet.flow >= 0) {
    if (static_cast<size_t>(packet.flow) >= flows_.size()) GrowFlows(packet.flow);
    ++flows_[packet.flow].in_flight;
  }
  packet.sent_at = sim_.Now();
  nodes_[packet.src]->Receive(packet);
}

void Network::GrowFlows(FlowId flow) {
  const size_t capacity = flows_.capacity();
  flows_.resize(static_cast<size_t>(flow) + 1);
  if (flows_.capacity() > capacity) {
    sim_.memory().Charge(static_cast<Bytes>((flows_.capacity() - capacity) * sizeof(FlowNetworkStats)));
  }
}

void Network::Deliver(Packet& packet) {
  ++counters_.delivered;
  if (packet.flow >= 0) --flows_[packet.flow].in_flight;
  packet.endpoint->Receive(packet);
}

void Network::Drop(Packet& packet, LinkId link, PacketEvent why) {
  ++counters_.dropped;
  if (packet.flow >= 0) {
    FlowNetworkStats& f = flows_[packet.flow];
    --f.in_flight;
    ++f.dropped;
  }
  if (trace_ != nullptr && trace_->packets()) {
    trace_->Record(TraceRow(sim_.Now(), why, packet, link));
  }
  pool_.Release(&packet);
}

}  // namespace tcb
