// Every flow of a run (TCP connections and UDP flows) with its name, and every application-level
// transfer with its start and end: the records the summary is made from.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "net/network.h"
#include "tcp/tcp_connection.h"

namespace tcb {

struct FlowInfo {
  FlowId id = -1;
  std::string name;  // Unique, e.g. "bulk#3.0".
  std::string item;  // The traffic item that created it.
  Protocol protocol = Protocol::kTcp;
  NodeId from = kNoNode;  // Initiator (TCP) or source (UDP).
  NodeId to = kNoNode;
  SimTime start;
  SimTime end = SimTime::Infinite();  // When its application finished with it.
};

struct TransferRecord {
  FlowId flow = -1;
  Bytes bytes = 0;
  SimTime start;
  SimTime end = SimTime::Infinite();  // Infinite while unfinished.
};

// What the summary needs of a TCP connection; kept when the connection itself is gone.
struct TcpFlowRecord {
  int64_t segments_sent = 0;
  int64_t data_segments_sent = 0;
  int64_t retransmissions = 0;
  int64_t timeouts = 0;
  Bytes bytes = 0;  // Application bytes delivered, both directions.
  Bytes mss = 0;
  TcpInitialState initial;  // Of the side that sent the data.
  bool established = false;
  bool closed = false;

  static TcpFlowRecord Of(const TcpConnection& c);
};

// One page retrieval of a web client (E-TCP §4: HTML and total transmission time; Gürkan §4.1:
// effective page retrieval rate).
struct PageRecord {
  std::string item;
  int client = 0;      // Copy of the traffic item.
  int64_t index = 0;   // The client's n-th page, from 0.
  Bytes bytes = 0;
  int objects = 0;
  SimTime start;
  SimTime html_end = SimTime::Infinite();  // When every HTML object had arrived.
  SimTime end = SimTime::Infinite();       // When every object had arrived.
  // Time during which at least one of the page's objects was on its way (requested, not yet
  // arrived): the page's duration without the client's deliberate pauses between objects.
  SimTime retrieval;
};

// Told when flows start and end, for metrics that follow the set of live flows.
class FlowObserver {
 public:
  virtual ~FlowObserver() = default;
  virtual void OnFlowStart(const FlowInfo&) {}
  virtual void OnFlowEnd(const FlowInfo&) {}
};

struct UdpFlowStats {
  int64_t packets_sent = 0;
  int64_t packets_received = 0;
  Bytes payload_sent = 0;
  Bytes payload_received = 0;
};

// Receives the datagrams of one UDP flow.
class UdpSink final : public PacketSink {
 public:
  UdpSink(Network& network, UdpFlowStats& stats) : network_(network), stats_(stats) {}
  void Receive(Packet& packet) override {
    ++stats_.packets_received;
    stats_.payload_received += packet.payload;
    network_.Release(packet);
  }

 private:
  Network& network_;
  UdpFlowStats& stats_;
};

class FlowRegistry {
 public:
  explicit FlowRegistry(Network& network) : network_(network) {}

  // A new TCP connection, opened by its application at the current time.
  TcpConnection& AddTcp(std::string name, std::string item, NodeId from, NodeId to,
                        const TcpConfig& config, const ControllerFactory& make_controller,
                        const ConnectionTraits& traits = {});
  // A new UDP flow; returns its id. Datagrams are addressed to udp_sink(id).
  FlowId AddUdp(std::string name, std::string item, NodeId from, NodeId to);

  // Transfers: an application says when it asked for `bytes` to move and when they arrived.
  size_t BeginTransfer(FlowId flow, Bytes bytes);
  void EndTransfer(size_t transfer);
  // The application is done with the flow.
  void EndFlow(FlowId flow);

  // Pages: a web client says when it started one, and when it had all of it.
  size_t BeginPage(const std::string& item, int client, int64_t index, Bytes bytes, int objects);
  PageRecord& page(size_t page) { return pages_[page]; }

  // Not owned; told about every flow that starts or ends from now on.
  void AddObserver(FlowObserver* observer) { observers_.push_back(observer); }

  const std::vector<FlowInfo>& flows() const { return flows_; }
  const std::vector<TransferRecord>& transfers() const { return transfers_; }
  const std::vector<PageRecord>& pages() const { return pages_; }
  // The connection of a TCP flow while it exists: null for UDP flows, and for TCP connections
  // reclaimed after both ends closed (see ReclaimFinished).
  const TcpConnection* connection(FlowId flow) const { return tcp_[flow].get(); }
  // The record of a TCP flow, live or reclaimed.
  TcpFlowRecord tcp_record(FlowId flow) const {
    return tcp_[flow] ? TcpFlowRecord::Of(*tcp_[flow]) : reclaimed_[flow];
  }
  bool is_tcp(FlowId flow) const { return flows_[flow].protocol == Protocol::kTcp; }

  // Destroys connections that are finished: the application ended the flow, both ends closed, no
  // packet of the flow is in the network and no timer entry of theirs is left in the event list.
  // Long runs open millions of connections; this keeps memory to the ones alive. Checks a few
  // candidates per call (AddTcp calls it). `before_destroy` (if set) sees each connection last.
  void ReclaimFinished();
  void SetReclaimHook(std::function<void(const FlowInfo&, const TcpConnection&)> before_destroy) {
    before_destroy_ = std::move(before_destroy);
  }
  // TCP connections that exist now, and the most that existed at once.
  size_t live_connections() const { return live_tcp_; }
  size_t peak_live_connections() const { return peak_live_tcp_; }
  UdpFlowStats& udp_stats(FlowId flow) { return udp_[flow]->stats; }
  const UdpFlowStats* udp_stats(FlowId flow) const { return udp_[flow] ? &udp_[flow]->stats : nullptr; }
  UdpSink& udp_sink(FlowId flow) { return udp_[flow]->sink; }

 private:
  struct UdpFlow {
    UdpFlow(Network& network) : sink(network, stats) {}
    UdpFlowStats stats;
    UdpSink sink;
  };
  FlowInfo& NewFlow(std::string name, std::string item, Protocol protocol, NodeId from, NodeId to);

  Network& network_;
  std::vector<FlowInfo> flows_;
  std::vector<std::unique_ptr<TcpConnection>> tcp_;  // Indexed by flow id; null for UDP.
  std::vector<std::unique_ptr<UdpFlow>> udp_;         // Indexed by flow id; null for TCP.
  std::vector<TransferRecord> transfers_;
  std::vector<PageRecord> pages_;
  std::vector<FlowObserver*> observers_;
  std::vector<TcpFlowRecord> reclaimed_;  // By flow id; meaningful once tcp_[id] is null.
  std::deque<FlowId> finishing_;          // Ended TCP flows whose connections still exist.
  size_t live_tcp_ = 0;
  size_t peak_live_tcp_ = 0;
  std::function<void(const FlowInfo&, const TcpConnection&)> before_destroy_;
};

}  // namespace tcb
