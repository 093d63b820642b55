// Pseudo-random streams: xoshiro256** seeded through SplitMix64, one independent stream per named source.
#pragma once

#include <cstdint>
#include <string_view>

namespace tcb {

// FNV-1a, 64-bit, over the bytes of `s`; stable across builds, so it can name random streams.
// `hash` continues a hash: Fnv1a64(b, Fnv1a64(a)) is Fnv1a64 of a followed by b, so a name made
// of parts can be hashed without being spelled out.
inline constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325;
uint64_t Fnv1a64(std::string_view s, uint64_t hash = kFnv1a64Basis);

// SplitMix64 (Steele, Lea & Flood; Vigna's splitmix64.c): expands one 64-bit seed into many
// well-mixed words. Used to seed Rng, and usable wherever a seed must be derived from another.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();

 private:
  uint64_t state_;
};

// xoshiro256** 1.0 (Blackman & Vigna). All draws are integer operations or exact integer-to-double
// conversions, so a given seed yields the same stream natively and in WASM. Copyable: a copy
// continues the same stream independently.
class Rng {
 public:
  // The four state words are the first four SplitMix64 outputs for `seed`; they are never all zero.
  explicit Rng(uint64_t seed);

  // The stream for the random source called `stream_name` (e.g. "link/bottleneck/loss") in the run
  // seeded with `run_seed`. Each source draws from its own stream, so adding or removing a source
  // never shifts the numbers another source sees.
  static Rng ForStream(uint64_t run_seed, std::string_view stream_name) {
    return ForStreamHash(run_seed, Fnv1a64(stream_name));
  }
  // ForStream for the stream whose name has the Fnv1a64 hash `stream_name_hash`.
  static Rng ForStreamHash(uint64_t run_seed, uint64_t stream_name_hash);

  uint64_t NextU64() {
    const uint64_t result = RotateLeft(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = RotateLeft(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1): the top 53 bits times 2^-53, every value a multiple of 2^-53.
  double NextDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

  // Uniform in (0, 1), never 0 or 1, for logarithms: (top 52 bits + 1/2) times 2^-52.
  double NextDoubleOpen() { return (static_cast<double>(NextU64() >> 12) + 0.5) * 0x1.0p-52; }

  // Uniform in [0, n), without modulo bias (Lemire 2019, multiply-shift with rejection). Consumes
  // one draw, rarely more. `n` must be positive; 0 returns 0 without drawing.
  uint64_t UniformInt(uint64_t n);

 private:
  friend class RngPeer;

  static uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4];
};

}  // namespace tcb
