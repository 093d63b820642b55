// The flow registry holds a record only while it can change: over a long run of short connections
// what it holds, and what the run totals wait on, stays at what is open, however many flows finish.
#include "workload/flow_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "metrics/run_totals.h"
#include "testing/run_totals_peer.h"
#include "workload/sessions.h"

namespace tcb {

class FlowRegistryPeer {
 public:
  static size_t HeldFlows(const FlowRegistry& r) { return r.flows_.size(); }
  static size_t HeldTransfers(const FlowRegistry& r) { return r.open_transfers_.size(); }
};

namespace {

// Counts the records handed out, and checks each comes once.
class RecordCounter final : public FlowObserver {
 public:
  void OnFlowRecord(const FlowRecord& r) override {
    EXPECT_TRUE(seen_flows_.insert(r.info.id).second) << "flow " << r.info.id << " recorded twice";
  }
  void OnTransferRecord(size_t transfer, const TransferRecord&) override {
    EXPECT_TRUE(seen_transfers_.insert(transfer).second) << "transfer " << transfer << " recorded twice";
  }
  size_t flows() const { return seen_flows_.size(); }
  size_t transfers() const { return seen_transfers_.size(); }

 private:
  std::set<FlowId> seen_flows_;
  std::set<size_t> seen_transfers_;
};

// Savorić §4.1's short connections: 3000-byte transfers, a new connection each, 20 ms apart, over
// a 10 Mb/s, 5 ms link for 300 s: thousands of flows, a few open or closing at any time.
TEST(FlowRegistryTest, RecordsOfFinishedFlowsAreHandedOutAndFreed) {
  Simulation sim(1);
  Network net(sim, nullptr);
  const NodeId client = net.AddNode("client", 0x0a000001);
  const NodeId server = net.AddNode("server", 0x0a000002);
  net.AddDuplexLink(server, client, "link", 10'000'000, SimTime::Milliseconds(5), QueueLimit::Unlimited());
  FlowRegistry flows(net);
  RunTotals totals({"www"}, {});
  RecordCounter counter;
  flows.AddObserver(&totals);
  flows.AddObserver(&counter);
  WorkloadContext context{sim, net, flows, MakeIndependentController};
  AppPlacement at;
  at.item = "www";
  at.flow_name = "www";
  at.from = server;
  at.to = client;
  TcpConfig tcp;
  tcp.mss = 1000;
  SessionsApp app(context, at, tcp, SessionModel{Distribution::Constant(3000), Distribution::Constant(0.02), {}, {}},
                  sim.MakeRng("sessions"));
  app.Start();

  size_t most_held = 0, most_waiting = 0;
  for (int s = 1; s <= 300; ++s) {
    sim.RunUntil(SimTime::Seconds(s));
    // Every flow held is a connection that still exists: open, or closing.
    ASSERT_EQ(FlowRegistryPeer::HeldFlows(flows), flows.live_connections()) << "at " << s << " s";
    ASSERT_LE(FlowRegistryPeer::HeldTransfers(flows), 1u) << "at " << s << " s";
    most_held = std::max(most_held, FlowRegistryPeer::HeldFlows(flows));
    most_waiting = std::max(most_waiting, RunTotalsPeer::Waiting(totals));
  }
  ASSERT_GT(flows.flows_started(), 6000u);
  // A closed connection is destroyed once the last entries of its timers have passed, so a few dozen
  // exist at once; the totals wait on the oldest of them.
  EXPECT_LE(most_held, 32u) << flows.flows_started() << " flows started";
  EXPECT_LE(most_waiting, most_held + 1);
  EXPECT_EQ(counter.flows() + FlowRegistryPeer::HeldFlows(flows), flows.flows_started());

  flows.Finish();
  totals.Finish(sim.Now());
  EXPECT_EQ(counter.flows(), flows.flows_started());
  EXPECT_EQ(counter.transfers(), flows.transfers_started());
  EXPECT_EQ(RunTotalsPeer::Waiting(totals), 0u);
  EXPECT_EQ(totals.RunJson()["tcpFlows"], flows.flows_started());
}

}  // namespace
}  // namespace tcb
