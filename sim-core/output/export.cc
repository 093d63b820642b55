// Exporters for series, traces and captures.
#include "output/export.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/csv.h"
#include "output/pcap_writer.h"
#include "tcp/tcp_config.h"

namespace tcb {

namespace {

// A column as series.json writes it: values at or above the infinite ssthresh become -1.
template <class T>
nlohmann::json SeriesColumn(const std::vector<T>& column, bool infinite) {
  if (!infinite) return column;
  std::vector<int64_t> out(column.begin(), column.end());
  for (int64_t& v : out) {
    if (v >= TcpConfig::kInfiniteSsthresh) v = -1;
  }
  return out;
}

// Every column of `buffer`, by its key (trace/columns.json).
#define TCB_SERIES_COLUMN(member, type, key, csv_name, csv, infinite, indexes) \
  table[key] = SeriesColumn(buffer.member, infinite);

nlohmann::json TcpTable(const TcpSeries& buffer) {
  nlohmann::json table = nlohmann::json::object();
  TCB_TCP_COLUMNS(TCB_SERIES_COLUMN)
  return table;
}
nlohmann::json QueueTable(const QueueSeries& buffer) {
  nlohmann::json table = nlohmann::json::object();
  TCB_QUEUE_COLUMNS(TCB_SERIES_COLUMN)
  return table;
}
nlohmann::json GroupTable(const GroupSeries& buffer) {
  nlohmann::json table = nlohmann::json::object();
  TCB_GROUP_COLUMNS(TCB_SERIES_COLUMN)
  return table;
}
#undef TCB_SERIES_COLUMN

}  // namespace

void WriteSeriesJson(const RunOutput& run, std::ostream& out) {
  nlohmann::json j;
  j["schemaVersion"] = 1;
  nlohmann::json names = nlohmann::json::array();
  for (const FlowLabel& f : run.flows) names.push_back(f.name);
  j["flows"] = std::move(names);
  j["links"] = run.links;
  j["groups"] = run.recorder->group_labels();
  j["tcp"] = TcpTable(run.recorder->tcp_series());
  j["queue"] = QueueTable(run.recorder->queue_series());
  j["group"] = GroupTable(run.recorder->group_series());
  out << j.dump() << '\n';
}

void WriteTraceCsv(const RunOutput& run, std::ostream& out) {
  const PacketTrace& t = run.recorder->packet_trace();
  // The cells of the names each column's values stand for (events, flows, link directions), made
  // once: names come from the scenario, so they are written as every CSV cell of the product is
  // (output/csv.h: a name starting with '-' would be a formula to a spreadsheet).
  std::vector<std::string> event_cells, flow_cells, link_cells;
  for (std::string_view e : PacketEventNames()) event_cells.push_back(CsvCell(e));
  for (const FlowLabel& f : run.flows) flow_cells.push_back(CsvCell(f.name));
  for (const std::string& l : run.links) link_cells.push_back(CsvCell(l));
  // The cell of the name a column's value stands for ("" for none).
  auto label = [&](std::string_view indexes, int64_t v) -> std::string_view {
    if (v < 0) return "";
    if (indexes == "events") return event_cells[v];
    if (indexes == "flows") return flow_cells[v];
    if (indexes == "links") return link_cells[v];
    return "";
  };
  const char* separator = "";
#define TCB_CSV_HEADER(member, type, key, csv_name, csv, infinite, indexes) \
  out << separator << csv_name;                                             \
  if (csv == ColumnCsv::kValueAndLabel) out << ',' << csv_name << "_name";  \
  separator = ",";
  TCB_TRACE_COLUMNS(TCB_CSV_HEADER)
#undef TCB_CSV_HEADER
  out << '\n';
  for (size_t i = 0; i < t.size(); ++i) {
    separator = "";
    // Promoted with unary +, so that 8-bit columns print as numbers.
#define TCB_CSV_CELL(member, type, key, csv_name, csv, infinite, indexes)                      \
  out << separator;                                                                           \
  if (csv == ColumnCsv::kLabel) {                                                             \
    out << label(indexes, static_cast<int64_t>(t.member[i]));                                 \
  } else {                                                                                    \
    out << +t.member[i];                                                                      \
    if (csv == ColumnCsv::kValueAndLabel) out << ',' << label(indexes, static_cast<int64_t>(t.member[i])); \
  }                                                                                           \
  separator = ",";
    TCB_TRACE_COLUMNS(TCB_CSV_CELL)
#undef TCB_CSV_CELL
    out << '\n';
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
