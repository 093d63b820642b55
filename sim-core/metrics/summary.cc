// Run summaries.
#include "metrics/summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "metrics/sha256.h"

namespace tcb {

namespace {

using nlohmann::json;

json Seconds(SimTime t) { return t.IsInfinite() ? json(nullptr) : json(t.seconds()); }

double GoodputBps(Bytes bytes, SimTime start, SimTime end) {
  const SimTime span = end - start;
  return span.ns() > 0 ? static_cast<double>(bytes) * 8.0 / span.seconds() : 0.0;
}

json TcpFlowJson(const FlowInfo& f, const TcpFlowRecord& r, SimTime stop) {
  json j;
  const bool done = !f.end.IsInfinite();
  j["segmentsSent"] = r.segments_sent;
  j["dataSegmentsSent"] = r.data_segments_sent;
  j["retransmissions"] = r.retransmissions;
  j["timeouts"] = r.timeouts;
  j["bytes"] = r.bytes;
  j["goodputBps"] = GoodputBps(r.bytes, f.start, done ? f.end : stop);
  const TcpInitialState& init = r.initial;
  if (init.valid) {
    j["initial"] = {{"cwndBytes", init.cwnd},
                    {"ssthreshBytes", std::min(init.ssthresh, TcpConfig::kInfiniteSsthresh)},
                    {"srttS", init.has_rtt ? json(init.srtt.seconds()) : json(nullptr)},
                    {"rttvarS", init.has_rtt ? json(init.rttvar.seconds()) : json(nullptr)}};
  } else {
    j["initial"] = nullptr;
  }
  j["established"] = r.established;
  j["closed"] = r.closed;
  return j;
}

// Page statistics over a set of pages (E-TCP §4: HTML and total time; Gürkan §4.1: the effective
// page retrieval rate, bytes of finished pages over the time spent retrieving them).
struct PageTotals {
  int64_t started = 0;
  int64_t completed = 0;
  double html_sum = 0;
  double total_sum = 0;
  double bytes = 0;
  double retrieval = 0;

  void Add(const PageRecord& p, SimTime stop) {
    ++started;
    if (p.end.IsInfinite() || p.end > stop) return;
    ++completed;
    html_sum += (p.html_end - p.start).seconds();
    total_sum += (p.end - p.start).seconds();
    bytes += static_cast<double>(p.bytes);
    retrieval += p.retrieval.seconds();
  }
  json Json() const {
    return {{"started", started},
            {"completed", completed},
            {"meanHtmlTimeS", completed > 0 ? json(html_sum / completed) : json(nullptr)},
            {"meanTotalTimeS", completed > 0 ? json(total_sum / completed) : json(nullptr)},
            {"retrievalRateBytesPerS", retrieval > 0 ? json(bytes / retrieval) : json(nullptr)}};
  }
};

json PageJson(const PageRecord& p, SimTime stop) {
  const bool done = !p.end.IsInfinite() && p.end <= stop;
  const bool html_done = !p.html_end.IsInfinite() && p.html_end <= stop;
  return {{"item", p.item},
          {"client", p.client},
          {"index", p.index},
          {"bytes", p.bytes},
          {"objects", p.objects},
          {"startS", p.start.seconds()},
          {"htmlTimeS", html_done ? json((p.html_end - p.start).seconds()) : json(nullptr)},
          {"totalTimeS", done ? json((p.end - p.start).seconds()) : json(nullptr)},
          {"retrievalTimeS", done ? json(p.retrieval.seconds()) : json(nullptr)}};
}

}  // namespace

double JainIndex(const std::vector<double>& xs) {
  double sum = 0, sum_sq = 0;
  for (double x : xs) {
    sum += x;
    sum_sq += x * x;
  }
  if (xs.empty() || sum_sq == 0) return 1.0;
  // Jain, Chiu and Hawe, "A Quantitative Measure of Fairness and Discrimination for Resource
  // Allocation in Shared Computer Systems" (DEC-TR-301, 1984), §3: the index lies in [1/n, 1] and
  // is 1 when all are equal. Rounding of (sum x)^2 and n sum x^2 can put the quotient of equal
  // values one ulp above 1 (e.g. six goodputs of 6516278.134254906 B/s), outside
  // result.schema.json's bounds; it is 1.
  return std::min(1.0, sum * sum / (static_cast<double>(xs.size()) * sum_sq));
}

json BuildSummary(const SummaryInputs& in) {
  const Network& net = *in.network;
  const FlowRegistry& reg = *in.flows;
  json s;
  s["schemaVersion"] = 1;
  s["scenario"] = {{"name", in.scenario_name}, {"seed", in.seed}};
  s["simulatedTimeS"] = in.stop.seconds();
  s["stopReason"] = in.stopped_idle ? "idle" : "duration";

  std::set<std::string> fair_items(in.fairness_items.begin(), in.fairness_items.end());
  std::vector<double> fair_goodputs;
  json flows = json::array();
  int tcp_flows = 0, udp_flows = 0;
  int64_t retransmissions = 0, timeouts = 0;
  for (const FlowInfo& f : reg.flows()) {
    const bool tcp = reg.is_tcp(f.id);
    const SimTime end = f.end.IsInfinite() ? in.stop : f.end;
    (tcp ? tcp_flows : udp_flows)++;
    if (tcp) {
      const TcpFlowRecord r = reg.tcp_record(f.id);
      retransmissions += r.retransmissions;
      timeouts += r.timeouts;
      if (fair_items.empty() || fair_items.count(f.item)) fair_goodputs.push_back(GoodputBps(r.bytes, f.start, end));
    }
    if (!in.flow_records) continue;
    json j;
    j["id"] = f.id;
    j["name"] = f.name;
    j["item"] = f.item;
    j["protocol"] = tcp ? "tcp" : "udp";
    j["from"] = net.node(f.from).name();
    j["to"] = net.node(f.to).name();
    j["startS"] = f.start.seconds();
    j["endS"] = Seconds(f.end);
    j["completionTimeS"] = f.end.IsInfinite() ? json(nullptr) : json((f.end - f.start).seconds());
    if (tcp) {
      j.update(TcpFlowJson(f, reg.tcp_record(f.id), in.stop));
    } else {
      const UdpFlowStats& u = *reg.udp_stats(f.id);
      j["packetsSent"] = u.packets_sent;
      j["packetsReceived"] = u.packets_received;
      j["bytes"] = u.payload_received;
      j["goodputBps"] = GoodputBps(u.payload_received, f.start, end);
    }
    const FlowNetworkStats ns = net.FlowStats(f.id);
    j["packetsDropped"] = ns.dropped;
    j["maxQueuePackets"] = ns.max_queue_packets;
    flows.push_back(std::move(j));
  }
  if (in.flow_records) s["flows"] = std::move(flows);

  json transfers = json::array();
  int done = 0;
  double completion_sum = 0;
  for (const TransferRecord& t : reg.transfers()) {
    const bool finished = !t.end.IsInfinite();
    if (in.flow_records) {
      transfers.push_back({{"flow", t.flow},
                           {"bytes", t.bytes},
                           {"startS", t.start.seconds()},
                           {"endS", Seconds(t.end)},
                           {"completionTimeS", finished ? json((t.end - t.start).seconds()) : json(nullptr)}});
    }
    if (finished) {
      ++done;
      completion_sum += (t.end - t.start).seconds();
    }
  }
  if (in.flow_records) s["transfers"] = std::move(transfers);

  // Per traffic item: its flows, transfers and pages.
  struct ItemTotals {
    int64_t flows = 0;
    Bytes bytes = 0;
    int64_t transfers = 0;
    int64_t completed = 0;
    double completion_sum = 0;
    PageTotals pages;
  };
  std::map<std::string, ItemTotals> items;
  for (const std::string& name : in.items) items[name];
  for (const FlowInfo& f : reg.flows()) {
    ItemTotals& t = items[f.item];
    ++t.flows;
    if (reg.is_tcp(f.id)) {
      t.bytes += reg.tcp_record(f.id).bytes;
    } else {
      t.bytes += reg.udp_stats(f.id)->payload_received;
    }
  }
  for (const TransferRecord& tr : reg.transfers()) {
    ItemTotals& t = items[reg.flows()[tr.flow].item];
    ++t.transfers;
    if (!tr.end.IsInfinite()) {
      ++t.completed;
      t.completion_sum += (tr.end - tr.start).seconds();
    }
  }
  PageTotals all_pages;
  json pages = json::array();
  for (const PageRecord& p : reg.pages()) {
    items[p.item].pages.Add(p, in.stop);
    all_pages.Add(p, in.stop);
    if (in.flow_records) pages.push_back(PageJson(p, in.stop));
  }
  if (in.flow_records) s["pages"] = std::move(pages);
  json items_json = json::object();
  for (const auto& [name, t] : items) {
    json j = {{"flows", t.flows},
              {"bytes", t.bytes},
              {"transfersStarted", t.transfers},
              {"transfersCompleted", t.completed},
              {"meanCompletionTimeS", t.completed > 0 ? json(t.completion_sum / t.completed) : json(nullptr)}};
    if (t.pages.started > 0) j["pages"] = t.pages.Json();
    items_json[name] = std::move(j);
  }
  s["items"] = std::move(items_json);

  json links = json::array();
  for (size_t i = 0; i < net.link_count(); ++i) {
    const Link& l = net.link(static_cast<LinkId>(i));
    const LinkStats& st = l.stats();
    const double offered = static_cast<double>(st.packets_offered);
    links.push_back({{"id", l.id()},
                     {"name", l.name()},
                     {"from", l.from().name()},
                     {"to", l.to().name()},
                     {"bandwidthBps", l.rate()},
                     {"delayS", l.delay().seconds()},
                     {"utilization", in.stop.ns() > 0 ? l.busy_time().seconds() / in.stop.seconds() : 0.0},
                     {"packetsSent", st.packets_accepted},
                     {"bytesSent", st.bytes_accepted},
                     {"queueDrops", st.queue_drops},
                     {"lossDrops", st.loss_drops},
                     {"dropRate", offered > 0 ? static_cast<double>(st.queue_drops + st.loss_drops) / offered : 0.0},
                     {"meanQueuePackets", l.mean_queue_packets()},
                     {"maxQueuePackets", st.max_queue_packets}});
  }
  s["links"] = std::move(links);

  const NetworkCounters& c = net.counters();
  s["run"] = {
      {"events", in.sim->events().events_executed()},
      {"tcpFlows", tcp_flows},
      {"udpFlows", udp_flows},
      {"transfersStarted", reg.transfers().size()},
      {"transfersCompleted", done},
      {"meanCompletionTimeS", done > 0 ? json(completion_sum / done) : json(nullptr)},
      {"retransmissions", retransmissions},
      {"timeouts", timeouts},
      {"fairness", {{"jainIndex", JainIndex(fair_goodputs)}, {"flows", fair_goodputs.size()}}},
      {"pages", all_pages.Json()},
      {"packets",
       {{"injected", c.injected},
        {"delivered", c.delivered},
        {"dropped", c.dropped},
        {"inFlight", net.packets_live()}}},
  };
  return s;
}

std::string AddResultHash(nlohmann::json& summary) {
  summary.erase("resultHash");
  const std::string hash = Sha256Hex(summary.dump());
  summary["resultHash"] = hash;
  return hash;
}

}  // namespace tcb
