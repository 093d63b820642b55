// Nodes, links and static shortest-path routing, plus the packet pool and the counters behind the
// packet-conservation invariant (injected = delivered + dropped + in flight).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/object_pool.h"
#include "core/simulation.h"
#include "trace/trace_sink.h"
#include "net/link.h"
#include "net/packet.h"

namespace tcb {

// A host or router. Packets addressed to the node go to their transport endpoint; others are
// forwarded on the next-hop link towards their destination.
class Node final : public PacketSink {
 public:
  Node(Network& network, NodeId id, std::string name, uint32_t address)
      : network_(network), id_(id), name_(std::move(name)), address_(address) {}

  // A packet from a transport at this node.
  void Receive(Packet& packet) override { Arrive(packet, packet.dst, packet.size); }
  // A packet from a link, with its destination and size as the link carried them (Link::InFlight):
  // forwarding it reads only those.
  void Arrive(Packet& packet, NodeId dst, Bytes size);

  NodeId id() const { return id_; }
  const std::string& name() const { return name_; }
  uint32_t address() const { return address_; }  // IPv4, host byte order.

 private:
  friend class Network;
  Network& network_;
  NodeId id_;
  std::string name_;
  uint32_t address_;
  // By destination: the next-hop link, null when there is none or it is not computed yet. Kept in
  // the node (Network::EnsureRoutesTo fills it) so that forwarding is one lookup.
  std::vector<Link*> next_hop_;
};

struct NetworkCounters {
  int64_t injected = 0;   // Handed to the network by transports.
  int64_t delivered = 0;  // Reached their destination node.
  int64_t dropped = 0;    // Dropped by a queue or lost on a link.
};

// What the network did to one flow's packets (both directions): the cost a flow pays, or is made to
// pay by others, which a link's totals cannot attribute.
struct FlowNetworkStats {
  int32_t in_flight = 0;          // Injected and not yet delivered or dropped.
  int32_t max_queue_packets = 0;  // Longest queue (waiting packets, itself included) one of them joined.
  int64_t dropped = 0;            // Dropped by a queue or lost on a link.
};

class Network final : public MemoryPart {
 public:
  // What a packet costs while it exists: itself in the pool, and its free-list entry.
  static constexpr Bytes kBytesPerPacket = ObjectPool<Packet>::kBytesPerObject;

  Network(Simulation& sim, TraceSink* trace);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Building. Names must be unique; the scenario parser checks that before calling.
  NodeId AddNode(std::string name, uint32_t address);
  // Adds a duplex link as two directions with the same rate, delay and queue limit; returns the
  // a->b direction (the b->a direction has the next id).
  LinkId AddDuplexLink(NodeId a, NodeId b, std::string name, BitsPerSec rate, SimTime delay,
                       QueueLimit limit);
  // Computes every node's next hop towards `dst` (shortest path by hop count, ties broken by the
  // lowest link id), once per destination. Transports call it for the destinations they use, so
  // tables grow with the destinations in use, not with the square of the nodes.
  void EnsureRoutesTo(NodeId dst);
  // Next-hop link from `at` towards `dst`; null when `at` is `dst` or `dst` is unreachable.
  // EnsureRoutesTo(dst) must have been called.
  Link* NextHop(NodeId at, NodeId dst) const { return nodes_[at]->next_hop_[dst]; }
  bool Reachable(NodeId from, NodeId to);

  // Packet lifecycle.
  Packet& NewPacket();
  // Hands a packet from a transport at its source node to the network.
  void Inject(Packet& packet);
  // Called by a node when a packet reached its destination; passes it to its endpoint.
  void Deliver(Packet& packet);
  // Called by a link that drops a packet; releases it.
  void Drop(Packet& packet, LinkId link, PacketEvent why);
  // Called by a link when `packet` joins its queue, `waiting` packets long with it.
  void Queued(const Packet& packet, int32_t waiting) {
    if (packet.flow < 0 || static_cast<size_t>(packet.flow) >= flows_.size()) return;
    int32_t& max = flows_[packet.flow].max_queue_packets;
    if (waiting > max) max = waiting;
  }
  // Called by an endpoint that has consumed a packet.
  void Release(Packet& packet) { pool_.Release(&packet); }
  // Packets of `flow` injected and not yet delivered or dropped: an endpoint may be destroyed only
  // when none is left to reach it.
  int32_t FlowInFlight(FlowId flow) const { return FlowStats(flow).in_flight; }
  // The flow's packets so far; zeros for a flow that has sent nothing.
  FlowNetworkStats FlowStats(FlowId flow) const {
    return flow >= 0 && static_cast<size_t>(flow) < flows_.size() ? flows_[flow] : FlowNetworkStats{};
  }

  Simulation& sim() { return sim_; }
  TraceSink* trace() { return trace_; }

  Node& node(NodeId id) { return *nodes_[id]; }
  const Node& node(NodeId id) const { return *nodes_[id]; }
  Link& link(LinkId id) { return *links_[id]; }
  const Link& link(LinkId id) const { return *links_[id]; }
  size_t node_count() const { return nodes_.size(); }
  size_t link_count() const { return links_.size(); }
  // Finds a node by name; kNoNode if there is none.
  NodeId FindNode(std::string_view name) const;

  const NetworkCounters& counters() const { return counters_; }
  size_t packets_live() const { return pool_.live(); }

  // MemoryPart: the packets that exist outside the links (held by endpoints), and the per-flow
  // counters of every flow so far.
  Bytes MemoryBytes() const override;
  std::string DescribeMemory() const override;

 private:
  // Makes room in flows_ for `flow`, charging what it allocates.
  void GrowFlows(FlowId flow);
  size_t PacketsOutsideLinks() const;

  Simulation& sim_;
  TraceSink* trace_;                     // Not owned; may be null.
  std::vector<FlowNetworkStats> flows_;  // By flow id.
  ObjectPool<Packet> pool_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::vector<Link*>> links_into_;  // Per node, in link-id order.
  std::vector<bool> routed_;                    // [dst]: the nodes' next_hop_ entries towards dst are computed.
  std::unordered_map<std::string, NodeId> by_name_;
  NetworkCounters counters_;
  uint64_t next_uid_ = 1;
  MemoryBudget::Registration memory_registration_;
};

}  // namespace tcb
