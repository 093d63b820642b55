// A run's memory limit (RunOptions::max_memory_bytes, core/memory_budget.h) and the cap on
// unlimited queues (the scenario's unlimitedQueuePackets): a scenario that floods a link stops at
// its limit naming what grew, or holds at most the cap, instead of taking the machine. Each test
// that can grow memory runs in a child process (a gtest death test) under an address-space limit
// (RLIMIT_AS), so that a broken account fails the test rather than the machine; the sanitizer build,
// whose shadow memory RLIMIT_AS cannot hold, runs under ASan's own hard RSS limit instead.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/memory_budget.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testing/address_space_limit.h"
#include "testing/test_scenarios.h"

#if defined(TCBSIM_UNDER_ASAN)
// Every test of the sanitizer build is bounded so (ASAN_OPTIONS in the environment override it).
extern "C" const char* __asan_default_options() { return "hard_rss_limit_mb=4096"; }
#endif

namespace tcb {
namespace {

using nlohmann::json;

// A UDP source sending at `rate_kbps` (by default 100 Gb/s) into a 1 Mb/s link: all it sends
// beyond 1 Mb/s waits in the queue.
json Flood(json queue, int64_t unlimited_queue_packets, double rate_kbps = 100000000) {
  json doc = testing::SingleLinkScenario(
      1, 10, std::move(queue), json::object(),
      {{"type", "onoff-udp"}, {"from", "server"}, {"to", "client"}, {"rateKbps", rate_kbps}, {"meanOnS", 1000},
       {"meanOffS", 0.001}});
  doc["durationS"] = 30;
  doc["unlimitedQueuePackets"] = unlimited_queue_packets;
  return doc;
}

int Fail(const std::string& why) {
  fprintf(stderr, "%s\n", why.c_str());
  return 1;
}

TEST(MemoryLimitTest, AFloodStopsAtItsLimitNamingTheQueueThatGrew) {
  testing::InChildUnderLimit([] {
    RunOptions options;
    options.max_memory_bytes = int64_t{64} << 20;
    try {
      RunScenario(ParseScenario(Flood("unlimited", 100000000)), options);
    } catch (const MemoryLimitExceeded& e) {
      const std::string message = e.what();
      if (e.limit() != options.max_memory_bytes) return Fail("limit " + std::to_string(e.limit()));
      if (e.part().rfind("link path:server>client holds ", 0) != 0) return Fail("part: " + e.part());
      if (message.find("memory limit of 64.0 MiB") == std::string::npos) return Fail("message: " + message);
      // The account follows the process: the run stopped near its limit, not far past it.
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      const int64_t rss = static_cast<int64_t>(usage.ru_maxrss) * 1024;
      if (rss > 2 * options.max_memory_bytes + (int64_t{64} << 20)) return Fail("peak RSS " + std::to_string(rss));
      return 0;
    }
    return Fail("the flood ran to its end");
  });
}

TEST(MemoryLimitTest, AnUnlimitedQueueHoldsAtMostItsCap) {
  testing::InChildUnderLimit([] {
    json doc = Flood("unlimited", 1000, 10000);
    doc["durationS"] = 2;
    const RunOutput run = RunScenario(ParseScenario(doc));
    const json& link = run.summary["links"][0];
    if (link["maxQueuePackets"] != 1000) return Fail("max queue " + link["maxQueuePackets"].dump());
    if (link["queueDrops"].get<int64_t>() <= 0) return Fail("no drops");
    if (run.memory_peak_bytes > (int64_t{8} << 20)) return Fail("peak " + std::to_string(run.memory_peak_bytes));
    return 0;
  });
}

// A queue with a limit of its own keeps it: the cap is only for "unlimited".
TEST(MemoryLimitTest, TheCapLeavesLimitedQueuesAlone) {
  testing::InChildUnderLimit([] {
    json doc = Flood({{"packets", 3000}}, 1000, 10000);
    doc["durationS"] = 4;
    const RunOutput run = RunScenario(ParseScenario(doc));
    return run.summary["links"][0]["maxQueuePackets"] == 3000 ? 0 : Fail(run.summary["links"][0].dump());
  });
}

// Many connections open at once: the flow registry is the part named.
TEST(MemoryLimitTest, ManyOpenConnectionsAreNamedAsSuch) {
  testing::InChildUnderLimit([] {
    json doc = testing::SingleLinkScenario(
        10, 10, {{"packets", 100}}, json::object(),
        {{"type", "transfers"}, {"count", 10000}, {"from", "server"}, {"to", "client"}, {"bytes", 100000}, {"atS", {0}}});
    RunOptions options;
    options.max_memory_bytes = int64_t{4} << 20;
    try {
      RunScenario(ParseScenario(doc), options);
    } catch (const MemoryLimitExceeded& e) {
      return e.part().find("flows are open") != std::string::npos ? 0 : Fail("part: " + e.part());
    }
    return Fail("the run ended");
  });
}

// The account only watches: a run under a limit it does not reach gives the same result.
TEST(MemoryLimitTest, ALimitNotReachedChangesNothing) {
  const Scenario scenario = ParseScenarioText(*PresetText("dumbbell-bulk"));
  RunOptions limited;
  limited.max_memory_bytes = int64_t{1} << 30;
  const RunOutput a = RunScenario(scenario);
  const RunOutput b = RunScenario(scenario, limited);
  EXPECT_EQ(a.result_hash, b.result_hash);
  EXPECT_GT(b.memory_peak_bytes, 0);
  EXPECT_LT(b.memory_peak_bytes, limited.max_memory_bytes);
}

}  // namespace
}  // namespace tcb
