// Tests for DetLog, DetExp and DetPow: accuracy against the platform libm (used here only as a
// reference), special values, and golden bit patterns shared with the WASM build.
#include "core/det_math.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "core/rng.h"

namespace tcb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMinNormal = std::numeric_limits<double>::min();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();

// How many representable doubles apart a and b are (both finite, same sign).
int64_t UlpDistance(double a, double b) {
  if (a == b) return 0;
  if ((a < 0) != (b < 0)) return std::numeric_limits<int64_t>::max();
  const int64_t ia = static_cast<int64_t>(DoubleToBits(a) & 0x7fffffffffffffff);
  const int64_t ib = static_cast<int64_t>(DoubleToBits(b) & 0x7fffffffffffffff);
  return ia > ib ? ia - ib : ib - ia;
}

// Any positive finite double, subnormals included, with exponents spread uniformly.
double RandomPositiveDouble(Rng& rng) {
  for (;;) {
    const double x = BitsToDouble(rng.NextU64() & 0x7fffffffffffffff);
    if (x > 0 && x < kInf) return x;
  }
}

TEST(DetLogTest, MatchesLibmOnAllPositiveDoubles) {
  Rng rng(1);
  for (int i = 0; i < 500000; ++i) {
    const double x = RandomPositiveDouble(rng);
    ASSERT_LE(UlpDistance(DetLog(x), std::log(x)), 1) << std::hexfloat << x;
  }
}

TEST(DetLogTest, MatchesLibmOnModerateAndNearOneArguments) {
  Rng rng(2);
  for (int i = 0; i < 200000; ++i) {
    const double x = 10.0 * rng.NextDoubleOpen();
    ASSERT_LE(UlpDistance(DetLog(x), std::log(x)), 1) << std::hexfloat << x;
    // Near 1 the result is tiny and relative accuracy is hardest.
    const double y = 1.0 + (rng.NextDouble() - 0.5) * 1e-6;
    ASSERT_LE(UlpDistance(DetLog(y), std::log(y)), 1) << std::hexfloat << y;
    const double z = 1.0 + (rng.NextDouble() - 0.5) * 0.9;
    ASSERT_LE(UlpDistance(DetLog(z), std::log(z)), 1) << std::hexfloat << z;
  }
  for (int k = -1074; k <= 1023; ++k) {
    const double x = std::ldexp(1.0, k);
    ASSERT_LE(UlpDistance(DetLog(x), std::log(x)), 1) << "2^" << k;
  }
  EXPECT_LE(UlpDistance(DetLog(1.0 + 0x1.0p-52), 0x1.0p-52), 1);
  EXPECT_LE(UlpDistance(DetLog(1.0 - 0x1.0p-53), -0x1.0p-53), 1);
}

TEST(DetLogTest, SpecialValues) {
  EXPECT_EQ(DetLog(1.0), 0.0);
  EXPECT_EQ(DetLog(2.0), 0x1.62e42fefa39efp-1);  // ln 2 correctly rounded.
  EXPECT_EQ(DetLog(0.0), -kInf);
  EXPECT_EQ(DetLog(-0.0), -kInf);
  EXPECT_TRUE(std::isnan(DetLog(-1.0)));
  EXPECT_TRUE(std::isnan(DetLog(-kDenormMin)));
  EXPECT_TRUE(std::isnan(DetLog(-kInf)));
  EXPECT_TRUE(std::isnan(DetLog(kNaN)));
  EXPECT_EQ(DetLog(kInf), kInf);
  EXPECT_LE(UlpDistance(DetLog(kDenormMin), -744.44007192138126), 1);
  EXPECT_LE(UlpDistance(DetLog(std::numeric_limits<double>::max()), 709.78271289338397), 1);
}

TEST(DetExpTest, MatchesLibmOverTheNormalRange) {
  Rng rng(3);
  for (int i = 0; i < 500000; ++i) {
    const double x = -708.0 + 1417.78 * rng.NextDouble();
    const double ref = std::exp(x);
    if (ref < kMinNormal || ref == kInf) continue;
    ASSERT_LE(UlpDistance(DetExp(x), ref), 2) << std::hexfloat << x;
  }
}

TEST(DetExpTest, MatchesLibmForSmallArguments) {
  Rng rng(4);
  for (int i = 0; i < 200000; ++i) {
    const double x = (rng.NextDouble() - 0.5) * 1e-6;
    ASSERT_LE(UlpDistance(DetExp(x), std::exp(x)), 2) << std::hexfloat << x;
    const double y = (rng.NextDouble() - 0.5) * 2.0;
    ASSERT_LE(UlpDistance(DetExp(y), std::exp(y)), 2) << std::hexfloat << y;
  }
}

TEST(DetExpTest, SubnormalResultsAreWithinOneStep) {
  Rng rng(5);
  for (int i = 0; i < 100000; ++i) {
    const double x = -745.1 + 37.0 * rng.NextDouble();
    ASSERT_LE(UlpDistance(DetExp(x), std::exp(x)), 1) << std::hexfloat << x;
  }
}

TEST(DetExpTest, NeverBelowOneForNonNegativeArguments) {
  Rng rng(6);
  for (double x : {0.0, kDenormMin, kMinNormal, 0x1.0p-60, 0x1.0p-53, 0x1.0p-52, 1e-20}) {
    EXPECT_GE(DetExp(x), 1.0) << x;
    EXPECT_LE(DetExp(-x), 1.0) << x;
  }
  for (int i = 0; i < 100000; ++i) {
    const double x = std::ldexp(rng.NextDoubleOpen(), -static_cast<int>(rng.UniformInt(80)));
    ASSERT_GE(DetExp(x), 1.0) << std::hexfloat << x;
    ASSERT_LE(DetExp(-x), 1.0) << std::hexfloat << x;
  }
}

TEST(DetExpTest, SpecialValues) {
  EXPECT_EQ(DetExp(0.0), 1.0);
  EXPECT_EQ(DetExp(-0.0), 1.0);
  EXPECT_LE(UlpDistance(DetExp(1.0), 2.7182818284590452), 1);
  EXPECT_EQ(DetExp(kInf), kInf);
  EXPECT_EQ(DetExp(-kInf), 0.0);
  EXPECT_TRUE(std::isnan(DetExp(kNaN)));
  EXPECT_EQ(DetExp(709.79), kInf);
  EXPECT_EQ(DetExp(1e300), kInf);
  EXPECT_EQ(DetExp(-745.2), 0.0);
  EXPECT_EQ(DetExp(-1e300), 0.0);
  // Just inside the limits: the largest finite result and the smallest subnormal.
  const double largest = 709.782712893383973096;
  EXPECT_LT(DetExp(largest), kInf);
  EXPECT_LE(UlpDistance(DetExp(largest), std::exp(largest)), 1);
  EXPECT_EQ(DetExp(-745.13), kDenormMin);
}

TEST(DetPowTest, MatchesLibmOverWideRanges) {
  Rng rng(7);
  for (int i = 0; i < 300000; ++i) {
    // Bases across the whole normal range; exponents that keep the result finite and normal,
    // up to |exponent * log(base)| = 700, where a plain exp(y * log(x)) would lose ~9 bits.
    const double base = std::exp(-700.0 + 1400.0 * rng.NextDouble());
    const double log_base = std::log(base);
    const double exponent = (-700.0 + 1400.0 * rng.NextDouble()) / log_base;
    const double ref = std::pow(base, exponent);
    ASSERT_LE(UlpDistance(DetPow(base, exponent), ref), 2)
        << std::hexfloat << base << " ^ " << exponent;
  }
  for (int i = 0; i < 200000; ++i) {
    // Bases near 1 with huge exponents, and the Gamma boost's shape: U^(1/k) for small k.
    const double near_one = 1.0 + (rng.NextDouble() - 0.5) * 1e-9;
    const double big = (rng.NextDouble() - 0.5) * 1e12;
    ASSERT_LE(UlpDistance(DetPow(near_one, big), std::pow(near_one, big)), 2)
        << std::hexfloat << near_one << " ^ " << big;
    const double u = rng.NextDoubleOpen();
    const double inv_shape = 1.0 / (0.05 + 0.95 * rng.NextDouble());
    const double ref = std::pow(u, inv_shape);
    if (ref < kMinNormal) continue;
    ASSERT_LE(UlpDistance(DetPow(u, inv_shape), ref), 2) << std::hexfloat << u << " ^ " << inv_shape;
  }
}

TEST(DetPowTest, ExactCases) {
  EXPECT_LE(UlpDistance(DetPow(2.0, 10.0), 1024.0), 1);
  EXPECT_LE(UlpDistance(DetPow(10.0, 3.0), 1000.0), 1);
  EXPECT_LE(UlpDistance(DetPow(4.0, 0.5), 2.0), 1);
  EXPECT_LE(UlpDistance(DetPow(2.0, -3.0), 0.125), 1);
  EXPECT_LE(UlpDistance(DetPow(2.0, 1023.0), 0x1.0p1023), 1);
  EXPECT_LE(UlpDistance(DetPow(2.0, -1022.0), 0x1.0p-1022), 1);
  EXPECT_EQ(DetPow(3.7, 1.0), 3.7);
}

TEST(DetPowTest, SpecialValues) {
  EXPECT_EQ(DetPow(5.0, 0.0), 1.0);
  EXPECT_EQ(DetPow(0.0, 0.0), 1.0);
  EXPECT_EQ(DetPow(kNaN, 0.0), 1.0);
  EXPECT_EQ(DetPow(1.0, kNaN), 1.0);
  EXPECT_EQ(DetPow(1.0, kInf), 1.0);
  EXPECT_EQ(DetPow(0.0, 2.0), 0.0);
  EXPECT_EQ(DetPow(0.0, -2.0), kInf);
  EXPECT_EQ(DetPow(kInf, 2.0), kInf);
  EXPECT_EQ(DetPow(kInf, -2.0), 0.0);
  EXPECT_EQ(DetPow(2.0, kInf), kInf);
  EXPECT_EQ(DetPow(2.0, -kInf), 0.0);
  EXPECT_EQ(DetPow(0.5, kInf), 0.0);
  EXPECT_EQ(DetPow(0.5, -kInf), kInf);
  EXPECT_EQ(DetPow(2.0, 1100.0), kInf);
  EXPECT_EQ(DetPow(2.0, -1100.0), 0.0);
  EXPECT_EQ(DetPow(1e300, 1e300), kInf);
  EXPECT_EQ(DetPow(1e-300, 1e300), 0.0);
  EXPECT_TRUE(std::isnan(DetPow(-2.0, 2.0)));
  EXPECT_TRUE(std::isnan(DetPow(kNaN, 2.0)));
  EXPECT_TRUE(std::isnan(DetPow(2.0, kNaN)));
}

TEST(DoubleBitsTest, RoundTrips) {
  EXPECT_EQ(DoubleToBits(1.0), 0x3ff0000000000000u);
  EXPECT_EQ(DoubleToBits(-0.0), 0x8000000000000000u);
  EXPECT_EQ(BitsToDouble(0x4000000000000000), 2.0);
  EXPECT_EQ(BitsToDouble(DoubleToBits(0.1)), 0.1);
}

// Golden bit patterns: the WASM build must reproduce these exactly.
TEST(DetMathGoldenTest, BitPatterns) {
  EXPECT_EQ(DoubleToBits(DetLog(10.0)), 0x40026bb1bbb55516u);
  EXPECT_EQ(DoubleToBits(DetLog(0.3)), 0xbff34378fcbda721u);
  EXPECT_EQ(DoubleToBits(DetLog(1e-300)), 0xc085963447f87fb5u);
  EXPECT_EQ(DoubleToBits(DetLog(1.0000001)), 0x3e7ad7f2847b6492u);
  EXPECT_EQ(DoubleToBits(DetExp(-1.5)), 0x3fcc8f87724b5c1du);
  EXPECT_EQ(DoubleToBits(DetExp(100.0)), 0x48f3494a9b171bf5u);
  EXPECT_EQ(DoubleToBits(DetExp(-740.0)), 0x0000000000000055u);
  EXPECT_EQ(DoubleToBits(DetExp(1e-5)), 0x3ff0000a7c5e340eu);
  EXPECT_EQ(DoubleToBits(DetPow(0.3, 0.4)), 0x3fe3c5064a1418b7u);
  EXPECT_EQ(DoubleToBits(DetPow(7.5, -2.25)), 0x3f8600408095e7b0u);
  EXPECT_EQ(DoubleToBits(DetPow(1.0000001, 1e9)), 0x48f349445c228792u);
}

}  // namespace
}  // namespace tcb
