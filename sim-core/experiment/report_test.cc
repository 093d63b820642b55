// Tests for experiment reports: statistics per cell, the claims of each kind on synthetic results
// (agreeing and differing), deterministic reports, and the built-in experiments' claims on --quick.
#include "experiment/report.h"

#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "metrics/statistics.h"
#include "scenario/json_schema.h"
#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;

// Three variants, one axis x = 1, 2, 3, three replications; quick keeps x = 1. The runs are not
// simulated: each test makes up the metric values.
json SyntheticExperiment(json claims) {
  json doc = json::parse(R"({
    "schemaVersion": 1,
    "name": "synthetic",
    "scenario": {
      "schemaVersion": 1,
      "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10}},
      "traffic": [{"type": "bulk", "from": "server", "to": "client", "bytes": 1000}]
    },
    "variants": [{"name": "a"}, {"name": "b", "label": "B"}, {"name": "c"}],
    "axes": [{"name": "x", "values": [1, 2, 3], "set": {"/durationS": "$value"}}],
    "replications": 3,
    "quick": {"replications": 2, "axes": {"x": [1]}},
    "metrics": [{"name": "m", "pointer": "/run/timeouts"},
                {"name": "k", "unit": "s", "pointer": "/run/meanCompletionTimeS"}],
    "paper": [{"variant": "b", "point": {"x": 2}, "metric": "m", "value": 2.1}]
  })");
  doc["claims"] = std::move(claims);
  return doc;
}

// Means of m: a = 1 at x = 1, 2 and 2.5 at x = 3; b = 2; c = 3. Replications add -0.1, 0, +0.1. Metric
// k is m + 10, missing for variant c's first replication.
std::optional<double> DefaultValue(size_t variant, size_t x, int replication, size_t metric) {
  static constexpr double kBase[] = {1, 2, 3};
  double m = variant == 0 && x == 2 ? 2.5 : kBase[variant];
  m += 0.1 * (replication - 1);
  if (metric == 0) return m;
  if (variant == 2 && replication == 0) return std::nullopt;
  return m + 10;
}

void ExpectConformsToReportSchema(const json& report) {
  const JsonSchema schema = JsonSchema::Compile(ReportSchemaDocument());
  const auto error = schema.Validate(report);
  EXPECT_FALSE(error.has_value()) << error->path << ": " << error->message;
}

using ValueFunction =
    std::function<std::optional<double>(size_t variant, size_t x, int replication, size_t metric)>;

json Report(const json& claims, ExperimentMode mode = ExperimentMode::kFull,
            const ValueFunction& value = DefaultValue) {
  const Experiment e = ParseExperiment(SyntheticExperiment(claims));
  const ExperimentPlan plan = Expand(e, mode);
  std::vector<RunRecord> records;
  for (const RunSpec& spec : plan.runs) {
    RunRecord r;
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      r.metrics.push_back(value(spec.variant, plan.points[spec.point][0], spec.replication, m));
    }
    r.result_hash = std::to_string(spec.index);
    records.push_back(std::move(r));
  }
  json report = BuildReport(e, plan, records);
  ExpectConformsToReportSchema(report);
  return report;
}

// The verdict of a single claim.
std::string Verdict(const json& claim, ExperimentMode mode = ExperimentMode::kFull,
                    const ValueFunction& value = DefaultValue) {
  return Report(json::array({claim}), mode, value)["claims"][0]["verdict"].get<std::string>();
}

json Claim(const std::string& kind, json fields) {
  json c{{"text", kind + " claim"}, {"kind", kind}, {"metric", "m"}};
  c.update(fields);
  return c;
}

// A claim about variant a's cells against variant b's.
json Compare(const std::string& kind, const char* a, const char* b, json fields) {
  json c = Claim(kind, std::move(fields));
  c["a"] = {{"variant", a}};
  c["b"] = {{"variant", b}};
  return c;
}

TEST(ExperimentReportTest, CellsHaveMeanSdAndConfidenceInterval) {
  const json report = Report(json::array());
  EXPECT_EQ(report["runs"], 27);
  EXPECT_EQ(report["mode"], "full");
  ASSERT_EQ(report["cells"].size(), 3u * 3u * 2u);
  const json& cell = report["cells"][0];  // a, x = 1, m: 0.9, 1.0, 1.1.
  EXPECT_EQ(cell["variant"], "a");
  EXPECT_EQ(cell["point"], json({{"x", 1}}));
  EXPECT_EQ(cell["metric"], "m");
  EXPECT_EQ(cell["n"], 3);
  EXPECT_NEAR(cell["mean"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(cell["sd"].get<double>(), 0.1, 1e-12);
  EXPECT_NEAR(cell["ci95"].get<double>(), StudentTQuantile(0.975, 2) * 0.1 / std::sqrt(3.0), 1e-12);
  EXPECT_FALSE(cell.contains("paper"));
  const json& with_paper = report["cells"][(1 * 3 + 1) * 2 + 0];  // b, x = 2, m.
  EXPECT_EQ(with_paper["paper"], 2.1);
  const json& missing = report["cells"][(2 * 3 + 0) * 2 + 1];  // c, x = 1, k: one value missing.
  EXPECT_EQ(missing["n"], 2);
  EXPECT_NEAR(missing["mean"].get<double>(), 13.05, 1e-12);

  const json none = Report(json::array(), ExperimentMode::kFull,
                           [](size_t, size_t, int r, size_t) {
                             return r == 0 ? std::optional<double>(4) : std::nullopt;
                           });
  EXPECT_EQ(none["cells"][0]["n"], 1);
  EXPECT_EQ(none["cells"][0]["mean"], 4);
  EXPECT_TRUE(none["cells"][0]["sd"].is_null());
  EXPECT_TRUE(none["cells"][0]["ci95"].is_null());
  const json empty =
      Report(json::array(), ExperimentMode::kFull, [](size_t, size_t, int, size_t) { return std::nullopt; });
  EXPECT_EQ(empty["cells"][0]["n"], 0);
  EXPECT_TRUE(empty["cells"][0]["mean"].is_null());
}

TEST(ExperimentReportTest, RatioClaims) {
  // a/b = 0.5 at x = 1, 2 and 1.25 at x = 3.
  EXPECT_EQ(Verdict(Compare("ratio", "a", "b", {{"max", 0.6}})), "differs");
  EXPECT_EQ(Verdict(Compare("ratio", "a", "b", {{"max", 0.6}, {"points", "most"}})), "agrees");
  EXPECT_EQ(Verdict(Compare("ratio", "a", "b", {{"min", 1.0}, {"points", "any"}})), "agrees");
  EXPECT_EQ(Verdict(Compare("ratio", "a", "b", {{"min", 1.5}, {"points", "any"}})), "differs");
  const json listed{{{"x", 1}}, {{"x", 2}}};
  EXPECT_EQ(Verdict(Compare("ratio", "a", "b", {{"min", 0.4}, {"max", 0.6}, {"points", listed}})), "agrees");
  // "a" defaults to the claim's own variant.
  EXPECT_EQ(Verdict(Claim("ratio", {{"variant", "c"}, {"b", {{"variant", "b"}}}, {"min", 1.49}, {"max", 1.51}})),
            "agrees");

  // Selectors that fix the point resolve to the same cells everywhere: checked once.
  json fixed_claim = Claim("ratio", {{"min", 2.4}, {"max", 2.6}});
  fixed_claim["a"] = {{"variant", "a"}, {"point", {{"x", 3}}}};
  fixed_claim["b"] = {{"variant", "a"}, {"point", {{"x", 1}}}};
  const json fixed = Report(json::array({fixed_claim}));
  EXPECT_EQ(fixed["claims"][0]["verdict"], "agrees");
  ASSERT_EQ(fixed["claims"][0]["results"].size(), 1u);
  EXPECT_NEAR(fixed["claims"][0]["results"][0]["ratio"].get<double>(), 2.5, 1e-12);

  // Two metrics of one variant.
  EXPECT_EQ(Verdict(Claim("ratio", {{"variant", "b"}, {"b", {{"metric", "k"}}}, {"max", 0.2}})), "agrees");
}

TEST(ExperimentReportTest, RatiosOfZeroMeans) {
  const ValueFunction zeros = [](size_t v, size_t, int, size_t) {
    return std::optional<double>(v == 2 ? 3.0 : 0.0);
  };
  const json report = Report(json::array({Compare("ratio", "a", "b", {{"min", 1}, {"max", 1}}),
                                          Compare("ratio", "c", "a", {{"min", 100}})}),
                             ExperimentMode::kFull, zeros);
  EXPECT_EQ(report["claims"][0]["verdict"], "agrees");  // 0/0 counts as equal means.
  EXPECT_EQ(report["claims"][0]["results"][0]["ratio"], 1.0);
  EXPECT_EQ(report["claims"][1]["verdict"], "agrees");
  EXPECT_EQ(report["claims"][1]["results"][0]["ratio"], "inf");  // JSON has no infinity.
}

TEST(ExperimentReportTest, LowestAndHighestClaims) {
  EXPECT_EQ(Verdict(Claim("lowest", {{"variant", "a"}})), "differs");  // Not at x = 3.
  EXPECT_EQ(Verdict(Claim("lowest", {{"variant", "a"}, {"points", "most"}})), "agrees");
  EXPECT_EQ(Verdict(Claim("highest", {{"variant", "c"}})), "agrees");
  EXPECT_EQ(Verdict(Claim("highest", {{"variant", "b"}})), "differs");
  const json listed{{{"x", 1}}, {{"x", 2}}};
  EXPECT_EQ(Verdict(Claim("highest", {{"variant", "b"}, {"among", {"a", "b"}}, {"points", listed}})), "agrees");
  EXPECT_EQ(Verdict(Claim("lowest", {{"a", {{"variant", "b"}}}, {"among", {"b", "c"}}})), "agrees");
  // Ties count as lowest.
  const ValueFunction equal = [](size_t, size_t, int, size_t) { return std::optional<double>(1.0); };
  EXPECT_EQ(Verdict(Claim("lowest", {{"variant", "b"}}), ExperimentMode::kFull, equal), "agrees");
  // A variant without values makes the ranking undecidable: no data, which does not agree.
  const json at_1{{{"x", 1}}};
  const json report = Report(json::array({Claim("lowest", {{"variant", "a"}, {"metric", "k"}, {"points", at_1}})}),
                             ExperimentMode::kFull, [](size_t v, size_t, int, size_t) {
                               return v == 2 ? std::nullopt : std::optional<double>(1.0 + static_cast<double>(v));
                             });
  EXPECT_EQ(report["claims"][0]["verdict"], "differs");
  EXPECT_EQ(report["claims"][0]["results"][0]["outcome"], "no data");
}

TEST(ExperimentReportTest, SignificantClaims) {
  // a = 1 ± 0.1 vs b = 2 ± 0.1 at x = 1: far apart.
  const json less = Compare("significant", "a", "b", {{"direction", "less"},
                                          {"points", {{{"x", 1}}}}});
  const json report = Report(json::array({less}));
  EXPECT_EQ(report["claims"][0]["verdict"], "agrees");
  const json& r = report["claims"][0]["results"][0];
  EXPECT_NEAR(r["difference"].get<double>(), -1.0, 1e-12);
  EXPECT_LT(r["interval"][1].get<double>(), 0.0);
  EXPECT_NEAR(r["dof"].get<double>(), 6.0, 1e-9);  // Jain: (2v)²/(2v²/4) - 2 = 6 for equal spreads, n = 3.
  EXPECT_EQ(r["reported"]["level"], 0.99);
  EXPECT_EQ(r["reported"]["significant"], true);

  json greater = less;
  greater["direction"] = "greater";
  EXPECT_EQ(Verdict(greater), "differs");
  // Quick mode has two replications: still a t-test, with fewer degrees of freedom.
  EXPECT_EQ(Verdict(less, ExperimentMode::kQuick), "agrees");

  // Too close to call at 0.99 with these spreads: 1.0 vs 1.1.
  const ValueFunction close = [](size_t v, size_t, int rep, size_t) {
    return std::optional<double>((v == 0 ? 1.0 : 1.1) + 0.1 * (rep - 1));
  };
  EXPECT_EQ(Verdict(Compare("significant", "a", "b", {{"direction", "less"}, {"level", 0.99}}),
                    ExperimentMode::kFull, close),
            "differs");

  // No variance on either side: the difference is exact.
  const ValueFunction exact = [](size_t v, size_t, int, size_t) {
    return std::optional<double>(v == 0 ? 1.0 : 2.0);
  };
  EXPECT_EQ(Verdict(less, ExperimentMode::kFull, exact), "agrees");
  // One replication: the t-test cannot be made.
  const ValueFunction single = [](size_t v, size_t, int rep, size_t) {
    return rep == 0 ? std::optional<double>(v == 0 ? 1.0 : 2.0) : std::nullopt;
  };
  const json undecided = Report(json::array({less}), ExperimentMode::kFull, single);
  EXPECT_EQ(undecided["claims"][0]["verdict"], "differs");
  EXPECT_EQ(undecided["claims"][0]["results"][0]["outcome"], "no data");
}

// A claim marked known differs without failing the check, and is printed with its reason; one that
// agrees after all says so.
TEST(ExperimentReportTest, KnownDifferencesAreReportedButDoNotFailTheCheck) {
  json differing = Claim("lowest", {{"variant", "c"}});
  differing["known"] = "our TCP opens with a handshake";
  const json report = Report(json::array({differing}));
  EXPECT_EQ(report["claims"][0]["verdict"], "differs");
  EXPECT_EQ(report["claims"][0]["known"], "our TCP opens with a handshake");
  EXPECT_EQ(report["claimSummary"]["differ"], 0);
  EXPECT_EQ(report["claimSummary"]["knownDiffer"], 1);
  EXPECT_TRUE(ClaimsHold(report));
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("✗ differs (known)"), std::string::npos) << text;
  EXPECT_NE(text.find("known: our TCP opens with a handshake"), std::string::npos) << text;

  json agreeing = Claim("lowest", {{"variant", "a"}, {"points", "most"}});
  agreeing["known"] = "stale note";
  const json fixed = Report(json::array({agreeing}));
  EXPECT_EQ(fixed["claims"][0]["verdict"], "agrees");
  EXPECT_NE(FormatReport(fixed).find("✓ agrees (expected to differ)"), std::string::npos);
}

// knownIn "full": the note applies to full-size runs only; on --quick the claim is checked as any other.
TEST(ExperimentReportTest, DifferencesKnownAtFullSizeOnlyFailTheQuickCheck) {
  json differing = Claim("lowest", {{"variant", "c"}});
  differing["known"] = "the gateway over-estimates at full size";
  differing["knownIn"] = "full";
  const json full = Report(json::array({differing}));
  EXPECT_EQ(full["claims"][0]["known"], "the gateway over-estimates at full size");
  EXPECT_EQ(full["claimSummary"]["knownDiffer"], 1);
  EXPECT_TRUE(ClaimsHold(full));
  const json quick = Report(json::array({differing}), ExperimentMode::kQuick);
  EXPECT_FALSE(quick["claims"][0].contains("known"));
  EXPECT_EQ(quick["claimSummary"]["differ"], 1);
  EXPECT_FALSE(ClaimsHold(quick));
}

TEST(ExperimentReportTest, ClaimsOutsideTheModeAreNotChecked) {
  const json claim = Claim("lowest", {{"variant", "a"}, {"points", {{{"x", 3}}}}});
  const json quick = Report(json::array({claim}), ExperimentMode::kQuick);
  EXPECT_EQ(quick["claims"][0]["verdict"], "not checked");
  EXPECT_EQ(quick["claimSummary"]["notChecked"], 1);
  EXPECT_TRUE(ClaimsHold(quick));
  const json full = Report(json::array({claim}));
  EXPECT_EQ(full["claims"][0]["verdict"], "differs");
  EXPECT_FALSE(ClaimsHold(full));
  EXPECT_EQ(full["claimSummary"]["differ"], 1);
}

TEST(ExperimentReportTest, TextTablesAndClaims) {
  const json report = Report(json::array({Claim("lowest", {{"variant", "a"}, {"text", "a is cheapest"}}),
                                          Claim("highest", {{"variant", "c"}, {"text", "c is dearest"}})}));
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("synthetic\n"), std::string::npos) << text;
  EXPECT_NE(text.find("mode full, 3 replications per cell, 27 runs"), std::string::npos) << text;
  EXPECT_NE(text.find("  x | a"), std::string::npos) << text;
  EXPECT_NE(text.find("| B "), std::string::npos) << "variants are headed by their labels\n" << text;
  EXPECT_NE(text.find("2 ± 0.25 (paper 2.1)"), std::string::npos) << text;
  EXPECT_NE(text.find("k [s]"), std::string::npos) << text;
  EXPECT_NE(text.find("13.05 ± 0.64 (n=2)"), std::string::npos) << text;
  EXPECT_NE(text.find("✗ DIFFERS     a is cheapest"), std::string::npos) << text;
  EXPECT_NE(text.find("✓ agrees      c is dearest"), std::string::npos) << text;
  EXPECT_NE(text.find("x = 3: a 2.5; among a 2.5, b 2, c 3  -> DIFFERS"), std::string::npos) << text;
  EXPECT_NE(text.find("1 agree, 1 differ, 0 not checked"), std::string::npos) << text;
}

TEST(ExperimentReportTest, ReportsAreDeterministic) {
  const Experiment e = ParseExperimentText(*ExperimentText("tcpint-fig-sack"));
  const json first = RunExperiment(e, ExperimentMode::kQuick);
  // The same runs finished in another order: records land at their run's index.
  const ExperimentPlan plan = Expand(e, ExperimentMode::kQuick);
  std::vector<RunRecord> records(plan.runs.size());
  for (size_t i = plan.runs.size(); i-- > 0;) records[i] = RecordRun(e, RunSpecSummary(plan.runs[i]));
  const json second = BuildReport(e, plan, records);
  EXPECT_EQ(first.dump(), second.dump());
  EXPECT_EQ(first["runsHash"].get<std::string>().size(), 64u);
  EXPECT_EQ(FormatReport(first), FormatReport(second));
}

// The seed papers' claims hold on the reduced runs (the full runs are `tcpsim reproduce NAME`).
class BuiltInClaimsTest : public ::testing::TestWithParam<std::string> {};

// Every claim agrees on --quick, except those marked known in all modes, which must still differ (if
// one agrees, its note is out of date); a claim known to differ only at full size must agree here.
TEST_P(BuiltInClaimsTest, AgreeOnQuick) {
  const Experiment e = ParseExperimentText(*ExperimentText(GetParam()));
  const json report = RunExperiment(e, ExperimentMode::kQuick);
  for (size_t i = 0; i < e.claims.size(); ++i) {
    EXPECT_EQ(report["claims"][i]["verdict"],
              KnownDifference(e.claims[i], ExperimentMode::kQuick).empty() ? "agrees" : "differs")
        << e.claims[i].text << "\n" << FormatReport(report);
  }
  EXPECT_TRUE(ClaimsHold(report));
  ExpectConformsToReportSchema(report);
}

INSTANTIATE_TEST_SUITE_P(Experiments, BuiltInClaimsTest, ::testing::ValuesIn(ExperimentNames()),
                         [](const auto& info) { return testing::TestName(info.param); });

}  // namespace
}  // namespace tcb
