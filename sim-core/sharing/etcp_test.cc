// Ensemble-TCP's rules on hand-driven connections, each pinned to its section of the seed paper
// (seed 000, Eggert et al.); the rules on whole runs are in tests/etcp_runs_test.cc.
#include "sharing/etcp.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/simulation.h"
#include "testing/fake_sender.h"

namespace tcb {
namespace {

// §4: the ticket policies.
TEST(EtcpTest, TicketPolicies) {
  ConnectionTraits html, java, image, ftp;
  html.content = ContentType::kHtml;
  java.content = ContentType::kJava;
  image.content = ContentType::kImage;
  ftp.content = ContentType::kFtp;
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kFair, html), 1);
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kContent, html), 12);
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kContent, java), 6);
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kContent, image), 3);
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kContent, ftp), 1);
  ConnectionTraits explicit_tickets;
  explicit_tickets.tickets = 7;
  EXPECT_EQ(EtcpScheme::InitialTickets(TicketPolicy::kContent, explicit_tickets), 7);
  // "Connections start with 16 tickets. After sending the 5th, 10th, 20th and 40th packet, half of
  // a connection's tickets decay."
  EXPECT_EQ(EtcpScheme::DecayedTickets(0), 16);
  EXPECT_EQ(EtcpScheme::DecayedTickets(4), 16);
  EXPECT_EQ(EtcpScheme::DecayedTickets(5), 8);
  EXPECT_EQ(EtcpScheme::DecayedTickets(10), 4);
  EXPECT_EQ(EtcpScheme::DecayedTickets(20), 2);
  EXPECT_EQ(EtcpScheme::DecayedTickets(40), 1);
  EXPECT_EQ(EtcpScheme::DecayedTickets(1000), 1);
}

// A no-op event for moving the clock forward.
class Tick final : public EventSource {
 public:
  void OnEvent() override {}
};

// §3.1: "E-TCP will also use pacing during slow-start restart". When an active ECB has had nothing in
// flight for longer than an RTO, whoever sends next is paced at one window per RTT until the ACK
// clock runs: a member that resumes, and also a newcomer that opens on the idle ECB, whose first
// data would otherwise send the ECB's whole window at once.
TEST(EtcpTest, AnIdleActiveEcbPacesWhoeverSendsNext) {
  using testing::FakeSender;
  constexpr Bytes kMss = FakeSender::kMss;
  Simulation sim{1};
  Tick tick;
  SharingConfig config;
  config.scheme = SchemeKind::kEtcp;
  EtcpScheme scheme(config, SharingEnvironment{&sim, nullptr});
  TcpConfig tcp;
  tcp.mss = kMss;
  tcp.initial_window_segments = 20;
  ConnectionContext context;
  context.remote = 1;
  FakeSender a, b;
  context.flow = 0;
  std::unique_ptr<CongestionControl> member_a = scheme.Attach(tcp, a, context);
  a.controller = member_a.get();
  member_a->OnEstablished(sim.Now(), false);
  a.unsent = 20 * kMss;
  member_a->OnSendStart(sim.Now(), true, a.unsent);
  member_a->CanSend(kMss);  // The ECB sends the whole window for the only member, unpaced.
  EXPECT_EQ(a.new_segments.size(), 20u);
  EXPECT_EQ(member_a->pacing_rate_bps(), 0);
  member_a->OnRttSample(sim.Now(), SimTime::Milliseconds(100));
  AckInfo ack;
  ack.ack = a.nxt;
  ack.newly_acked = a.nxt - a.una;
  ack.echo_uid = a.next_uid - 1;
  a.una = a.nxt;
  member_a->OnAck(sim.Now(), ack);

  sim.events().Schedule(tick, SimTime::Seconds(5));
  sim.RunUntil(SimTime::Seconds(5));
  context.flow = 1;
  std::unique_ptr<CongestionControl> member_b = scheme.Attach(tcp, b, context);
  b.controller = member_b.get();
  b.now = a.now = sim.Now();
  member_b->OnEstablished(sim.Now(), false);
  b.unsent = 20 * kMss;
  member_b->OnSendStart(sim.Now(), true, b.unsent);
  member_b->CanSend(kMss);
  EXPECT_EQ(b.new_segments.size(), 1u);  // One now, the rest spaced out.
  EXPECT_GT(member_b->pacing_rate_bps(), 0);
}

}  // namespace
}  // namespace tcb
