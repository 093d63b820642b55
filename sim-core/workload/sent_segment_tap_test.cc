// The tap an HTTP/2 server's connection wears: everything reaches the wrapped controller unchanged,
// and the application hears of each new data segment (the moment its unsent data shrinks, which is
// when Linux may wake a writer blocked on TCP_NOTSENT_LOWAT), not of retransmissions.
#include "workload/sent_segment_tap.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>


namespace tcb {
namespace {

// Records the calls it receives and answers with values the test can recognise.
class RecordingControl final : public CongestionControl {
 public:
  explicit RecordingControl(std::vector<std::string>& calls) : calls_(calls) {}
  void OnEstablished(SimTime, bool syn_lost) override { calls_.push_back(syn_lost ? "established lost" : "established"); }
  void OnSendStart(SimTime, bool, Bytes pending) override { calls_.push_back("start " + std::to_string(pending)); }
  void OnSegmentSent(SimTime, const SentSegment& s) override { calls_.push_back("sent " + std::to_string(s.seq)); }
  bool OnAck(SimTime, const AckInfo& a) override {
    calls_.push_back("ack " + std::to_string(a.ack));
    return false;
  }
  void OnDuplicateAck(SimTime, const AckInfo&) override { calls_.push_back("dupack"); }
  void OnRetransmissionTimeout(SimTime) override { calls_.push_back("rto"); }
  void OnRttSample(SimTime, SimTime rtt) override { calls_.push_back("rtt " + std::to_string(rtt.ns())); }
  void OnClosed(SimTime) override { calls_.push_back("closed"); }
  bool CanSend(Bytes bytes) override { return bytes == 7; }
  SimTime NextSendTime(SimTime now) const override { return now + SimTime::Milliseconds(3); }
  bool AvoidsHandshake() const override { return true; }
  Bytes cwnd() const override { return 11; }
  Bytes ssthresh() const override { return 13; }
  const RttEstimator& rtt() const override { return rtt_; }
  bool in_recovery() const override { return true; }
  double pacing_rate_bps() const override { return 17; }
  void DescribeState(TcpSeriesRow& row) const override { row.cwnd = 19; }

 private:
  std::vector<std::string>& calls_;
  RttEstimator rtt_{SimTime::Milliseconds(10), SimTime::Seconds(1), SimTime::Seconds(60), SimTime::Seconds(1)};
};

TEST(SentSegmentTapTest, ForwardsEverythingAndReportsNewDataSegments) {
  std::vector<std::string> calls;
  int reported = 0;
  SentSegmentTap tap(std::make_unique<RecordingControl>(calls), [&] { ++reported; });
  const SimTime t = SimTime::Milliseconds(5);
  tap.OnEstablished(t, true);
  tap.OnSendStart(t, true, 42);
  tap.OnSegmentSent(t, SentSegment{1, 1000, false, 1});
  tap.OnSegmentSent(t, SentSegment{1, 1000, true, 2});   // A retransmission: unsent data unchanged.
  tap.OnSegmentSent(t, SentSegment{1001, 0, false, 3});  // A FIN alone carries no data.
  EXPECT_FALSE(tap.OnAck(t, AckInfo{1001, 1000, 1}));
  tap.OnDuplicateAck(t, AckInfo{1001, 0, 2});
  tap.OnRetransmissionTimeout(t);
  tap.OnRttSample(t, SimTime::Milliseconds(40));
  tap.OnClosed(t);
  EXPECT_EQ(calls, (std::vector<std::string>{"established lost", "start 42", "sent 1", "sent 1", "sent 1001",
                                             "ack 1001", "dupack", "rto", "rtt 40000000", "closed"}));
  EXPECT_EQ(reported, 1);
  EXPECT_TRUE(tap.CanSend(7));
  EXPECT_FALSE(tap.CanSend(8));
  EXPECT_EQ(tap.NextSendTime(t), SimTime::Milliseconds(8));
  EXPECT_TRUE(tap.AvoidsHandshake());
  EXPECT_EQ(tap.cwnd(), 11);
  EXPECT_EQ(tap.ssthresh(), 13);
  EXPECT_TRUE(tap.in_recovery());
  EXPECT_EQ(tap.pacing_rate_bps(), 17);
  TcpSeriesRow row;
  tap.DescribeState(row);
  EXPECT_EQ(row.cwnd, 19);
}

}  // namespace
}  // namespace tcb
