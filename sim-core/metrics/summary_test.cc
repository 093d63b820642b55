// Run summary metrics: Jain's fairness index.
#include "metrics/summary.h"

#include <gtest/gtest.h>

#include <vector>

namespace tcb {
namespace {

// Jain, Chiu and Hawe (DEC-TR-301, 1984), §3: the index of n allocations lies in [1/n, 1], 1 when
// all are equal, 1/n when one gets everything.
TEST(JainIndexTest, FollowsTheDefinitionWithinItsBounds) {
  EXPECT_EQ(JainIndex({}), 1.0);
  EXPECT_EQ(JainIndex({0, 0}), 1.0);
  EXPECT_DOUBLE_EQ(JainIndex({1, 0, 0, 0}), 0.25);
  EXPECT_DOUBLE_EQ(JainIndex({1, 3}), 16.0 / 20.0);
}

// Found by fuzzing the API (Schemathesis, response schema conformance): six equal goodputs of a
// dumbbell's transfers gave 1.0000000000000002, above result.schema.json's maximum of 1.
TEST(JainIndexTest, EqualValuesGiveOneWhateverTheRounding) {
  for (const auto& [n, x] : std::vector<std::pair<int, double>>{{3, 2551435.1883684774}, {6, 6516278.134254906}, {7, 7887444.788003996}}) {
    const std::vector<double> xs(n, x);
    double sum = 0, sum_sq = 0;
    for (double v : xs) {
      sum += v;
      sum_sq += v * v;
    }
    ASSERT_GT(sum * sum / (n * sum_sq), 1.0) << "the case rounds above 1 unclamped";
    EXPECT_EQ(JainIndex(xs), 1.0) << n << " x " << x;
  }
}

}  // namespace
}  // namespace tcb
