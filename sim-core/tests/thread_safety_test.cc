// tcpsim reproduce runs scenarios on several threads at once. RunScenario must share nothing mutable
// between calls: the schemas and embedded files are immutable function-local statics (initialised
// once, thread-safely), and everything else belongs to the run's Simulation.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "experiment/experiment.h"
#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using testing::json;

// Every preset (experiments' base scenarios included), shortened so the test stays quick.
std::vector<Scenario> Presets() {
  std::vector<Scenario> scenarios;
  for (const std::string& name : PresetNames()) {
    json doc = json::parse(*PresetText(name));
    doc["durationS"] = std::min(doc.value("durationS", 60.0), 10.0);
    scenarios.push_back(ParseScenario(doc));
  }
  return scenarios;
}

std::vector<std::string> Hashes(const std::vector<Scenario>& scenarios, bool reversed) {
  std::vector<std::string> hashes(scenarios.size());
  for (size_t k = 0; k < scenarios.size(); ++k) {
    const size_t i = reversed ? scenarios.size() - 1 - k : k;
    RunOptions options;
    options.trace = TraceLevel::kFull;  // The recorder too.
    hashes[i] = RunScenario(scenarios[i], options).result_hash;
  }
  return hashes;
}

TEST(ThreadSafetyTest, RunsOnTwoThreadsMatchRunsAlone) {
  const std::vector<Scenario> scenarios = Presets();
  const std::vector<std::string> alone = Hashes(scenarios, false);
  std::vector<std::string> forward, backward;
  // The same const Scenario objects on both threads, in opposite orders, so that every preset runs
  // beside others and, in the middle, beside itself.
  std::thread other([&] { backward = Hashes(scenarios, true); });
  forward = Hashes(scenarios, false);
  other.join();
  EXPECT_EQ(forward, alone);
  EXPECT_EQ(backward, alone);
}

TEST(ThreadSafetyTest, OneExperimentRunOnTwoThreads) {
  const Experiment e = ParseExperimentText(*ExperimentText("tcpint-fig-sack"));
  const ExperimentPlan plan = Expand(e, ExperimentMode::kQuick);
  std::vector<std::string> alone, shared(plan.runs.size());
  for (const RunSpec& spec : plan.runs) alone.push_back(RunSpecSummary(spec)["resultHash"].get<std::string>());
  // Cells share one parsed Scenario between their replications, and here between threads.
  auto work = [&](size_t first) {
    for (size_t i = first; i < plan.runs.size(); i += 2) shared[i] = RunSpecSummary(plan.runs[i])["resultHash"];
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(shared, alone);
}

}  // namespace
}  // namespace tcb
