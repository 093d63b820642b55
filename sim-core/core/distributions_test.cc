// Tests for the samplers: moments over many draws for a fixed seed, support bounds, draw counts and
// golden bit patterns shared with the WASM build.
#include "core/distributions.h"

#include <cmath>
#include <cstdint>
#include <functional>

#include <gtest/gtest.h>

#include "core/det_math.h"
#include "core/rng.h"

namespace tcb {
namespace {

constexpr int kSamples = 200000;

struct Moments {
  double mean = 0;
  double variance = 0;  // Unbiased sample variance.
  double min = 0;
  double max = 0;
};

// Draws kSamples values and summarises them (Welford's update, stable for large means).
Moments Sample(const std::function<double()>& draw) {
  Moments m;
  double m2 = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = draw();
    if (i == 0 || x < m.min) m.min = x;
    if (i == 0 || x > m.max) m.max = x;
    const double delta = x - m.mean;
    m.mean += delta / (i + 1);
    m2 += delta * (x - m.mean);
  }
  m.variance = m2 / (kSamples - 1);
  return m;
}

// Fraction of kSamples draws for which `pred` holds.
double Fraction(const std::function<double()>& draw, const std::function<bool(double)>& pred) {
  int hits = 0;
  for (int i = 0; i < kSamples; ++i) hits += pred(draw()) ? 1 : 0;
  return static_cast<double>(hits) / kSamples;
}

// Tolerances below are about 8 standard errors for kSamples draws: the seeds are fixed, so the
// tests are deterministic, and a correct sampler is nowhere near the edge.
double MeanTolerance(double variance) { return 8.0 * std::sqrt(variance / kSamples); }
double FractionTolerance(double p) { return 8.0 * std::sqrt(p * (1.0 - p) / kSamples); }
// `excess_kurtosis` sets the spread of the sample variance: Var(s^2) ~ sigma^4 (2 + kurtosis) / n.
double VarianceTolerance(double variance, double excess_kurtosis) {
  return 8.0 * variance * std::sqrt((2.0 + excess_kurtosis) / kSamples);
}

TEST(UniformTest, MomentsAndSupport) {
  Rng rng(101);
  const Moments m = Sample([&] { return Uniform(rng, -2.0, 5.0); });
  const double variance = 49.0 / 12.0;
  EXPECT_NEAR(m.mean, 1.5, MeanTolerance(variance));
  EXPECT_NEAR(m.variance, variance, VarianceTolerance(variance, -1.2));
  EXPECT_GE(m.min, -2.0);
  EXPECT_LT(m.max, 5.0);
  EXPECT_LT(m.min, -1.99);
  EXPECT_GT(m.max, 4.99);
}

TEST(ExponentialTest, MomentsAndSupport) {
  Rng rng(102);
  const double mean = 0.25;
  const Moments m = Sample([&] { return Exponential(rng, mean); });
  EXPECT_NEAR(m.mean, mean, MeanTolerance(mean * mean));
  EXPECT_NEAR(m.variance, mean * mean, VarianceTolerance(mean * mean, 6.0));
  EXPECT_GT(m.min, 0.0);
  // Memorylessness shows in the tail: P(X > mean) = 1/e.
  const double p = std::exp(-1.0);
  EXPECT_NEAR(Fraction([&] { return Exponential(rng, mean); }, [&](double x) { return x > mean; }),
              p, FractionTolerance(p));
}

TEST(ParetoTest, ScaleForMean) {
  EXPECT_DOUBLE_EQ(ParetoScaleForMean(10.0, 2.5), 6.0);
  EXPECT_DOUBLE_EQ(ParetoScaleForMean(1.0, 2.0), 0.5);
}

TEST(ParetoTest, HeavyTailMeanAndTail) {
  Rng rng(103);
  const double shape = 2.5;
  const double scale = ParetoScaleForMean(10.0, shape);
  const Moments m = Sample([&] { return Pareto(rng, shape, scale); });
  EXPECT_GE(m.min, scale);
  EXPECT_LT(m.min, scale * 1.0001);
  // Variance 80 is finite but the fourth moment is not, so the mean is given a wider margin.
  EXPECT_NEAR(m.mean, 10.0, 2.0 * MeanTolerance(80.0));
  for (double multiple : {2.0, 10.0}) {
    const double p = std::pow(multiple, -shape);
    EXPECT_NEAR(Fraction([&] { return Pareto(rng, shape, scale); },
                         [&](double x) { return x > multiple * scale; }),
                p, FractionTolerance(p))
        << multiple;
  }
}

TEST(ParetoTest, LightTailMoments) {
  Rng rng(104);
  const double shape = 9.0;
  const double scale = 1.0;
  const double mean = shape * scale / (shape - 1.0);
  const double variance = scale * scale * shape / ((shape - 1.0) * (shape - 1.0) * (shape - 2.0));
  const double kurtosis = 6.0 * (shape * shape * shape + shape * shape - 6.0 * shape - 2.0) /
                          (shape * (shape - 3.0) * (shape - 4.0));
  const Moments m = Sample([&] { return Pareto(rng, shape, scale); });
  EXPECT_GE(m.min, scale);
  EXPECT_NEAR(m.mean, mean, MeanTolerance(variance));
  EXPECT_NEAR(m.variance, variance, VarianceTolerance(variance, kurtosis));
}

TEST(ParetoTest, NeverBelowScale) {
  Rng rng(105);
  for (double shape : {0.5, 1.0, 1.2, 50.0, 1e6}) {
    for (int i = 0; i < 20000; ++i) ASSERT_GE(Pareto(rng, shape, 1500.0), 1500.0) << shape;
  }
}

TEST(NormalTest, Moments) {
  Rng rng(106);
  const Moments m = Sample([&] { return Normal(rng, 10.0, 3.0); });
  EXPECT_NEAR(m.mean, 10.0, MeanTolerance(9.0));
  EXPECT_NEAR(m.variance, 9.0, VarianceTolerance(9.0, 0.0));
  const double p = 0.6826894921370859;  // P(|Z| < 1)
  EXPECT_NEAR(Fraction([&] { return Normal(rng, 0.0, 1.0); }, [](double z) { return z > -1 && z < 1; }),
              p, FractionTolerance(p));
  EXPECT_NEAR(Fraction([&] { return Normal(rng, 0.0, 1.0); }, [](double z) { return z > 0; }), 0.5,
              FractionTolerance(0.5));
}

TEST(NormalTest, ZeroStddevIsTheMean) {
  Rng rng(107);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(Normal(rng, 4.5, 0.0), 4.5);
}

TEST(LognormalTest, FromMeanStddevMatchesClosedForm) {
  const LognormalParams p = LognormalFromMeanStddev(5.0, 3.0);
  const double variance = std::log(1.0 + 9.0 / 25.0);
  EXPECT_NEAR(p.sigma, std::sqrt(variance), 1e-15);
  EXPECT_NEAR(p.mu, std::log(5.0) - 0.5 * variance, 1e-15);
  const LognormalParams degenerate = LognormalFromMeanStddev(7.0, 0.0);
  EXPECT_EQ(degenerate.sigma, 0.0);
  EXPECT_NEAR(degenerate.mu, std::log(7.0), 1e-15);
}

TEST(LognormalTest, MomentsMatchTheRequestedMeanAndStddev) {
  Rng rng(108);
  const LognormalParams p = LognormalFromMeanStddev(5.0, 3.0);
  const double s2 = p.sigma * p.sigma;
  const double kurtosis = std::exp(4 * s2) + 2 * std::exp(3 * s2) + 3 * std::exp(2 * s2) - 6;
  const Moments m = Sample([&] { return Lognormal(rng, p.mu, p.sigma); });
  EXPECT_GT(m.min, 0.0);
  EXPECT_NEAR(m.mean, 5.0, MeanTolerance(9.0));
  EXPECT_NEAR(m.variance, 9.0, VarianceTolerance(9.0, kurtosis));
  // The logarithm of the samples is the underlying normal.
  const Moments logs = Sample([&] { return std::log(Lognormal(rng, p.mu, p.sigma)); });
  EXPECT_NEAR(logs.mean, p.mu, MeanTolerance(s2));
  EXPECT_NEAR(logs.variance, s2, VarianceTolerance(s2, 0.0));
}

TEST(GammaTest, MomentsAcrossShapes) {
  const double scale = 2.0;
  uint64_t seed = 109;
  for (double shape : {0.05, 0.3, 1.0, 2.5, 9.0, 150.0}) {
    Rng rng(seed++);
    const Moments m = Sample([&] { return Gamma(rng, shape, scale); });
    const double mean = shape * scale;
    const double variance = shape * scale * scale;
    EXPECT_GE(m.min, 0.0) << shape;
    EXPECT_NEAR(m.mean, mean, MeanTolerance(variance)) << shape;
    // Very small shapes have a huge kurtosis (6/k); the variance check needs k large enough.
    if (shape >= 0.3) {
      EXPECT_NEAR(m.variance, variance, VarianceTolerance(variance, 6.0 / shape)) << shape;
    }
  }
}

TEST(GammaTest, ShapeOneIsExponential) {
  Rng rng(120);
  const double p = std::exp(-1.0);
  EXPECT_NEAR(Fraction([&] { return Gamma(rng, 1.0, 3.0); }, [](double x) { return x > 3.0; }), p,
              FractionTolerance(p));
}

TEST(GammaTest, InvalidShapeIsNaN) {
  Rng rng(121);
  EXPECT_TRUE(std::isnan(Gamma(rng, 0.0, 1.0)));
  EXPECT_TRUE(std::isnan(Gamma(rng, -1.0, 1.0)));
  EXPECT_TRUE(std::isnan(Gamma(rng, std::nan(""), 1.0)));
}

// Samplers documented as one draw consume exactly one NextU64().
TEST(DistributionsTest, SingleDrawSamplers) {
  const std::function<double(Rng&)> samplers[] = {
      [](Rng& r) { return Uniform(r, 0.0, 1.0); },
      [](Rng& r) { return Exponential(r, 1.0); },
      [](Rng& r) { return Pareto(r, 1.5, 1.0); },
  };
  for (const auto& sampler : samplers) {
    Rng used(130);
    Rng reference(130);
    sampler(used);
    reference.NextU64();
    EXPECT_EQ(used.NextU64(), reference.NextU64());
  }
}

// Golden bit patterns: the WASM build must reproduce these exactly. Each block starts from a fresh
// Rng(12345).
TEST(DistributionsGoldenTest, BitPatterns) {
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Uniform(rng, -2.0, 5.0)), 0x4009a73bdc164d2eu);
    EXPECT_EQ(DoubleToBits(Uniform(rng, -2.0, 5.0)), 0xbff16f559d47a724u);
    EXPECT_EQ(DoubleToBits(Uniform(rng, -2.0, 5.0)), 0x4012f92e8058c547u);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Exponential(rng, 0.25)), 0x3fb2f1350eca9711u);
    EXPECT_EQ(DoubleToBits(Exponential(rng, 0.25)), 0x3fe051a7b07f99d6u);
    EXPECT_EQ(DoubleToBits(Exponential(rng, 0.25)), 0x3f832023ce518afbu);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Pareto(rng, 1.2, 1500.0)), 0x409dfe561c1c7f31u);
    EXPECT_EQ(DoubleToBits(Pareto(rng, 1.2, 1500.0)), 0x40c0090497e1765du);
    EXPECT_EQ(DoubleToBits(Pareto(rng, 1.2, 1500.0)), 0x40982db5d7c904b3u);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Normal(rng, 10.0, 3.0)), 0x40264bbe62be7f4au);
    EXPECT_EQ(DoubleToBits(Normal(rng, 10.0, 3.0)), 0x40242a89efe2c484u);
    EXPECT_EQ(DoubleToBits(Normal(rng, 10.0, 3.0)), 0x401e1b0c858fb5eau);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Lognormal(rng, 8.5, 1.1)), 0x40bd3ee6938d6ff9u);
    EXPECT_EQ(DoubleToBits(Lognormal(rng, 8.5, 1.1)), 0x40b3cacbd7f66565u);
    EXPECT_EQ(DoubleToBits(Lognormal(rng, 8.5, 1.1)), 0x409f012dc68db523u);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 2.5, 4.0)), 0x40263db0494dd187u);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 2.5, 4.0)), 0x4016339c53e86c3fu);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 2.5, 4.0)), 0x4012a5e88f462bdeu);
  }
  {
    Rng rng(12345);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 0.4, 4.0)), 0x3f69775ccedb6274u);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 0.4, 4.0)), 0x3fcab1851fdad91cu);
    EXPECT_EQ(DoubleToBits(Gamma(rng, 0.4, 4.0)), 0x3fe74cba0e8874b7u);
  }
  const LognormalParams p = LognormalFromMeanStddev(5.0, 3.0);
  EXPECT_EQ(DoubleToBits(p.mu), 0x3ff74a876e220c71u);
  EXPECT_EQ(DoubleToBits(p.sigma), 0x3fe1be921bcc0d56u);
}

// Savorić Table 1 gives the reading time as a gamma with mean 35.286 s and standard deviation
// 147.390 s; Distribution converts mean and deviation to shape (mean/sd)^2 and scale sd^2/mean.
TEST(DistributionTest, GammaFromMeanAndStddev) {
  Rng rng(7);
  const Distribution reading{Distribution::Kind::kGamma, 35.286, 147.390};
  const Moments m = Sample([&] { return reading.Draw(rng); });
  const double variance = 147.390 * 147.390;
  // Shape 0.0573: excess kurtosis 6/k ~ 105, so the variance check is loose; the mean is tight.
  EXPECT_NEAR(m.mean, 35.286, MeanTolerance(variance));
  EXPECT_NEAR(m.variance, variance, VarianceTolerance(variance, 6.0 / (35.286 * 35.286 / variance)));
  EXPECT_GT(m.min, 0.0);
}

TEST(DistributionTest, LognormalFromMeanAndStddev) {
  Rng rng(8);
  const Distribution pages{Distribution::Kind::kLognormal, 25.807, 78.752};
  const Moments m = Sample([&] { return pages.Draw(rng); });
  // Heavy right tail: compare the median, exp(mu), instead of the sample mean.
  const LognormalParams p = LognormalFromMeanStddev(25.807, 78.752);
  Rng again(8);
  const double below_median =
      Fraction([&] { return pages.Draw(again); }, [&](double x) { return x < DetExp(p.mu); });
  EXPECT_NEAR(below_median, 0.5, FractionTolerance(0.5));
  EXPECT_GT(m.min, 0.0);
}

TEST(DistributionTest, CapClampsDrawsAndConstantsDrawNothing) {
  Rng rng(9);
  Distribution primary{Distribution::Kind::kPareto, 0.91, 1000};
  primary.cap = 50000;
  const Moments m = Sample([&] { return primary.Draw(rng); });
  EXPECT_GE(m.min, 1000.0);
  EXPECT_EQ(m.max, 50000.0);

  Rng a(10), b(10);
  EXPECT_EQ(Distribution::Constant(3.5).Draw(a), 3.5);
  EXPECT_EQ(a.NextU64(), b.NextU64());
}

TEST(DistributionTest, UniformAndExponentialUseTheirSamplers) {
  Rng a(11), b(11);
  EXPECT_EQ(DoubleToBits((Distribution{Distribution::Kind::kUniform, 1e-3, 2e-3}).Draw(a)),
            DoubleToBits(Uniform(b, 1e-3, 2e-3)));
  EXPECT_EQ(DoubleToBits((Distribution{Distribution::Kind::kExponential, 5.0}).Draw(a)),
            DoubleToBits(Exponential(b, 5.0)));
}

}  // namespace
}  // namespace tcb
