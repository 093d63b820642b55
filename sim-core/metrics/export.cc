// Exporters for series, traces and captures.
#include "metrics/export.h"

#include <algorithm>
#include <numeric>

#include <nlohmann/json.hpp>

#include "metrics/pcap_writer.h"
#include "tcp/tcp_config.h"

namespace tcb {

void WriteSeriesJson(const RunOutput& run, std::ostream& out) {
  const TcpSeries& t = run.recorder->tcp_series();
  const QueueSeries& q = run.recorder->queue_series();
  nlohmann::json j;
  j["schemaVersion"] = 1;
  nlohmann::json names = nlohmann::json::array();
  for (const FlowLabel& f : run.flows) names.push_back(f.name);
  j["flows"] = std::move(names);
  j["links"] = run.links;
  std::vector<int64_t> ssthresh = t.ssthresh;
  for (int64_t& s : ssthresh) {
    if (s >= TcpConfig::kInfiniteSsthresh) s = -1;
  }
  j["tcp"] = {{"timeNs", t.time_ns},       {"flow", t.flow},         {"cwndBytes", t.cwnd},
              {"ssthreshBytes", ssthresh}, {"srttNs", t.srtt_ns},    {"rttvarNs", t.rttvar_ns},
              {"inFlightBytes", t.in_flight}, {"pacingBps", t.pacing_bps}};
  j["queue"] = {{"timeNs", q.time_ns}, {"link", q.link}, {"packets", q.packets}, {"bytes", q.bytes}};
  const GroupSeries& g = run.recorder->group_series();
  std::vector<int64_t> group_ssthresh = g.ssthresh;
  for (int64_t& s : group_ssthresh) {
    if (s >= TcpConfig::kInfiniteSsthresh) s = -1;
  }
  j["groups"] = run.recorder->group_labels();
  j["group"] = {{"timeNs", g.time_ns},          {"group", g.group},        {"cwndBytes", g.cwnd},
                {"ssthreshBytes", group_ssthresh}, {"srttNs", g.srtt_ns},  {"rttvarNs", g.rttvar_ns},
                {"inFlightBytes", g.in_flight},   {"members", g.members}};
  out << j.dump() << '\n';
}

void WriteTraceCsv(const RunOutput& run, std::ostream& out) {
  const PacketTrace& t = run.recorder->packet_trace();
  out << "time_ns,event,flow,flow_name,from_initiator,link,seq,payload,ack,window,flags,uid\n";
  for (size_t i = 0; i < t.size(); ++i) {
    const int32_t flow = t.flow[i];
    out << t.time_ns[i] << ',' << PacketEventName(static_cast<PacketEvent>(t.event[i])) << ','
        << flow << ',' << (flow >= 0 ? run.flows[flow].name : "") << ','
        << static_cast<int>(t.from_initiator[i]) << ','
        << (t.link[i] >= 0 ? run.links[t.link[i]] : "") << ',' << t.seq[i] << ',' << t.payload[i]
        << ',' << t.ack[i] << ',' << t.window[i] << ',' << static_cast<int>(t.flags[i]) << ','
        << t.uid[i] << '\n';
  }
}

void WritePcap(const RunOutput& run, const LinkCapture& capture, std::ostream& out) {
  // Both directions were appended as they were enqueued; a tap sees them in transmission order.
  std::vector<size_t> order(capture.packets.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return capture.packets[a].time < capture.packets[b].time;
  });
  PcapWriter writer(out);
  for (size_t i : order) {
    const CapturedPacket& c = capture.packets[i];
    const FlowLabel& f = run.flows[c.flow];
    PcapPacket p;
    p.time = c.time;
    const bool forward = c.from_initiator;
    p.src_ip = forward ? f.from_address : f.to_address;
    p.dst_ip = forward ? f.to_address : f.from_address;
    p.src_port = forward ? f.from_port : f.to_port;
    p.dst_port = forward ? f.to_port : f.from_port;
    p.protocol = c.protocol == Protocol::kTcp ? 6 : 17;
    p.payload_bytes = static_cast<uint32_t>(c.payload);
    if (c.protocol == Protocol::kTcp) {
      // Sequence numbers wrap as on the wire; the simulator's start at 0 (the SYN).
      p.seq = static_cast<uint32_t>(c.seq);
      p.ack = static_cast<uint32_t>(c.ack);
      p.tcp_flags = c.flags;
      if (c.flags & tcp_flags::kSyn) p.mss_option = static_cast<uint16_t>(std::min<Bytes>(f.mss, 65535));
      p.window = static_cast<uint16_t>(std::min<Bytes>(c.window, 65535));
      p.sack_count = static_cast<uint8_t>(std::min<int>(c.sack_count, 4));
      for (int k = 0; k < p.sack_count; ++k) {
        p.sack[k] = {static_cast<uint32_t>(c.sack[k].start), static_cast<uint32_t>(c.sack[k].end)};
      }
    }
    writer.Write(p);
  }
}

}  // namespace tcb
