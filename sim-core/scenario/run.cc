// Running a scenario.
#include "scenario/run.h"

#include <algorithm>
#include <map>

#include "core/distributions.h"
#include "metrics/invariants.h"
#include "metrics/parallel_set.h"
#include "metrics/run_totals.h"
#include "metrics/summary.h"
#include "net/network.h"
#include "sharing/registry.h"
#include "workload/bulk.h"
#include "workload/flow_registry.h"
#include "workload/onoff_udp.h"
#include "workload/rounds.h"
#include "workload/sessions.h"
#include "workload/telnet.h"
#include "workload/transfers.h"
#include "workload/web_client.h"

namespace tcb {

namespace {

std::string FlowBaseName(const TrafficItem& item, int copy) {
  return item.count > 1 ? item.name + "#" + std::to_string(copy) : item.name;
}

std::vector<std::unique_ptr<Application>> MakeApplications(const Scenario& scenario,
                                                           WorkloadContext& context,
                                                           RoundSchedule* rounds) {
  std::vector<std::unique_ptr<Application>> apps;
  Network& net = context.network;
  for (const TrafficItem& item : scenario.traffic) {
    for (int copy = 0; copy < item.count; ++copy) {
      const std::string stream = item.name + "/" + std::to_string(copy);
      Rng start_rng = context.sim.MakeRng("start/" + stream);
      auto jitter = [&] {
        return item.start_jitter.ns() > 0
                   ? SimTime::FromSeconds(Uniform(start_rng, 0.0, item.start_jitter.seconds()))
                   : SimTime::Zero();
      };
      AppPlacement at;
      at.item = item.name;
      at.flow_name = FlowBaseName(item, copy);
      at.copy = copy;
      at.from = net.FindNode(item.from[copy]);
      at.to = net.FindNode(item.to[copy]);
      at.stop = item.stop;
      at.traits = item.traits;
      switch (item.type) {
        case TrafficType::kBulk:
          at.start = item.start + jitter();
          apps.push_back(std::make_unique<BulkApp>(context, at, item.tcp,
                                                   item.bytes < 0 ? BulkApp::kUnlimited : item.bytes,
                                                   item.repeat < 0 ? BulkApp::kForever : item.repeat));
          break;
        case TrafficType::kTransfers: {
          std::vector<SimTime> starts;
          for (SimTime t : item.at) starts.push_back(t + jitter());
          apps.push_back(std::make_unique<TransfersApp>(context, at, item.tcp, item.bytes,
                                                        std::move(starts), item.reuse_connection));
          break;
        }
        case TrafficType::kTelnet:
          at.start = item.start + jitter();
          apps.push_back(std::make_unique<TelnetApp>(context, at, item.tcp, item.mean_interval,
                                                     item.write_bytes,
                                                     context.sim.MakeRng("telnet/" + stream)));
          break;
        case TrafficType::kOnOffUdp:
          at.start = item.start + jitter();
          apps.push_back(std::make_unique<OnOffUdpApp>(context, at, item.rate, item.packet_bytes,
                                                       item.mean_on, item.mean_off, item.shape,
                                                       context.sim.MakeRng("onoff/" + stream)));
          break;
        case TrafficType::kWeb:
          at.start = item.start + jitter();
          apps.push_back(std::make_unique<WebClientApp>(context, at, item.tcp, item.http, item.page,
                                                        context.sim.MakeRng("web/" + stream)));
          break;
        case TrafficType::kRounds:
          apps.push_back(std::make_unique<RoundsApp>(context, at, item.tcp, item.bytes,
                                                     item.start_jitter, item.reuse_connection, *rounds,
                                                     context.sim.MakeRng("rounds/" + stream)));
          break;
        case TrafficType::kSessions:
          at.start = item.start + jitter();
          apps.push_back(std::make_unique<SessionsApp>(context, at, item.tcp, item.sessions,
                                                       context.sim.MakeRng("sessions/" + stream)));
          break;
      }
    }
  }
  return apps;
}

// Events run between two checks of the run's memory account: a run overshoots its limit by what
// this many events allocate at most (a few MB), and the checks cost nothing measurable.
constexpr uint64_t kMemoryCheckEvents = 8192;

// Lends the run's memory budget to the recorder, which outlives the run, for the run's duration.
class RecorderBudget {
 public:
  RecorderBudget(Recorder& recorder, MemoryBudget& budget) : recorder_(recorder) { recorder_.SetMemoryBudget(&budget); }
  ~RecorderBudget() { recorder_.SetMemoryBudget(nullptr); }
  RecorderBudget(const RecorderBudget&) = delete;
  RecorderBudget& operator=(const RecorderBudget&) = delete;

 private:
  Recorder& recorder_;
};

// What exporters need to name each flow, taken as flows start.
class FlowLabels final : public FlowObserver {
 public:
  FlowLabels(const Network& net, const FlowRegistry& flows, std::vector<FlowLabel>& labels, MemoryBudget& budget)
      : net_(net), flows_(flows), labels_(labels), budget_(budget) {}
  void OnFlowStart(const FlowInfo& f) override {
    FlowLabel label;
    label.name = f.name;
    label.protocol = f.protocol;
    label.from_address = net_.node(f.from).address();
    label.to_address = net_.node(f.to).address();
    // Ephemeral ports for initiators, a well-known port per application kind for responders.
    label.from_port = static_cast<uint16_t>(10000 + f.id % 50000);
    label.to_port = f.protocol == Protocol::kTcp ? 5001 : 9;
    if (const TcpConnection* c = flows_.connection(f.id)) label.mss = c->initiator().config().mss;
    budget_.Charge(static_cast<Bytes>(sizeof(FlowLabel) + label.name.capacity()));
    labels_.push_back(std::move(label));
  }

 private:
  const Network& net_;
  const FlowRegistry& flows_;
  std::vector<FlowLabel>& labels_;
  MemoryBudget& budget_;
};

// The registry names hosts by node id; the summary names them by node name.
nlohmann::json NameGroupHosts(nlohmann::json groups, const Network& net) {
  for (nlohmann::json& g : groups) g["host"] = net.node(g["host"].get<NodeId>()).name();
  return groups;
}

}  // namespace

nlohmann::json RunOutput::PrintedSummary() const {
  if (trace != TraceLevel::kNone) return summary;
  nlohmann::json trimmed = summary;
  trimmed.erase("flows");
  trimmed.erase("transfers");
  trimmed.erase("links");
  trimmed.erase("groups");
  trimmed.erase("pages");
  return trimmed;
}

RunOutput RunScenario(const Scenario& scenario, const RunOptions& options) {
  const uint64_t seed = options.seed.value_or(scenario.seed);
  RunOutput out;
  out.trace = options.trace.value_or(scenario.record.trace);
  out.recorder = options.record_blocks != nullptr
                     ? std::make_unique<Recorder>(out.trace, options.record_blocks, options.record_block_rows)
                     : std::make_unique<Recorder>(out.trace);

  Simulation sim(seed);
  MemoryBudget& memory = sim.memory();
  memory.SetLimit(options.max_memory_bytes);
  const RecorderBudget recorder_budget(*out.recorder, memory);
  Network net(sim, out.recorder.get());
  Instantiate(scenario.topology, net);

  std::vector<std::string> pcap_links = scenario.record.pcap_links;
  pcap_links.insert(pcap_links.end(), options.extra_pcap_links.begin(), options.extra_pcap_links.end());
  for (const std::string& name : pcap_links) {
    bool seen = false;
    for (const auto& c : out.captures) seen = seen || c.first == name;
    if (!seen) out.captures.emplace_back(name, LinkCapture{});
  }
  for (auto& [name, capture] : out.captures) {
    bool found = false;
    for (size_t i = 0; i < net.link_count(); ++i) {
      Link& l = net.link(static_cast<LinkId>(i));
      // Directions are named "<link>:<from>><to>".
      if (l.name().compare(0, name.size() + 1, name + ":") == 0) {
        l.SetCapture(&capture);
        found = true;
      }
    }
    if (!found) throw ScenarioError("--pcap", "no link named \"" + name + "\"");
  }

  SharingRegistry sharing(SharingEnvironment{&sim, out.recorder.get()});
  for (const auto& [host, config] : scenario.sharing) sharing.SetHost(net.FindNode(host), config);
  if (scenario.default_sharing) sharing.SetDefault(*scenario.default_sharing);

  FlowRegistry flows(net);
  // Connections are destroyed as they finish; their invariants are checked then.
  flows.SetReclaimHook([](const FlowInfo& f, const TcpConnection& c) { CheckConnectionInvariants(f, c); });
  // The run's totals are folded in as flows, transfers and pages finish; their records are kept only
  // if the result lists them (record.flowRecords), and their names only if something refers to flows
  // by index (series, packet trace, captures).
  std::vector<std::string> item_names;
  for (const TrafficItem& item : scenario.traffic) item_names.push_back(item.name);
  RunTotals totals(item_names, scenario.record.fairness);
  flows.AddObserver(&totals);
  std::unique_ptr<FlowRecordArchive> records;
  if (scenario.record.flow_records) {
    records = std::make_unique<FlowRecordArchive>(&memory);
    flows.AddObserver(records.get());
  }
  std::unique_ptr<FlowLabels> labels;
  if (scenario.record.flow_records || out.trace >= TraceLevel::kSeries || !out.captures.empty()) {
    labels = std::make_unique<FlowLabels>(net, flows, out.flows, memory);
    flows.AddObserver(labels.get());
  }
  std::unique_ptr<ParallelSetMonitor> parallel_set;
  if (!scenario.record.parallel_set.empty()) {
    parallel_set = std::make_unique<ParallelSetMonitor>(flows, scenario.record.parallel_set);
    flows.AddObserver(parallel_set.get());
  }
  WorkloadContext context{sim, net, flows, sharing.Factory()};
  std::unique_ptr<RoundSchedule> rounds;
  for (const TrafficItem& item : scenario.traffic) {
    if (item.type == TrafficType::kRounds && !rounds) rounds = std::make_unique<RoundSchedule>(sim, item.rounds, item.idle);
  }
  std::vector<std::unique_ptr<Application>> apps = MakeApplications(scenario, context, rounds.get());
  for (auto& app : apps) app->Start();
  if (rounds) rounds->Start();

  if (memory.Exceeded()) memory.ThrowExceeded(sim.Now());

  // The event loop, in slices so that the memory account is checked, progress reported and the run
  // cancelled. Slicing does not change which events run, nor their order.
  EventList& events = sim.events();
  const SimTime end = scenario.duration;
  const uint64_t slice = std::max<uint64_t>(1, std::min(options.progress_every_events, kMemoryCheckEvents));
  uint64_t since_progress = 0;
  bool idle = false;
  for (;;) {
    const uint64_t ran = events.RunBatch(end, slice);
    if (memory.Exceeded()) memory.ThrowExceeded(sim.Now());
    if (ran < slice) {
      idle = events.NextTime().IsInfinite();
      break;
    }
    since_progress += ran;
    if (since_progress >= options.progress_every_events) {
      since_progress = 0;
      if (options.on_progress && !options.on_progress(sim.Now(), end)) throw RunCancelled();
    }
  }
  const SimTime stop = idle && scenario.stop_when_idle ? sim.Now() : end;
  for (size_t i = 0; i < net.link_count(); ++i) net.link(static_cast<LinkId>(i)).Finish(stop);
  if (options.on_progress) options.on_progress(end, end);
  CheckRunInvariants(net, flows);
  flows.Finish();
  totals.Finish(stop);

  SummaryInputs in;
  in.scenario_name = scenario.name;
  in.seed = seed;
  in.sim = &sim;
  in.network = &net;
  in.totals = &totals;
  in.records = records.get();
  in.stop = stop;
  in.stopped_idle = idle && scenario.stop_when_idle;
  out.summary = BuildSummary(in);
  out.peak_live_connections = flows.peak_live_connections();
  out.memory_peak_bytes = memory.peak();
  if (parallel_set) out.summary["run"]["parallelSet"] = parallel_set->Summary(stop);
  out.summary["groups"] = NameGroupHosts(sharing.Describe(), net);
  out.result_hash = AddResultHash(out.summary);

  for (size_t i = 0; i < net.link_count(); ++i) out.links.push_back(net.link(static_cast<LinkId>(i)).name());
  out.recorder->Flush();
  return out;
}

}  // namespace tcb
