// Tests for Rng: reference vectors, golden outputs (the cross-build contract), stream independence
// and bounded draws.
#include "core/rng.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/det_math.h"

namespace tcb {

class RngPeer {
 public:
  static Rng FromState(std::array<uint64_t, 4> state) {
    Rng rng(0);
    for (int i = 0; i < 4; ++i) rng.s_[i] = state[i];
    return rng;
  }
};

namespace {

// Transcriptions of Vigna's reference C (splitmix64.c, xoshiro256starstar.c), kept independent of
// the code under test.
uint64_t RefSplitMix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

uint64_t RefRotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t RefXoshiroNext(uint64_t s[4]) {
  const uint64_t result = RefRotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = RefRotl(s[3], 45);
  return result;
}

// The multiplicative inverse of an odd number mod 2^64 (Newton iteration).
uint64_t InverseOdd(uint64_t a) {
  uint64_t x = a;
  for (int i = 0; i < 6; ++i) x *= 2 - a * x;
  return x;
}

// A state whose next NextU64() returns `out` (the output depends on s[1] only).
Rng RngWithNextOutput(uint64_t out) {
  const uint64_t rotated = out * InverseOdd(9);
  const uint64_t s1 = ((rotated >> 7) | (rotated << 57)) * InverseOdd(5);
  return RngPeer::FromState({1, s1, 0, 0});
}

TEST(SplitMix64Test, MatchesPublishedVectors) {
  SplitMix64 a(1234567);
  EXPECT_EQ(a.Next(), 6457827717110365317u);
  EXPECT_EQ(a.Next(), 3203168211198807973u);
  EXPECT_EQ(a.Next(), 9817491932198370423u);
  EXPECT_EQ(a.Next(), 4593380528125082431u);
  EXPECT_EQ(a.Next(), 16408922859458223821u);
  SplitMix64 b(0);
  EXPECT_EQ(b.Next(), 0xe220a8397b1dcdafu);
  EXPECT_EQ(b.Next(), 0x6e789e6aa1b965f4u);
  EXPECT_EQ(b.Next(), 0x06c45d188009454fu);
}

TEST(SplitMix64Test, MatchesReferenceCode) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0xdeadbeef}, ~uint64_t{0}}) {
    SplitMix64 sm(seed);
    uint64_t ref = seed;
    for (int i = 0; i < 100; ++i) ASSERT_EQ(sm.Next(), RefSplitMix64(ref));
  }
}

TEST(RngTest, XoshiroMatchesPublishedVector) {
  // Reference outputs of xoshiro256starstar.c from the state {1, 2, 3, 4}.
  Rng rng = RngPeer::FromState({1, 2, 3, 4});
  const uint64_t expected[] = {11520u,
                               0u,
                               1509978240u,
                               1215971899390074240u,
                               1216172134540287360u,
                               607988272756665600u,
                               16172922978634559625u,
                               8476171486693032832u,
                               10595114339597558777u,
                               2904607092377533576u};
  for (uint64_t e : expected) EXPECT_EQ(rng.NextU64(), e);
}

TEST(RngTest, SeedingMatchesReferenceCode) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, uint64_t{1} << 63, ~uint64_t{0}}) {
    uint64_t sm = seed;
    uint64_t s[4];
    for (uint64_t& word : s) word = RefSplitMix64(sm);
    Rng rng(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng.NextU64(), RefXoshiroNext(s)) << "seed " << seed;
  }
  // The same convention as rand_xoshiro's Xoshiro256StarStar::seed_from_u64.
  Rng rng(42);
  EXPECT_EQ(rng.NextU64(), 1546998764402558742u);
  EXPECT_EQ(rng.NextU64(), 6990951692964543102u);
  EXPECT_EQ(rng.NextU64(), 12544586762248559009u);
}

TEST(RngTest, Fnv1a64MatchesReferenceValues) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325u);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cu);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8u);
}

TEST(RngTest, Fnv1a64ContinuedOverPartsIsTheHashOfTheirConcatenation) {
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), 0x85944171f73967e8u);
  EXPECT_EQ(Fnv1a64("", Fnv1a64("foobar")), Fnv1a64("foobar"));
  EXPECT_EQ(Fnv1a64("/loss", Fnv1a64("bottleneck", Fnv1a64("link/"))), Fnv1a64("link/bottleneck/loss"));
}

TEST(RngTest, AStreamNamedByItsHashIsTheStreamOfTheName) {
  Rng by_name = Rng::ForStream(7, "tcp/12/initiator/window-rule");
  Rng by_hash = Rng::ForStreamHash(7, Fnv1a64("tcp/12/initiator/window-rule"));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(by_name.NextU64(), by_hash.NextU64());
}

// Golden outputs: the WASM build must reproduce these bit for bit. Changing any of them changes
// every simulation result.
TEST(RngGoldenTest, NextU64) {
  Rng rng(20240601);
  EXPECT_EQ(rng.NextU64(), 0x59761096949c683du);
  EXPECT_EQ(rng.NextU64(), 0x7e436068556fab29u);
  EXPECT_EQ(rng.NextU64(), 0xe6a51fbfd60edd06u);
  EXPECT_EQ(rng.NextU64(), 0x938809d8706c1c30u);
  Rng zero(0);
  EXPECT_EQ(zero.NextU64(), 0x99ec5f36cb75f2b4u);
  EXPECT_EQ(zero.NextU64(), 0xbf6e1f784956452au);
}

TEST(RngGoldenTest, ForStream) {
  Rng loss = Rng::ForStream(7, "link/bottleneck/loss");
  EXPECT_EQ(loss.NextU64(), 0xff6f8bab6b7192b5u);
  EXPECT_EQ(loss.NextU64(), 0x6275d9a69decea91u);
  EXPECT_EQ(loss.NextU64(), 0x15166b3725860397u);
  Rng think = Rng::ForStream(7, "workload/web/think");
  EXPECT_EQ(think.NextU64(), 0x61baf94af53f7821u);
  EXPECT_EQ(think.NextU64(), 0x4bf098a4f1994933u);
  EXPECT_EQ(think.NextU64(), 0xb02b10d0bd14f03bu);
}

TEST(RngGoldenTest, DoublesAndBoundedInts) {
  Rng rng(99);
  EXPECT_EQ(DoubleToBits(rng.NextDouble()), 0x3fd65129fad5723au);
  EXPECT_EQ(DoubleToBits(rng.NextDouble()), 0x3fe20c49c7a63b10u);
  EXPECT_EQ(DoubleToBits(rng.NextDouble()), 0x3fd834aad80a9084u);
  EXPECT_EQ(DoubleToBits(rng.NextDoubleOpen()), 0x3feb614e04aeec2fu);
  EXPECT_EQ(DoubleToBits(rng.NextDoubleOpen()), 0x3fe92684b1faaac7u);
  EXPECT_EQ(DoubleToBits(rng.NextDoubleOpen()), 0x3fca5793f9ebd44cu);
  EXPECT_EQ(rng.UniformInt(1000), 277u);
  EXPECT_EQ(rng.UniformInt(1000), 58u);
  EXPECT_EQ(rng.UniformInt(1000), 846u);
  EXPECT_EQ(rng.UniformInt(uint64_t{3} << 62), 0x7027f6628fa584f1u);
  EXPECT_EQ(rng.UniformInt(uint64_t{3} << 62), 0x8e27e378416b3016u);
}

TEST(RngTest, CopiesContinueTheSameStream) {
  Rng a(5);
  a.NextU64();
  Rng b = a;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.NextU64(), b.NextU64());
}

TEST(RngStreamTest, SameNameAndSeedGiveTheSameStream) {
  Rng a = Rng::ForStream(123, "link/bottleneck/loss");
  Rng b = Rng::ForStream(123, "link/bottleneck/loss");
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.NextU64(), b.NextU64());
}

TEST(RngStreamTest, DifferentNamesOrSeedsGiveDifferentStreams) {
  const std::string names[] = {"link/bottleneck/loss", "link/bottleneck/loss2", "link/access/loss",
                               "workload/web/think", "", "a", "b"};
  std::set<uint64_t> firsts;
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) {
    for (const std::string& name : names) {
      Rng rng = Rng::ForStream(seed, name);
      firsts.insert(rng.NextU64());
    }
  }
  EXPECT_EQ(firsts.size(), 3 * std::size(names));

  // Streams are not shifted copies of each other: no overlap among the first draws.
  std::set<uint64_t> seen;
  for (const std::string& name : names) {
    Rng rng = Rng::ForStream(9, name);
    for (int i = 0; i < 10000; ++i) seen.insert(rng.NextU64());
  }
  EXPECT_EQ(seen.size(), 10000 * std::size(names));
}

TEST(RngStreamTest, StreamDiffersFromPlainSeed) {
  Rng plain(77);
  Rng stream = Rng::ForStream(77, "");
  EXPECT_NE(plain.NextU64(), stream.NextU64());
}

TEST(RngTest, DoubleExtremes) {
  Rng lowest = RngWithNextOutput(0);
  Rng lowest_open = lowest;
  EXPECT_EQ(lowest.NextDouble(), 0.0);
  EXPECT_EQ(lowest_open.NextDoubleOpen(), 0x1.0p-53);

  Rng highest = RngWithNextOutput(~uint64_t{0});
  Rng highest_open = highest;
  EXPECT_EQ(highest.NextDouble(), 1.0 - 0x1.0p-53);
  EXPECT_EQ(highest_open.NextDoubleOpen(), 1.0 - 0x1.0p-53);
}

TEST(RngTest, DoublesStayInRangeAndLookUniform) {
  Rng rng(31);
  constexpr int kN = 1000000;
  double sum = 0;
  double sum_open = 0;
  for (int i = 0; i < kN; ++i) {
    const double u = rng.NextDouble();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    const double v = rng.NextDoubleOpen();
    ASSERT_GT(v, 0.0);
    ASSERT_LT(v, 1.0);
    sum_open += v;
  }
  // Standard error of the mean is 1/sqrt(12 kN) ~ 2.9e-4.
  EXPECT_NEAR(sum / kN, 0.5, 2e-3);
  EXPECT_NEAR(sum_open / kN, 0.5, 2e-3);
}

TEST(RngUniformIntTest, RangeAndEdgeCases) {
  Rng rng(8);
  EXPECT_EQ(rng.UniformInt(0), 0u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng.UniformInt(1), 0u);
  for (uint64_t n : {uint64_t{2}, uint64_t{3}, uint64_t{1000}, uint64_t{1} << 63,
                     (uint64_t{1} << 63) + 1, ~uint64_t{0}}) {
    for (int i = 0; i < 10000; ++i) ASSERT_LT(rng.UniformInt(n), n);
  }
  // Every value of a small range appears.
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(rng.UniformInt(5));
  EXPECT_EQ(seen.size(), 5u);
}

TEST(RngUniformIntTest, SmallRangeChiSquare) {
  Rng rng(2024);
  constexpr int kBuckets = 7;
  constexpr int kN = 700000;
  int64_t counts[kBuckets] = {};
  for (int i = 0; i < kN; ++i) ++counts[rng.UniformInt(kBuckets)];
  const double expected = static_cast<double>(kN) / kBuckets;
  double chi2 = 0;
  for (int64_t c : counts) chi2 += (c - expected) * (c - expected) / expected;
  // 6 degrees of freedom: P(chi2 > 40) is about 5e-7.
  EXPECT_LT(chi2, 40.0);
}

TEST(RngUniformIntTest, LargeRangeHasNoMultiplyShiftBias) {
  // For n = 3 * 2^62, multiply-shift without rejection maps four inputs onto three outputs, giving
  // residue 0 (mod 3) probability 1/2; the rejection step restores 1/3 each.
  Rng rng(55);
  constexpr int kN = 300000;
  int64_t counts[3] = {};
  for (int i = 0; i < kN; ++i) ++counts[rng.UniformInt(uint64_t{3} << 62) % 3];
  // Binomial standard deviation ~258; the biased generator would be off by 50000.
  for (int64_t c : counts) EXPECT_NEAR(static_cast<double>(c), kN / 3.0, 2000.0);
}

}  // namespace
}  // namespace tcb
