// Tests for the statistics of replications: special functions against table and high-precision
// values, confidence intervals, and the unpaired t-test of Jain §13.4.2 as Savorić et al. §6 report
// it, including the degenerate cases.
#include "metrics/statistics.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/det_math.h"

namespace tcb {
namespace {

void ExpectRelativeNear(double actual, double expected, double tolerance) {
  EXPECT_NEAR(actual, expected, std::fabs(expected) * tolerance) << "expected " << expected;
}

TEST(StatisticsTest, SummarizeUsesTheSampleStandardDeviation) {
  const SampleSummary s = Summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_DOUBLE_EQ(s.sd, std::sqrt(32.0 / 7.0));  // Divisor n - 1.
  EXPECT_EQ(Summarize({}).n, 0u);
  EXPECT_EQ(Summarize({}).mean, 0.0);
  const SampleSummary one = Summarize({3.5});
  EXPECT_EQ(one.mean, 3.5);
  EXPECT_EQ(one.sd, 0.0);
}

// Reference values: mpmath at 40 digits.
TEST(StatisticsTest, LogGammaAndIncompleteBeta) {
  ExpectRelativeNear(LogGamma(0.5), 0.57236494292470009, 1e-14);
  ExpectRelativeNear(LogGamma(10.3), 13.482036786138359, 1e-14);
  ExpectRelativeNear(LogGamma(1e6 + 0.5), 12815511.476902765642, 1e-14);
  ExpectRelativeNear(LogGamma(1e-5), 11.512919692895826, 1e-13);
  EXPECT_NEAR(LogGamma(1.0), 0.0, 1e-15);
  EXPECT_NEAR(LogGamma(2.0), 0.0, 1e-15);
  EXPECT_TRUE(std::isnan(LogGamma(0.0)));
  EXPECT_TRUE(std::isnan(LogGamma(-1.5)));

  ExpectRelativeNear(RegularizedIncompleteBeta(2, 3, 0.4), 0.5248, 1e-13);
  ExpectRelativeNear(RegularizedIncompleteBeta(0.5, 0.5, 0.2), 0.29516723530086656, 1e-13);
  ExpectRelativeNear(RegularizedIncompleteBeta(50, 0.5, 0.99), 0.31730439787419737, 1e-12);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 0.0), 0.0);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 1.0), 1.0);
  EXPECT_TRUE(std::isnan(RegularizedIncompleteBeta(2, 3, 1.5)));
}

// Student-t tables (e.g. Jain, Appendix Table A.4) give four or five digits.
TEST(StatisticsTest, StudentTQuantilesMatchTheTables) {
  ExpectRelativeNear(StudentTQuantile(0.975, 1), 12.7062, 1e-4);
  ExpectRelativeNear(StudentTQuantile(0.975, 4), 2.7764, 1e-4);
  ExpectRelativeNear(StudentTQuantile(0.95, 10), 1.8125, 1e-4);
  ExpectRelativeNear(StudentTQuantile(0.995, 30), 2.7500, 1e-4);
  ExpectRelativeNear(StudentTQuantile(0.975, 1e9), 1.95996, 1e-5);
  ExpectRelativeNear(NormalQuantile(0.975), 1.95996, 1e-5);
}

// Reference values: mpmath at 40 digits (root of the regularized incomplete beta tail).
TEST(StatisticsTest, StudentTQuantilesAreAccurateForRealDegreesOfFreedom) {
  struct Case {
    double p, df, t;
  };
  const Case cases[] = {
      {0.975, 1, 12.706204736174693},  {0.975, 4, 2.7764451051977935},
      {0.95, 10, 1.8124611228116759},  {0.995, 30, 2.749995653567225},
      {0.975, 2.5, 3.5746548420036818}, {0.995, 1, 63.656741162871524},
      {0.9, 0.5, 10.270324410234511},  {0.999, 3, 10.214531852407383},
      {0.6, 7, 0.26316686135202275},   {0.975, 1e4, 1.9602012398906259},
      {0.975, 1e5, 1.9599877075346093}, {0.975, 1e7, 1.9599642217672051},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "t(" << c.p << "; " << c.df << ")");
    ExpectRelativeNear(StudentTQuantile(c.p, c.df), c.t, 1e-10);
    ExpectRelativeNear(StudentTQuantile(1 - c.p, c.df), -c.t, 1e-10);
  }
  ExpectRelativeNear(NormalQuantile(0.999999), 4.7534243088170878, 1e-10);
  ExpectRelativeNear(NormalQuantile(0.1), -1.2815515655446004, 1e-10);
  EXPECT_EQ(StudentTQuantile(0.5, 3), 0.0);
  EXPECT_EQ(StudentTQuantile(0.975, std::numeric_limits<double>::infinity()), NormalQuantile(0.975));
  EXPECT_TRUE(std::isnan(StudentTQuantile(0.975, 0)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(1.0, 5)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(0.0, 5)));
}

// The quantiles are built from IEEE operations and det_math only: these bit patterns must be the
// same on every build (native and WASM).
TEST(StatisticsTest, QuantilesAreBitIdenticalAcrossBuilds) {
  EXPECT_EQ(DoubleToBits(StudentTQuantile(0.975, 4)), DoubleToBits(StudentTQuantile(0.975, 4.0)));
  const double t = StudentTQuantile(0.975, 9);
  EXPECT_EQ(DoubleToBits(t), 0x400218e5dac50b20ULL) << std::hexfloat << t;
}

TEST(StatisticsTest, ConfidenceHalfWidth) {
  const SampleSummary s = Summarize({1, 2, 3, 4, 5});
  // t(0.975; 4) * sd / sqrt(5), sd = sqrt(2.5).
  ExpectRelativeNear(*ConfidenceHalfWidth(s, 0.95), 2.7764451051977935 * std::sqrt(2.5) / std::sqrt(5.0), 1e-10);
  EXPECT_FALSE(ConfidenceHalfWidth(Summarize({1}), 0.95).has_value());
  EXPECT_EQ(*ConfidenceHalfWidth(Summarize({4, 4, 4}), 0.95), 0.0);
}

// The data of Jain's unpaired example in §13.4.2 (processor times on systems A and B, six
// measurements each). Reference interval bounds: the same formula evaluated with mpmath.
TEST(StatisticsTest, UnpairedTTestFollowsJain) {
  const SampleSummary a = Summarize({5.36, 16.57, 0.62, 1.41, 0.64, 7.26});
  const SampleSummary b = Summarize({19.12, 3.52, 3.38, 2.50, 3.60, 1.74});
  const UnpairedTTest test = CompareUnpaired(a, b);
  ASSERT_EQ(test.status, UnpairedTTest::Status::kTested);
  ExpectRelativeNear(test.difference, -0.33333333333333, 1e-12);
  ExpectRelativeNear(test.sd, 3.69752680104477998, 1e-12);
  ExpectRelativeNear(test.dof, 11.920804056883167, 1e-12);
  const DifferenceInterval i90 = *IntervalAt(test, 0.90);
  ExpectRelativeNear(i90.low, -6.92703909399145, 1e-10);
  ExpectRelativeNear(i90.high, 6.26037242732478, 1e-10);
  EXPECT_FALSE(i90.excludes_zero);
  const DifferenceInterval i99 = *IntervalAt(test, 0.99);
  ExpectRelativeNear(i99.low, -11.6412475516405, 1e-10);

  // Savorić et al. §6: not significant even at 0.90, so the 0.90 interval is reported.
  const SignificanceReport report = *ReportSignificance(a, b);
  EXPECT_FALSE(report.significant);
  EXPECT_EQ(report.interval.level, 0.90);
  EXPECT_EQ(report.interval.low, i90.low);
}

TEST(StatisticsTest, SignificanceIsReportedAtTheHighestLevelThatExcludesZero) {
  // Far apart: significant at 0.99, interval below zero (the second alternative is larger).
  const SignificanceReport clear = *ReportSignificance(Summarize({1.0, 1.1, 0.9, 1.05, 0.95}),
                                                       Summarize({2.0, 2.1, 1.9, 2.05, 1.95}));
  EXPECT_TRUE(clear.significant);
  EXPECT_EQ(clear.interval.level, 0.99);
  EXPECT_LT(clear.interval.high, 0.0);

  // Equal spreads, ν = 10: a shift of 2 is significant at 0.95 (half-widths 1.61 at 0.95, 2.29 at
  // 0.99), a shift of 1.5 only at 0.90 (1.31 at 0.90).
  const SampleSummary a = Summarize({10, 12, 11, 13, 12});
  const SignificanceReport at95 = *ReportSignificance(a, Summarize({12, 14, 13, 15, 14}));
  EXPECT_TRUE(at95.significant);
  EXPECT_EQ(at95.interval.level, 0.95);
  EXPECT_NEAR(at95.test.dof, 10.0, 1e-12);
  const SignificanceReport at90 = *ReportSignificance(a, Summarize({11.5, 13.5, 12.5, 14.5, 13.5}));
  EXPECT_TRUE(at90.significant);
  EXPECT_EQ(at90.interval.level, 0.90);
  EXPECT_LT(at90.interval.high, 0.0);
}

TEST(StatisticsTest, UnpairedTTestDegenerateCases) {
  // Fewer than two observations on a side: nothing can be said about the spread.
  EXPECT_EQ(CompareUnpaired(Summarize({1}), Summarize({1, 2, 3})).status, UnpairedTTest::Status::kTooFewSamples);
  EXPECT_FALSE(ReportSignificance(Summarize({}), Summarize({1, 2})).has_value());
  EXPECT_FALSE(IntervalAt(CompareUnpaired(Summarize({1, 2}), Summarize({5})), 0.9).has_value());

  // No variance on either side: the difference is exact.
  const SignificanceReport exact = *ReportSignificance(Summarize({3, 3, 3}), Summarize({5, 5}));
  EXPECT_EQ(exact.test.status, UnpairedTTest::Status::kNoVariance);
  EXPECT_TRUE(exact.significant);
  EXPECT_EQ(exact.interval.level, 0.99);
  EXPECT_EQ(exact.interval.low, -2.0);
  EXPECT_EQ(exact.interval.high, -2.0);
  const SignificanceReport same = *ReportSignificance(Summarize({4, 4}), Summarize({4, 4, 4}));
  EXPECT_FALSE(same.significant);
  EXPECT_EQ(same.interval.level, 0.90);
  EXPECT_EQ(same.interval.low, 0.0);

  // Variance on one side only: ν = (v)²/(v²/(n+1)) - 2 = n - 1 of the varying side.
  const UnpairedTTest one_sided = CompareUnpaired(Summarize({2, 2, 2}), Summarize({1, 2, 3, 4}));
  EXPECT_EQ(one_sided.status, UnpairedTTest::Status::kTested);
  EXPECT_DOUBLE_EQ(one_sided.dof, 3.0);
}

}  // namespace
}  // namespace tcb
