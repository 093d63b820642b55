// Links: serialisation and propagation timing, drop-tail limits, loss models, accounting; routing.
#include "net/link.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/network.h"
#include "net/topology.h"
#include "trace/trace_sink.h"

namespace tcb {
namespace {

class Sink final : public PacketSink {
 public:
  Sink(Network& net) : net_(net) {}
  void Receive(Packet& p) override {
    arrivals.push_back(net_.sim().Now());
    uids.push_back(p.uid);
    net_.Release(p);
  }
  std::vector<SimTime> arrivals;
  std::vector<uint64_t> uids;

 private:
  Network& net_;
};

// Keeps the queue series rows a run reports; the other kinds are not asked for here.
class QueueRows final : public TraceSink {
 public:
  QueueRows() : TraceSink(TraceLevel::kSeries) {}
  void Record(const PacketRow&) override {}
  void Record(const TcpSeriesRow&) override {}
  void Record(const QueueSeriesRow& row) override { rows.push_back(row); }
  void Record(const GroupSeriesRow&) override {}
  int32_t RegisterGroup(std::string) override { return 0; }
  std::vector<QueueSeriesRow> rows;
};

struct TwoNodes {
  explicit TwoNodes(BitsPerSec rate, SimTime delay, QueueLimit limit, TraceSink* trace = nullptr)
      : sim(1), net(sim, trace), sink(net) {
    a = net.AddNode("a", Ipv4(10, 0, 0, 1));
    b = net.AddNode("b", Ipv4(10, 0, 0, 2));
    link = net.AddDuplexLink(a, b, "ab", rate, delay, limit);
    net.EnsureRoutesTo(b);
  }
  void Send(Bytes size, FlowId flow = -1) {
    Packet& p = net.NewPacket();
    p.flow = flow;
    p.src = a;
    p.dst = b;
    p.endpoint = &sink;
    p.size = size;
    net.Inject(p);
  }
  void RunAll() {
    while (sim.events().RunNext(SimTime::Infinite())) {
    }
  }
  Simulation sim;
  Network net;
  Sink sink;
  NodeId a, b;
  LinkId link;
};

TEST(LinkTest, ArrivalIsTransmissionPlusPropagation) {
  TwoNodes t(8000000, SimTime::Milliseconds(10), QueueLimit::Unlimited());  // 1000 B = 1 ms.
  t.Send(1000);
  t.Send(1000);
  t.Send(500);
  t.RunAll();
  EXPECT_EQ(t.sink.arrivals, (std::vector<SimTime>{SimTime::Milliseconds(11), SimTime::Milliseconds(12),
                                                    SimTime::Microseconds(12500)}));
  const Link& l = t.net.link(t.link);
  EXPECT_EQ(l.stats().packets_delivered, 3);
  EXPECT_EQ(l.stats().max_queue_packets, 2);  // The first went straight to the transmitter.
}

// A Linux qdisc on a veth or Ethernet device counts the 14-byte Ethernet header of every frame
// (skb->len, net/sched/sch_tbf.c tbf_dequeue() charges qdisc_pkt_len()): framing lengthens each
// transmission and leaves the queue's byte accounting to the packets' own bytes.
TEST(LinkTest, FramingLengthensEveryTransmission) {
  TwoNodes t(8000000, SimTime::Milliseconds(10), QueueLimit::InBytes(1000));  // 1 B = 1 us.
  t.net.link(t.link).SetFramingBytes(14);
  t.Send(1000);
  t.Send(1000);  // Waits: 1000 bytes, the limit exactly.
  t.Send(500);   // Dropped: the frame bytes are not counted, the packet bytes are.
  t.RunAll();
  EXPECT_EQ(t.sink.arrivals, (std::vector<SimTime>{SimTime::Microseconds(11014), SimTime::Microseconds(12028)}));
  const Link& l = t.net.link(t.link);
  EXPECT_EQ(l.framing_bytes(), 14);
  EXPECT_EQ(l.stats().queue_drops, 1);
  EXPECT_EQ(l.stats().bytes_delivered, 2000);
}

TEST(LinkTest, DropTailCountsWaitingPacketsOnly) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::Packets(2));
  for (int i = 0; i < 5; ++i) t.Send(1000);  // 1 in transmission, 2 waiting, 2 dropped.
  t.RunAll();
  const Link& l = t.net.link(t.link);
  EXPECT_EQ(l.stats().queue_drops, 2);
  EXPECT_EQ(t.sink.uids, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(t.net.counters().injected, 5);
  EXPECT_EQ(t.net.counters().delivered + t.net.counters().dropped, 5);
  EXPECT_EQ(t.net.packets_live(), 0u);
}

// Per flow: the drops that fell on its packets and the longest queue one of them joined (the
// packet that finds the transmitter idle joins no queue).
TEST(LinkTest, FlowStatsAttributeDropsAndQueueJoins) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::Packets(3));
  // Flow 0 starts the burst and transmits at once; the queue fills 1, 2, 3 with flows 1, 0, 1; then
  // one packet of each flow is dropped.
  for (FlowId flow : {0, 1, 0, 1, 0, 1}) t.Send(1000, flow);
  t.RunAll();
  EXPECT_EQ(t.net.FlowStats(0).dropped, 1);
  EXPECT_EQ(t.net.FlowStats(1).dropped, 1);
  EXPECT_EQ(t.net.FlowStats(0).max_queue_packets, 2);
  EXPECT_EQ(t.net.FlowStats(1).max_queue_packets, 3);
  EXPECT_EQ(t.net.FlowStats(0).in_flight, 0);
  EXPECT_EQ(t.net.link(t.link).stats().max_queue_packets, 3);
  // A flow that sent nothing has met nothing.
  EXPECT_EQ(t.net.FlowStats(7).dropped, 0);
  EXPECT_EQ(t.net.FlowStats(7).max_queue_packets, 0);
}

TEST(LinkTest, ByteLimit) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::InBytes(2500));
  for (int i = 0; i < 5; ++i) t.Send(1000);  // 1 in transmission, 2000 B waiting, then full.
  t.RunAll();
  EXPECT_EQ(t.net.link(t.link).stats().queue_drops, 2);
}

TEST(LinkTest, QueueDrainsAsTimePasses) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::Packets(1));
  t.Send(1000);
  t.Send(1000);  // Waits.
  t.Send(1000);  // Dropped.
  // 2.5 ms later the second packet is in transmission and the queue is empty again.
  class Later final : public EventSource {
   public:
    explicit Later(TwoNodes& t) : t_(t) {}
    void OnEvent() override { t_.Send(1000); }
   private:
    TwoNodes& t_;
  } later(t);
  t.sim.events().Schedule(later, SimTime::Microseconds(1500));
  t.RunAll();
  EXPECT_EQ(t.net.link(t.link).stats().queue_drops, 1);
  EXPECT_EQ(t.sink.arrivals.size(), 3u);
}

// Regression: packets that waited and were delivered with no arrival in between must leave the
// queue's accounting; otherwise a later burst meets a phantom queue and is dropped early.
TEST(LinkTest, QueueAccountingSurvivesDeliveriesWithoutArrivals) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::Packets(3));
  for (int i = 0; i < 4; ++i) t.Send(1000);  // 1 transmitting, 3 waiting.
  t.RunAll();                                 // All delivered; no arrival in between.
  for (int i = 0; i < 4; ++i) t.Send(1000);  // The same burst again fits exactly.
  t.RunAll();
  EXPECT_EQ(t.net.link(t.link).stats().queue_drops, 0);
  EXPECT_EQ(t.sink.arrivals.size(), 8u);
  EXPECT_EQ(t.net.link(t.link).stats().max_queue_packets, 3);
}

TEST(LinkTest, UtilisationAndMeanQueue) {
  TwoNodes t(8000000, SimTime::Zero(), QueueLimit::Unlimited());
  for (int i = 0; i < 4; ++i) t.Send(1000);  // Busy for 4 ms from 0.
  t.RunAll();
  Link& l = t.net.link(t.link);
  l.Finish(SimTime::Milliseconds(8));
  EXPECT_EQ(l.busy_time(), SimTime::Milliseconds(4));
  // Waiting: 3 packets for 1 ms, 2 for 1 ms, 1 for 1 ms -> 6 packet-ms over 8 ms.
  EXPECT_DOUBLE_EQ(l.mean_queue_packets(), 6.0 / 8.0);
}

TEST(LinkTest, UtilisationCountsOnlyTimeBeforeTheEnd) {
  TwoNodes t(8000000, SimTime::Zero(), QueueLimit::Unlimited());
  for (int i = 0; i < 4; ++i) t.Send(1000);
  Link& l = t.net.link(t.link);
  t.sim.events().RunNext(SimTime::Zero());
  l.Finish(SimTime::Microseconds(2500));
  EXPECT_EQ(l.busy_time(), SimTime::Microseconds(2500));
}

TEST(LinkTest, ListLossDropsTheListedPacketsInTransit) {
  TwoNodes t(8000000, SimTime::Milliseconds(1), QueueLimit::Unlimited());
  t.net.link(t.link).SetLossModel(std::make_unique<ListLoss>(std::vector<int64_t>{2, 4}));
  for (int i = 0; i < 5; ++i) t.Send(1000);
  t.RunAll();
  EXPECT_EQ(t.sink.uids, (std::vector<uint64_t>{1, 3, 5}));
  EXPECT_EQ(t.net.link(t.link).stats().loss_drops, 2);
  EXPECT_EQ(t.net.counters().dropped, 2);
}

TEST(LinkTest, BernoulliLossRate) {
  TwoNodes t(1000000000, SimTime::Zero(), QueueLimit::Unlimited());
  t.net.link(t.link).SetLossModel(std::make_unique<BernoulliLoss>(0.1, Rng(7)));
  for (int i = 0; i < 20000; ++i) t.Send(100);
  t.RunAll();
  const double rate = t.net.link(t.link).stats().loss_drops / 20000.0;
  EXPECT_NEAR(rate, 0.1, 0.01);
}

TEST(LinkTest, QueueSeriesRecordsEveryChange) {
  QueueRows trace;
  TwoNodes t(8000000, SimTime::Zero(), QueueLimit::Unlimited(), &trace);
  for (int i = 0; i < 3; ++i) t.Send(1000);
  t.RunAll();
  t.net.link(t.link).Finish(SimTime::Milliseconds(5));
  std::vector<int32_t> packets;
  std::vector<int64_t> time_ns;
  for (const QueueSeriesRow& row : trace.rows) {
    packets.push_back(row.packets);
    time_ns.push_back(row.time_ns);
  }
  // Two enqueues to waiting (1, 2) at t=0, then departures into the transmitter at 1 ms and 2 ms.
  EXPECT_EQ(packets, (std::vector<int32_t>{1, 2, 1, 0}));
  EXPECT_EQ(time_ns, (std::vector<int64_t>{0, 0, 1000000, 2000000}));
}

TEST(RoutingTest, ShortestPathsWithLowestLinkIdOnTies) {
  Simulation sim(1);
  Network net(sim, nullptr);
  // A square a-b-d and a-c-d (two equal paths), plus a long way a-e-f-d.
  for (const char* n : {"a", "b", "c", "d", "e", "f"}) net.AddNode(n, 0);
  auto id = [&](const char* n) { return net.FindNode(n); };
  const LinkId ab = net.AddDuplexLink(id("a"), id("b"), "ab", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("a"), id("c"), "ac", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("b"), id("d"), "bd", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("c"), id("d"), "cd", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("a"), id("e"), "ae", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("e"), id("f"), "ef", 1000, SimTime::Zero(), {});
  net.AddDuplexLink(id("f"), id("d"), "fd", 1000, SimTime::Zero(), {});
  net.EnsureRoutesTo(id("d"));
  EXPECT_EQ(net.NextHop(id("a"), id("d"))->id(), ab);  // Via b: lower link id than via c.
  EXPECT_EQ(net.NextHop(id("e"), id("d"))->to().name(), "f");
  EXPECT_EQ(net.NextHop(id("d"), id("d")), nullptr);
  EXPECT_TRUE(net.Reachable(id("e"), id("c")));
  const NodeId lonely = net.AddNode("lonely", 0);
  EXPECT_FALSE(net.Reachable(id("a"), lonely));
}

TEST(TopologyTest, BuildersNameNodesAndGroupHostsBySlash24) {
  LinkParams p;
  p.rate = 1000000;
  const TopologySpec d = Dumbbell(3, p, p);
  EXPECT_EQ(d.nodes.size(), 8u);
  EXPECT_EQ(d.links.size(), 7u);
  EXPECT_EQ(d.links[0].name, "bottleneck");
  EXPECT_EQ(FormatIpv4(d.nodes[2].address), "10.1.0.1");  // left0
  EXPECT_EQ(FormatIpv4(d.nodes[5].address), "10.2.0.1");  // right0

  const TopologySpec pl = ParkingLot(5, 2, 3, p, p);
  // 6 routers, 2 users x (src, dst), 4 intermediate routers x 3 cross x (source, sink).
  EXPECT_EQ(pl.nodes.size(), 6u + 4u + 24u);
  EXPECT_EQ(pl.links.size(), 5u + 4u + 24u);

  const TopologySpec two = TwoLans(p, p, p, 0.01);
  EXPECT_EQ(two.nodes.size(), 14u);
  int lossy = 0;
  for (const LinkSpec& l : two.links) lossy += l.params.loss_forward.rate > 0 ? 1 : 0;
  EXPECT_EQ(lossy, 4);  // R1, R2, R3, BR3 behind the receiver-LAN hub.

  const TopologySpec cg = ClientGateway({SimTime::Milliseconds(1), SimTime::Milliseconds(2)},
                                        {SimTime::Microseconds(100)}, p, 10000000, QueueLimit::Packets(25));
  EXPECT_EQ(cg.nodes.size(), 5u);
  EXPECT_EQ(cg.links.size(), 4u);
}

TEST(TopologyTest, Ipv4ParseAndFormat) {
  EXPECT_EQ(ParseIpv4("10.1.2.3"), Ipv4(10, 1, 2, 3));
  EXPECT_EQ(FormatIpv4(Ipv4(192, 168, 0, 255)), "192.168.0.255");
  for (const char* bad : {"10.1.2", "10.1.2.256", "a.b.c.d", "10.1.2.3.4", "1..2.3", "0010.1.1.1"}) {
    EXPECT_FALSE(ParseIpv4(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace tcb
