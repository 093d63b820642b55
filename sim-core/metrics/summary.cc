// Run summaries.
#include "metrics/summary.h"

#include <algorithm>

#include "metrics/sha256.h"

namespace tcb {

namespace {

using nlohmann::json;

json Seconds(SimTime t) { return t.IsInfinite() ? json(nullptr) : json(t.seconds()); }

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
    // Only with Linux's RTO rules, so that the summaries (and result hashes) of RFC 6298's stay as
    // they were.
    if (r.rto_rules == RtoRules::kLinux) j["initial"]["rtoS"] = init.rto.seconds();
  } else {
    j["initial"] = nullptr;
  }
  j["established"] = r.established;
  j["closed"] = r.closed;
  return j;
}

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
  JainAccumulator jain;
  for (double x : xs) jain.Add(x);
  return jain.Index();
}

namespace {

// What one record of the summary's arrays costs once BuildSummary has made it a JSON object (an
// nlohmann::json map node per field: a flow record has some twenty fields, a transfer or page
// record about ten), and then its text: charged when the record is kept, so that a run whose
// summary would not fit stops while it runs rather than after.
constexpr Bytes kFlowJsonBytes = 2560;
constexpr Bytes kTransferOrPageJsonBytes = 1024;

}  // namespace

FlowRecordArchive::FlowRecordArchive(MemoryBudget* budget) : budget_(budget) {
  if (budget_ != nullptr) memory_registration_ = budget_->Register(this);
}

void FlowRecordArchive::Charge(Bytes bytes) {
  charged_bytes_ += bytes;
  if (budget_ != nullptr) budget_->Charge(bytes);
}

std::string FlowRecordArchive::DescribeMemory() const {
  return "the per-flow records of " + std::to_string(flows_.size()) + " flows, " + std::to_string(transfers_.size()) +
         " transfers and " + std::to_string(pages_.size()) +
         " pages are kept for the summary (record.flowRecords: false leaves them out)";
}

void FlowRecordArchive::OnFlowRecord(const FlowRecord& r) {
  const auto id = static_cast<size_t>(r.info.id);
  if (flows_.size() <= id) flows_.resize(id + 1);
  flows_[id] = r;
  Charge(static_cast<Bytes>(sizeof(FlowRecord) + r.info.name.size() + r.info.item.size()) + kFlowJsonBytes);
}

void FlowRecordArchive::OnTransferRecord(size_t transfer, const TransferRecord& t) {
  if (transfers_.size() <= transfer) transfers_.resize(transfer + 1);
  transfers_[transfer] = t;
  Charge(static_cast<Bytes>(sizeof(TransferRecord)) + kTransferOrPageJsonBytes);
}

void FlowRecordArchive::OnPageRecord(size_t page, const PageRecord& p) {
  if (pages_.size() <= page) pages_.resize(page + 1);
  pages_[page] = p;
  Charge(static_cast<Bytes>(sizeof(PageRecord) + p.item.size()) + kTransferOrPageJsonBytes);
}

json BuildSummary(const SummaryInputs& in) {
  const Network& net = *in.network;
  json s;
  s["schemaVersion"] = 1;
  s["scenario"] = {{"name", in.scenario_name}, {"seed", in.seed}};
  s["simulatedTimeS"] = in.stop.seconds();
  s["stopReason"] = in.stopped_idle ? "idle" : "duration";

  if (in.records != nullptr) {
    json flows = json::array();
    for (const FlowRecord& r : in.records->flows()) {
      const FlowInfo& f = r.info;
      const bool tcp = f.protocol == Protocol::kTcp;
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
        j.update(TcpFlowJson(f, r.tcp, in.stop));
      } else {
        j["packetsSent"] = r.udp.packets_sent;
        j["packetsReceived"] = r.udp.packets_received;
        j["bytes"] = r.udp.payload_received;
        j["goodputBps"] = GoodputBps(r.udp.payload_received, f.start, f.end.IsInfinite() ? in.stop : f.end);
      }
      const FlowNetworkStats ns = net.FlowStats(f.id);
      j["packetsDropped"] = ns.dropped;
      j["maxQueuePackets"] = ns.max_queue_packets;
      flows.push_back(std::move(j));
    }
    s["flows"] = std::move(flows);

    json transfers = json::array();
    for (const TransferRecord& t : in.records->transfers()) {
      const bool finished = !t.end.IsInfinite();
      transfers.push_back({{"flow", t.flow},
                           {"bytes", t.bytes},
                           {"startS", t.start.seconds()},
                           {"endS", Seconds(t.end)},
                           {"completionTimeS", finished ? json((t.end - t.start).seconds()) : json(nullptr)}});
    }
    s["transfers"] = std::move(transfers);

    json pages = json::array();
    for (const PageRecord& p : in.records->pages()) pages.push_back(PageJson(p, in.stop));
    s["pages"] = std::move(pages);
  }
  s["items"] = in.totals->ItemsJson();

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
  json run = in.totals->RunJson();
  run["events"] = in.sim->events().events_executed();
  run["packets"] = {{"injected", c.injected},
                    {"delivered", c.delivered},
                    {"dropped", c.dropped},
                    {"inFlight", net.packets_live()}};
  s["run"] = std::move(run);
  return s;
}

std::string AddResultHash(nlohmann::json& summary) {
  summary.erase("resultHash");
  const std::string hash = Sha256Hex(summary.dump());
  summary["resultHash"] = hash;
  return hash;
}

}  // namespace tcb
