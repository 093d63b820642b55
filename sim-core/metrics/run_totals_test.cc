// Run totals folded in as records become final: the sums come out in index order, bit for bit,
// whatever order the records arrive in, and what waits is only what an open record holds up.
#include "metrics/run_totals.h"

#include <gtest/gtest.h>

#include <cmath>

#include "metrics/summary.h"
#include "testing/run_totals_peer.h"

namespace tcb {

namespace {

using nlohmann::json;

FlowInfo Flow(FlowId id, const std::string& item, SimTime start, SimTime end = SimTime::Infinite()) {
  FlowInfo f;
  f.id = id;
  f.name = item + "." + std::to_string(id);
  f.item = item;
  f.start = start;
  f.end = end;
  return f;
}

FlowRecord TcpRecord(const FlowInfo& f, Bytes bytes) {
  FlowRecord r;
  r.info = f;
  r.tcp.bytes = bytes;
  return r;
}

// A transfer of 2^27 s followed by two of 10 ns: added in index order the small ones vanish in the
// rounding of the large sum; added in the order they end (the small ones first) they do not. The
// summary has always added in index order, so the totals must, whatever order transfers end in.
TEST(RunTotalsTest, TransferTimesAreSummedInIndexOrderWhateverOrderTheyEndIn) {
  const SimTime t0 = SimTime::Zero();
  const std::vector<SimTime> ends{SimTime::Seconds(int64_t{1} << 27), SimTime::Nanoseconds(10), SimTime::Nanoseconds(10)};
  double in_index_order = 0, in_end_order = 0;
  for (SimTime e : ends) in_index_order += (e - t0).seconds();
  for (size_t i : {1, 2, 0}) in_end_order += (ends[i] - t0).seconds();
  ASSERT_NE(in_index_order, in_end_order) << "the case does not depend on the order of addition";

  RunTotals totals({"x"}, {});
  const FlowInfo flow = Flow(0, "x", t0);
  totals.OnFlowStart(flow);
  for (size_t i = 0; i < ends.size(); ++i) totals.OnTransferStart(i, TransferRecord{0, 1000, t0}, flow);
  for (size_t i : {1, 2, 0}) totals.OnTransferRecord(i, TransferRecord{0, 1000, t0, ends[i]});
  totals.OnFlowRecord(TcpRecord(flow, 3000));
  totals.Finish(ends[0]);

  const json run = totals.RunJson();
  EXPECT_EQ(run["transfersStarted"], 3);
  EXPECT_EQ(run["transfersCompleted"], 3);
  EXPECT_EQ(run["meanCompletionTimeS"].get<double>(), in_index_order / 3);
  EXPECT_EQ(totals.ItemsJson()["x"]["meanCompletionTimeS"].get<double>(), in_index_order / 3);
}

// Jain's index over the fair flows (Jain, Chiu and Hawe, DEC-TR-301, §3) in flow id order, the flow
// still open at the end measured up to the end of the run, flows of other items left out.
TEST(RunTotalsTest, FairnessIsOverFlowsInIdOrderWithOpenOnesMeasuredToTheEnd) {
  const SimTime t0 = SimTime::Zero();
  const SimTime stop = SimTime::Seconds(1);
  // 2^57 bytes in 1 s is 2^60 b/s, whose ulp (256) is more than twice the 100 b/s of the others.
  const double big = std::ldexp(1.0, 60);
  ASSERT_NE(JainIndex({big, 100, 100}), JainIndex({100, 100, big})) << "the case does not depend on the order";

  RunTotals totals({"x", "y"}, {"x"});
  const FlowInfo open = Flow(0, "x", t0);
  const FlowInfo a = Flow(1, "x", t0, SimTime::Seconds(2));
  const FlowInfo other = Flow(2, "y", t0, SimTime::Seconds(2));
  const FlowInfo b = Flow(3, "x", t0, SimTime::Seconds(2));
  for (const FlowInfo& f : {open, a, other, b}) totals.OnFlowStart(f);
  totals.OnFlowRecord(TcpRecord(b, 25));  // 100 b/s over 2 s.
  totals.OnFlowRecord(TcpRecord(other, 1));
  totals.OnFlowRecord(TcpRecord(a, 25));
  totals.OnFlowRecord(TcpRecord(open, Bytes{1} << 57));
  totals.Finish(stop);

  const json fairness = totals.RunJson()["fairness"];
  EXPECT_EQ(fairness["flows"], 3);
  EXPECT_EQ(fairness["jainIndex"].get<double>(), JainIndex({big, 100, 100}));
  EXPECT_EQ(totals.RunJson()["tcpFlows"], 4);
  EXPECT_EQ(totals.ItemsJson()["x"]["bytes"], (Bytes{1} << 57) + 50);
}

// E-TCP §4 and Gürkan §4.1's page figures per item and over all pages; a page still open at the end
// counts as started only. Nothing waits once every earlier record is final.
TEST(RunTotalsTest, PagesFoldPerItemAndOnlyOpenOnesWait) {
  RunTotals totals({"a", "b"}, {});
  auto page = [](const std::string& item, int64_t start_s, int64_t end_s) {
    PageRecord p;
    p.item = item;
    p.bytes = 1000;
    p.start = SimTime::Seconds(start_s);
    p.html_end = SimTime::Seconds(start_s + 1);
    p.end = SimTime::Seconds(end_s);
    p.retrieval = SimTime::Seconds(end_s - start_s);
    return p;
  };
  PageRecord open = page("a", 0, 0);
  open.end = SimTime::Infinite();
  const PageRecord a = page("a", 1, 3), b = page("b", 1, 5);
  totals.OnPageStart(0, open);
  totals.OnPageStart(1, a);
  totals.OnPageStart(2, b);
  totals.OnPageRecord(2, b);
  totals.OnPageRecord(1, a);
  EXPECT_EQ(RunTotalsPeer::Waiting(totals), 3u) << "held up by the open page 0";
  totals.OnPageRecord(0, open);
  EXPECT_EQ(RunTotalsPeer::Waiting(totals), 0u);
  totals.Finish(SimTime::Seconds(10));

  const json all = totals.RunJson()["pages"];
  EXPECT_EQ(all["started"], 3);
  EXPECT_EQ(all["completed"], 2);
  EXPECT_EQ(all["meanTotalTimeS"].get<double>(), (2.0 + 4.0) / 2);
  EXPECT_EQ(all["retrievalRateBytesPerS"].get<double>(), 2000.0 / 6.0);
  const json items = totals.ItemsJson();
  EXPECT_EQ(items["a"]["pages"]["started"], 2);
  EXPECT_EQ(items["a"]["pages"]["completed"], 1);
  EXPECT_EQ(items["b"]["pages"]["meanHtmlTimeS"].get<double>(), 1.0);
}

}  // namespace
}  // namespace tcb
