// The flow registry.
#include "workload/flow_registry.h"

#include <algorithm>
#include <stdexcept>

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
  r.rto_rules = a.config().rto_rules;
  // The side that sends the data is the one that got data written: the initiator for bulk and
  // transfers, the responder for web responses.
  r.initial = (a.bytes_written() >= b.bytes_written() ? a : b).initial_state();
  r.established = a.established() || a.closed();
  r.closed = a.closed() && b.closed();
  return r;
}

namespace {

// A std::map node's own bytes beside its value (three pointers and the colour, rounded up).
constexpr Bytes kMapNodeBytes = 48;
constexpr Bytes kTransferBytes = sizeof(TransferRecord) + kMapNodeBytes;

Bytes PageBytes(const PageRecord& page) {
  return sizeof(PageRecord) + kMapNodeBytes + static_cast<Bytes>(page.item.capacity());
}

}  // namespace

FlowRegistry::FlowRegistry(Network& network) : network_(network) {
  memory_registration_ = network_.sim().memory().Register(this);
}

Bytes FlowRegistry::FlowBytes(const Flow& flow) {
  Bytes bytes = sizeof(Flow) + kMapNodeBytes + static_cast<Bytes>(flow.info.name.capacity() + flow.info.item.capacity());
  if (flow.tcp) bytes += sizeof(TcpConnection);
  if (flow.udp) bytes += sizeof(UdpFlow);
  return bytes;
}

void FlowRegistry::Charge(Bytes bytes) {
  charged_bytes_ += bytes;
  network_.sim().memory().Charge(bytes);
}

void FlowRegistry::Refund(Bytes bytes) {
  charged_bytes_ -= bytes;
  network_.sim().memory().Refund(bytes);
}

std::string FlowRegistry::DescribeMemory() const {
  return std::to_string(flows_.size()) + " flows are open (" + std::to_string(live_tcp_) + " of them TCP connections), with " +
         std::to_string(open_transfers_.size()) + " transfers and " + std::to_string(open_pages_.size()) +
         " pages unfinished";
}

FlowRegistry::Flow& FlowRegistry::NewFlow(std::string name, std::string item, Protocol protocol,
                                          NodeId from, NodeId to) {
  const FlowId id = static_cast<FlowId>(next_flow_++);
  Flow& flow = flows_[id];
  FlowInfo& info = flow.info;
  info.id = id;
  info.name = std::move(name);
  info.item = std::move(item);
  info.protocol = protocol;
  info.from = from;
  info.to = to;
  info.start = network_.sim().Now();
  return flow;
}

FlowRecord FlowRegistry::RecordOf(const Flow& flow) const {
  FlowRecord r;
  r.info = flow.info;
  if (flow.tcp) r.tcp = TcpFlowRecord::Of(*flow.tcp);
  if (flow.udp) r.udp = flow.udp->stats;
  return r;
}

TcpConnection& FlowRegistry::AddTcp(std::string name, std::string item, NodeId from, NodeId to,
                                    const TcpConfig& config,
                                    const ControllerFactory& make_controller,
                                    const ConnectionTraits& traits) {
  Flow& flow = NewFlow(std::move(name), std::move(item), Protocol::kTcp, from, to);
  ReclaimFinished();
  flow.tcp = std::make_unique<TcpConnection>(network_, flow.info.id, from, to, config, make_controller, traits);
  Charge(FlowBytes(flow));
  peak_live_tcp_ = std::max(peak_live_tcp_, ++live_tcp_);
  for (FlowObserver* o : observers_) o->OnFlowStart(flow.info);
  return *flow.tcp;
}

FlowId FlowRegistry::AddUdp(std::string name, std::string item, NodeId from, NodeId to) {
  Flow& flow = NewFlow(std::move(name), std::move(item), Protocol::kUdp, from, to);
  flow.udp = std::make_unique<UdpFlow>(network_);
  Charge(FlowBytes(flow));
  network_.EnsureRoutesTo(to);
  for (FlowObserver* o : observers_) o->OnFlowStart(flow.info);
  return flow.info.id;
}

size_t FlowRegistry::BeginTransfer(FlowId flow, Bytes bytes) {
  const size_t index = next_transfer_++;
  const TransferRecord& t = open_transfers_[index] = TransferRecord{flow, bytes, network_.sim().Now(), SimTime::Infinite()};
  Charge(kTransferBytes);
  const FlowInfo& info = flows_.at(flow).info;
  for (FlowObserver* o : observers_) o->OnTransferStart(index, t, info);
  return index;
}

void FlowRegistry::EndTransfer(size_t transfer) {
  auto it = open_transfers_.find(transfer);
  if (it == open_transfers_.end()) throw std::logic_error("transfer " + std::to_string(transfer) + " ended twice");
  it->second.end = network_.sim().Now();
  for (FlowObserver* o : observers_) o->OnTransferRecord(transfer, it->second);
  open_transfers_.erase(it);
  Refund(kTransferBytes);
}

void FlowRegistry::EndFlow(FlowId flow) {
  auto it = flows_.find(flow);
  if (it == flows_.end() || !it->second.info.end.IsInfinite()) return;  // Already ended (and reclaimed).
  FlowInfo& info = it->second.info;
  info.end = network_.sim().Now();
  if (it->second.tcp) finishing_.push_back(flow);
  for (FlowObserver* o : observers_) o->OnFlowEnd(info);
}

size_t FlowRegistry::BeginPage(const std::string& item, int client, int64_t index, Bytes bytes,
                               int objects) {
  const size_t id = next_page_++;
  PageRecord& p = open_pages_[id];
  p.item = item;
  p.client = client;
  p.index = index;
  p.bytes = bytes;
  p.objects = objects;
  p.start = network_.sim().Now();
  Charge(PageBytes(p));
  for (FlowObserver* o : observers_) o->OnPageStart(id, p);
  return id;
}

void FlowRegistry::EndPage(size_t page) {
  auto it = open_pages_.find(page);
  if (it == open_pages_.end()) throw std::logic_error("page " + std::to_string(page) + " ended twice");
  for (FlowObserver* o : observers_) o->OnPageRecord(page, it->second);
  Refund(PageBytes(it->second));
  open_pages_.erase(it);
}

void FlowRegistry::Finish() {
  if (finished_) return;
  finished_ = true;
  for (const auto& [id, flow] : flows_) {
    const FlowRecord r = RecordOf(flow);
    for (FlowObserver* o : observers_) o->OnFlowRecord(r);
  }
  for (const auto& [index, t] : open_transfers_) {
    for (FlowObserver* o : observers_) o->OnTransferRecord(index, t);
    Refund(kTransferBytes);
  }
  open_transfers_.clear();
  for (const auto& [index, p] : open_pages_) {
    for (FlowObserver* o : observers_) o->OnPageRecord(index, p);
    Refund(PageBytes(p));
  }
  open_pages_.clear();
}

void FlowRegistry::ForEachConnection(const std::function<void(const FlowInfo&, const TcpConnection&)>& f) const {
  for (const auto& [id, flow] : flows_) {
    if (flow.tcp) f(flow.info, *flow.tcp);
  }
}

void FlowRegistry::ReclaimFinished() {
  const SimTime now = network_.sim().Now();
  // A few candidates per call: enough to keep up with the connections being opened.
  for (int checks = 0; checks < 4 && !finishing_.empty(); ++checks) {
    const FlowId id = finishing_.front();
    finishing_.pop_front();
    auto it = flows_.find(id);
    const TcpConnection& c = *it->second.tcp;
    const bool done = c.initiator().closed() && c.responder().closed() && network_.FlowInFlight(id) == 0 &&
                      now > c.initiator().LastTimerEntryAt() && now > c.responder().LastTimerEntryAt();
    if (!done) {
      finishing_.push_back(id);  // Still closing, or packets on their way: look again later.
      continue;
    }
    if (before_destroy_) before_destroy_(it->second.info, c);
    // The connection is gone, so its record is final.
    const FlowRecord r = RecordOf(it->second);
    Refund(FlowBytes(it->second));
    flows_.erase(it);
    --live_tcp_;
    for (FlowObserver* o : observers_) o->OnFlowRecord(r);
  }
}

}  // namespace tcb
