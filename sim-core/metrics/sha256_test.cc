// Tests for Sha256: FIPS 180-4 / NIST example vectors, padding boundaries and chunking independence.
#include "metrics/sha256.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

namespace tcb {
namespace {

TEST(Sha256Test, EmptyMessage) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256Test, Abc) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256Test, TwoBlockMessage448Bits) {
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256Test, Message896Bits) {
  EXPECT_EQ(Sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopq"
                      "rlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256Test, OneMillionAInOddSizedChunks) {
  const std::string chunk(997, 'a');
  const size_t kSizes[] = {1, 3, 7, 13, 55, 56, 63, 64, 65, 127, 997};
  Sha256 hasher;
  size_t remaining = 1000000;
  for (size_t i = 0; remaining > 0; ++i) {
    const size_t n = std::min(remaining, kSizes[i % std::size(kSizes)]);
    hasher.Update(chunk.data(), n);
    remaining -= n;
  }
  EXPECT_EQ(hasher.FinishHex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the 56-byte padding threshold and block boundaries (digests from coreutils sha256sum).
TEST(Sha256Test, PaddingBoundaries) {
  const struct {
    size_t length;
    const char* hex;
  } kCases[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(Sha256Hex(std::string(c.length, 'a')), c.hex) << "length " << c.length;
  }
}

TEST(Sha256Test, FinishReturnsRawDigestAndResets) {
  Sha256 hasher;
  hasher.Update("ab");
  hasher.Update(std::string_view("c"));
  const std::array<uint8_t, 32> digest = hasher.Finish();
  EXPECT_EQ(digest[0], 0xba);
  EXPECT_EQ(digest[1], 0x78);
  EXPECT_EQ(digest[31], 0xad);
  // After Finish the hasher starts a fresh message.
  hasher.Update("abc");
  EXPECT_EQ(hasher.FinishHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hasher.FinishHex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256Test, EmptyUpdatesAreHarmless) {
  Sha256 hasher;
  hasher.Update(nullptr, 0);
  hasher.Update("a");
  hasher.Update(std::string_view());
  hasher.Update("bc");
  EXPECT_EQ(hasher.FinishHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace tcb
