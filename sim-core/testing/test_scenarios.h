// Helpers for tests that run whole scenarios: build a scenario from JSON, run it, pick at results.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/recorder.h"
#include "scenario/presets.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace tcb::testing {

using nlohmann::json;

// A single-link scenario from "server" to "client" with one traffic item.
inline json SingleLinkScenario(double mbps, double delay_ms, json queue, json tcp, json item) {
  return json{{"schemaVersion", 1},
              {"durationS", 120},
              {"tcp", std::move(tcp)},
              {"topology",
               {{"kind", "single-link"},
                {"link", {{"bandwidthMbps", mbps}, {"delayMs", delay_ms}, {"queue", std::move(queue)}}}}},
              {"traffic", json::array({std::move(item)})}};
}

inline RunOutput RunDoc(const json& doc, TraceLevel trace = TraceLevel::kSummary) {
  RunOptions options;
  options.trace = trace;
  return RunScenario(ParseScenario(doc), options);
}

// Times (ns) of the packet events of one kind, optionally of one direction.
inline std::vector<int64_t> EventTimes(const RunOutput& run, PacketEvent event, int from_initiator = -1) {
  const PacketTrace& t = run.recorder->packet_trace();
  std::vector<int64_t> out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.event[i] != static_cast<uint8_t>(event)) continue;
    if (from_initiator >= 0 && t.from_initiator[i] != from_initiator) continue;
    out.push_back(t.time_ns[i]);
  }
  return out;
}

inline const json& Flow(const RunOutput& run, size_t i) { return run.summary["flows"][i]; }

// The path preset `preset` (path-geo-satellite, path-mobile, path-intercontinental) with only its
// file transfers, at `times`, of `bytes` each, the server's scheme `scheme`, the flavor `flavor`,
// run for `duration_s`.
inline json PathTransfers(const char* preset, const char* scheme, const char* flavor, std::vector<double> times,
                          int64_t bytes, double duration_s) {
  json doc = json::parse(*PresetText(preset));
  doc["tcp"]["flavor"] = flavor;
  doc["hosts"]["server"]["sharing"] = {{"scheme", scheme}};
  doc["traffic"] = json::array({doc["traffic"][0]});
  doc["traffic"][0]["atS"] = times;
  doc["traffic"][0]["bytes"] = bytes;
  doc["durationS"] = duration_s;
  return doc;
}

// The preset path-geo-satellite (a 50 Mb/s, 600 ms GEO access path) with only its file transfers.
inline json GeoSatellitePath(const char* scheme, const char* flavor, std::vector<double> times, int64_t bytes,
                             double duration_s) {
  return PathTransfers("path-geo-satellite", scheme, flavor, std::move(times), bytes, duration_s);
}

// The goodput (b/s) of `n` bulk connections from left0 under `scheme`, beside one Reno connection
// from left1, over a 5 Mb/s, 20 ms, 30-packet dumbbell for 120 s: how aggressive an ensemble is
// (E-TCP §3.3, RFC 3124 §1) against one connection ("independent", 1) or a bundle ("independent", n).
inline double EnsembleGoodputBesideOneConnection(const char* scheme, int n, const char* flavor, int seed) {
  json doc{{"schemaVersion", 1},
           {"seed", seed},
           {"durationS", 120},
           {"tcp", {{"flavor", flavor}, {"mssBytes", 1000}, {"receiveWindowBytes", 1000000}}},
           {"topology",
            {{"kind", "dumbbell"},
             {"pairs", 2},
             {"bottleneck", {{"bandwidthMbps", 5}, {"delayMs", 20}, {"queue", {{"packets", 30}}}}},
             {"access", {{"bandwidthMbps", 100}, {"delayMs", 1}}}}},
           {"hosts", {{"left0", {{"sharing", {{"scheme", scheme}}}}}}},
           {"traffic",
            {{{"type", "bulk"}, {"name", "ensemble"}, {"count", n}, {"from", "left0"}, {"to", "right0"},
              {"startJitterS", 1}},
             {{"type", "bulk"}, {"name", "other"}, {"from", "left1"}, {"to", "right1"}, {"startJitterS", 1},
              {"tcp", {{"flavor", "reno"}}}}}}};
  const RunOutput run = RunDoc(doc);
  double total = 0;
  for (const json& f : run.summary["flows"]) {
    if (f["item"] == "ensemble") total += f["goodputBps"].get<double>();
  }
  return total;
}

// A group window under CUBIC (RFC 9438): two bulk connections from "server" share `scheme`'s one
// window over a 10 Mb/s, 100 ms link with an unlimited queue, and the link loses one data packet
// (the 300th, in slow start at about 300 segments): one congestion event, then congestion avoidance
// without loss, for 20 s. HyStart++ is off: the group's rule sees acknowledged bytes only.
inline RunOutput CubicGroupAfterOneLoss(const char* scheme) {
  json doc = SingleLinkScenario(10, 100, "unlimited",
                                {{"flavor", "cubic"}, {"cubic", {{"hystart", false}}}, {"connection", "one-way"},
                                 {"mssBytes", 1000}, {"receiveWindowBytes", 4000000}},
                                {{"type", "bulk"}, {"name", "bundle"}, {"count", 2}, {"from", "server"}, {"to", "client"}});
  doc["durationS"] = 20;
  doc["topology"]["link"]["lossForward"] = {{"packets", {300}}};
  doc["hosts"] = {{"server", {{"sharing", {{"scheme", scheme}}}}}};
  return RunDoc(doc, TraceLevel::kSeries);
}

// Checks that the group window of CubicGroupAfterOneLoss() follows RFC 9438: on the loss ssthresh =
// beta_cubic * the window (§4.6, beta_cubic = 0.7; RFC 5681 would halve it), and afterwards the
// window follows W_cubic(t) = C (t - K)^3 + W_max (§4.2 Figures 1 and 2, C = 0.4): at K/2 (concave
// region), at K (the plateau at W_max) and at 2K (convex), within 5 % (E-TCP and the Congestion
// Manager are within 1 %; TCP-INT keeps RTTs per connection, so its host's rule has no RTT for the
// target's lead, W_cubic(t + RTT), and trails by about an RTT: 3 % at 2K). RFC 5681's growth of one
// segment per RTT would reach about 210 segments at 2K instead of 390.
inline void ExpectGroupWindowFollowsCubic(const RunOutput& run) {
  const GroupSeries& g = run.recorder->group_series();
  size_t r = 1;
  while (r < g.size() && g.cwnd[r] >= g.cwnd[r - 1] * 9 / 10) ++r;
  ASSERT_LT(r, g.size()) << "no reduction";
  const double mss = 1000;
  const double w_max = static_cast<double>(g.cwnd[r - 1]) / mss;
  const double w_epoch = static_cast<double>(g.cwnd[r]) / mss;
  EXPECT_NEAR(static_cast<double>(g.ssthresh[r]) / mss / w_max, 0.7, 0.02) << "W_max " << w_max;
  const double c = 0.4;
  const double k = std::cbrt((w_max - w_epoch) / c);
  auto window_at = [&](double t) {  // The last value at or before t seconds after the reduction.
    const int64_t at = g.time_ns[r] + static_cast<int64_t>(t * 1e9);
    size_t i = r;
    while (i + 1 < g.size() && g.time_ns[i + 1] <= at) ++i;
    return static_cast<double>(g.cwnd[i]) / mss;
  };
  for (const double t : {k / 2, k, 2 * k}) {
    const double w_cubic = c * (t - k) * (t - k) * (t - k) + w_max;
    EXPECT_NEAR(window_at(t) / w_cubic, 1.0, 0.05) << "t - t_epoch = " << t << " s, K = " << k << " s";
  }
}

// How aggressive a scheme's ensemble of `n` is, over seeds 1..`seeds`: the mean goodput of the
// ensemble and of `n` independent connections, each divided by that of one SACK connection.
struct Aggressiveness {
  double ensemble;  // ~1 when the ensemble is as aggressive as one connection
  double bundle;    // n independent connections: well above 1
  std::string Describe() const {
    return "ensemble " + std::to_string(ensemble) + " x one connection, bundle " + std::to_string(bundle) + " x";
  }
};
inline Aggressiveness EnsembleAggressiveness(const char* scheme, int n, const char* flavor, int seeds) {
  double ensemble = 0, one = 0, bundle = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    ensemble += EnsembleGoodputBesideOneConnection(scheme, n, flavor, seed);
    one += EnsembleGoodputBesideOneConnection("independent", 1, "sack", seed);
    bundle += EnsembleGoodputBesideOneConnection("independent", n, flavor, seed);
  }
  return {ensemble / one, bundle / one};
}

// A GoogleTest parameter name from a preset or scenario name ("dumbbell-bulk" -> "dumbbell_bulk").
inline std::string TestName(std::string name) {
  for (char& c : name) {
    if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9')) c = '_';
  }
  return name;
}

}  // namespace tcb::testing
