// JSON nesting depth (json/json_depth.h), measured before parsing.
#include "json/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace tcb {
namespace {

TEST(JsonDepthTest, CountsNestedArraysAndObjects) {
  EXPECT_EQ(JsonDepth("1"), 0u);
  EXPECT_EQ(JsonDepth("[]"), 1u);
  EXPECT_EQ(JsonDepth(R"({"a": [1, {"b": []}], "c": {}})"), 4u);
  EXPECT_EQ(JsonDepth("[[],[[]],[]]"), 3u);
}

TEST(JsonDepthTest, IgnoresBracketsInsideStrings) {
  EXPECT_EQ(JsonDepth(R"(["[[[{{{", "\"[[", "\\"])"), 1u);
  EXPECT_EQ(JsonDepth(R"({"key [": "value {\"}"})"), 1u);
}

TEST(JsonDepthTest, StopsOnceTheLimitIsPassed) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(JsonDepth(deep, 10), 11u);
  EXPECT_EQ(JsonDepth(deep, 1000000), 100000u);
}

}  // namespace
}  // namespace tcb
