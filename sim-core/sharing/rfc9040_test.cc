// RFC 9040 temporal and ensemble sharing: the cache's merge and ageing, initialisation from the cache
// and from a live ensemble (the effect on a repeated transfer is in tests/rfc9040_runs_test.cc).
#include "sharing/rfc9040.h"

#include <gtest/gtest.h>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

TcpConfig Config() {
  TcpConfig c;
  c.mss = kMss;
  c.initial_window_segments = 2;
  c.receive_window = 1 << 30;
  return c;
}

CachedTcb Closing(Bytes cwnd_segments, int64_t srtt_ms) {
  CachedTcb c;
  c.mss = kMss;
  c.cwnd = cwnd_segments * kMss;
  c.ssthresh = 30 * kMss;
  c.has_rtt = true;
  c.srtt = Ms(srtt_ms);
  c.rttvar = Ms(srtt_ms / 4);
  return c;
}

struct TemporalFixture {
  explicit TemporalFixture(SharingConfig config = {}) {
    config.scheme = SchemeKind::kRfc9040Temporal;
    scheme = std::make_unique<Rfc9040TemporalScheme>(config, SharingEnvironment{&sim, nullptr});
  }
  std::unique_ptr<CongestionControl> Open(testing::FakeSender& sender, const TcpConfig& config = Config()) {
    ConnectionContext c;
    c.remote = 7;
    return scheme->Attach(config, sender, c);
  }
  Simulation sim{1};
  std::unique_ptr<Rfc9040TemporalScheme> scheme;
};

// RFC 9040 Tables 1 and 3: a connection opening after one closed starts from its RTT, RTTVAR,
// ssthresh and cwnd; Table 3's merge() on the next close.
TEST(Rfc9040TemporalTest, OpenStartsFromTheCacheAndCloseMergesIntoIt) {
  SharingConfig config;
  config.age_cwnd = false;
  TemporalFixture f(config);
  testing::FakeSender s1, s2;
  auto first = f.Open(s1);
  first->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(first->cwnd(), 2 * kMss);  // Nothing cached: the initial window.
  EXPECT_FALSE(first->rtt().has_sample());
  first->OnRttSample(SimTime::Zero(), Ms(80));
  static_cast<ForwardingControl*>(first.get())->tcb().cwnd = 24 * kMss;
  static_cast<ForwardingControl*>(first.get())->tcb().ssthresh = 16 * kMss;
  first->OnClosed(SimTime::Zero());

  auto second = f.Open(s2);
  EXPECT_EQ(second->rtt().srtt(), Ms(80));  // Table 1: at open, before any sample of its own.
  EXPECT_EQ(second->rtt().rttvar(), Ms(40));
  second->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(second->cwnd(), 24 * kMss);  // Table 3.
  EXPECT_EQ(second->ssthresh(), 16 * kMss);
}

// RFC 9040 Table 1 caches cwnd and ssthresh, not CUBIC's state: W_max, K and the epoch are the window
// rule's (RFC 9438 §4.2) and a new connection starts without them. Starting from a cached window at
// or above the cached ssthresh, CUBIC begins a congestion avoidance stage with W_max = that window
// and K = 0, probing beyond it along the convex curve at once (as Linux's bictcp_update() when
// last_max_cwnd <= cwnd, and as RFC 9438 §4.8 after a timeout), not returning to the W_max the
// closed connection had learnt from its last loss.
TEST(Rfc9040TemporalTest, ACachedWindowGivesCubicNoWmax) {
  SharingConfig config;
  config.age_cwnd = false;
  TemporalFixture f(config);
  TcpConfig cubic = Config();
  cubic.SetFlavor(TcpFlavor::kCubic);
  testing::FakeSender s1, s2;
  auto first = f.Open(s1, cubic);
  first->OnEstablished(SimTime::Zero(), false);
  first->OnRttSample(SimTime::Zero(), Ms(80));
  static_cast<ForwardingControl*>(first.get())->tcb().cwnd = 24 * kMss;
  static_cast<ForwardingControl*>(first.get())->tcb().ssthresh = 16 * kMss;
  first->OnClosed(SimTime::Zero());

  auto second = f.Open(s2, cubic);
  second->OnEstablished(SimTime::Zero(), false);
  ASSERT_EQ(second->cwnd(), 24 * kMss);
  ASSERT_EQ(second->ssthresh(), 16 * kMss);
  // One window sent, its first segment acknowledged: congestion avoidance begins.
  s2.controller = second.get();
  s2.SendTo(1 + 24 * kMss);
  AckInfo ack;
  ack.ack = 1 + kMss;
  ack.newly_acked = kMss;
  s2.una = ack.ack;
  s2.now = Ms(80);
  second->OnAck(Ms(80), ack);
  TcpSeriesRow row;
  second->DescribeState(row);
  EXPECT_EQ(row.w_max_bytes, 24 * kMss);
  EXPECT_EQ(row.cubic_k_ns, 0);
}

TEST(Rfc9040TemporalTest, MergeRules) {
  auto merged_cwnd = [](MergeRule rule, std::vector<Bytes> closes) {
    SharingConfig config;
    config.merge = rule;
    config.merge_window = 2;
    config.ewma_weight = 0.5;
    config.age_cwnd = false;
    TemporalFixture f(config);
    testing::FakeSender s;
    auto c = f.Open(s);  // Creates the cache entry for remote 7.
    for (Bytes w : closes) f.scheme->Store(7, SimTime::Zero(), Closing(w, 100));
    return f.scheme->Lookup(7, SimTime::Zero(), kMss)->cwnd;
  };
  EXPECT_EQ(merged_cwnd(MergeRule::kLatest, {10, 20, 40}), 40 * kMss);
  EXPECT_EQ(merged_cwnd(MergeRule::kMean, {10, 20, 40}), 30 * kMss);  // Mean of the last two.
  EXPECT_EQ(merged_cwnd(MergeRule::kEwma, {10, 20, 40}), 27500);     // ((10 + 20) / 2 + 40) / 2 MSS.
}

// RFC 7661 §4.4 (Handley et al.): the cached window halves per idle RTT, down to the initial window;
// past the lifetime the entry is gone.
TEST(Rfc9040TemporalTest, AgeingHalvesPerIdleRttAndExpires) {
  SharingConfig config;
  config.cache_lifetime = SimTime::Seconds(60);
  TemporalFixture f(config);
  testing::FakeSender s;
  auto c = f.Open(s);
  f.scheme->Store(7, SimTime::Zero(), Closing(40, 100));
  EXPECT_EQ(f.scheme->Lookup(7, Ms(50), 2 * kMss)->cwnd, 40 * kMss);   // Less than one RTT.
  EXPECT_EQ(f.scheme->Lookup(7, Ms(250), 2 * kMss)->cwnd, 10 * kMss);  // Two idle RTTs.
  EXPECT_EQ(f.scheme->Lookup(7, Ms(5000), 2 * kMss)->cwnd, 2 * kMss);  // Floor: the initial window.
  EXPECT_FALSE(f.scheme->Lookup(7, SimTime::Seconds(61), 2 * kMss).has_value());
  EXPECT_FALSE(f.scheme->Lookup(8, Ms(1), 2 * kMss).has_value());
}

// RFC 9040 Table 5: a newcomer to a live ensemble gets the shared RTT, a cwnd of sum / (n + 1) and
// the members' mean ssthresh; Table 7: RTT samples of any member update the shared estimate.
TEST(Rfc9040EnsembleTest, NewMemberStartsFromTheLiveGroup) {
  Simulation sim(1);
  SharingConfig config;
  config.scheme = SchemeKind::kRfc9040Ensemble;
  Rfc9040EnsembleScheme scheme(config, SharingEnvironment{&sim, nullptr});
  ConnectionContext ctx;
  ctx.remote = 3;
  testing::FakeSender s1, s2, s3;
  auto a = scheme.Attach(Config(), s1, ctx);
  auto b = scheme.Attach(Config(), s2, ctx);
  a->OnEstablished(SimTime::Zero(), false);
  b->OnEstablished(SimTime::Zero(), false);
  static_cast<ForwardingControl*>(a.get())->tcb().cwnd = 30 * kMss;
  static_cast<ForwardingControl*>(a.get())->tcb().ssthresh = 20 * kMss;
  static_cast<ForwardingControl*>(b.get())->tcb().cwnd = 15 * kMss;
  static_cast<ForwardingControl*>(b.get())->tcb().ssthresh = 40 * kMss;
  a->OnRttSample(SimTime::Zero(), Ms(100));
  EXPECT_EQ(b->rtt().srtt(), Ms(100));  // Shared.

  auto c = scheme.Attach(Config(), s3, ctx);
  EXPECT_EQ(c->rtt().srtt(), Ms(100));
  c->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(c->cwnd(), (30 + 15) * kMss / 3);
  EXPECT_EQ(c->ssthresh(), 30 * kMss);
  EXPECT_EQ(a->cwnd(), 30 * kMss);  // The others keep theirs.
}

}  // namespace
}  // namespace tcb
