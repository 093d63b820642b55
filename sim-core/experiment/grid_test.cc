// Tests for sweeps: the cartesian product shared by experiments and batches, and the plan of a
// batch's grid with its errors named in the request's terms.
#include "experiment/grid.h"

#include <gtest/gtest.h>

#include "scenario/presets.h"
#include "scenario/scenario.h"

namespace tcb {
namespace {

using nlohmann::json;

json Base() { return json::parse(*PresetText("dumbbell-bulk")); }

// The ScenarioError's "path: problem" of `body`, or "" when it throws none.
template <class Body>
std::string ErrorOf(Body&& body) {
  try {
    body();
  } catch (const ScenarioError& e) {
    return e.path() + ": " + e.problem();
  }
  return "";
}

TEST(GridTest, CartesianProductVariesTheFirstAxisSlowest) {
  using Points = std::vector<std::vector<size_t>>;
  EXPECT_EQ(CartesianProduct({}), Points{{}});
  EXPECT_EQ(CartesianProduct({{0, 1}, {0, 1, 2}}), (Points{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(CartesianProduct({{2, 0}}), (Points{{2}, {0}}));  // Indices as given, in their order.
  EXPECT_EQ(CartesianProduct({{0, 1}, {}}), Points{});
}

TEST(GridTest, PlansEveryPointWithItsValuesSeedAndDuration) {
  const std::vector<GridAxis> grid{{"/tcp/flavor", {"reno", "sack"}}, {"/durationS", {5, 10, 20}}};
  const GridPlan plan = PlanGrid(Base(), grid, 3);
  ASSERT_EQ(plan.points.size(), 6u);
  EXPECT_EQ(plan.points[1].values, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(plan.points[1].scenario["tcp"]["flavor"], "reno");
  EXPECT_EQ(plan.points[1].scenario["durationS"], 10);
  EXPECT_EQ(plan.points[5].scenario["tcp"]["flavor"], "sack");
  EXPECT_EQ(plan.points[5].duration_s, 20);
  EXPECT_EQ(plan.points[5].seed, 1u);
  EXPECT_EQ(plan.value_duration_s, (std::vector<std::vector<double>>{{60, 60}, {5, 10, 20}}));
  // The point's scenario is the base as given (not normalised), so a stored run reads as submitted.
  EXPECT_FALSE(plan.points[0].scenario.contains("hosts"));
  EXPECT_TRUE(plan.normalised.contains("hosts"));
}

// A one-axis grid takes each point's seed and duration from the check of its value alone; they are
// what the point's own check gives.
TEST(GridTest, OneAxisPointsHaveTheSeedAndDurationOfTheirValue) {
  const std::vector<GridAxis> grid{{"/seed", {7, 3, 11}}};
  const GridPlan plan = PlanGrid(Base(), grid, 2);
  ASSERT_EQ(plan.points.size(), 3u);
  for (size_t i = 0; i < plan.points.size(); ++i) {
    const json normalised = ParseScenario(plan.points[i].scenario).document;
    EXPECT_EQ(plan.points[i].seed, normalised.at("seed").get<uint64_t>());
    EXPECT_EQ(plan.points[i].duration_s, normalised.at("durationS").get<double>());
  }
  EXPECT_EQ(plan.points[2].seed, 11u);
  const GridPlan durations = PlanGrid(Base(), {{"/durationS", {5, 10}}}, 1);
  EXPECT_EQ(durations.points[1].duration_s, 10);
  EXPECT_EQ(durations.points[1].seed, 1u);
}

TEST(GridTest, NoGridIsOnePointOfTheBaseScenario) {
  json base = Base();
  base["seed"] = 42;
  const GridPlan plan = PlanGrid(base, {}, 1);
  ASSERT_EQ(plan.points.size(), 1u);
  EXPECT_EQ(plan.points[0].seed, 42u);
  EXPECT_EQ(plan.points[0].scenario, base);
}

TEST(GridTest, ErrorsNameTheScenarioTheValueOrTheCombination) {
  json bad = Base();
  bad["tcp"]["flavor"] = "vegas";
  EXPECT_EQ(ErrorOf([&] { PlanGrid(bad, {}, 1); }).rfind("$.scenario.tcp.flavor: ", 0), 0u);

  const std::string value = ErrorOf([&] { PlanGrid(Base(), {{"/tcp/flavor", {"reno", "vegas"}}}, 1); });
  EXPECT_EQ(value.rfind("$.grid['/tcp/flavor'][1]: makes $.scenario.tcp.flavor invalid: ", 0), 0u) << value;

  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {{"/nope/x", {1}}}, 1); }), "$.grid['/nope/x']: the scenario has no \"nope\"");
  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {{"tcp", {1}}}, 1); }), "$.grid.tcp: not a JSON Pointer to a member");
  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {{"/seed", {}}}, 1); }), "$.grid['/seed']: must have at least one value");

  // Each value is valid on its own; together the traffic names a pair the topology does not have.
  json two_flows = Base();
  two_flows["traffic"][0]["count"] = 2;
  const std::string combination = ErrorOf([&] {
    PlanGrid(two_flows, {{"/topology/pairs", {20, 2}}, {"/traffic/0/count", {2, 20}}}, 1);
  });
  EXPECT_EQ(combination.rfind("$.grid: the point {\"/topology/pairs\":2,\"/traffic/0/count\":20} makes $.scenario.", 0), 0u)
      << combination;
}

// The scheme sweep of a scenario whose E-TCP host sets tickets: each point keeps only the members
// its scheme has, so independent and Careful Resume do not inherit E-TCP's tickets.
TEST(GridTest, ASchemeAxisKeepsOnlyTheMembersOfEachScheme) {
  json base = json::parse(*PresetText("scheme-etcp"));
  ASSERT_EQ(base["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "etcp", "tickets": "html-pre"})"));
  const GridPlan plan = PlanGrid(base, {{"/hosts/left0/sharing/scheme", {"independent", "etcp", "careful-resume"}}}, 1);
  ASSERT_EQ(plan.points.size(), 3u);
  EXPECT_EQ(plan.points[0].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "independent"})"));
  EXPECT_EQ(plan.points[1].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "etcp", "tickets": "html-pre"})"));
  EXPECT_EQ(plan.points[2].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "careful-resume"})"));
  // Members both schemes have stay: RFC 9040's scope under E-TCP.
  base["hosts"]["left0"]["sharing"] = {{"scheme", "rfc9040-temporal"}, {"scope", "network"}, {"merge", "mean"}};
  const GridPlan scoped = PlanGrid(base, {{"/hosts/left0/sharing/scheme", {"etcp"}}}, 1);
  EXPECT_EQ(scoped.points[0].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "etcp", "scope": "network"})"));
  // A scheme the schema does not know is set as it is, and the scenario's validation names it.
  const std::string unknown = ErrorOf([&] { PlanGrid(base, {{"/hosts/left0/sharing/scheme", {"vegas"}}}, 1); });
  EXPECT_EQ(unknown.rfind("$.grid['/hosts/left0/sharing/scheme'][0]: makes $.scenario.hosts.left0.sharing", 0), 0u) << unknown;
}

// Any value may be a whole object: named sharing configurations, each replacing the host's.
TEST(GridTest, AValueMayBeAWholeObject) {
  const json base = json::parse(*PresetText("scheme-etcp"));
  const std::vector<GridAxis> grid{
      {"/hosts/left0/sharing", {json{{"scheme", "independent"}}, json{{"scheme", "etcp"}, {"tickets", "content"}}}},
      {"/traffic/0/bytes", {100000, 200000}}};
  const GridPlan plan = PlanGrid(base, grid, 1);
  ASSERT_EQ(plan.points.size(), 4u);
  EXPECT_EQ(plan.points[1].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "independent"})"));
  EXPECT_EQ(plan.points[3].scenario["hosts"]["left0"]["sharing"], json::parse(R"({"scheme": "etcp", "tickets": "content"})"));
}

// The discriminator rule applies wherever the schema has one, and nowhere else.
TEST(GridTest, SetGridValueChoosesABranchByItsDiscriminatorOnly) {
  json doc = Base();
  // A plain member: as SetAtPointer.
  EXPECT_EQ(SetGridValue(doc, "/tcp/flavor", "sack"), std::nullopt);
  EXPECT_EQ(doc["tcp"]["flavor"], "sack");
  // A topology's kind: the dumbbell's members that a single link has are kept, the others dropped.
  json topology = doc;
  EXPECT_EQ(SetGridValue(topology, "/topology/kind", "single-link"), std::nullopt);
  for (const auto& [key, _] : topology["topology"].items()) {
    EXPECT_TRUE(key == "kind" || doc["topology"].contains(key)) << key;
    EXPECT_NE(key, "pairs");
  }
  // Errors are SetAtPointer's.
  json shared = json::parse(*PresetText("scheme-etcp"));
  EXPECT_EQ(SetGridValue(shared, "/hosts/nowhere/sharing/scheme", "etcp"), "/hosts has no \"nowhere\"");
}

TEST(GridTest, TheLastReplicationsSeedMustStayBelowTwoToThe53) {
  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {{"/seed", {1, kMaxSeed}}}, 2); }),
            "$.replications: seed 9007199254740991 + 1 is beyond 2^53 - 1");
  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {{"/seed", {kMaxSeed}}}, 1); }), "");
  EXPECT_EQ(ErrorOf([&] { PlanGrid(Base(), {}, 0); }), "$.replications: must be at least 1");
}

TEST(GridTest, TheRequestDocumentKeepsTheGridsOrder) {
  json request = {{"scenario", Base()}, {"replications", 2}};
  // "/tcp/flavor" after "/durationS" in the text: the first in the text varies slowest.
  const std::string text = R"({"scenario": )" + Base().dump() +
                           R"(, "grid": {"/tcp/flavor": ["reno", "sack"], "/durationS": [5, 10]}, "replications": 2})";
  const nlohmann::ordered_json plan = PlanGridText(text);
  EXPECT_EQ(plan["pointers"], nlohmann::ordered_json::parse(R"(["/tcp/flavor", "/durationS"])"));
  ASSERT_EQ(plan["points"].size(), 4u);
  EXPECT_EQ(plan["points"][1]["params"].dump(), R"({"/tcp/flavor":"reno","/durationS":10})");
  EXPECT_EQ(plan["points"][2]["params"].dump(), R"({"/tcp/flavor":"sack","/durationS":5})");
  EXPECT_EQ(plan["points"][3]["seed"], 1);
  EXPECT_EQ(plan["points"][3]["durationS"], 10);

  EXPECT_EQ(ErrorOf([] { PlanGridText("[]"); }), "$: must be an object {scenario, grid, replications}");
  EXPECT_EQ(ErrorOf([] { PlanGridText(R"({"scenario": {}, "grids": {}})"); }),
            "$.grids: unknown field (expected scenario, grid or replications)");
  EXPECT_EQ(ErrorOf([&] { PlanGridText(R"({"scenario": )" + Base().dump() + R"(, "replications": 0})"); }),
            "$.replications: must be an integer from 1 to 1000000");
}

}  // namespace
}  // namespace tcb
