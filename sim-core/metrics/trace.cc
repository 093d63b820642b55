// Trace sinks.
#include "metrics/trace.h"

#include "core/enum_names.h"
#include "net/packet.h"

namespace tcb {

namespace {
constexpr std::string_view kLevelNames[] = {"none", "summary", "series", "full"};
constexpr std::string_view kEventNames[] = {"send", "retransmit", "ack", "drop", "loss", "receive"};
}  // namespace

bool ParseTraceLevel(std::string_view name, TraceLevel* level) { return ParseEnumName(kLevelNames, name, level); }
std::string_view TraceLevelName(TraceLevel level) { return EnumName(kLevelNames, level); }
std::string_view PacketEventName(PacketEvent event) { return EnumName(kEventNames, event); }

void Recorder::RecordPacket(SimTime now, PacketEvent event, const Packet& p, LinkId link) {
  PacketTrace& t = packet_trace_;
  t.time_ns.push_back(now.ns());
  t.event.push_back(static_cast<uint8_t>(event));
  t.flow.push_back(p.flow);
  t.link.push_back(link);
  t.seq.push_back(p.seq);
  t.payload.push_back(static_cast<int32_t>(p.payload));
  t.ack.push_back(p.ack);
  t.window.push_back(p.window);
  t.flags.push_back(p.flags);
  t.from_initiator.push_back(p.from_initiator ? 1 : 0);
  t.uid.push_back(p.uid);
}

void Recorder::RecordTcp(SimTime now, FlowId flow, Bytes cwnd, Bytes ssthresh, SimTime srtt,
                         SimTime rttvar, Bytes in_flight, int64_t pacing_bps) {
  TcpSeries& s = tcp_series_;
  s.time_ns.push_back(now.ns());
  s.flow.push_back(flow);
  s.cwnd.push_back(cwnd);
  s.ssthresh.push_back(ssthresh);
  s.srtt_ns.push_back(srtt.ns());
  s.rttvar_ns.push_back(rttvar.ns());
  s.in_flight.push_back(in_flight);
  s.pacing_bps.push_back(pacing_bps);
}

void Recorder::RecordQueue(SimTime now, LinkId link, int32_t packets, Bytes bytes) {
  QueueSeries& q = queue_series_;
  q.time_ns.push_back(now.ns());
  q.link.push_back(link);
  q.packets.push_back(packets);
  q.bytes.push_back(bytes);
}

void Recorder::RecordGroup(SimTime now, int32_t group, Bytes cwnd, Bytes ssthresh, SimTime srtt,
                           SimTime rttvar, Bytes in_flight, int32_t members) {
  GroupSeries& g = group_series_;
  g.time_ns.push_back(now.ns());
  g.group.push_back(group);
  g.cwnd.push_back(cwnd);
  g.ssthresh.push_back(ssthresh);
  g.srtt_ns.push_back(srtt.ns());
  g.rttvar_ns.push_back(rttvar.ns());
  g.in_flight.push_back(in_flight);
  g.members.push_back(members);
}

int32_t Recorder::RegisterGroup(std::string label) {
  group_labels_.push_back(std::move(label));
  return static_cast<int32_t>(group_labels_.size() - 1);
}

}  // namespace tcb
