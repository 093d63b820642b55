// TCP-INT (Balakrishnan et al. §5) on whole runs: the host window under CUBIC, the staggered-
// transfers test, the restart after idle and the weighted proxy; the rules one by one are in
// sharing/tcp_int_test.cc.
#include "sharing/tcp_int.h"

#include <gtest/gtest.h>

#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

// §5: the sender "increases the cwnd variable as appropriate": the host's one window follows the
// connections' window rule, with CUBIC RFC 9438 §4.6's reduction and §4.2's cubic curve, once per
// window of data (decr_ts) as with RFC 5681's.
TEST(TcpIntTest, TheHostWindowFollowsCubicsRule) {
  testing::ExpectGroupWindowFollowsCubic(testing::CubicGroupAfterOneLoss("tcp-int"));
}

// §5's test: staggered transfers over a small buffer. TCP-INT recovers every loss without a coarse
// timeout and shares the bottleneck almost exactly; independent SACK or NewReno connections time out
// and share less evenly.
TEST(TcpIntTest, StaggeredTransfersAvoidTimeoutsAndShareEqually) {
  auto run = [](const char* scheme, const char* flavor) {
    json doc = json::parse(*PresetText("tcpint-staggered"));
    doc["tcp"]["flavor"] = flavor;
    doc["hosts"]["left0"]["sharing"] = {{"scheme", scheme}};
    return RunScenario(ParseScenario(doc));
  };
  auto timeouts = [](const RunOutput& r) {
    int n = 0;
    for (const json& f : r.summary["flows"]) n += f["timeouts"].get<int>();
    return n;
  };
  const RunOutput tcp_int = run("tcp-int", "reno");
  const RunOutput sack = run("independent", "sack");
  const RunOutput newreno = run("independent", "newreno");
  EXPECT_EQ(tcp_int.summary["run"]["transfersCompleted"], 4);
  EXPECT_EQ(timeouts(tcp_int), 0);
  EXPECT_GT(timeouts(sack), 0);
  EXPECT_GT(timeouts(newreno), 0);
  const double jain = tcp_int.summary["run"]["fairness"]["jainIndex"].get<double>();
  EXPECT_GT(jain, 0.999);
  EXPECT_GT(jain, sack.summary["run"]["fairness"]["jainIndex"].get<double>());
}

// §5: the host's one window gives "the effect of a single persistent TCP connection", and such a
// connection restarts its window after an idle period (RFC 5681 §4.1). On path-intercontinental
// (100 Mb/s, 150 ms, a 1000-packet queue at the server's own 1 Gb/s interface) the transfers that
// follow 20 s of idle start from the initial window and lose nothing. Without the restart ("nssr",
// and before the rule applied to the host window) the second transfer sent the host's whole window,
// about 1800 segments grown by the first transfer, in one burst, lost the 808 its interface queue
// could not hold, and repaired them one per round trip (rule 3): 40 s later it had not finished, and
// the third transfer, whose window the second's listed packets filled, had sent nothing.
TEST(TcpIntTest, TheHostWindowRestartsAfterIdle) {
  json doc = testing::PathTransfers("path-intercontinental", "tcp-int", "cubic", {0, 20, 40}, 5'000'000, 60);
  const RunOutput ssr = testing::RunDoc(doc);
  EXPECT_EQ(ssr.summary["items"]["file"]["transfersCompleted"], 3);
  for (size_t i = 1; i <= 2; ++i) {
    EXPECT_EQ(testing::Flow(ssr, i)["initial"]["cwndBytes"], 10 * 1460);  // IW10 (RFC 6928).
    EXPECT_EQ(testing::Flow(ssr, i)["retransmissions"], 0);
  }
  doc["tcp"]["slowStartRestart"] = false;
  const RunOutput nssr = testing::RunDoc(doc);
  EXPECT_GT(testing::Flow(nssr, 1)["initial"]["cwndBytes"].get<int64_t>(), 1000 * 1460);
  EXPECT_GT(testing::Flow(nssr, 1)["packetsDropped"].get<int64_t>(), 500);
}

// The proxy case: a weighted host manages its connections' windows as if they were independent, so a
// proxy with two connections takes a multiple of what one host does; unweighted, a host is one
// connection whatever it opens. (The seed's numbers for this test are lost; we assert the direction.
// Measured here, eight seeds: a weighted proxy of two gets about 3.3 times a SACK client's rate, an
// unweighted one about 1.0; two independent Reno connections get about 1.8.)
TEST(TcpIntTest, WeightedProxyCountsAsItsConnections) {
  auto ratio = [](bool weighted, int seed) {
    json doc{{"schemaVersion", 1},
             {"seed", seed},
             {"durationS", 120},
             {"tcp", {{"flavor", "reno"}, {"connection", "one-way"}, {"mssBytes", 1000}, {"receiveWindowBytes", 200000}}},
             {"topology",
              {{"kind", "dumbbell"},
               {"pairs", 2},
               {"bottleneck", {{"bandwidthMbps", 4}, {"delayMs", 20}, {"queue", {{"packets", 20}}}}},
               {"access", {{"bandwidthMbps", 100}, {"delayMs", 1}}}}},
             {"hosts", {{"left0", {{"sharing", {{"scheme", "tcp-int"}, {"weighted", weighted}}}}}}},
             {"traffic",
              {{{"type", "bulk"}, {"name", "proxy"}, {"count", 2}, {"from", "left0"}, {"to", "right0"}, {"startJitterS", 1}},
               {{"type", "bulk"}, {"name", "client"}, {"from", "left1"}, {"to", "right1"}, {"startJitterS", 1},
                {"tcp", {{"flavor", "sack"}}}}}}};
    const RunOutput run = testing::RunDoc(doc);
    double proxy = 0, client = 0;
    for (const json& f : run.summary["flows"]) (f["item"] == "proxy" ? proxy : client) += f["goodputBps"].get<double>();
    return proxy / client;
  };
  double weighted = 0, unweighted = 0;
  for (int seed = 1; seed <= 4; ++seed) {
    weighted += ratio(true, seed) / 4;
    unweighted += ratio(false, seed) / 4;
  }
  EXPECT_GT(unweighted, 0.7);
  EXPECT_LT(unweighted, 1.4);
  EXPECT_GT(weighted, 1.8 * unweighted);
}

}  // namespace
}  // namespace tcb
