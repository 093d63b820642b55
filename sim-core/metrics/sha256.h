// SHA-256 (FIPS 180-4), used to hash the canonical serialisation of simulation results.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tcb {

// Incremental SHA-256. Feed bytes with Update in any chunking; Finish returns the digest and resets
// the object, so it can hash another message.
class Sha256 {
 public:
  void Update(std::string_view data);
  void Update(const void* data, size_t n);
  std::array<uint8_t, 32> Finish();
  // The digest as 64 lowercase hex digits.
  std::string FinishHex();

 private:
  void ProcessBlock(const uint8_t* block);
  void Reset();

  // FIPS 180-4 §5.3.3: the initial hash value H(0).
  std::array<uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> buffer_{};
  size_t buffer_len_ = 0;
  uint64_t total_bytes_ = 0;
};

// SHA-256 of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace tcb
