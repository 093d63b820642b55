// Linux's TCP metrics cache (net/ipv4/tcp_metrics.c), rule by rule on hand-driven connections.
#include "sharing/tcp_metrics.h"

#include <gtest/gtest.h>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;
SimTime Ms(int64_t ms) { return SimTime::Milliseconds(ms); }

TcpConfig Config() {
  TcpConfig c;
  c.mss = kMss;
  c.initial_window_segments = 10;
  c.receive_window = 1 << 30;
  c.min_rto = Ms(200);  // Linux's TCP_RTO_MIN.
  return c;
}

struct Fixture {
  explicit Fixture(SharingConfig config = {}, TcpConfig tcp = Config()) : tcp(tcp) {
    config.scheme = SchemeKind::kLinuxTcpMetrics;
    config.cache_lifetime = SimTime::Seconds(3600);
    scheme = std::make_unique<LinuxTcpMetricsScheme>(config, SharingEnvironment{&sim, nullptr});
  }
  std::unique_ptr<CongestionControl> Open(testing::FakeSender& sender) {
    ConnectionContext c;
    c.remote = 7;
    return scheme->Attach(tcp, sender, c);
  }
  // A connection that measured `srtt_ms` and closed at `at` in congestion avoidance with the given
  // window and threshold (in segments).
  void Close(SimTime at, int64_t srtt_ms, Bytes cwnd, Bytes ssthresh) {
    testing::FakeSender s;
    auto c = Open(s);
    c->OnEstablished(at, false);
    c->OnRttSample(at, Ms(srtt_ms));
    static_cast<ForwardingControl*>(c.get())->tcb().cwnd = cwnd * kMss;
    static_cast<ForwardingControl*>(c.get())->tcb().ssthresh = ssthresh * kMss;
    c->OnClosed(at);
  }
  nlohmann::json Entry() const {
    nlohmann::json groups = nlohmann::json::array();
    scheme->Describe(groups);
    return groups[0]["tcpMetrics"];
  }
  TcpConfig tcp;
  Simulation sim{1};
  std::unique_ptr<LinuxTcpMetricsScheme> scheme;
};

// With today's defaults (tcp_no_ssthresh_metrics_save = 1), tcp_init_metrics() leaves ssthresh at
// its initial value and uses the cached RTT only for the first RTO: crtt + max(2 crtt, rto_min).
TEST(LinuxTcpMetricsTest, DefaultsSeedOnlyTheFirstRto) {
  Fixture f;
  f.Close(SimTime::Seconds(1), 300, 40, 20);
  testing::FakeSender s;
  auto next = f.Open(s);
  next->OnEstablished(SimTime::Seconds(10), false);
  EXPECT_EQ(next->ssthresh(), TcpConfig::kInfiniteSsthresh);
  EXPECT_FALSE(next->rtt().has_sample());  // The estimator itself is untouched.
  EXPECT_EQ(next->rtt().rto(), Ms(300 + 600));
  // The first measurement takes over (tcp_rtt_estimator()).
  next->OnRttSample(SimTime::Seconds(11), Ms(100));
  EXPECT_EQ(next->rtt().rto(), Ms(100 + 200));
}

// With Linux's RTO rules tcp_init_metrics() counts in jiffies: "crtt /= 8 * USEC_PER_SEC / HZ"
// (rounded down), icsk_rto = crtt + max(2 crtt, tcp_rto_min(sk)): with HZ 250, a cached 37 ms is
// 9 jiffies and the RTO 9 + 50 = 59 jiffies, 236 ms (RFC 6298's rules: 37 + 200 ms).
TEST(LinuxTcpMetricsTest, WithLinuxsRtoRulesTheSeedIsInJiffies) {
  TcpConfig tcp = Config();
  tcp.rto_rules = RtoRules::kLinux;
  tcp.linux_hz = 250;
  Fixture f({}, tcp);
  f.Close(SimTime::Seconds(1), 37, 40, 20);
  testing::FakeSender s;
  auto next = f.Open(s);
  next->OnEstablished(SimTime::Seconds(10), false);
  EXPECT_EQ(next->rtt().rto(), Ms(236));
  TcpConfig exact = Config();
  exact.rto_granularity = SimTime::Zero();
  Fixture rfc({}, exact);
  rfc.Close(SimTime::Seconds(1), 37, 40, 20);
  testing::FakeSender t;
  auto other = rfc.Open(t);
  other->OnEstablished(SimTime::Seconds(10), false);
  EXPECT_EQ(other->rtt().rto(), Ms(237));
}

// A cached RTT no larger than the handshake's measured one changes nothing.
TEST(LinuxTcpMetricsTest, ASmallerCachedRttDoesNotSeedTheRto) {
  Fixture f;
  f.Close(SimTime::Seconds(1), 50, 40, 20);
  testing::FakeSender s;
  auto next = f.Open(s);
  next->OnRttSample(SimTime::Seconds(10), Ms(80));  // The SYN's round trip.
  const SimTime before = next->rtt().rto();
  next->OnEstablished(SimTime::Seconds(10), false);
  EXPECT_EQ(next->rtt().rto(), before);
}

// With tcp_no_ssthresh_metrics_save = 0, a close in congestion avoidance saves
// max(cwnd / 2, ssthresh), and the next connection starts from it.
TEST(LinuxTcpMetricsTest, SsthreshIsRestoredWhenSavingIsOn) {
  SharingConfig c;
  c.metrics_no_ssthresh_save = false;
  Fixture f(c);
  f.Close(SimTime::Seconds(1), 100, 50, 20);
  testing::FakeSender s;
  auto next = f.Open(s);
  next->OnEstablished(SimTime::Seconds(10), false);
  EXPECT_EQ(next->ssthresh(), 25 * kMss);
}

// tcp_update_metrics(): a larger RTT replaces the cached one; a smaller one pulls it down by 1/8 of
// the difference. The cwnd metric in congestion avoidance is the mean of old and new.
TEST(LinuxTcpMetricsTest, RttAndCwndMerge) {
  Fixture f;
  f.Close(SimTime::Seconds(1), 300, 40, 20);
  EXPECT_EQ(f.Entry()["rttUs"], 300000);
  EXPECT_EQ(f.Entry()["cwndBytes"], 20 * kMss);  // (0 + 40) / 2.
  f.Close(SimTime::Seconds(2), 100, 60, 30);
  EXPECT_EQ(f.Entry()["rttUs"], 275000);  // 300 - (300 - 100) / 8.
  EXPECT_EQ(f.Entry()["cwndBytes"], 40 * kMss);  // (20 + 60) / 2.
  EXPECT_EQ(f.Entry()["ssthreshBytes"], 0);       // Not saved by default.
  f.Close(SimTime::Seconds(3), 400, 60, 30);
  EXPECT_EQ(f.Entry()["rttUs"], 400000);
}

// TCP_METRICS_TIMEOUT: an entry older than an hour is reset when looked up.
TEST(LinuxTcpMetricsTest, EntriesExpireAfterAnHour) {
  Fixture f;
  f.Close(SimTime::Seconds(1), 300, 40, 20);
  testing::FakeSender s;
  auto late = f.Open(s);
  late->OnEstablished(SimTime::Seconds(1 + 3601), false);
  EXPECT_EQ(late->rtt().rto(), SimTime::Seconds(1));  // The initial RTO: nothing cached any more.
  testing::FakeSender s2;
  Fixture g;
  g.Close(SimTime::Seconds(1), 300, 40, 20);
  auto early = g.Open(s2);
  early->OnEstablished(SimTime::Seconds(1 + 3599), false);
  EXPECT_EQ(early->rtt().rto(), Ms(900));
}

// "This session failed to estimate rtt ... Reset our results": a close during RTO backoff.
TEST(LinuxTcpMetricsTest, ACloseInBackoffResetsTheRtt) {
  Fixture f;
  f.Close(SimTime::Seconds(1), 300, 40, 20);
  testing::FakeSender s;
  auto c = f.Open(s);
  c->OnEstablished(SimTime::Seconds(2), false);
  c->OnRttSample(SimTime::Seconds(2), Ms(100));
  c->OnRetransmissionTimeout(SimTime::Seconds(3));
  c->OnClosed(SimTime::Seconds(4));
  EXPECT_EQ(f.Entry()["rttUs"], 0);
}

// The route's initcwnd sets the initial window; a locked cwnd metric clamps every window.
TEST(LinuxTcpMetricsTest, RouteInitcwndAndCwndLock) {
  SharingConfig c;
  c.metrics_initcwnd = 20;
  c.metrics_cwnd_lock = 15;
  Fixture f(c);
  testing::FakeSender s;
  auto conn = f.Open(s);
  conn->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(conn->cwnd(), 15 * kMss);  // initcwnd 20, clamped to the lock.
  SharingConfig d;
  d.metrics_initcwnd = 20;
  Fixture g(d);
  testing::FakeSender s2;
  auto free = g.Open(s2);
  free->OnEstablished(SimTime::Zero(), false);
  EXPECT_EQ(free->cwnd(), 20 * kMss);
}

// net.ipv4.tcp_nometrics_save: nothing is saved.
TEST(LinuxTcpMetricsTest, NoMetricsSaveSavesNothing) {
  SharingConfig c;
  c.metrics_no_save = true;
  Fixture f(c);
  f.Close(SimTime::Seconds(1), 300, 40, 20);
  EXPECT_EQ(f.Entry()["rttUs"], 0);
  EXPECT_EQ(f.Entry()["cwndBytes"], 0);
}

}  // namespace
}  // namespace tcb
