// The flow registry.
#include "workload/flow_registry.h"

namespace tcb {

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
  return flows_.back();
}

TcpConnection& FlowRegistry::AddTcp(std::string name, std::string item, NodeId from, NodeId to,
                                    const TcpConfig& config,
                                    const ControllerFactory& make_controller,
                                    const ConnectionTraits& traits) {
  const FlowId id = NewFlow(std::move(name), std::move(item), Protocol::kTcp, from, to).id;
  tcp_[id] = std::make_unique<TcpConnection>(network_, id, from, to, config, make_controller, traits);
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
  flows_[flow].end = network_.sim().Now();
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

}  // namespace tcb
