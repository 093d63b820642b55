// RFC 9959 Careful Resume, phase by phase, on whole runs: a server sends repeated transfers to
// clients behind a router; with scope "host" every connection of the server shares one set of saved
// parameters, so a transfer to a second client resumes from what the first path showed: the way a
// path change (a longer RTT, a smaller capacity) is built here. The rules one by one, on a
// hand-driven connection, are in sharing/careful_resume_test.cc.
#include "sharing/careful_resume.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

// server -- router at 1 Gb/s and 1 ms; router -- clientA and router -- clientB at `a` and `b`
// (each {Mb/s, one-way ms, queue packets}); transfers of `bytes` at `times`, alternating clients as
// `to` lists them.
struct Path {
  double mbps;
  double delay_ms;
  int queue;
};
json Scenario(Path a, Path b, Bytes bytes, std::vector<double> times, std::vector<std::string> to,
              json sharing) {
  auto link = [](const char* x, const char* y, Path p) {
    return json{{"a", x}, {"b", y}, {"bandwidthMbps", p.mbps}, {"delayMs", p.delay_ms},
                {"queue", {{"packets", p.queue}}}};
  };
  json traffic = json::array();
  for (size_t i = 0; i < times.size(); ++i) {
    traffic.push_back({{"type", "transfers"}, {"name", "t" + std::to_string(i)}, {"from", "server"},
                       {"to", to[i]}, {"bytes", bytes}, {"atS", {times[i]}}});
  }
  json doc{{"schemaVersion", 1},
           {"durationS", 200},
           {"tcp", {{"flavor", "newreno"}, {"recovery", "sack-rfc6675"}, {"mssBytes", 1000}, {"initialWindow", 10},
                    {"receiveWindowBytes", 1 << 24}, {"minRtoMs", 200}}},
           {"topology",
            {{"kind", "custom"},
             {"nodes", {{{"name", "server"}}, {{"name", "router"}}, {{"name", "clientA"}}, {{"name", "clientB"}}}},
             {"links", {link("server", "router", {1000, 1, 1000}), link("router", "clientA", a),
                        link("router", "clientB", b)}}}},
           {"traffic", traffic},
           {"record", {{"trace", "series"}}}};
  sharing["scheme"] = "careful-resume";
  if (!sharing.contains("scope")) sharing["scope"] = "host";
  doc["hosts"] = {{"server", {{"sharing", sharing}}}};
  return doc;
}

const json& Outcomes(const RunOutput& run) { return run.summary["groups"][0]["carefulResume"]; }

// The crPhase values flow `flow` went through, in order, without repeats.
std::vector<int> Phases(const RunOutput& run, int flow) {
  const TcpSeries& s = run.recorder->tcp_series();
  std::vector<int> out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != flow) continue;
    if (out.empty() || out.back() != s.cr_phase[i]) out.push_back(s.cr_phase[i]);
  }
  return out;
}
constexpr int kNormal = 0, kReconnaissance = 1, kUnvalidated = 2, kValidating = 3, kSafeRetreat = 4;

const Path k20Mbps100Ms{20, 100, 500};  // A BDP of 500 kB.

// A confirmed path (RFC 9959 §4.2), a jump to saved_cwnd / 2 (§4.3), validated (§4.4): the second
// transfer goes Reconnaissance -> Unvalidated -> Validating -> Normal and finishes much sooner. (A
// megabyte: slow start fills the 1000-packet pipe and queue without loss; after validation the
// resumed connection is in slow start again, RFC 9959 §4.4, and would overshoot a longer transfer
// as the first one does.)
TEST(CarefulResumeTest, AConfirmedJumpIsValidated) {
  const RunOutput run = testing::RunDoc(
      Scenario(k20Mbps100Ms, k20Mbps100Ms, 1'000'000, {0, 30}, {"clientA", "clientA"}, json::object()),
      TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["noSavedParameters"], 1);
  EXPECT_EQ(Outcomes(run)["validated"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kValidating, kNormal}));
  const auto& t = run.summary["transfers"];
  EXPECT_LT(t[1]["completionTimeS"].get<double>(), 0.8 * t[0]["completionTimeS"].get<double>());
  EXPECT_EQ(run.summary["flows"][1]["retransmissions"], 0);
}

// §4.3: jump_cwnd = min(max_jump, saved_cwnd / 2): the window entering the Unvalidated Phase.
TEST(CarefulResumeTest, TheJumpIsHalfTheSavedCapacityOrMaxJump) {
  auto jump = [](json sharing) {
    const RunOutput run = testing::RunDoc(
        Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientA"}, sharing),
        TraceLevel::kSeries);
    const TcpSeries& s = run.recorder->tcp_series();
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.flow[i] == 1 && s.cr_phase[i] == kUnvalidated) return s.cwnd[i];
    }
    return int64_t{0};
  };
  // The first transfer observed about one BDP (20 Mb/s x 202 ms = 505 kB) acknowledged per minimum
  // RTT; half of it is the jump.
  const int64_t half = jump(json::object());
  EXPECT_GT(half, 230'000);
  EXPECT_LT(half, 260'000);
  EXPECT_EQ(jump({{"maxJumpBytes", 100'000}}), 100'000);
}

// §4.2 "Minimum RTT too small": a saved_rtt more than twice the path's RTT means another path.
TEST(CarefulResumeTest, AMuchShorterRttIsNotConfirmed) {
  const RunOutput run = testing::RunDoc(
      Scenario(k20Mbps100Ms, {20, 20, 500}, 4'000'000, {0, 30}, {"clientA", "clientB"}, json::object()),
      TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["rttTooSmall"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kNormal}));
}

// §5.2: an RTT that doubled is still safe to resume on (the jump is paced at the current, longer
// RTT, so the rate is lower); only more than ten times saved_rtt is a path change.
TEST(CarefulResumeTest, ADoubledRttStillResumesAndTenfoldIsAPathChange) {
  const RunOutput doubled = testing::RunDoc(
      Scenario({20, 50, 500}, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientB"}, json::object()),
      TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(doubled)["validated"], 1);
  const RunOutput tenfold = testing::RunDoc(
      Scenario({100, 5, 500}, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientB"}, json::object()),
      TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(tenfold)["pathChanged"], 1);
}

// A series row of connection `flow`: the first at or after index `from` in phase `phase`.
std::optional<size_t> FirstRow(const RunOutput& run, int flow, int phase, size_t from = 0) {
  const TcpSeries& s = run.recorder->tcp_series();
  for (size_t i = from; i < s.size(); ++i) {
    if (s.flow[i] == flow && s.cr_phase[i] == phase) return i;
  }
  return std::nullopt;
}

// RFC 9959's PipeSize for connection `flow`, rebuilt from the packet trace as §4.3, §4.4 and §4.5
// track it: the flight_size when the ACK at `jump_ns` began the Unvalidated Phase ("Initialising
// PipeSize"), plus the unvalidated data (sent from the jump on) each later ACK newly acknowledged,
// up to the ACKs at `until_ns`, leaving out those at `skip_ns` (the ACK that detects congestion
// enters Safe Retreat before tracking). Appendix B.4: 29 in flight at the jump and 34 unvalidated
// packets acknowledged make 63.
int64_t PipeSize(const RunOutput& run, int flow, int64_t jump_ns, int64_t until_ns, int64_t skip_ns = -1) {
  const PacketTrace& t = run.recorder->packet_trace();
  int64_t snd_una = 0, snd_max = 0, pipe = -1, first_unvalidated = 0;
  for (size_t i = 0; i < t.size() && t.time_ns[i] <= until_ns; ++i) {
    if (t.flow[i] != flow) continue;
    const auto event = static_cast<PacketEvent>(t.event[i]);
    if ((event == PacketEvent::kSend || event == PacketEvent::kRetransmit) && t.from_initiator[i] == 1) {
      snd_max = std::max(snd_max, t.seq[i] + t.payload[i]);
    } else if (event == PacketEvent::kAck && t.from_initiator[i] == 0) {
      const int64_t newly_unvalidated = std::max<int64_t>(0, t.ack[i] - std::max(snd_una, first_unvalidated));
      snd_una = std::max(snd_una, t.ack[i]);
      if (t.time_ns[i] == jump_ns) {
        pipe = snd_max - snd_una;
        first_unvalidated = snd_max;
      } else if (t.time_ns[i] > jump_ns && t.time_ns[i] != skip_ns && pipe >= 0) {
        pipe += newly_unvalidated;
      }
    }
  }
  return pipe;
}

// The ordinal (1-based, as a link's loss "packets" counts them) among the packets the server sent
// on connection `flow` of its first segment carrying sequence number `seq` or sent at or after
// `after_ns`, whichever the caller asks for (-1 to ignore one).
int64_t SentOrdinal(const RunOutput& run, int flow, int64_t seq, int64_t after_ns) {
  const PacketTrace& t = run.recorder->packet_trace();
  int64_t ordinal = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto event = static_cast<PacketEvent>(t.event[i]);
    if (t.flow[i] != flow || t.from_initiator[i] != 1) continue;
    if (event != PacketEvent::kSend && event != PacketEvent::kRetransmit) continue;
    ++ordinal;
    if (t.payload[i] > 0 && (t.seq[i] == seq || (after_ns >= 0 && t.time_ns[i] >= after_ns))) return ordinal;
  }
  return -1;
}

const Path k10Mbps100Ms{10, 100, 50};  // Half the capacity of k20Mbps100Ms.

// A path whose capacity halved: clientB's link has half the capacity of clientA's, whose saved
// parameters the second transfer resumes from (scope "host"), and a bulk transfer from another
// host has been using it for 10 s. With only the halving, jump_cwnd = saved_cwnd / 2 would just
// fill the new path (§4.3's reason for the half); sharing it, the jump meets congestion.
json HalvedPathSharedWithANewFlow(json sharing) {
  json doc = Scenario(k20Mbps100Ms, k10Mbps100Ms, 4'000'000, {0, 30, 60}, {"clientA", "clientB", "clientB"},
                      std::move(sharing));
  doc["topology"]["nodes"].push_back({{"name", "rival"}});
  doc["topology"]["links"].push_back({{"a", "rival"}, {"b", "router"}, {"bandwidthMbps", 1000}, {"delayMs", 1},
                                      {"queue", {{"packets", 1000}}}});
  doc["traffic"].push_back({{"type", "bulk"}, {"name", "rival"}, {"from", "rival"}, {"to", "clientB"}, {"startS", 20}});
  doc["durationS"] = 75;
  doc["record"]["trace"] = "full";
  return doc;
}
constexpr int kResumedOnHalvedPath = 2;  // The flow of the second transfer (the rival's is 1).

// §4.4 "Detected congestion" in the Validating Phase, then §4.5: on entering Safe Retreat "The CWND
// MUST be reduced to no more than (PipeSize/2)" (at least two segments, RFC 9002 §4.8's minimum
// window, as the RFC's note says); "The CWND MUST NOT be increased in the Safe Retreat Phase"; the
// saved parameters are deleted; and "On leaving the Safe Retreat Phase, the ssthresh MUST be set
// to no larger than the most recently measured PipeSize * Beta" (Beta 0.5 by default; 0.7 here
// too). PipeSize is rebuilt from the packet trace.
TEST(CarefulResumeTest, AHalvedPathSharedWithANewFlowEndsInSafeRetreatWithTheRfcsCwndAndSsthresh) {
  for (const double beta : {0.5, 0.7}) {
    SCOPED_TRACE(beta);
    const RunOutput run = testing::RunDoc(HalvedPathSharedWithANewFlow({{"beta", beta}}), TraceLevel::kFull);
    EXPECT_GE(Outcomes(run)["retreated"].get<int>(), 1);
    EXPECT_EQ(Phases(run, kResumedOnHalvedPath),
              (std::vector<int>{kReconnaissance, kUnvalidated, kValidating, kSafeRetreat, kNormal}));
    const TcpSeries& s = run.recorder->tcp_series();
    const auto jump = FirstRow(run, kResumedOnHalvedPath, kUnvalidated);
    const auto retreat = FirstRow(run, kResumedOnHalvedPath, kSafeRetreat);
    ASSERT_TRUE(jump && retreat);
    const auto exit = FirstRow(run, kResumedOnHalvedPath, kNormal, *retreat);
    ASSERT_TRUE(exit);
    constexpr int64_t kMss = 1000;
    const int64_t pipe_at_entry = PipeSize(run, kResumedOnHalvedPath, s.time_ns[*jump], s.time_ns[*retreat] - 1);
    ASSERT_GT(pipe_at_entry, 4 * kMss);
    EXPECT_EQ(s.cwnd[*retreat], std::max(pipe_at_entry / 2, 2 * kMss));
    for (size_t i = *retreat; i < *exit; ++i) {
      if (s.flow[i] == kResumedOnHalvedPath) EXPECT_LE(s.cwnd[i], s.cwnd[*retreat]);
    }
    const int64_t pipe_at_exit =
        PipeSize(run, kResumedOnHalvedPath, s.time_ns[*jump], s.time_ns[*exit], s.time_ns[*retreat]);
    EXPECT_GT(pipe_at_exit, pipe_at_entry);
    // Never above what loss recovery set: the flow's ssthresh on its last row before the exit.
    int64_t before_exit = -1;
    for (size_t i = *retreat; i < *exit; ++i) {
      if (s.flow[i] == kResumedOnHalvedPath) before_exit = s.ssthresh[i];
    }
    ASSERT_GT(before_exit, 0);
    EXPECT_EQ(s.ssthresh[*exit],
              std::min(before_exit, std::max(static_cast<int64_t>(static_cast<double>(pipe_at_exit) * beta), 2 * kMss)));
    // The third transfer finds the parameters the second one observed after Careful Resume, not the
    // deleted ones.
    EXPECT_EQ(Outcomes(run)["noSavedParameters"], 1);
  }
}

// §4.3 "Detected congestion" in the Unvalidated Phase: a packet sent before the jump (in
// Reconnaissance, after the initial window) is lost, and the loss shows while the jump is still
// unvalidated: straight to Safe Retreat, cwnd at most PipeSize / 2. (The 150 kB transfer does not
// fill the jump window, and the missing segment holds the cumulative ACK back, so the phase is
// still Unvalidated when the third duplicate ACK arrives: "any detected congestion must have
// resulted from packets sent before the Unvalidated Phase".)
TEST(CarefulResumeTest, CongestionDetectedWhileUnvalidatedIsSafeRetreat) {
  json doc = Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientB"}, json::object());
  doc["traffic"][1]["bytes"] = 150'000;
  doc["record"]["trace"] = "full";
  const RunOutput clean = testing::RunDoc(doc, TraceLevel::kFull);
  // The first segment after the initial window (10 segments of 1000 bytes from sequence number 1).
  const int64_t ordinal = SentOrdinal(clean, 1, 10'001, -1);
  ASSERT_GT(ordinal, 0);
  doc["topology"]["links"][2]["lossForward"] = {{"packets", {ordinal}}};
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kFull);
  EXPECT_EQ(Outcomes(run)["retreated"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kSafeRetreat, kNormal}));
  const TcpSeries& s = run.recorder->tcp_series();
  const auto jump = FirstRow(run, 1, kUnvalidated);
  const auto retreat = FirstRow(run, 1, kSafeRetreat);
  ASSERT_TRUE(jump && retreat);
  EXPECT_EQ(s.cwnd[*retreat], std::max<int64_t>(PipeSize(run, 1, s.time_ns[*jump], s.time_ns[*retreat] - 1) / 2, 2000));
}

// §4.3 "Check flight_size": a sender with little more data than Reconnaissance could send jumps,
// but when the first unvalidated packet is acknowledged its flight_size is no more than PipeSize:
// "the CWND is reset to the PipeSize ... and the sender stops using Careful Resume" (never below
// IW without congestion).
TEST(CarefulResumeTest, ARateLimitedSenderStopsWithCwndAtPipeSize) {
  json doc = Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientA"}, json::object());
  doc["traffic"][1]["bytes"] = 35'000;
  doc["record"]["trace"] = "full";
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kFull);
  EXPECT_EQ(Outcomes(run)["rateLimited"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kNormal}));
  const TcpSeries& s = run.recorder->tcp_series();
  const auto jump = FirstRow(run, 1, kUnvalidated);
  ASSERT_TRUE(jump);
  const auto normal = FirstRow(run, 1, kNormal, *jump);
  ASSERT_TRUE(normal);
  const int64_t pipe = PipeSize(run, 1, s.time_ns[*jump], s.time_ns[*normal]);
  EXPECT_GE(pipe, s.in_flight[*normal]);
  EXPECT_EQ(s.cwnd[*normal], std::max<int64_t>(pipe, 10'000));
}

// §4.3 "Check flight_size" the other way, RFC 9959 Appendix B.2 ("Example with No Loss,
// Rate-Limited"): a sender that used more than PipeSize but not the whole jump enters the
// Validating Phase with "the CWND ... set to the flight_size".
TEST(CarefulResumeTest, AnUnderusedJumpIsValidatedFromTheFlightSize) {
  json doc = Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientA"}, json::object());
  doc["traffic"][1]["bytes"] = 60'000;
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["validated"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kValidating, kNormal}));
  const TcpSeries& s = run.recorder->tcp_series();
  const auto jump = FirstRow(run, 1, kUnvalidated);
  const auto validating = FirstRow(run, 1, kValidating);
  ASSERT_TRUE(jump && validating);
  EXPECT_LT(s.cwnd[*validating], s.cwnd[*jump]);  // Not the whole jump_cwnd.
  EXPECT_EQ(s.cwnd[*validating], s.in_flight[*validating]);
}

// §4.6: "A sender that experiences persistent congestion (e.g., a Retransmission Time Out, RTO,
// expiry in TCP) ceases to use Careful Resume." Here every segment after the initial window is
// lost (the 50 of a 60 kB transfer: those Reconnaissance sent and the unvalidated ones), so no ACK
// ends the Unvalidated Phase before the retransmission timer does; the saved parameters the jump
// used are not used again.
TEST(CarefulResumeTest, ATimeoutWhileUnvalidatedEndsCarefulResume) {
  json doc = Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30, 60}, {"clientA", "clientB", "clientB"},
                      json::object());
  doc["traffic"][1]["bytes"] = 60'000;
  doc["record"]["trace"] = "full";
  const RunOutput clean = testing::RunDoc(doc, TraceLevel::kFull);
  const int64_t after_iw = SentOrdinal(clean, 1, 10'001, -1);
  ASSERT_GT(after_iw, 0);
  json lost = json::array();
  for (int64_t k = 0; k < 50; ++k) lost.push_back(after_iw + k);
  doc["topology"]["links"][2]["lossForward"] = {{"packets", lost}};
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["timeout"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kNormal}));
  EXPECT_EQ(run.summary["flows"][1]["timeouts"].get<int>(), 1);
  // Nothing was left for the third transfer: the set was deleted, and the 60 kB transfer observed
  // too little capacity to save another.
  EXPECT_EQ(Outcomes(run)["noSavedParameters"], 2);
}

// §4.2 "Lifetime of saved CC parameters".
TEST(CarefulResumeTest, ExpiredParametersAreNotUsed) {
  const RunOutput run = testing::RunDoc(Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 100},
                                                 {"clientA", "clientA"}, {{"lifetimeS", 60}}),
                                        TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["expired"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kNormal}));
}

// §4.2 "Using saved_cwnd": only one connection may jump with a set of saved parameters.
TEST(CarefulResumeTest, TwoConnectionsRacingForOneSavedValueJumpOnce) {
  const RunOutput run = testing::RunDoc(Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30, 30},
                                                 {"clientA", "clientA", "clientB"}, json::object()),
                                        TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["inUse"], 1);
  EXPECT_EQ(Outcomes(run)["validated"].get<int>() + Outcomes(run)["retreated"].get<int>(), 1);
}

// §4.3 "Pacing transmission": in the Unvalidated Phase, segments leave no faster than jump_cwnd per
// current RTT.
TEST(CarefulResumeTest, UnvalidatedSendingNeverBurstsAbovePacingRate) {
  json doc = Scenario(k20Mbps100Ms, k20Mbps100Ms, 4'000'000, {0, 30}, {"clientA", "clientA"}, json::object());
  doc["record"]["trace"] = "full";
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kFull);
  const TcpSeries& s = run.recorder->tcp_series();
  int64_t from = -1, until = -1, rate = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != 1) continue;
    if (s.cr_phase[i] == kUnvalidated && from < 0) {
      from = s.time_ns[i];
      rate = s.pacing_bps[i];
      // §4.3 "Pacing in the Unvalidated Phase": ITT = (current RTT x MPS) / jump_cwnd, i.e.
      // jump_cwnd per current RTT: the path's 202 ms of propagation and 0.4 ms to serialise a
      // segment at 20 Mb/s.
      EXPECT_NEAR(static_cast<double>(rate), static_cast<double>(s.cwnd[i]) * 8 / 0.2024, 0.002 * static_cast<double>(rate));
    }
    if (from >= 0 && until < 0 && s.cr_phase[i] != kUnvalidated) until = s.time_ns[i];
  }
  ASSERT_GT(from, 0);
  ASSERT_GT(rate, 0);
  const PacketTrace& t = run.recorder->packet_trace();
  int64_t last = -1;
  int paced = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.flow[i] != 1 || t.payload[i] == 0 || t.time_ns[i] <= from || t.time_ns[i] >= until) continue;
    if (t.event[i] != static_cast<uint8_t>(PacketEvent::kSend)) continue;
    if (last >= 0) {
      // One segment of payload per 8 * 1000 / rate seconds, to the nanosecond (pacing rounds).
      EXPECT_GE(t.time_ns[i] - last, 1000 * 8 * 1'000'000'000LL / rate - 1);
      ++paced;
    }
    last = t.time_ns[i];
  }
  EXPECT_GT(paced, 50);
}

// ---- Over BBR (RFC 9959 Appendix C) ----

constexpr int kBbrStartup = 1, kBbrDrain = 2;  // bbrState (trace/columns.json).

// Appendix C on path-geo-satellite's path: the resumed transfer jumps by rate from Startup, is
// validated, and finishes well before the cold one. (Careful Resume used to set cwnd and pace
// beside BBR, and the connection's pacing clock charged the jump at BBR's initial rate, 0.55 Mb/s:
// the resumed transfer took 22 s against 6.2 s cold.)
TEST(CarefulResumeTest, OverBbrAResumedTransferIsFasterThanACold) {
  const RunOutput run =
      testing::RunDoc(testing::GeoSatellitePath("careful-resume", "bbr", {0, 30}, 5'300'000, 45), TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["validated"], 1);
  EXPECT_EQ(Phases(run, 1), (std::vector<int>{kReconnaissance, kUnvalidated, kValidating, kNormal}));
  const json& t = run.summary["transfers"];
  EXPECT_LT(t[1]["completionTimeS"].get<double>(), 0.8 * t[0]["completionTimeS"].get<double>());
  EXPECT_EQ(run.summary["flows"][1]["retransmissions"], 0);
}

// Appendix C.1: "The probing rate is configured to 1/2 of the bottleneck bandwidth" saved, and
// while carefully resuming in Startup BBR paces at the larger of its own rate and the probing
// rate: the Unvalidated Phase paces at half the saved bandwidth (the saved_cwnd / saved_rtt that
// bdp-resume's observer, the same as Careful Resume's, reports for the first transfer), and its
// segments leave no faster.
TEST(CarefulResumeTest, OverBbrTheUnvalidatedPhasePacesAtHalfTheSavedBandwidth) {
  const RunOutput cold =
      testing::RunDoc(testing::GeoSatellitePath("bdp-resume", "bbr", {0}, 5'300'000, 15), TraceLevel::kSummary);
  const double saved_bps = cold.summary["groups"][0]["bdpResume"]["savedBandwidthBps"].get<double>();
  ASSERT_GT(saved_bps, 10e6);

  json doc = testing::GeoSatellitePath("careful-resume", "bbr", {0, 30}, 5'300'000, 45);
  doc["record"]["trace"] = "full";
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kFull);
  const TcpSeries& s = run.recorder->tcp_series();
  int64_t from = -1, until = -1, rate = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != 1) continue;
    if (s.cr_phase[i] == kUnvalidated) {
      if (from < 0) {
        from = s.time_ns[i];
        rate = s.pacing_bps[i];
      }
      EXPECT_EQ(s.bbr_state[i], kBbrStartup);
      EXPECT_EQ(s.pacing_bps[i], rate);  // BBR's own rate stays below the probing rate.
    }
    if (from >= 0 && until < 0 && s.cr_phase[i] != kUnvalidated) until = s.time_ns[i];
  }
  ASSERT_GT(from, 0);
  // Half the saved bandwidth scaled by saved_rtt / current RTT (§4.3: paced by the current RTT):
  // the latest RTT sample is at least the minimum saved, plus at most a delayed ACK's wait here.
  EXPECT_LE(static_cast<double>(rate), saved_bps / 2 + 1);
  EXPECT_GT(static_cast<double>(rate), saved_bps / 2 * 0.95);
  const PacketTrace& t = run.recorder->packet_trace();
  int64_t last = -1;
  int paced = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.flow[i] != 1 || t.payload[i] == 0 || t.time_ns[i] <= from || t.time_ns[i] >= until) continue;
    if (t.event[i] != static_cast<uint8_t>(PacketEvent::kSend)) continue;
    if (last >= 0) {
      EXPECT_GE(t.time_ns[i] - last, t.payload[i] * 8 * 1'000'000'000LL / rate - 1);
      ++paced;
    }
    last = t.time_ns[i];
  }
  EXPECT_GT(paced, 500);
}

// Appendix C.3: congestion while carefully resuming ends Startup for Drain, which is Safe Retreat;
// the saved parameters are deleted (§4.5) and the flag clears when Drain ends.
TEST(CarefulResumeTest, OverBbrCongestionDuringTheJumpIsSafeRetreatInDrain) {
  json doc = Scenario(k20Mbps100Ms, {5, 100, 20}, 4'000'000, {0, 30, 60}, {"clientA", "clientB", "clientB"},
                      json::object());
  doc["tcp"]["flavor"] = "bbr";
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kSeries);
  EXPECT_EQ(Outcomes(run)["retreated"], 1);
  const std::vector<int> phases = Phases(run, 1);
  ASSERT_GE(phases.size(), 3u);
  EXPECT_EQ(phases[1], kUnvalidated);
  EXPECT_NE(std::find(phases.begin(), phases.end(), kSafeRetreat), phases.end());
  EXPECT_EQ(phases.back(), kNormal);
  const TcpSeries& s = run.recorder->tcp_series();
  int retreat_rows = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.flow[i] != 1 || s.cr_phase[i] != kSafeRetreat) continue;
    EXPECT_EQ(s.bbr_state[i], kBbrDrain);
    ++retreat_rows;
  }
  EXPECT_GT(retreat_rows, 0);
  // The third transfer does not find the deleted set; it finds the second one's observation.
  EXPECT_EQ(Outcomes(run)["noSavedParameters"], 1);
}

}  // namespace
}  // namespace tcb
