// The SACK scoreboard (RFC 2018 blocks, RFC 6675 §4 IsLost()).
#include "tcp/sack_scoreboard.h"

#include <gtest/gtest.h>

namespace tcb {
namespace {

TEST(SackScoreboardTest, MergesBlocksAndForgetsWhatIsCumulativelyAcked) {
  SackScoreboard sb;
  const SackBlock a[] = {{300, 400}, {100, 200}};
  sb.Update(1, a, 2);
  const SackBlock b[] = {{200, 300}};
  sb.Update(1, b, 1);
  ASSERT_EQ(sb.blocks().size(), 1u);
  EXPECT_EQ(sb.blocks()[0].start, 100);
  EXPECT_EQ(sb.blocks()[0].end, 400);
  EXPECT_TRUE(sb.IsSacked(150));
  EXPECT_FALSE(sb.IsSacked(50));
  EXPECT_EQ(sb.HighestSacked(1), 400);
  sb.Update(250, nullptr, 0);
  EXPECT_EQ(sb.blocks()[0].start, 250);
  EXPECT_EQ(sb.SackedBytes(0, 1000), 150);
  sb.Update(500, nullptr, 0);
  EXPECT_TRUE(sb.empty());
  const SackBlock old[] = {{10, 20}, {700, 600}};  // Below snd_una, and malformed.
  sb.Update(500, old, 2);
  EXPECT_TRUE(sb.empty());
}

TEST(SackScoreboardTest, IsLostFollowsRfc6675) {
  SackScoreboard sb;
  const Bytes mss = 100;
  // Three discontiguous blocks above 1: lost.
  const SackBlock three[] = {{101, 201}, {301, 401}, {501, 601}};
  sb.Update(1, three, 3);
  EXPECT_TRUE(sb.IsLost(1, 3, mss));
  EXPECT_FALSE(sb.IsLost(201, 3, mss));  // Two blocks, 200 bytes above: not more than 2 * MSS.
  SackScoreboard bytes;
  const SackBlock run[] = {{101, 351}};  // One block of 250 bytes > (3 - 1) * 100.
  bytes.Update(1, run, 1);
  EXPECT_TRUE(bytes.IsLost(1, 3, mss));
  EXPECT_FALSE(bytes.IsLost(160, 3, mss));
}

}  // namespace
}  // namespace tcb
