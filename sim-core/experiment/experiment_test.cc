// Tests for experiment documents: expansion into runs (counts, order, seeds, sets), the errors a bad
// document gets (with its path in the experiment), and every built-in experiment.
#include "experiment/experiment.h"

#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "scenario/json_schema.h"
#include "scenario/presets.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;

// Two variants, two axes (3 x 2 points), four replications; quick: one buffer value, two replications.
json SmallExperiment() {
  return json::parse(R"({
    "schemaVersion": 1,
    "name": "small",
    "scenario": {
      "schemaVersion": 1, "seed": 10, "durationS": 30,
      "tcp": {"flavor": "reno", "connection": "one-way", "mssBytes": 1000},
      "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10, "queue": {"packets": 8}}},
      "traffic": [{"type": "bulk", "name": "transfer", "from": "server", "to": "client", "bytes": 20000}]
    },
    "variants": [
      {"name": "reno", "set": {"/tcp/flavor": "reno"}},
      {"name": "sack", "label": "SACK", "set": {"/tcp/flavor": "sack"}}
    ],
    "axes": [
      {"name": "buffer", "unit": "packets",
       "values": [4, 8, {"value": 16, "label": "big", "set": {"/tcp/initialWindow": 2}}],
       "set": {"/topology/link/queue": {"packets": "$value"}}},
      {"name": "size", "values": [10000, 30000], "set": {"/traffic/0/bytes": "$value"}}
    ],
    "replications": 4,
    "quick": {"replications": 2, "axes": {"buffer": [8]}, "set": {"/durationS": 5}},
    "metrics": [
      {"name": "completion", "unit": "s", "pointer": "/run/meanCompletionTimeS"},
      {"name": "utilization", "pointer": "/links/path:server>client/utilization"}
    ],
    "paper": [{"variant": "sack", "point": {"buffer": 8, "size": 10000}, "metric": "completion", "value": 0.5}],
    "paperTolerance": {"relative": 0.1, "basis": "printed to one digit"},
    "claims": [
      {"text": "SACK is no slower", "kind": "ratio", "metric": "completion", "a": {"variant": "sack"},
       "b": {"variant": "reno"}, "max": 1.0}
    ]
  })");
}

TEST(ExperimentTest, ExpandsVariantsTimesPointsTimesReplications) {
  const Experiment e = ParseExperiment(SmallExperiment());
  EXPECT_EQ(e.variants[0].label, "reno");  // The label defaults to the name.
  EXPECT_EQ(e.axes[0].values[0].label, "4 packets");
  EXPECT_EQ(e.axes[0].values[2].label, "big");

  const ExperimentPlan full = Expand(e, ExperimentMode::kFull);
  ASSERT_EQ(full.points.size(), 6u);
  EXPECT_EQ(full.points[0], (std::vector<size_t>{0, 0}));
  EXPECT_EQ(full.points[1], (std::vector<size_t>{0, 1}));  // The first axis varies slowest.
  EXPECT_EQ(full.points[5], (std::vector<size_t>{2, 1}));
  ASSERT_EQ(full.runs.size(), 2u * 6u * 4u);
  for (size_t i = 0; i < full.runs.size(); ++i) {
    const RunSpec& r = full.runs[i];
    EXPECT_EQ(r.index, i);
    EXPECT_EQ(r.variant, i / 24);
    EXPECT_EQ(r.point, i / 4 % 6);
    EXPECT_EQ(r.replication, static_cast<int>(i % 4));
    // Common random numbers: replication r has seed + r in every variant and at every point.
    EXPECT_EQ(r.seed, 10u + static_cast<uint64_t>(r.replication));
  }
  // Replications of a cell share its scenario.
  EXPECT_EQ(full.runs[0].scenario.get(), full.runs[3].scenario.get());
  EXPECT_NE(full.runs[0].scenario.get(), full.runs[4].scenario.get());

  const ExperimentPlan quick = Expand(e, ExperimentMode::kQuick);
  ASSERT_EQ(quick.points.size(), 2u);
  EXPECT_EQ(quick.points[0], (std::vector<size_t>{1, 0}));
  EXPECT_EQ(quick.runs.size(), 2u * 2u * 2u);
  EXPECT_EQ(quick.replications, 2);
}

TEST(ExperimentTest, SetsApplyInOrderWithTheAxisValue) {
  const Experiment e = ParseExperiment(SmallExperiment());
  const ExperimentPlan full = Expand(e, ExperimentMode::kFull);
  // sack, buffer 16 ("big", with its own set), size 30000, replication 2.
  const RunSpec& spec = full.runs[24 + 5 * 4 + 2];
  const json doc = spec.ScenarioDocument();
  EXPECT_EQ(doc["tcp"]["flavor"], "sack");
  EXPECT_EQ(doc["traffic"][0]["tcp"]["flavor"], "sack");  // Merged under the item by the parser.
  EXPECT_EQ(doc["topology"]["link"]["queue"]["packets"], 16);
  EXPECT_EQ(doc["tcp"]["initialWindow"], 2);
  EXPECT_EQ(doc["traffic"][0]["bytes"], 30000);
  EXPECT_EQ(doc["durationS"], 30);
  EXPECT_EQ(doc["seed"], 12);
  EXPECT_NO_THROW(ParseScenario(doc));

  const ExperimentPlan quick = Expand(e, ExperimentMode::kQuick);
  const json q = quick.runs.back().ScenarioDocument();
  EXPECT_EQ(q["durationS"], 5);  // The quick set applies last.
  EXPECT_EQ(q["topology"]["link"]["queue"]["packets"], 8);
  EXPECT_EQ(q["seed"], 11);
}

// Expects ParseExperiment to fail at `path` with a problem starting with `problem_start`.
void ExpectError(const std::function<void(json&)>& edit, const std::string& path, const std::string& problem_start) {
  json doc = SmallExperiment();
  edit(doc);
  try {
    ParseExperiment(doc);
    ADD_FAILURE() << "no error for " << path;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), path) << e.what();
    EXPECT_EQ(e.problem().rfind(problem_start, 0), 0u) << e.what();
  }
}

// Maps of the summary (per traffic item, per parallel-set item) are keyed by names of the scenario.
TEST(ExperimentTest, MetricPointersIntoMapsNameTheScenariosItems) {
  json d = SmallExperiment();
  d["scenario"]["record"] = {{"parallelSet", {"transfer"}}};
  d["metrics"][0]["pointer"] = "/items/transfer/meanCompletionTimeS";
  d["metrics"][1]["pointer"] = "/run/parallelSet/newConnections/transfer/connections";
  const Experiment e = ParseExperiment(d);
  EXPECT_EQ(e.metrics[0].pointer, "/items/transfer/meanCompletionTimeS");
  EXPECT_EQ(e.metrics[1].pointer, "/run/parallelSet/newConnections/transfer/connections");
}

TEST(ExperimentTest, SchemaErrorsNameThePath) {
  ExpectError([](json& d) { d["variants"][0]["colour"] = "red"; }, "$.variants[0].colour", "unknown field \"colour\"");
  ExpectError([](json& d) { d.erase("metrics"); }, "$", "missing required field \"metrics\"");
  ExpectError([](json& d) { d["replications"] = 0; }, "$.replications", "must be >= 1");
  ExpectError([](json& d) { d["variants"][0]["set"] = {{"tcp/flavor", "x"}}; }, "$.variants[0].set['tcp/flavor']",
              "field name must be a JSON Pointer");
  ExpectError([](json& d) { d["claims"][0].erase("max"); }, "$.claims[0]", "");
  ExpectError([](json& d) { d["claims"][0]["kind"] = "bigger"; }, "$.claims[0].kind", "must be one of");
  ExpectError([](json& d) { d["claims"][0]["knownIn"] = "full"; }, "$.claims[0].knownIn", "knownIn needs known");
  ExpectError([](json& d) { d["claims"][0]["knownIn"] = "later"; }, "$.claims[0].knownIn", "must be one of");
  ExpectError([](json& d) { d["claims"][0]["knownMagnitudeIn"] = "quick"; }, "$.claims[0].knownMagnitudeIn",
              "knownMagnitudeIn needs knownMagnitude");
  ExpectError([](json& d) { d["paperTolerance"]["relative"] = 0.6; }, "$.paperTolerance.relative", "must be <= 0.5");
  ExpectError([](json& d) { d["paperTolerance"].erase("basis"); }, "$.paperTolerance", "missing required field \"basis\"");
  ExpectError([](json& d) { d["claims"][0]["paper"] = {{"value", 0.5}}; }, "$.claims[0].paper",
              "missing required field \"source\"");
}

TEST(ExperimentTest, SemanticErrorsNameThePath) {
  ExpectError([](json& d) { d["scenario"]["durationS"] = -1; }, "$.scenario.durationS", "must be > 0");
  ExpectError([](json& d) { d["variants"][1]["name"] = "reno"; }, "$.variants[1].name", "duplicate variant name \"reno\"");
  ExpectError([](json& d) { d["axes"][1]["name"] = "buffer"; }, "$.axes[1].name", "duplicate axis name");
  ExpectError([](json& d) { d["axes"][1]["values"][1] = 10000.0; }, "$.axes[1].values[1]", "duplicate value 10000");
  ExpectError([](json& d) { d["variants"][0]["set"]["/tcp/x/y"] = 1; }, "$.variants[0].set['/tcp/x/y']",
              "cannot set /tcp/x/y (variant \"reno\", buffer = 4, size = 10000): /tcp has no \"x\"");
  ExpectError([](json& d) { d["axes"][1]["set"] = {{"/traffic/1/bytes", "$value"}}; }, "$.axes[1].set['/traffic/1/bytes']",
              "cannot set /traffic/1/bytes");
  ExpectError([](json& d) { d["variants"][0]["set"]["/durationS"] = "$value"; }, "$.variants[0].set['/durationS']",
              "\"$value\" stands for an axis value");
  ExpectError([](json& d) { d["quick"]["set"] = {{"/durationS", {{"x", "$value"}}}}; }, "$.quick.set['/durationS']",
              "\"$value\" stands for an axis value");
  // A set that makes the scenario invalid is blamed for it.
  ExpectError([](json& d) { d["variants"][1]["set"]["/tcp/flavor"] = "vegas"; }, "$.variants[1].set['/tcp/flavor']",
              "makes $.scenario.tcp.flavor invalid (variant \"sack\", buffer = 4, size = 10000): must be one of");
  ExpectError([](json& d) { d["axes"][0]["values"][2]["set"]["/tcp/initialWindow"] = 0; },
              "$.axes[0].values[2].set['/tcp/initialWindow']", "makes $.scenario.tcp.initialWindow invalid");
  ExpectError([](json& d) { d["quick"]["set"]["/durationS"] = 0; }, "$.quick.set['/durationS']",
              "makes $.scenario.durationS invalid (variant \"reno\", buffer = 8, size = 10000, --quick)");
  ExpectError([](json& d) { d["variants"][0]["set"]["/traffic/0/to"] = "router"; }, "$.variants[0].set['/traffic/0/to']",
              "makes $.scenario.traffic[0].to invalid");
  // An invalid combination that no set wrote at is blamed on the variant.
  ExpectError([](json& d) {
                d["scenario"]["record"] = {{"fairness", {"transfer"}}};
                d["variants"][0]["set"]["/traffic/0/name"] = "x";
              },
              "$.variants[0]",
              "the scenario is invalid (variant \"reno\", buffer = 4, size = 10000) at $.scenario.record.fairness[0]: "
              "no traffic item named \"transfer\"");

  ExpectError([](json& d) { d["quick"]["axes"] = {{"nope", {1}}}; }, "$.quick.axes.nope", "no axis named \"nope\"");
  ExpectError([](json& d) { d["quick"]["axes"]["buffer"] = {8, 5}; }, "$.quick.axes.buffer[1]",
              "5 is not a value of axis \"buffer\" (4, 8, 16)");
  ExpectError([](json& d) { d["quick"]["axes"]["buffer"] = {8, 8}; }, "$.quick.axes.buffer[1]", "duplicate value 8");

  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/run/nothing"; }, "$.metrics[0].pointer",
              "/run has no \"nothing\"");
  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/run/fairness"; }, "$.metrics[0].pointer",
              "/run/fairness is not a number");
  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/groups/0/flows/x"; }, "$.metrics[0].pointer",
              "/groups/0/flows is an array whose elements have no name");
  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/items/web/bytes"; }, "$.metrics[0].pointer",
              "/items is keyed by the scenario's traffic items (\"transfer\"); \"web\" is not one");
  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/run/parallelSet/newConnections/transfer/t1SegmentsPerS"; },
              "$.metrics[0].pointer",
              "/run/parallelSet/newConnections is keyed by the scenario's record.parallelSet (none); \"transfer\" is not one");
  ExpectError([](json& d) { d["metrics"][0]["pointer"] = "/items/transfer/nothing"; }, "$.metrics[0].pointer",
              "/items/transfer has no \"nothing\"");
  ExpectError([](json& d) { d["metrics"][1]["name"] = "completion"; }, "$.metrics[1].name", "duplicate metric name");

  ExpectError([](json& d) { d["paper"][0]["variant"] = "vegas"; }, "$.paper[0].variant", "no variant named \"vegas\"");
  ExpectError([](json& d) { d["paper"][0]["metric"] = "speed"; }, "$.paper[0].metric", "no metric named \"speed\"");
  ExpectError([](json& d) { d["paper"][0]["point"].erase("size"); }, "$.paper[0].point", "missing axis \"size\"");
  ExpectError([](json& d) { d["paper"][0]["point"]["size"] = 1; }, "$.paper[0].point.size", "1 is not a value of axis");
  ExpectError([](json& d) { d["paper"].push_back(d["paper"][0]); }, "$.paper[1]", "a second paper value");
  ExpectError([](json& d) { d.erase("paperTolerance"); }, "$.paper[0]", "a paper number needs a tolerance");

  ExpectError([](json& d) { d["claims"][0]["a"].erase("variant"); }, "$.claims[0].a", "names no variant");
  ExpectError([](json& d) { d["claims"][0].erase("metric"); }, "$.claims[0].a", "names no metric");
  ExpectError([](json& d) { d["claims"][0]["b"]["variant"] = "x"; }, "$.claims[0].b.variant", "no variant named \"x\"");
  ExpectError([](json& d) { d["claims"][0]["a"]["point"] = {{"depth", 1}}; }, "$.claims[0].a.point.depth", "no axis named");
  ExpectError([](json& d) { d["claims"][0]["points"] = {{{"buffer", 3}}}; }, "$.claims[0].points[0].buffer",
              "3 is not a value of axis \"buffer\"");
  ExpectError([](json& d) { d["claims"][0]["min"] = 2; }, "$.claims[0].min", "must not exceed max");
  ExpectError([](json& d) { d["claims"][0]["paper"] = {{"value", 0.9}, {"source", "§3"}}; }, "$.claims[0].max",
              "a ratio claim is bounded by the paper's number or by bounds of its own, not both");
  ExpectError([](json& d) {
                d["claims"][0].erase("max");
                d["claims"][0]["paper"] = {{"value", 0.9}, {"min", 0.8}, {"source", "§3"}};
              },
              "$.claims[0].paper.value", "a paper number is a value or a range");
  ExpectError([](json& d) {
                d["claims"][0].erase("max");
                d["claims"][0]["paper"] = {{"min", 0.9}, {"max", 0.8}, {"source", "§3"}};
              },
              "$.claims[0].paper.min", "must not exceed max");
  ExpectError([](json& d) { d["claims"][0]["measure"] = "reduction"; }, "$.claims[0].measure", "a measure is what the paper's number is in");
  ExpectError([](json& d) {
                d["claims"].push_back(
                    {{"text", "t"}, {"kind", "lowest"}, {"metric", "completion"}, {"among", {"x"}}, {"variant", "sack"}});
              },
              "$.claims[1].among[0]", "no variant named \"x\"");
  ExpectError([](json& d) { d["scenario"]["seed"] = 9007199254740990ULL; }, "$.replications", "the scenario's seed plus");
}

TEST(ExperimentTest, TheSchemaCompilesAndAcceptsItsExamples) {
  EXPECT_NO_THROW(JsonSchema::Compile(ExperimentSchemaDocument()));
  EXPECT_EQ(ExperimentSchemaDocument()["title"], "Experiment");
}

class BuiltInExperimentTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BuiltInExperimentTest, ParsesAndExpandsIntoValidScenarios) {
  const std::string name = GetParam();
  const Experiment e = ParseExperimentText(*ExperimentText(name));
  EXPECT_EQ(e.name, name) << "the file name is the experiment's name";
  EXPECT_EQ(e.scenario["name"], name) << "the base scenario, a preset, is named after the experiment";
  EXPECT_FALSE(e.title.empty());
  EXPECT_FALSE(e.reference.empty());
  EXPECT_FALSE(e.description.empty());
  EXPECT_FALSE(e.claims.empty());
  for (ExperimentMode mode : {ExperimentMode::kFull, ExperimentMode::kQuick}) {
    const ExperimentPlan plan = Expand(e, mode);
    EXPECT_EQ(plan.runs.size(), e.variants.size() * plan.points.size() * static_cast<size_t>(plan.replications));
    std::set<const Scenario*> cells;
    for (const RunSpec& spec : plan.runs) {
      cells.insert(spec.scenario.get());
      if (spec.replication == 0) {
        EXPECT_NO_THROW(ParseScenario(spec.ScenarioDocument()));
      }
    }
    EXPECT_EQ(cells.size(), e.variants.size() * plan.points.size());
  }
  // Its base scenario is a preset.
  EXPECT_EQ(json::parse(*PresetText(name)), e.scenario);
}

INSTANTIATE_TEST_SUITE_P(Experiments, BuiltInExperimentTest, ::testing::ValuesIn(ExperimentNames()),
                         [](const auto& info) { return testing::TestName(info.param); });

TEST(ExperimentTest, ExperimentNamesDoNotCollideWithScenarioPresets) {
  ASSERT_GE(ExperimentNames().size(), 2u);
  const std::vector<std::string> presets = PresetNames();
  for (const std::string& name : ExperimentNames()) {
    EXPECT_EQ(std::count(presets.begin(), presets.end(), name), 1) << name << " names a scenario preset too";
  }
  EXPECT_TRUE(std::is_sorted(presets.begin(), presets.end()));
  EXPECT_FALSE(ExperimentText("dumbbell-bulk").has_value());
}

}  // namespace
}  // namespace tcb
