// Invariants on every preset and on randomly generated scenarios: exactly-once in-order delivery
// and packet conservation (checked inside every run, see metrics/invariants.h, and again here from
// the summary), time never decreasing, determinism per seed, and a resultHash that does not depend
// on the trace level.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include <string>

#include "core/distributions.h"
#include "core/rng.h"
#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

// Every run: conservation in the summary, and a packet trace whose times never decrease.
void ExpectRunInvariants(const RunOutput& run) {
  const json& p = run.summary["run"]["packets"];
  EXPECT_EQ(p["injected"].get<int64_t>(),
            p["delivered"].get<int64_t>() + p["dropped"].get<int64_t>() + p["inFlight"].get<int64_t>());
  const PacketTrace& t = run.recorder->packet_trace();
  for (size_t i = 1; i < t.size(); ++i) {
    ASSERT_LE(t.time_ns[i - 1], t.time_ns[i]) << "trace row " << i;
  }
  for (const json& f : run.summary.value("flows", json::array())) {
    if (f["protocol"] == "udp") {
      EXPECT_LE(f["packetsReceived"].get<int64_t>(), f["packetsSent"].get<int64_t>());
    }
  }
  // Per flow: its drops are the trace's drop and loss rows of that flow, and they add up to the
  // run's; the longest queue any flow's packet joined is the longest queue any link had.
  if (run.summary.contains("flows")) {
    std::map<int64_t, int64_t> traced_drops;
    const bool full = run.trace == TraceLevel::kFull;
    for (size_t i = 0; full && i < t.size(); ++i) {
      const auto event = static_cast<PacketEvent>(t.event[i]);
      if (event == PacketEvent::kDrop || event == PacketEvent::kLoss) ++traced_drops[t.flow[i]];
    }
    int64_t drops = 0, flow_max_queue = 0, link_max_queue = 0;
    for (const json& f : run.summary["flows"]) {
      const int64_t dropped = f["packetsDropped"].get<int64_t>();
      drops += dropped;
      flow_max_queue = std::max(flow_max_queue, f["maxQueuePackets"].get<int64_t>());
      if (full) EXPECT_EQ(dropped, traced_drops[f["id"].get<int64_t>()]) << f["name"];
    }
    for (const json& l : run.summary["links"]) link_max_queue = std::max(link_max_queue, l["maxQueuePackets"].get<int64_t>());
    EXPECT_EQ(drops, p["dropped"].get<int64_t>());
    EXPECT_EQ(flow_max_queue, link_max_queue);
  }
  for (const json& tr : run.summary.value("transfers", json::array())) {
    if (!tr["endS"].is_null()) {
      EXPECT_GE(tr["endS"].get<double>(), tr["startS"].get<double>());
    }
  }
  // Pages: the HTML arrives no later than the page, and retrieval time never exceeds page time.
  int64_t completed = 0;
  for (const json& page : run.summary.value("pages", json::array())) {
    if (page["totalTimeS"].is_null()) continue;
    ++completed;
    EXPECT_LE(page["htmlTimeS"].get<double>(), page["totalTimeS"].get<double>());
    EXPECT_LE(page["retrievalTimeS"].get<double>(), page["totalTimeS"].get<double>() + 1e-9);
    EXPECT_GT(page["retrievalTimeS"].get<double>(), 0.0);
  }
  if (run.summary.contains("pages")) {
    EXPECT_EQ(completed, run.summary["run"]["pages"]["completed"].get<int64_t>());
  }
}

Scenario Shortened(const Scenario& s, double max_seconds) {
  json doc = s.document;
  doc["durationS"] = std::min(doc["durationS"].get<double>(), max_seconds);
  return ParseScenario(doc);
}

class PresetInvariantsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetInvariantsTest, HoldAndAreDeterministic) {
  const Scenario scenario = Shortened(ParseScenarioText(*PresetText(GetParam())), 20);
  RunOptions full;
  full.trace = TraceLevel::kFull;
  const RunOutput a = RunScenario(scenario, full);
  ExpectRunInvariants(a);

  RunOptions none;
  none.trace = TraceLevel::kNone;
  const RunOutput b = RunScenario(scenario, none);
  EXPECT_EQ(a.result_hash, b.result_hash) << "the hash must not depend on the trace level";
  EXPECT_EQ(a.summary.dump(), b.summary.dump());
  EXPECT_FALSE(b.PrintedSummary().contains("flows"));

  RunOptions other_seed = none;
  other_seed.seed = scenario.seed + 1;
  const RunOutput c = RunScenario(scenario, other_seed);
  EXPECT_NE(a.result_hash, c.result_hash) << "another seed should give another run";
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetInvariantsTest, ::testing::ValuesIn(PresetNames()),
                         [](const auto& info) { return testing::TestName(info.param); });

// The path presets (path-geo-satellite, path-mobile, path-intercontinental) are where a user asks
// "what would reuse give my traffic?": each runs, whole, under every sharing scheme the schema
// names, with its invariants, when hosts.server.sharing is set to the scheme alone, and every
// transfer finishes: the path is idle between them, so one that does not is a bug (as TCP-INT's
// and the Congestion Manager's windows, reused without a restart after idle, once were).
TEST(PathPresetsTest, RunUnderEverySharingScheme) {
  std::vector<std::string> schemes;
  for (const json& branch : ScenarioSchemaDocument()["$defs"]["sharing"]["oneOf"]) {
    schemes.push_back(branch["properties"]["scheme"]["const"].get<std::string>());
  }
  ASSERT_GE(schemes.size(), 12u);
  int presets = 0;
  for (const std::string& name : PresetNames()) {
    if (name.rfind("path-", 0) != 0) continue;
    ++presets;
    for (const std::string& scheme : schemes) {
      SCOPED_TRACE(name + " under " + scheme);
      json doc = json::parse(*PresetText(name));
      doc["hosts"]["server"]["sharing"] = {{"scheme", scheme}};
      RunOptions options;
      options.trace = TraceLevel::kSummary;
      const RunOutput run = RunScenario(ParseScenario(doc), options);
      ExpectRunInvariants(run);
      EXPECT_EQ(run.summary["items"]["file"]["transfersStarted"].get<int64_t>(), 3);
      EXPECT_EQ(run.summary["items"]["file"]["transfersCompleted"].get<int64_t>(), 3);
      EXPECT_EQ(run.summary["items"]["page"]["pages"]["completed"].get<int64_t>(), 1);
    }
  }
  EXPECT_GE(presets, 3);
}

// A random sharing scheme with random parameters.
json RandomSharing(Rng& rng) {
  const char* schemes[] = {"independent", "rfc9040-temporal", "rfc9040-ensemble", "mv-tcbi", "fs-tcbi",
                           "etcp", "tcp-int", "spand", "congestion-manager", "careful-resume",
                           "linux-tcp-metrics", "bdp-resume"};
  const char* scopes[] = {"host-pair", "network", "host"};
  json s{{"scheme", schemes[rng.UniformInt(std::size(schemes))]}};
  if (s["scheme"] != "independent") s["scope"] = scopes[rng.UniformInt(std::size(scopes))];
  if (s["scheme"] == "etcp") {
    const char* tickets[] = {"fair", "content", "decay", "html-pre"};
    s["tickets"] = tickets[rng.UniformInt(4)];
    s["handshakeAvoidance"] = rng.UniformInt(2) == 1;
    s["paceHalfClosed"] = rng.UniformInt(2) == 1;
  }
  if (s["scheme"] == "spand") {
    s.erase("scope");  // SPAND's scope is the destination /24 network.
    s["windowS"] = 1 + static_cast<double>(rng.UniformInt(60));
    s["segmentsPerAck"] = 1 + rng.UniformInt(2);
    s["shiftOptimisation"] = rng.UniformInt(2) == 1;
  }
  if (s["scheme"] == "tcp-int") {
    s["weighted"] = rng.UniformInt(2) == 1;
    s["delayedAckRules"] = rng.UniformInt(2) == 1;
  }
  if (s["scheme"] == "careful-resume") {
    s["lifetimeS"] = 1 + static_cast<double>(rng.UniformInt(20));
    if (rng.UniformInt(2) == 1) s["maxJumpBytes"] = 2000 + rng.UniformInt(100000);
    s["beta"] = 0.5 + 0.1 * static_cast<double>(rng.UniformInt(6));
  }
  if (s["scheme"] == "linux-tcp-metrics") {
    s["noSsthreshMetricsSave"] = rng.UniformInt(2) == 1;
    s["timeoutS"] = 1 + static_cast<double>(rng.UniformInt(20));
    if (rng.UniformInt(3) == 0) s["initcwndSegments"] = 1 + rng.UniformInt(20);
    if (rng.UniformInt(3) == 0) s["cwndLockSegments"] = 2 + rng.UniformInt(40);
  }
  if (s["scheme"] == "bdp-resume" && rng.UniformInt(2) == 1) s["maxWindowBytes"] = 2000 + rng.UniformInt(200000);
  if (s["scheme"] == "rfc9040-temporal") {
    const char* merges[] = {"latest", "mean", "ewma"};
    s["merge"] = merges[rng.UniformInt(3)];
    s["ageCwnd"] = rng.UniformInt(2) == 1;
    s["lifetimeS"] = 1 + static_cast<double>(rng.UniformInt(20));
  }
  return s;
}

// A random scenario: a random topology (builders or a random tree), random TCP options, a mix of
// applications, optional random and scripted losses, a short duration.
json RandomScenario(uint64_t seed) {
  Rng rng(seed);
  Rng linux_rng = Rng::ForStream(seed, "linux-rules");
  auto pick = [&](std::initializer_list<const char*> xs) {
    return std::string(xs.begin()[rng.UniformInt(xs.size())]);
  };
  auto chance = [&](double p) { return rng.NextDouble() < p; };
  auto uniform = [&](double lo, double hi) { return Uniform(rng, lo, hi); };
  auto queue = [&]() -> json {
    switch (rng.UniformInt(3)) {
      case 0: return "unlimited";
      case 1: return {{"packets", rng.UniformInt(30)}};
      default: return {{"bytes", 1500 + rng.UniformInt(40000)}};
    }
  };
  auto link = [&](double max_mbps) {
    json l{{"bandwidthMbps", uniform(0.2, max_mbps)}, {"delayMs", uniform(0, 60)}, {"queue", queue()}};
    if (chance(0.3)) l["lossForward"] = {{"rate", uniform(0, 0.05)}};
    if (chance(0.2)) l["lossReverse"] = {{"rate", uniform(0, 0.05)}};
    if (chance(0.15)) l["lossForward"] = {{"packets", {1 + rng.UniformInt(20), 3 + rng.UniformInt(40)}}};
    return l;
  };
  auto tcp = [&]() {
    json t{{"flavor", pick({"tahoe", "reno", "newreno", "sack", "cubic", "bbr"})},
           {"rightEdgeRecovery", chance(0.2)},
           {"cwndValidation", chance(0.3)},
           {"connection", pick({"full", "one-way"})},
           {"mssBytes", 100 + rng.UniformInt(1400)},
           {"delayedAck", chance(0.5)},
           {"delayedAckTimeoutMs", uniform(10, 300)},
           {"rtoGranularityMs", pick({"0", "10", "50", "200", "500"}) == "0" ? 0 : 50},
           {"minRtoMs", uniform(0, 1000)},
           {"slowStartRestart", chance(0.5)},
           {"nagle", chance(0.3)},
           {"receiveWindowBytes", 2000 + rng.UniformInt(200000)}};
    if (chance(0.5)) t["initialWindow"] = 1 + rng.UniformInt(4);
    else t["initialWindow"] = "rfc3390";
    if (chance(0.3)) t["initialSsthreshBytes"] = 2000 + rng.UniformInt(60000);
    if (chance(0.2)) t["pacing"] = "rate";
    if (chance(0.1)) t["initialWindow"] = "rfc6928";
    if (t["flavor"] == "cubic" && chance(0.3)) {
      t["cubic"] = {{"hystart", chance(0.5)}, {"fastConvergence", chance(0.5)}, {"beta", uniform(0.5, 0.9)}};
      t["cubic"]["rules"] = pick({"rfc9438", "linux"});
    }
    // RFC 8985 RACK-TLP loss detection, with SACK-based recovery only; always given, so that an
    // item's own flavor overrides the scenario's choice.
    t["rack"] = (t["flavor"] == "sack" || t["flavor"] == "cubic" || t["flavor"] == "bbr") && chance(0.4);
    // Linux's rules: Reno's window (tcp_cong.c), BBR 6.x, the receiver's ACKs and the RTO
    // (tcp_input.c), pacing (tcp_output.c), on 4 ms or 1 ms jiffies; drawn from their own stream,
    // so that the rest of each scenario stays what it was without them.
    auto linux_chance = [&](double p) { return linux_rng.NextDouble() < p; };
    if (linux_chance(0.3)) t["reno"] = {{"rules", "linux"}};
    if (linux_chance(0.3)) t["bbr"] = {{"rules", "linux"}};
    if (linux_chance(0.3)) t["ackRules"] = "linux";
    if (linux_chance(0.3)) t["rtoRules"] = "linux";
    if (linux_chance(0.5)) t["linuxHz"] = linux_chance(0.5) ? 250 : 1000;
    if (linux_chance(0.3)) t["pacingRules"] = "linux";
    return t;
  };

  json doc{{"schemaVersion", 1}, {"seed", seed}, {"durationS", uniform(2, 20)}, {"tcp", tcp()}};
  std::vector<std::string> left, right;
  switch (rng.UniformInt(3)) {
    case 0: {
      const int pairs = 1 + static_cast<int>(rng.UniformInt(4));
      doc["topology"] = {{"kind", "dumbbell"}, {"pairs", pairs}, {"bottleneck", link(20)}, {"access", link(100)}};
      for (int i = 0; i < pairs; ++i) {
        left.push_back("left" + std::to_string(i));
        right.push_back("right" + std::to_string(i));
      }
      break;
    }
    case 1:
      doc["topology"] = {{"kind", "parking-lot"}, {"hops", 2 + rng.UniformInt(3)}, {"users", 2},
                         {"crossPerRouter", 1}, {"hop", link(10)}, {"access", link(100)}};
      left = {"src0", "src1", "x1s0"};
      right = {"dst0", "dst1", "x1d0"};
      break;
    default: {
      // A random tree over 6 nodes.
      json nodes = json::array(), links = json::array();
      for (int i = 0; i < 6; ++i) nodes.push_back({{"name", "n" + std::to_string(i)}});
      for (int i = 1; i < 6; ++i) {
        json l = link(50);
        l["a"] = "n" + std::to_string(rng.UniformInt(i));
        l["b"] = "n" + std::to_string(i);
        links.push_back(l);
      }
      doc["topology"] = {{"kind", "custom"}, {"nodes", nodes}, {"links", links}};
      left = {"n0", "n1", "n2"};
      right = {"n5", "n4", "n3"};
    }
  }

  json traffic = json::array();
  const int items = 1 + static_cast<int>(rng.UniformInt(4));
  for (int i = 0; i < items; ++i) {
    const size_t a = rng.UniformInt(left.size());
    const size_t b = rng.UniformInt(right.size());
    json item{{"from", left[a]}, {"to", right[b]}, {"name", "item" + std::to_string(i)}};
    if (chance(0.3)) std::swap(item["from"], item["to"]);
    if (chance(0.3)) {
      item["tcp"] = tcp();
      // Recovery only per item: a scenario-wide one would make an item's Tahoe invalid.
      if (item["tcp"]["flavor"] != "tahoe" && chance(0.5)) {
        item["tcp"]["recovery"] = pick({"reno", "newreno", "sack-rfc6675", "prr"});
        const bool sack = item["tcp"]["recovery"] == "sack-rfc6675" || item["tcp"]["recovery"] == "prr";
        item["tcp"]["rack"] = sack && chance(0.4);
      }
    }
    const char* contents[] = {"html", "image", "java", "ftp", "other"};
    if (chance(0.5)) item["content"] = contents[rng.UniformInt(5)];
    if (chance(0.3)) item["weight"] = uniform(0.5, 3);
    switch (rng.UniformInt(7)) {
      case 4: {
        item["type"] = "web";
        item.erase("content");
        json t = item.contains("tcp") ? item["tcp"] : json::object();
        t["connection"] = "full";  // Requests and responses.
        item["tcp"] = t;
        item["http"] = pick({"1.0-serial", "1.0-parallel", "1.1-pipelined", "1.1-segment-filled",
                             "1.1-persistent", "2"});
        if (chance(0.5)) item["maxConnections"] = 1 + rng.UniformInt(4);
        if (item["http"] == "2" && chance(0.7)) {
          // RFC 9113 multiplexing: few streams, small and large frames, either scheduler, with and
          // without the low-water mark, and priorities that mix (non-)incremental responses.
          json h{{"maxConcurrentStreams", 1 + rng.UniformInt(6)},
                 {"maxFrameBytes", chance(0.5) ? 16384 : 16384 + rng.UniformInt(50000)},
                 {"responseHeadersBytes", 1 + rng.UniformInt(300)},
                 {"scheduler", pick({"round-robin", "weighted"})},
                 {"notSentLowatBytes", chance(0.3) ? json("unlimited") : json(1 + rng.UniformInt(40000))}};
          if (chance(0.5)) {
            h["priorities"] = {{"image", {{"urgency", rng.UniformInt(8)}, {"incremental", chance(0.5)}}},
                               {"java", {{"urgency", rng.UniformInt(8)}, {"incremental", chance(0.5)}}}};
          }
          item["http2"] = h;
        }
        if (chance(0.5)) item["maxOutstandingRequests"] = 1 + rng.UniformInt(3);
        if (chance(0.5)) item["persistentConnection"] = pick({"per-client", "per-page"});
        item["inlineRequests"] = pick({"as-html-arrives", "after-html"});
        item["serverThinkMs"] = chance(0.5) ? uniform(0, 20) : 0.0;
        item["clientParseMs"] = chance(0.5) ? uniform(0, 20) : 0.0;
        item["thinkS"] = {{"dist", "uniform"}, {"min", 0.0}, {"max", uniform(0, 2)}};
        item["connectionGapS"] = chance(0.5) ? json(uniform(0, 0.1)) : json(0);
        item["pageCount"] = 1 + rng.UniformInt(4);
        item["count"] = 1 + rng.UniformInt(3);
        if (chance(0.5)) {
          item["page"] = {{"model", "mah"}, {"primaryBytes", {{"dist", "pareto"}, {"shape", 0.91}, {"scale", 1000}, {"max", 60000}}}};
        } else {
          json objects = json::array({{{"bytes", 1 + rng.UniformInt(20000)}}});
          const int n = 1 + static_cast<int>(rng.UniformInt(6));
          for (int k = 1; k < n; ++k) {
            json o{{"bytes", 1 + rng.UniformInt(20000)}, {"parent", rng.UniformInt(k)},
                   {"content", pick({"html", "image", "java"})}};
            if (chance(0.3)) o["linkAt"] = uniform(0.01, 1);
            objects.push_back(o);
          }
          item["page"] = {{"objects", objects}};
        }
        break;
      }
      case 5:
        item["type"] = "rounds";
        item["bytes"] = 1 + rng.UniformInt(60000);
        item["rounds"] = 3;  // Every rounds item must agree.
        item["idleS"] = 0.5;
        item["startJitterS"] = uniform(0, 1);
        item["count"] = 1 + rng.UniformInt(3);
        item["reuseConnection"] = chance(0.5);
        break;
      case 6:
        item["type"] = "sessions";
        item["bytes"] = {{"dist", "pareto"}, {"shape", 1.7584}, {"scale", 3000}, {"max", 200000}};
        item["gapS"] = {{"dist", "gamma"}, {"mean", 0.5}, {"sd", 1.0}};
        if (chance(0.5)) {
          item["sessions"] = {{"gapS", {{"dist", "exponential"}, {"mean", 0.5}}},
                              {"transfers", {{"dist", "lognormal"}, {"mean", 3}, {"sd", 4}}}};
        }
        break;
      case 0:
        item["type"] = "bulk";
        item["startS"] = uniform(0, 2);
        if (chance(0.7)) {
          item["bytes"] = 1 + rng.UniformInt(300000);
          item["repeat"] = 1 + rng.UniformInt(3);
        }
        break;
      case 1:
        item["type"] = "transfers";
        item["bytes"] = 1 + rng.UniformInt(100000);
        item["atS"] = {uniform(0, 3), uniform(0, 6), uniform(0, 9)};
        item["startJitterS"] = uniform(0, 1);
        item["reuseConnection"] = chance(0.5);
        break;
      case 2:
        item["type"] = "telnet";
        item["meanIntervalS"] = uniform(0.01, 0.5);
        if (chance(0.5)) item["stopS"] = uniform(1, 10);
        item.erase("tcp");
        break;
      default:
        item["type"] = "onoff-udp";
        item["rateKbps"] = uniform(10, 500);
        item.erase("tcp");
        item.erase("content");
        item.erase("weight");
        break;
    }
    traffic.push_back(item);
  }
  doc["traffic"] = traffic;
  if (chance(0.3)) doc["record"] = {{"parallelSet", json::array({"item0"})}};
  // Every host runs one of the sharing schemes (RandomSharing lists them).
  doc["hosts"] = {{"*", {{"sharing", RandomSharing(rng)}}}};
  // BBR needs each connection's own samples, Linux's RTO rules each connection's own estimate: not
  // under a scheme that shares one window.
  const json& scheme = doc["hosts"]["*"]["sharing"]["scheme"];
  if (scheme == "etcp" || scheme == "tcp-int" || scheme == "congestion-manager") {
    auto own_window = [](json& t) {
      if (t.value("flavor", "") == "bbr") t["flavor"] = "sack";
      if (t.contains("rtoRules")) t["rtoRules"] = "rfc6298";
    };
    own_window(doc["tcp"]);
    for (json& item : doc["traffic"]) {
      if (item.contains("tcp")) own_window(item["tcp"]);
    }
  }
  return doc;
}

TEST(RandomScenarioTest, InvariantsHoldAndRunsAreDeterministic) {
  std::map<std::string, int64_t> finished;  // Pages or transfers completed, by application type.
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    SCOPED_TRACE("random scenario " + std::to_string(seed));
    const json doc = RandomScenario(seed);
    Scenario scenario;
    try {
      scenario = ParseScenario(doc);
    } catch (const ScenarioError& e) {
      FAIL() << e.what() << "\n" << doc.dump(2);
    }
    RunOptions full;
    full.trace = TraceLevel::kFull;
    const RunOutput a = RunScenario(scenario, full);
    ExpectRunInvariants(a);
    RunOptions none;
    none.trace = TraceLevel::kNone;
    EXPECT_EQ(a.result_hash, RunScenario(scenario, none).result_hash) << doc.dump();
    for (const json& item : doc["traffic"]) {
      const json& totals = a.summary["items"][item["name"].get<std::string>()];
      std::string kind = item["type"].get<std::string>();
      if (kind == "web") kind += " " + item["http"].get<std::string>();
      finished[kind] +=
          item["type"] == "web" ? totals["pages"]["completed"].get<int64_t>() : totals["transfersCompleted"].get<int64_t>();
    }
  }
  // The mix exercises every kind of application that finishes work, and every retrieval method.
  for (const char* type : {"bulk", "transfers", "rounds", "sessions", "web 1.0-serial", "web 1.0-parallel",
                           "web 1.1-pipelined", "web 1.1-segment-filled", "web 1.1-persistent", "web 2"}) {
    EXPECT_GT(finished[type], 0) << type;
  }
}

}  // namespace
}  // namespace tcb
