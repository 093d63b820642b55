// Golden scenarios: tests/golden/<name>/scenario.json and the summary it must produce, exactly.
// A change that moves a number must update expected-summary.json in the same commit and say why;
// regenerate with TCBSIM_UPDATE_GOLDEN=1 ./sim_core_tests --gtest_filter='Golden*'.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testing/test_paths.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> GoldenNames() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(TestSourceDir() / "tests/golden")) {
    if (fs::exists(entry.path() / "scenario.json")) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, SummaryMatches) {
  const fs::path dir = TestSourceDir() / "tests/golden" / GetParam();
  const RunOutput run = RunScenario(ParseScenarioText(Read(dir / "scenario.json")));
  const std::string actual = run.summary.dump(2) + "\n";
  const fs::path expected_path = dir / "expected-summary.json";
  const char* update = std::getenv("TCBSIM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(expected_path, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << expected_path;
  }
  ASSERT_TRUE(fs::exists(expected_path)) << "run with TCBSIM_UPDATE_GOLDEN=1 to create it";
  const auto expected = nlohmann::json::parse(Read(expected_path));
  // Compare field by field first, so a failure names what moved.
  const nlohmann::json diff = nlohmann::json::diff(expected, run.summary);
  EXPECT_TRUE(diff.empty()) << "summary of " << GetParam() << " moved:\n" << diff.dump(2);
  EXPECT_EQ(expected["resultHash"], run.summary["resultHash"]);
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, ::testing::ValuesIn(GoldenNames()),
                         [](const auto& info) { return testing::TestName(info.param); });

}  // namespace
}  // namespace tcb
