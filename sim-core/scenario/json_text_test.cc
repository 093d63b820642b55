// ParseJsonText (scenario/scenario.h): the depth limit of json/json_depth.h on everything sim-core
// reads from outside.
#include <gtest/gtest.h>

#include <string>

#include "json/json_depth.h"
#include "scenario/scenario.h"

namespace tcb {
namespace {

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
