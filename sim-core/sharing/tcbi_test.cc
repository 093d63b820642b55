// The TCBI controllers' rules with the numbers of Savorić et al. §3 (a whole run is in
// tests/tcbi_runs_test.cc).
#include "sharing/tcbi.h"

#include <gtest/gtest.h>

#include "testing/fake_sender.h"

namespace tcb {
namespace {

constexpr Bytes kMss = 1000;

struct Connection {
  explicit Connection(Bytes cwnd_segments, Bytes ssthresh_segments = 64) : control(Config(), sender) {
    control.tcb().cwnd = cwnd_segments * kMss;
    control.tcb().ssthresh = ssthresh_segments * kMss;
  }
  static TcpConfig Config() {
    TcpConfig c;
    c.mss = kMss;
    return c;
  }
  testing::FakeSender sender;
  ForwardingControl control;
};

TcbiScheme::Set MakeSet(std::vector<Connection*> members) {
  TcbiScheme::Set set(TcbGroup(SharingEnvironment{}, "test", "*"));
  for (size_t i = 0; i < members.size(); ++i) set.members.Add(&members[i]->control, static_cast<FlowId>(i));
  return set;
}

// §3.2: "sum of all current congestion window sizes ... plus the standard initial congestion window
// size 2 ... all TCP connections ... get this congestion window size fair share".
TEST(TcbiTest, FairShareRedistributesSumPlusInitialOverAll) {
  Connection a(10, 40), b(20, 100), newcomer(1);
  TcbiScheme::Set set = MakeSet({&a, &b});
  SharingConfig config;
  config.scheme = SchemeKind::kFsTcbi;
  TcbiScheme::Join(config, set, newcomer.control);
  const Bytes share = (10 + 20 + 2) * kMss / 3;
  EXPECT_EQ(newcomer.control.cwnd(), share);
  EXPECT_EQ(a.control.cwnd(), share);
  EXPECT_EQ(b.control.cwnd(), share);
  const Bytes ssthresh_share = (40 + 100 + 64) * kMss / 3;  // §3.2 with the standard 64.
  EXPECT_EQ(a.control.ssthresh(), ssthresh_share);
  EXPECT_EQ(newcomer.control.ssthresh(), ssthresh_share);
}

// §3.1: the newcomer gets the mean; "only the initial congestion window size of the new TCP
// connection is changed".
TEST(TcbiTest, MeanValueGivesTheNewcomerTheMeanAndLeavesTheOthers) {
  Connection a(10, 40), b(20, 100), newcomer(1);
  TcbiScheme::Set set = MakeSet({&a, &b});
  SharingConfig config;
  config.scheme = SchemeKind::kMvTcbi;
  TcbiScheme::Join(config, set, newcomer.control);
  EXPECT_EQ(newcomer.control.cwnd(), 15 * kMss);
  EXPECT_EQ(newcomer.control.ssthresh(), 70 * kMss);
  EXPECT_EQ(a.control.cwnd(), 10 * kMss);
  EXPECT_EQ(b.control.cwnd(), 20 * kMss);
}

TEST(TcbiTest, AloneTheStandardValuesApply) {
  Connection first(7, 7);
  TcbiScheme::Set set = MakeSet({});
  SharingConfig config;
  config.scheme = SchemeKind::kMvTcbi;
  TcbiScheme::Join(config, set, first.control);
  EXPECT_EQ(first.control.cwnd(), 2 * kMss);       // §3.1: "standard value 2".
  EXPECT_EQ(first.control.ssthresh(), 64 * kMss);  // §3.1: "standard value 64".
  config.scheme = SchemeKind::kFsTcbi;
  Connection second(9, 9);
  TcbiScheme::Join(config, set, second.control);
  EXPECT_EQ(second.control.cwnd(), 2 * kMss);  // (0 + 2) / 1.
}

// §3.1: "updated after every change of the smoothed round trip time of one of the n TCP connections
// ... (n - 1)/n times the last value ... plus 1/n times the new".
TEST(TcbiTest, AggregatedSrttStepByStep) {
  Connection a(2), b(2), c(2);
  TcbiScheme::Set set = MakeSet({&a});
  auto ms = [](int64_t v) { return SimTime::Milliseconds(v); };
  TcbiScheme::UpdateAggregate(set, ms(100), ms(40));  // First value: taken as is.
  EXPECT_EQ(set.srtt, ms(100));
  EXPECT_EQ(set.rttvar, ms(40));
  set.members.Add(&b.control, 1);  // n = 2.
  TcbiScheme::UpdateAggregate(set, ms(200), ms(20));
  EXPECT_EQ(set.srtt, ms(150));  // 1/2 * 100 + 1/2 * 200.
  EXPECT_EQ(set.rttvar, ms(30));
  set.members.Add(&c.control, 2);  // n = 3.
  TcbiScheme::UpdateAggregate(set, ms(60), ms(60));
  EXPECT_EQ(set.srtt, ms(120));  // 2/3 * 150 + 1/3 * 60.
  EXPECT_EQ(set.rttvar, ms(40));  // 2/3 * 30 + 1/3 * 60.
}

}  // namespace
}  // namespace tcb
