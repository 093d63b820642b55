// libFuzzer harness over the scenario parser: any input must either parse or raise ScenarioError,
// never crash, hang or leak. Small valid scenarios are also run for a bounded number of events.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenario/run.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tcb::Scenario scenario;
  try {
    scenario = tcb::ParseScenarioText(text);
  } catch (const tcb::ScenarioError&) {
    return 0;
  }
  int copies = 0;
  for (const tcb::TrafficItem& item : scenario.traffic) copies += item.count;
  if (copies > 64 || scenario.topology.nodes.size() > 256) return 0;
  tcb::RunOptions options;
  options.trace = tcb::TraceLevel::kFull;
  options.progress_every_events = 20000;
  options.on_progress = [](tcb::SimTime, tcb::SimTime) { return false; };
  try {
    tcb::RunScenario(scenario, options);
  } catch (const tcb::RunCancelled&) {
  }
  return 0;
}
