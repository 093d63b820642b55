// Loss-episode rules checked on whole runs over today's path presets, where a bulk transfer meets
// retransmission timeouts that back off (RFC 5681 §3.1, RFC 6298 §5.5).
#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

// RFC 5681 §3.1: when the timer expires again for a segment it already resent, "the value of
// ssthresh is held constant" (and Linux's tcp_enter_loss() asks CUBIC's ssthresh() once per loss
// episode). On path-intercontinental a 50 MB CUBIC transfer overruns the one-BDP queue and meets a
// timeout whose retransmission is lost too: at the backed-off timeout ssthresh stays where the
// episode set it (5.1 MB) instead of rising to half of everything still outstanding (13.1 MB), and
// CUBIC's W_max keeps the window of the congestion event instead of the one-segment loss window.
TEST(LossEpisodeTest, ARepeatedTimeoutNeitherRaisesSsthreshNorResetsCubicsWmax) {
  const testing::json doc = testing::PathTransfers("path-intercontinental", "independent", "cubic", {0}, 50'000'000, 60);
  const RunOutput run = testing::RunDoc(doc, TraceLevel::kSeries);
  ASSERT_GE(testing::Flow(run, 0)["timeouts"].get<int>(), 2);
  const TcpSeries& s = run.recorder->tcp_series();
  const Bytes mss = 1460;
  int loss_window_rows = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s.flow[i] != 0 || s.flow[i - 1] != 0) continue;
    // The loss window of one segment: a timeout, or a later one while the retransmission is lost.
    if (s.cwnd[i] != mss) continue;
    ++loss_window_rows;
    EXPECT_LE(s.ssthresh[i], s.ssthresh[i - 1]) << "at " << s.time_ns[i] << " ns";
    EXPECT_GE(s.w_max_bytes[i], 2 * mss) << "at " << s.time_ns[i] << " ns";
  }
  EXPECT_GE(loss_window_rows, 1);
}

}  // namespace
}  // namespace tcb
