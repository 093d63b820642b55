// JSON nesting depth (json/json_depth.h), measured before parsing.
#include "json/json_depth.h"

#include <gtest/gtest.h>

#include <string>

#include "scenario/scenario.h"

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

// What sim-core reads from outside (scenarios, experiments, grids: ParseJsonText) refuses deeper
// nesting with an error at "$" before parsing, rather than recursing into it.
TEST(JsonDepthTest, ParseJsonTextRefusesDeeperThanTheLimit) {
  const auto nested = [](size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_NO_THROW(ParseJsonText(nested(kMaxJsonDepth)));
  try {
    ParseJsonText(nested(100000));
    FAIL() << "a document nested 100000 deep was parsed";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$");
    EXPECT_EQ(e.problem(), "nests arrays and objects more than 64 levels deep");
  }
  EXPECT_THROW(ParseScenarioText(nested(kMaxJsonDepth + 1)), ScenarioError);
}

}  // namespace
}  // namespace tcb
