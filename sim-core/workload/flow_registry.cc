// The flow registry.
#include "workload/flow_registry.h"

#include <algorithm>

namespace tcb {

TcpFlowRecord TcpFlowRecord::Of(const TcpConnection& c) {
  const TcpEndpoint& a = c.initiator();
  const TcpEndpoint& b = c.responder();
  TcpFlowRecord r;
  r.segments_sent = a.stats().segments_sent + b.stats().segments_sent;
  r.data_segments_sent = a.stats().data_segments_sent + b.stats().data_segments_sent;
  r.retransmissions = a.stats().retransmissions + b.stats().retransmissions;
  r.timeouts = a.stats().timeouts + b.stats().timeouts;
  r.bytes = a.bytes_received() + b.bytes_received();
  r.mss = a.config().mss;
  // The side that sends the data is the one that got data written: the initiator for bulk and
  // transfers, the responder for web responses.
  r.initial = (a.bytes_written() >= b.bytes_written() ? a : b).initial_state();
  r.established = a.established() || a.closed();
  r.closed = a.closed() && b.closed();
  return r;
}

FlowInfo& FlowRegistry::NewFlow(std::string name, std::string item, Protocol protocol, NodeId from,
                                NodeId to) {
  FlowInfo info;
  info.id = static_cast<FlowId>(flows_.size());
  info.name = std::move(name);
  info.item = std::move(item);
  info.protocol = protocol;
  info.from = from;
  info.to = to;
  info.start = network_.sim().Now();
  flows_.push_back(std::move(info));
  tcp_.emplace_back();
  udp_.emplace_back();
  reclaimed_.emplace_back();
  return flows_.back();
}

TcpConnection& FlowRegistry::AddTcp(std::string name, std::string item, NodeId from, NodeId to,
                                    const TcpConfig& config,
                                    const ControllerFactory& make_controller,
                                    const ConnectionTraits& traits) {
  const FlowId id = NewFlow(std::move(name), std::move(item), Protocol::kTcp, from, to).id;
  ReclaimFinished();
  tcp_[id] = std::make_unique<TcpConnection>(network_, id, from, to, config, make_controller, traits);
  peak_live_tcp_ = std::max(peak_live_tcp_, ++live_tcp_);
  for (FlowObserver* o : observers_) o->OnFlowStart(flows_[id]);
  return *tcp_[id];
}

FlowId FlowRegistry::AddUdp(std::string name, std::string item, NodeId from, NodeId to) {
  const FlowId id = NewFlow(std::move(name), std::move(item), Protocol::kUdp, from, to).id;
  udp_[id] = std::make_unique<UdpFlow>(network_);
  network_.EnsureRoutesTo(to);
  for (FlowObserver* o : observers_) o->OnFlowStart(flows_[id]);
  return id;
}

size_t FlowRegistry::BeginTransfer(FlowId flow, Bytes bytes) {
  transfers_.push_back(TransferRecord{flow, bytes, network_.sim().Now(), SimTime::Infinite()});
  return transfers_.size() - 1;
}

void FlowRegistry::EndTransfer(size_t transfer) { transfers_[transfer].end = network_.sim().Now(); }

void FlowRegistry::EndFlow(FlowId flow) {
  if (!flows_[flow].end.IsInfinite()) return;  // Already ended.
  flows_[flow].end = network_.sim().Now();
  if (tcp_[flow]) finishing_.push_back(flow);
  for (FlowObserver* o : observers_) o->OnFlowEnd(flows_[flow]);
}

size_t FlowRegistry::BeginPage(const std::string& item, int client, int64_t index, Bytes bytes,
                               int objects) {
  PageRecord p;
  p.item = item;
  p.client = client;
  p.index = index;
  p.bytes = bytes;
  p.objects = objects;
  p.start = network_.sim().Now();
  pages_.push_back(std::move(p));
  return pages_.size() - 1;
}

void FlowRegistry::ReclaimFinished() {
  const SimTime now = network_.sim().Now();
  // A few candidates per call: enough to keep up with the connections being opened.
  for (int checks = 0; checks < 4 && !finishing_.empty(); ++checks) {
    const FlowId id = finishing_.front();
    finishing_.pop_front();
    const TcpConnection& c = *tcp_[id];
    const bool done = c.initiator().closed() && c.responder().closed() && network_.FlowInFlight(id) == 0 &&
                      now > c.initiator().LastTimerEntryAt() && now > c.responder().LastTimerEntryAt();
    if (!done) {
      finishing_.push_back(id);  // Still closing, or packets on their way: look again later.
      continue;
    }
    if (before_destroy_) before_destroy_(flows_[id], c);
    reclaimed_[id] = TcpFlowRecord::Of(c);
    tcp_[id].reset();
    --live_tcp_;
  }
}

}  // namespace tcb
