// Every flow of a run (TCP connections and UDP flows) with its name, and every application-level
// transfer and page with its start and end: the records the summary is made from. The registry holds a
// record only while it can still change, and hands it to its observers once it is final, so that a
// long run's memory follows what is open, not everything that ever was.
#pragma once

#include <deque>
#include <functional>
#include <map>
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
  RtoRules rto_rules = RtoRules::kRfc6298;
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

struct UdpFlowStats {
  int64_t packets_sent = 0;
  int64_t packets_received = 0;
  Bytes payload_sent = 0;
  Bytes payload_received = 0;
};

// A flow's record once it is final: a TCP connection's once the connection is gone (or the run is
// over), a UDP flow's when the run is over.
struct FlowRecord {
  FlowInfo info;
  TcpFlowRecord tcp;  // TCP flows.
  UdpFlowStats udp;   // UDP flows.
};

// Told when flows start and end, and handed each flow's, transfer's and page's record once it is final,
// for metrics that follow the set of live flows and for totals folded in as the run goes. Every flow,
// transfer and page gets exactly one record, by the end of FlowRegistry::Finish(); records of
// different flows (transfers, pages) may come in any order, but a flow's, transfer's or page's start
// comes before its record, and starts come in index order.
class FlowObserver {
 public:
  virtual ~FlowObserver() = default;
  virtual void OnFlowStart(const FlowInfo&) {}
  virtual void OnFlowEnd(const FlowInfo&) {}
  virtual void OnFlowRecord(const FlowRecord&) {}
  // `flow` is the transfer's flow.
  virtual void OnTransferStart(size_t /*transfer*/, const TransferRecord&, const FlowInfo& /*flow*/) {}
  virtual void OnTransferRecord(size_t /*transfer*/, const TransferRecord&) {}
  virtual void OnPageStart(size_t /*page*/, const PageRecord&) {}
  virtual void OnPageRecord(size_t /*page*/, const PageRecord&) {}
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

class FlowRegistry final : public MemoryPart {
 public:
  explicit FlowRegistry(Network& network);

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

  // Pages: a web client says when it started one, fills in its record while it arrives (page()), and
  // says when the record is final (EndPage()).
  size_t BeginPage(const std::string& item, int client, int64_t index, Bytes bytes, int objects);
  PageRecord& page(size_t page) { return open_pages_.at(page); }
  void EndPage(size_t page);

  // Not owned; told about every flow, transfer and page that starts, ends or is final from now on.
  void AddObserver(FlowObserver* observer) { observers_.push_back(observer); }

  // The run is over: hands the observers every record not yet final, as it stands (flows, then
  // transfers, then pages, each in index order). Connections stay, for end-of-run checks and metrics.
  void Finish();

  // Flows, transfers and pages started so far.
  size_t flows_started() const { return next_flow_; }
  size_t transfers_started() const { return next_transfer_; }
  size_t pages_started() const { return next_page_; }
  // The connection of a TCP flow while it exists: null for UDP flows, and for TCP connections
  // reclaimed after both ends closed (see ReclaimFinished).
  const TcpConnection* connection(FlowId flow) const {
    auto it = flows_.find(flow);
    return it == flows_.end() ? nullptr : it->second.tcp.get();
  }
  // Calls `f(info, connection)` for every TCP connection that exists, in flow id order.
  void ForEachConnection(const std::function<void(const FlowInfo&, const TcpConnection&)>& f) const;

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
  // MemoryPart: the flows, transfers and pages not final yet (each TCP connection with both its
  // endpoints).
  Bytes MemoryBytes() const override { return charged_bytes_; }
  std::string DescribeMemory() const override;
  UdpFlowStats& udp_stats(FlowId flow) { return flows_.at(flow).udp->stats; }
  UdpSink& udp_sink(FlowId flow) { return flows_.at(flow).udp->sink; }

 private:
  friend class FlowRegistryPeer;

  struct UdpFlow {
    UdpFlow(Network& network) : sink(network, stats) {}
    UdpFlowStats stats;
    UdpSink sink;
  };
  // A flow whose record is not final yet.
  struct Flow {
    FlowInfo info;
    std::unique_ptr<TcpConnection> tcp;  // Null for UDP.
    std::unique_ptr<UdpFlow> udp;        // Null for TCP.
  };
  Flow& NewFlow(std::string name, std::string item, Protocol protocol, NodeId from, NodeId to);
  FlowRecord RecordOf(const Flow& flow) const;
  // What a flow, an open transfer or page costs while the registry holds it: the object, its map
  // node and its names (a connection's buffers that grow with its window are not counted here; its
  // packets are, by the network's pool).
  static Bytes FlowBytes(const Flow& flow);
  void Charge(Bytes bytes);
  void Refund(Bytes bytes);

  Network& network_;
  // By id; node-based, so that references handed out (connections, sinks, FlowInfo) stay valid.
  std::map<FlowId, Flow> flows_;
  std::map<size_t, TransferRecord> open_transfers_;
  std::map<size_t, PageRecord> open_pages_;
  size_t next_flow_ = 0;
  size_t next_transfer_ = 0;
  size_t next_page_ = 0;
  bool finished_ = false;
  std::vector<FlowObserver*> observers_;
  std::deque<FlowId> finishing_;  // Ended TCP flows whose connections still exist.
  size_t live_tcp_ = 0;
  size_t peak_live_tcp_ = 0;
  std::function<void(const FlowInfo&, const TcpConnection&)> before_destroy_;
  Bytes charged_bytes_ = 0;
  MemoryBudget::Registration memory_registration_;
};

}  // namespace tcb
