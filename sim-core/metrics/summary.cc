// Run summaries.
#include "metrics/summary.h"

#include <algorithm>
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

json TcpFlowJson(const FlowInfo& f, const TcpConnection& c, SimTime stop) {
  json j;
  const TcpEndpoint& a = c.initiator();
  const TcpEndpoint& b = c.responder();
  const Bytes bytes = a.bytes_received() + b.bytes_received();
  const bool done = !f.end.IsInfinite();
  j["segmentsSent"] = a.stats().segments_sent + b.stats().segments_sent;
  j["dataSegmentsSent"] = a.stats().data_segments_sent + b.stats().data_segments_sent;
  j["retransmissions"] = a.stats().retransmissions + b.stats().retransmissions;
  j["timeouts"] = a.stats().timeouts + b.stats().timeouts;
  j["bytes"] = bytes;
  j["goodputBps"] = GoodputBps(bytes, f.start, done ? f.end : stop);
  // The side that sends the data is the one that got data written: the initiator for bulk and
  // transfers, possibly both for request/response.
  const TcpEndpoint& sender = a.bytes_written() >= b.bytes_written() ? a : b;
  const TcpInitialState& init = sender.initial_state();
  if (init.valid) {
    j["initial"] = {{"cwndBytes", init.cwnd},
                    {"ssthreshBytes", std::min(init.ssthresh, TcpConfig::kInfiniteSsthresh)},
                    {"srttS", init.has_rtt ? json(init.srtt.seconds()) : json(nullptr)},
                    {"rttvarS", init.has_rtt ? json(init.rttvar.seconds()) : json(nullptr)}};
  } else {
    j["initial"] = nullptr;
  }
  j["established"] = a.established() || a.closed();
  j["closed"] = a.closed() && b.closed();
  return j;
}

}  // namespace

double JainIndex(const std::vector<double>& xs) {
  double sum = 0, sum_sq = 0;
  for (double x : xs) {
    sum += x;
    sum_sq += x * x;
  }
  if (xs.empty() || sum_sq == 0) return 1.0;
  return sum * sum / (static_cast<double>(xs.size()) * sum_sq);
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
    json j;
    j["id"] = f.id;
    j["name"] = f.name;
    j["item"] = f.item;
    j["protocol"] = f.protocol == Protocol::kTcp ? "tcp" : "udp";
    j["from"] = net.node(f.from).name();
    j["to"] = net.node(f.to).name();
    j["startS"] = f.start.seconds();
    j["endS"] = Seconds(f.end);
    j["completionTimeS"] = f.end.IsInfinite() ? json(nullptr) : json((f.end - f.start).seconds());
    if (const TcpConnection* c = reg.connection(f.id)) {
      ++tcp_flows;
      j.update(TcpFlowJson(f, *c, in.stop));
      retransmissions += j["retransmissions"].get<int64_t>();
      timeouts += j["timeouts"].get<int64_t>();
      if (fair_items.empty() || fair_items.count(f.item)) {
        fair_goodputs.push_back(j["goodputBps"].get<double>());
      }
    } else {
      ++udp_flows;
      const UdpFlowStats& u = *reg.udp_stats(f.id);
      j["packetsSent"] = u.packets_sent;
      j["packetsReceived"] = u.packets_received;
      j["bytes"] = u.payload_received;
      j["goodputBps"] = GoodputBps(u.payload_received, f.start, f.end.IsInfinite() ? in.stop : f.end);
    }
    flows.push_back(std::move(j));
  }
  s["flows"] = std::move(flows);

  json transfers = json::array();
  int done = 0;
  double completion_sum = 0;
  for (const TransferRecord& t : reg.transfers()) {
    const bool finished = !t.end.IsInfinite();
    transfers.push_back({{"flow", t.flow},
                         {"bytes", t.bytes},
                         {"startS", t.start.seconds()},
                         {"endS", Seconds(t.end)},
                         {"completionTimeS", finished ? json((t.end - t.start).seconds()) : json(nullptr)}});
    if (finished) {
      ++done;
      completion_sum += (t.end - t.start).seconds();
    }
  }
  s["transfers"] = std::move(transfers);

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
