// CUBIC under Linux's rules (tcp/linux_cubic.h) against RFC 9438's on a whole run: where the two
// rule sets differ (ssthresh from cwnd or from FlightSize); the rules one by one are in
// tcp/linux_cubic_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

// One bulk flow over 1.6 Mb/s and 50 ms with a 10-packet queue (the fidelity comparison's short
// path), MSS 1000, IW 10, SACK and RFC 6675 recovery, HyStart off so that every reduction is a loss.
testing::json BulkFlow(const char* rules) {
  testing::json tcp = {{"flavor", "cubic"},
                       {"recovery", "sack-rfc6675"},
                       {"mssBytes", kMss},
                       {"initialWindow", 10},
                       {"receiveWindowBytes", 1'000'000},
                       {"cubic", {{"rules", rules}, {"hystart", false}}}};
  testing::json doc = testing::SingleLinkScenario(1.6, 50, {{"packets", 10}}, tcp,
                                                  {{"type", "bulk"}, {"from", "server"}, {"to", "client"},
                                                   {"bytes", 1'000'000}});
  doc["durationS"] = 60;
  return doc;
}

struct Reduction {
  int64_t cwnd_before, ssthresh;
};

// Every change of ssthresh to a finite value in the run's series, with the window just before it.
std::vector<Reduction> Reductions(const RunOutput& run) {
  const TcpSeries& s = run.recorder->tcp_series();
  std::vector<Reduction> out;
  int64_t last_ssthresh = -1;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s.ssthresh[i] == last_ssthresh) continue;
    last_ssthresh = s.ssthresh[i];
    if (s.ssthresh[i] < TcpConfig::kInfiniteSsthresh) out.push_back({s.cwnd[i - 1], s.ssthresh[i]});
  }
  return out;
}

TEST(LinuxCubicScenarioTest, SsThreshFollowsCwndUnderLinuxAndFlightSizeUnderRfc9438) {
  const RunOutput linux_run = testing::RunDoc(BulkFlow("linux"), TraceLevel::kSeries);
  const RunOutput rfc_run = testing::RunDoc(BulkFlow("rfc9438"), TraceLevel::kSeries);
  const std::vector<Reduction> linux_cuts = Reductions(linux_run);
  const std::vector<Reduction> rfc_cuts = Reductions(rfc_run);
  ASSERT_GE(linux_cuts.size(), 2u);
  ASSERT_GE(rfc_cuts.size(), 2u);
  // tcp_cubic.c cubictcp_recalc_ssthresh(): every reduction is max(cwnd * 717 / 1024, 2) whole
  // segments of the window before it.
  for (const Reduction& r : linux_cuts) {
    const int64_t cwnd = r.cwnd_before / kMss;
    EXPECT_EQ(r.ssthresh, std::max<int64_t>(cwnd * 717 / 1024, 2) * kMss) << "cwnd " << r.cwnd_before;
  }
  // RFC 9438 §4.6: 0.7 * FlightSize. After a SACK recovery FlightSize counts the SACKed segments
  // above the hole and exceeds cwnd, so some reduction leaves ssthresh above 0.7 * cwnd.
  bool above = false;
  for (const Reduction& r : rfc_cuts) above |= r.ssthresh > r.cwnd_before * 7 / 10 + kMss;
  EXPECT_TRUE(above);
  // The first reduction (a loss in slow start, the window full) is within a segment in both.
  EXPECT_NEAR(static_cast<double>(linux_cuts[0].ssthresh), static_cast<double>(rfc_cuts[0].ssthresh),
              static_cast<double>(kMss));
  EXPECT_NE(linux_run.summary["flows"][0]["completionTimeS"], rfc_run.summary["flows"][0]["completionTimeS"]);
}

}  // namespace
}  // namespace tcb
