// Seeding and bounded draws for Rng.
#include "core/rng.h"

namespace tcb {
namespace {

constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15;

// Integer-only, so identical on every target; GCC and Clang (including wasm32) provide it.
__extension__ typedef unsigned __int128 Uint128;

// The SplitMix64 output function: a bijection on 64-bit words with good avalanche.
uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t Fnv1a64(std::string_view s, uint64_t hash) {
  uint64_t h = hash;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3;
  }
  return h;
}

uint64_t SplitMix64::Next() {
  state_ += kGoldenGamma;
  return Mix64(state_);
}

Rng::Rng(uint64_t seed) {
  // Four outputs of a bijection applied to four distinct counters cannot all be zero.
  SplitMix64 expand(seed);
  for (uint64_t& word : s_) word = expand.Next();
}

Rng Rng::ForStreamHash(uint64_t run_seed, uint64_t stream_name_hash) {
  // Mix64 is a bijection, so within one run distinct names (distinct hashes) get distinct seeds.
  return Rng(Mix64(run_seed ^ Mix64(stream_name_hash)));
}

uint64_t Rng::UniformInt(uint64_t n) {
  if (n == 0) return 0;
  Uint128 m = static_cast<Uint128>(NextU64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: the draws that would over-weight results.
    while (low < threshold) {
      m = static_cast<Uint128>(NextU64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace tcb
