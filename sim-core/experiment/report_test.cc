// Tests for experiment reports: statistics per cell, the claims of each kind on synthetic results
// (agreeing and differing), magnitudes against the paper's numbers and the verdicts they make,
// deterministic reports, and the built-in experiments' claims on --quick.
#include "experiment/report.h"

#include <set>

#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "experiment/claims.h"
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
    "paper": [{"variant": "b", "point": {"x": 2}, "metric": "m", "value": 2.1}],
    "paperTolerance": {"relative": 0.1, "basis": "synthetic: the paper prints two digits"}
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

json ReportOf(const json& document, ExperimentMode mode = ExperimentMode::kFull,
              const ValueFunction& value = DefaultValue) {
  const Experiment e = ParseExperiment(document);
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

json Report(const json& claims, ExperimentMode mode = ExperimentMode::kFull,
            const ValueFunction& value = DefaultValue) {
  return ReportOf(SyntheticExperiment(claims), mode, value);
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
  EXPECT_NEAR(with_paper["paperRatio"].get<double>(), 2.0 / 2.1, 1e-12);
  EXPECT_EQ(with_paper["paperWithin"], true);
  EXPECT_EQ(report["paperSummary"], json({{"compared", 1}, {"within", 1}, {"within2x", 1}, {"beyond2x", 0}}));
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
  // At x = 1 and 3: b's cell at x = 2 has a paper value (2.1), which zeros are far from.
  const json points{{{"x", 1}}, {{"x", 3}}};
  const json report = Report(json::array({Compare("ratio", "a", "b", {{"min", 1}, {"max", 1}, {"points", points}}),
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
  EXPECT_EQ(Verdict(Claim("lowest", {{"variant", "b"}, {"points", {{{"x", 1}}}}}), ExperimentMode::kFull, equal), "agrees");
  // At x = 2 the paper's 2.1 for b is far from 1: the order holds, the magnitude does not.
  EXPECT_EQ(Verdict(Claim("lowest", {{"variant", "b"}}), ExperimentMode::kFull, equal), "magnitude differs");
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

// A significance table as Savorić et al. §6 (Tables 3 and 5) report one: mean(from) - mean(other) per
// tested metric, point and variant, ours beside the paper's, and whether the two conclude the same.
TEST(ExperimentReportTest, DifferenceTablesReportEachDifferenceAsTheSavoricTablesDo) {
  json doc = SyntheticExperiment(json::array());
  doc["differences"] = json::parse(R"({
    "from": "a",
    "metrics": ["m"],
    "paper": [
      {"variant": "b", "metric": "m", "point": {"x": 1}, "level": 0.99, "interval": [-1.5, -0.5], "note": "Table 3"},
      {"variant": "c", "metric": "m", "point": {"x": 1}, "level": 0.9, "interval": [-0.2, 0.3]},
      {"variant": "b", "metric": "m", "point": {"x": 3}, "level": 0.95, "interval": [-0.03, 0]}
    ]
  })");
  const json report = ReportOf(doc);
  const json& d = report["differences"];
  EXPECT_EQ(d["from"], "a");
  // 3 points x 1 metric x 2 other variants.
  ASSERT_EQ(d["rows"].size(), 6u);
  // x = 1: a = 1 ± 0.1 against b = 2 ± 0.1, significant at 0.99 with a negative sign, as the paper.
  const json& ab1 = d["rows"][0];
  EXPECT_EQ(ab1["variant"], "b");
  EXPECT_EQ(ab1["point"], json({{"x", 1}}));
  EXPECT_EQ(ab1["ours"]["level"], 0.99);
  EXPECT_TRUE(ab1["ours"]["significant"].get<bool>());
  EXPECT_LT(ab1["ours"]["interval"][1].get<double>(), 0);
  EXPECT_EQ(ab1["paper"]["level"], 0.99);
  EXPECT_EQ(ab1["paperNote"], "Table 3");
  EXPECT_TRUE(ab1["sameConclusion"].get<bool>());
  // a against c = 3: significant, where the paper finds no difference.
  const json& ac1 = d["rows"][1];
  EXPECT_FALSE(ac1["paper"]["significant"].get<bool>());
  EXPECT_FALSE(ac1["sameConclusion"].get<bool>());
  // x = 2 has no paper interval: ours alone.
  EXPECT_FALSE(d["rows"][2].contains("paper"));
  EXPECT_FALSE(d["rows"][2].contains("sameConclusion"));
  // x = 3: a = 2.5 against b = 2, positive; the paper's "0.95 : (-0.03, 0)" is significant (a level
  // above 0.90 is, whatever its rounded bound) and negative, so the conclusions differ in sign.
  const json& ab3 = d["rows"][4];
  EXPECT_TRUE(ab3["paper"]["significant"].get<bool>());
  EXPECT_GT(ab3["ours"]["interval"][0].get<double>(), 0);
  EXPECT_FALSE(ab3["sameConclusion"].get<bool>());

  const std::string md = FormatReportMarkdown(report);
  EXPECT_NE(md.find("| metric | point | a − B, ours | paper | a − c, ours | paper |"), std::string::npos) << md;
  EXPECT_NE(md.find("0.99 : (-1.50, -0.50)"), std::string::npos) << md;
  EXPECT_NE(md.find("0.90 : (-0.20, +0.30) n.s."), std::string::npos) << md;
  EXPECT_NE(md.find("1 of 3 differences reach the paper's conclusion"), std::string::npos) << md;
  EXPECT_NE(FormatReport(report).find("1 of 3 differences"), std::string::npos);

  // Fewer than two values on a side: no test, and no conclusion to compare.
  const ValueFunction single = [](size_t v, size_t, int rep, size_t) {
    return rep == 0 ? std::optional<double>(v == 0 ? 1.0 : 2.0) : std::nullopt;
  };
  const json sparse = ReportOf(doc, ExperimentMode::kFull, single);
  EXPECT_TRUE(sparse["differences"]["rows"][0]["ours"].is_null());
  EXPECT_FALSE(sparse["differences"]["rows"][0].contains("sameConclusion"));
}

TEST(ExperimentReportTest, DifferenceTablesRejectWhatTheyCannotCompare) {
  const auto error_of = [](const char* differences) -> std::string {
    json doc = SyntheticExperiment(json::array());
    doc["differences"] = json::parse(differences);
    try {
      ParseExperiment(doc);
    } catch (const ScenarioError& e) {
      return e.path();
    }
    return "";
  };
  EXPECT_EQ(error_of(R"({"from": "z"})"), "$.differences.from");
  EXPECT_EQ(error_of(R"({"from": "a", "metrics": ["m"], "paper": [
    {"variant": "a", "metric": "m", "point": {"x": 1}, "level": 0.9, "interval": [0, 1]}]})"),
            "$.differences.paper[0].variant");
  EXPECT_EQ(error_of(R"({"from": "a", "metrics": ["m"], "paper": [
    {"variant": "b", "metric": "k", "point": {"x": 1}, "level": 0.9, "interval": [0, 1]}]})"),
            "$.differences.paper[0].metric");
  EXPECT_EQ(error_of(R"({"from": "a", "paper": [
    {"variant": "b", "metric": "m", "point": {"x": 1}, "level": 0.9, "interval": [1, 0]}]})"),
            "$.differences.paper[0].interval");
  EXPECT_EQ(error_of(R"({"from": "a", "paper": [
    {"variant": "b", "metric": "m", "point": {"x": 1}, "level": 0.8, "interval": [0, 1]}]})"),
            "$.differences.paper[0].level");
  EXPECT_EQ(error_of(R"({"from": "a"})"), "");
}

// A claim marked known differs without failing the check, and is printed with its cause; one that
// agrees after all says so.
TEST(ExperimentReportTest, KnownDifferencesAreReportedButDoNotFailTheCheck) {
  json differing = Claim("lowest", {{"variant", "c"}});
  differing["known"] = "our TCP opens with a handshake";
  const json report = Report(json::array({differing}));
  EXPECT_EQ(report["claims"][0]["verdict"], "differs");
  EXPECT_EQ(report["claims"][0]["mark"], "✗");
  EXPECT_EQ(report["claims"][0]["verdictText"], "differs");
  EXPECT_EQ(report["claims"][0]["known"], "our TCP opens with a handshake");
  EXPECT_EQ(report["claims"][0]["explained"], true);
  EXPECT_EQ(report["claimSummary"]["counts"]["differs"], 1);
  EXPECT_EQ(report["claimSummary"]["unexplained"], 0);
  EXPECT_TRUE(ClaimsHold(report));
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("✗ differs [order] lowest claim"), std::string::npos) << text;
  EXPECT_NE(text.find("known cause: our TCP opens with a handshake"), std::string::npos) << text;

  json agreeing = Claim("lowest", {{"variant", "a"}, {"points", "most"}});
  agreeing["known"] = "stale note";
  const json fixed = Report(json::array({agreeing}));
  EXPECT_EQ(fixed["claims"][0]["verdict"], "agrees");
  EXPECT_NE(FormatReport(fixed).find("known cause (no longer shows: the claim holds): stale note"), std::string::npos);

  // Without the note the same difference fails the check, and the text says it has no known cause.
  const json unexplained = Report(json::array({Claim("lowest", {{"variant", "c"}})}));
  EXPECT_EQ(unexplained["claims"][0]["explained"], false);
  EXPECT_EQ(unexplained["claimSummary"]["unexplained"], 1);
  EXPECT_FALSE(ClaimsHold(unexplained));
  EXPECT_NE(FormatReport(unexplained).find("✗ differs (no known cause) [order]"), std::string::npos);
}

// knownIn "full": the note applies to full-size runs only; on --quick the claim is checked as any other.
TEST(ExperimentReportTest, DifferencesKnownAtFullSizeOnlyFailTheQuickCheck) {
  json differing = Claim("lowest", {{"variant", "c"}});
  differing["known"] = "the gateway over-estimates at full size";
  differing["knownIn"] = "full";
  const json full = Report(json::array({differing}));
  EXPECT_EQ(full["claims"][0]["known"], "the gateway over-estimates at full size");
  EXPECT_EQ(full["claimSummary"]["unexplained"], 0);
  EXPECT_TRUE(ClaimsHold(full));
  const json quick = Report(json::array({differing}), ExperimentMode::kQuick);
  EXPECT_FALSE(quick["claims"][0].contains("known"));
  EXPECT_EQ(quick["claimSummary"]["unexplained"], 1);
  EXPECT_FALSE(ClaimsHold(quick));
  // "quick": the other way round.
  differing["knownIn"] = "quick";
  EXPECT_FALSE(ClaimsHold(Report(json::array({differing}))));
  EXPECT_TRUE(ClaimsHold(Report(json::array({differing}), ExperimentMode::kQuick)));
}

TEST(ExperimentReportTest, ClaimsOutsideTheModeAreNotChecked) {
  const json claim = Claim("lowest", {{"variant", "a"}, {"points", {{{"x", 3}}}}});
  const json quick = Report(json::array({claim}), ExperimentMode::kQuick);
  EXPECT_EQ(quick["claims"][0]["verdict"], "not checked");
  EXPECT_EQ(quick["claims"][0]["mark"], "–");
  EXPECT_EQ(quick["claimSummary"]["counts"]["not checked"], 1);
  EXPECT_TRUE(ClaimsHold(quick));
  const json full = Report(json::array({claim}));
  EXPECT_EQ(full["claims"][0]["verdict"], "differs");
  EXPECT_FALSE(ClaimsHold(full));
  EXPECT_EQ(full["claimSummary"]["counts"]["differs"], 1);
}

// A claim with a paper number of its own ("a takes a ninth of b's time").
json PaperRatio(json paper, json fields = json::object()) {
  json c = Compare("ratio", "a", "b", {{"paper", std::move(paper)}, {"points", {{{"x", 1}}, {{"x", 2}}}}});
  c.update(fields);
  return c;
}

// The verdict covers the magnitude: a matching direction with a paper number 4.5 times away is its
// own verdict, not "agrees".
TEST(ExperimentReportTest, AMagnitudeFarOffWithAMatchingDirectionIsItsOwnVerdict) {
  // Ours: a/b = 0.5; the paper's 0.5 / 4.5 = 0.111.
  const json report = Report(json::array({PaperRatio({{"value", 0.5 / 4.5}, {"source", "Table 9"}})}));
  const json& claim = report["claims"][0];
  EXPECT_EQ(claim["kind"], "ratio");
  EXPECT_EQ(claim["verdict"], "magnitude differs");
  EXPECT_EQ(claim["mark"], "≈");
  EXPECT_EQ(claim["verdictText"], "direction agrees, magnitude ×4.5");
  EXPECT_EQ(claim["explained"], false);
  EXPECT_NEAR(claim["magnitude"]["worstFactor"].get<double>(), 4.5, 1e-9);
  EXPECT_EQ(claim["magnitude"]["compared"], 2);
  EXPECT_EQ(claim["magnitude"]["within"], 0);
  const json& m = claim["results"][0]["magnitudes"][0];
  EXPECT_EQ(m["source"], "claim");
  EXPECT_NEAR(m["ours"].get<double>(), 0.5, 1e-12);
  EXPECT_NEAR(m["factor"].get<double>(), 4.5, 1e-9);
  EXPECT_FALSE(ClaimsHold(report));
  EXPECT_EQ(report["claimSummary"]["counts"]["magnitude differs"], 1);

  // With its cause known, the check passes, and every surface prints the cause beside the verdict.
  json known = PaperRatio({{"value", 0.5 / 4.5}, {"source", "Table 9"}});
  known["knownMagnitude"] = "the paper's link is 4.5 times slower";
  const json explained = Report(json::array({known}));
  EXPECT_EQ(explained["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(explained["claims"][0]["explained"], true);
  EXPECT_TRUE(ClaimsHold(explained));
  const std::string text = FormatReport(explained);
  EXPECT_NE(text.find("≈ direction agrees, magnitude ×4.5 [ratio] ratio claim"), std::string::npos) << text;
  EXPECT_NE(text.find("known cause of the magnitudes: the paper's link is 4.5 times slower"), std::string::npos);
  const std::string md = FormatReportMarkdown(explained);
  EXPECT_NE(md.find("- ≈ direction agrees, magnitude ×4.5 (ratio): ratio claim"), std::string::npos) << md;
  EXPECT_NE(md.find("  - known cause of the magnitudes: the paper's link is 4.5 times slower"), std::string::npos);

  // The direction wrong: differs, whatever the magnitude.
  EXPECT_EQ(Verdict(PaperRatio({{"value", 2.0}, {"source", "Table 9"}})), "differs");
}

TEST(ExperimentReportTest, AMagnitudeWithinTheToleranceAgrees) {
  // 0.5 against 0.52 with the experiment's ±10 %.
  const json report = Report(json::array({PaperRatio({{"value", 0.52}, {"source", "§3"}})}));
  EXPECT_EQ(report["claims"][0]["verdict"], "agrees");
  EXPECT_EQ(report["claims"][0]["verdictText"], "agrees");
  EXPECT_EQ(report["claims"][0]["magnitude"]["within"], 2);
  EXPECT_TRUE(report["claims"][0]["magnitude"]["worstFactor"].is_null());
  EXPECT_EQ(report["claims"][0]["tolerance"],
            json({{"relative", 0.1}, {"absolute", 0.0}, {"basis", "synthetic: the paper prints two digits"}}));
  // A number's own tolerance replaces the experiment's: 0.5 against 0.6 is outside ±10 % but within ±20 %.
  EXPECT_EQ(Verdict(PaperRatio({{"value", 0.6}, {"source", "§3"}})), "magnitude differs");
  EXPECT_EQ(Verdict(PaperRatio({{"value", 0.6}, {"source", "§3"}, {"tolerance", {{"relative", 0.2}, {"basis", "read off a bar"}}}})),
            "agrees");
}

// A tolerance is at most ±50 %: no number more than 2 times away can agree; and a paper number needs one.
TEST(ExperimentReportTest, NoToleranceLetsANumberTwiceAwayAgree) {
  json doc = SyntheticExperiment(json::array());
  doc["paperTolerance"]["relative"] = 0.6;
  EXPECT_THROW(ParseExperiment(doc), ScenarioError);
  doc.erase("paperTolerance");
  try {
    ParseExperiment(doc);
    FAIL() << "a paper number without a tolerance";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.paper[0]");
  }
  // A metric's tolerance for its paper values comes between the value's own and the experiment's.
  doc = SyntheticExperiment(json::array());
  doc["metrics"][0]["paperTolerance"] = {{"relative", 0.01}, {"basis", "printed to three digits"}};
  const json metric_tolerance = ReportOf(doc);
  EXPECT_EQ(metric_tolerance["cells"][(1 * 3 + 1) * 2 + 0]["paperWithin"], false);  // 2 against 2.1.
  doc["paper"][0]["tolerance"] = {{"relative", 0.1}, {"basis", "read off a plot"}};
  EXPECT_EQ(ReportOf(doc)["cells"][(1 * 3 + 1) * 2 + 0]["paperWithin"], true);
  // The most generous tolerance, 0.5, against numbers 1.5 and 2.1 times away.
  const json generous{{"relative", 0.5}, {"basis", "wide"}};
  EXPECT_EQ(Verdict(PaperRatio({{"value", 0.5 / 1.5}, {"source", "x"}, {"tolerance", generous}})), "agrees");
  EXPECT_EQ(Verdict(PaperRatio({{"value", 0.5 / 2.1}, {"source", "x"}, {"tolerance", generous}})), "magnitude differs");
  EXPECT_EQ(Verdict(PaperRatio({{"value", 0.5 * 2.1}, {"source", "x"}, {"tolerance", generous}})), "differs");
}

// "a is 6-46 % faster than b" over the points: a reduction, a range, widened by the tolerance.
TEST(ExperimentReportTest, RangesOfReductions) {
  // Ours: 1 - a/b = 0.5 at x = 1, 2.
  json claim = PaperRatio({{"min", 0.06}, {"max", 0.46}, {"source", "§4.1"}}, {{"measure", "reduction"}});
  const json report = Report(json::array({claim}));
  EXPECT_EQ(report["claims"][0]["verdict"], "agrees");  // 0.5 <= 0.46 + 10 %.
  EXPECT_NEAR(report["claims"][0]["results"][0]["measured"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(report["claims"][0]["results"][0]["magnitudes"][0]["paper"], json({{"min", 0.06}, {"max", 0.46}}));
  claim["paper"]["max"] = 0.3;
  const json far = Report(json::array({claim}));
  EXPECT_EQ(far["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(far["claims"][0]["verdictText"], "direction agrees, magnitude ×1.7");  // 0.5 / 0.3.
  // The claim sums up with its farthest comparison: the paper's number, ours and the ratio.
  const json& farthest = far["claims"][0]["magnitude"]["farthest"];
  EXPECT_EQ(farthest["at"], json({{"x", 1}}));
  EXPECT_EQ(farthest["comparison"]["paper"], json({{"min", 0.06}, {"max", 0.3}}));
  EXPECT_NEAR(farthest["comparison"]["ours"].get<double>(), 0.5, 1e-12);
  EXPECT_NEAR(farthest["comparison"]["factor"].get<double>(), 0.5 / 0.3, 1e-12);
  // A bound: "more than 60 % faster".
  EXPECT_EQ(Verdict(PaperRatio({{"min", 0.6}, {"source", "§6"}}, {{"measure", "reduction"}})), "magnitude differs");
  EXPECT_EQ(Verdict(PaperRatio({{"min", 0.45}, {"source", "§6"}}, {{"measure", "reduction"}})), "agrees");
  // "a is 80-120 % slower": an increase, the wrong way.
  EXPECT_EQ(Verdict(PaperRatio({{"min", 0.8}, {"max", 1.2}, {"source", "§6"}}, {{"measure", "increase"}})), "differs");
  // A range that includes no change has no direction: its magnitude decides.
  const json none = Report(json::array({PaperRatio({{"min", 0.95}, {"max", 1.05}, {"source", "§7"}})}));
  EXPECT_EQ(none["claims"][0]["hasDirection"], false);
  EXPECT_EQ(none["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(none["claims"][0]["verdictText"], "magnitude ×0.53");  // 0.5 / 0.95.
  // "In most cases" holds for the magnitudes as for the direction: at most of the points.
  json most = Compare("ratio", "a", "b", {{"paper", {{"min", 0.3}, {"max", 0.7}, {"source", "§2"}}},
                                          {"measure", "reduction"}, {"points", "most"}});
  const json mixed = Report(json::array({most}));  // 0.5, 0.5 and -0.25 at x = 3.
  EXPECT_EQ(mixed["claims"][0]["verdict"], "agrees");
  EXPECT_EQ(mixed["claims"][0]["magnitude"]["within"], 2);
  EXPECT_EQ(mixed["claims"][0]["results"][2]["magnitudes"][0]["note"], "opposite sign");
  // Farthest: the one outside the tolerance, without a factor.
  EXPECT_EQ(mixed["claims"][0]["magnitude"]["farthest"]["at"], json({{"x", 3}}));
  most["paper"]["min"] = 0.6;  // 0.5 is outside 0.6 - 10 % at x = 1 and 2 as well.
  const json off = Report(json::array({most}));
  EXPECT_EQ(off["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(off["claims"][0]["verdictText"], "direction agrees, magnitude ×0.83, opposite sign at 1 point");
}

// "a completes 2.8-3.4 RTTs sooner than b" (Yanev et al. 2025, cited by RFC 9959 §1.4): a saving,
// mean(b) - mean(a) in the metric's unit, against the paper's range.
TEST(ExperimentReportTest, SavingsAreDifferencesOfMeans) {
  // Ours: b - a = 1 at x = 1, 2.
  json claim = PaperRatio({{"min", 0.9}, {"max", 1.2}, {"source", "§5"}}, {{"measure", "saving"}});
  const json report = Report(json::array({claim}));
  EXPECT_EQ(report["claims"][0]["measure"], "saving");
  EXPECT_NEAR(report["claims"][0]["results"][0]["measured"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(report["claims"][0]["results"][0]["ratio"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(report["claims"][0]["verdict"], "agrees");
  claim["paper"] = {{"min", 2.8}, {"max", 3.4}, {"source", "§5"}};
  const json far = Report(json::array({claim}));
  EXPECT_EQ(far["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(far["claims"][0]["verdictText"], "direction agrees, magnitude ×0.36");  // 1 / 2.8.
  // b saves against a: the wrong way.
  claim = Compare("ratio", "b", "a", {{"paper", {{"min", 0.9}, {"source", "§5"}}}, {"measure", "saving"}});
  EXPECT_EQ(Verdict(claim), "differs");
  EXPECT_NE(FormatReport(report).find("mean(b) - mean(a) against the paper's 0.9–1.2"), std::string::npos);
}

// A metric divided by another number of the same run: a completion time in RTTs.
TEST(ExperimentReportTest, AMetricPerAnotherNumberOfTheSameRun) {
  json doc = SyntheticExperiment(json::array());
  doc["metrics"][1]["per"] = "/flows/0/initial/srttS";
  const Experiment e = ParseExperiment(doc);
  const json summary = {{"run", {{"timeouts", 2}, {"meanCompletionTimeS", 1.5}}},
                        {"flows", json::array({{{"initial", {{"srttS", 0.5}}}}})}};
  const RunRecord r = RecordRun(e, summary);
  EXPECT_EQ(r.metrics[0], 2.0);
  EXPECT_EQ(r.metrics[1], 3.0);
  json no_rtt = summary;
  no_rtt["flows"][0]["initial"]["srttS"] = 0;
  EXPECT_FALSE(RecordRun(e, no_rtt).metrics[1].has_value());
  no_rtt["flows"][0]["initial"]["srttS"] = nullptr;
  EXPECT_FALSE(RecordRun(e, no_rtt).metrics[1].has_value());
  EXPECT_EQ(ReportOf(doc)["metrics"][1]["per"], "/flows/0/initial/srttS");
  doc["metrics"][1]["per"] = "/run/nothing";
  try {
    ParseExperiment(doc);
    FAIL() << "a per pointer to nothing";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(error.path(), "$.metrics[1].per");
  }
}

// Without a paper number of its own, a claim compares the paper values of the cells it reads.
TEST(ExperimentReportTest, OrderAndSignificanceClaimsCompareTheirCellsPaperValues) {
  // b's cell at x = 2 has the paper's 2.1 (ours 2).
  const json at_2{{{"x", 2}}};
  const json report = Report(json::array({Claim("highest", {{"variant", "c"}, {"points", at_2}}),
                                          Compare("significant", "a", "b", {{"direction", "less"}, {"points", at_2}})}));
  for (const json& claim : report["claims"]) {
    EXPECT_EQ(claim["verdict"], "agrees") << claim.dump(2);
    EXPECT_EQ(claim["magnitude"]["compared"], 1);
    EXPECT_EQ(claim["results"][0]["magnitudes"][0]["source"], "cell");
    EXPECT_EQ(claim["results"][0]["magnitudes"][0]["variant"], "b");
  }
  EXPECT_EQ(report["claims"][0]["kind"], "order");
  EXPECT_EQ(report["claims"][1]["kind"], "significance");
  // The paper's value 4.5 times b's: the ordering holds, the magnitude does not.
  json doc = SyntheticExperiment(json::array({Claim("highest", {{"variant", "c"}, {"points", at_2}})}));
  doc["paper"][0]["value"] = 9.0;
  const json built = ReportOf(doc);
  EXPECT_EQ(built["claims"][0]["verdict"], "magnitude differs");
  EXPECT_EQ(built["claims"][0]["verdictText"], "direction agrees, magnitude ×0.22");
  EXPECT_EQ(built["paperSummary"]["beyond2x"], 1);
  // An order claim without a paper number anywhere has nothing to compare.
  EXPECT_FALSE(Report(json::array({Claim("highest", {{"variant", "c"}, {"points", {{{"x", 1}}}}})}))["claims"][0].contains("magnitude"));
}

TEST(ExperimentReportTest, MagnitudeClaims) {
  // b's mean at x = 2 against the paper's 2.1 for that cell.
  const json at_2{{{"x", 2}}};
  const json cell = Report(json::array({Claim("magnitude", {{"variant", "b"}, {"points", at_2}})}));
  EXPECT_EQ(cell["claims"][0]["kind"], "magnitude");
  EXPECT_EQ(cell["claims"][0]["verdict"], "agrees");
  EXPECT_EQ(cell["claims"][0]["hasDirection"], false);
  // Against a number of its own; a point where the paper gives none has no data.
  EXPECT_EQ(Verdict(Claim("magnitude", {{"variant", "c"}, {"paper", {{"value", 1.0}, {"source", "§1"}}}})),
            "magnitude differs");
  const json nothing = Report(json::array({Claim("magnitude", {{"variant", "c"}, {"points", at_2}})}));
  EXPECT_EQ(nothing["claims"][0]["verdict"], "differs");
  EXPECT_EQ(nothing["claims"][0]["results"][0]["reason"], "the paper gives no number here");
  // A magnitude has no direction to hold at most points.
  EXPECT_THROW(Report(json::array({Claim("magnitude", {{"variant", "b"}, {"points", "most"}})})), ScenarioError);
}

// Numbers the paper prints as 0.00 agree within its printing precision.
TEST(ExperimentReportTest, AbsoluteTolerancesNearZero) {
  const Tolerance t{0.1, 0.005, "two decimals"};
  EXPECT_TRUE(WithinTolerance(0.004, 0.0, 0.0, t));
  EXPECT_FALSE(WithinTolerance(0.006, 0.0, 0.0, t));
  // ... but not a number more than 2 times away: 0.009 is within 0.004 ± 0.005, yet 2.25 times it.
  EXPECT_TRUE(WithinTolerance(0.008, 0.004, 0.004, t));
  EXPECT_FALSE(WithinTolerance(0.009, 0.004, 0.004, t));
  EXPECT_FALSE(WithinTolerance(0.0019, 0.004, 0.004, t));
  EXPECT_FALSE(MagnitudeFactor(0.004, 0.0, 0.0).has_value());
  EXPECT_DOUBLE_EQ(*MagnitudeFactor(4.5, 1.0, 1.0), 4.5);
  EXPECT_DOUBLE_EQ(*MagnitudeFactor(0.01, 0.06, 0.46), 0.01 / 0.06);
  EXPECT_DOUBLE_EQ(*MagnitudeFactor(0.2, 0.06, 0.46), 1.0);
  EXPECT_FALSE(MagnitudeFactor(-0.01, 0.06, 0.46).has_value());
  EXPECT_DOUBLE_EQ(*MagnitudeFactor(10, 0.5, std::nullopt), 1.0);
  EXPECT_EQ(FactorText(4.456), "×4.5");
  EXPECT_EQ(FactorText(0.0667), "×0.067");
}

// One vocabulary: the verdicts C++ defines are the schema's, and the report carries them.
TEST(ExperimentReportTest, OneVerdictVocabulary) {
  const json& schema_enum = ReportSchemaDocument()["$defs"]["verdict"]["enum"];
  ASSERT_EQ(schema_enum.size(), Verdicts().size());
  std::set<std::string> marks;
  for (size_t i = 0; i < Verdicts().size(); ++i) {
    EXPECT_EQ(schema_enum[i], Verdicts()[i].verdict);
    marks.insert(Verdicts()[i].mark);
  }
  EXPECT_EQ(marks.size(), Verdicts().size());
  const json report = Report(json::array());
  ASSERT_EQ(report["verdicts"].size(), Verdicts().size());
  EXPECT_EQ(report["verdicts"][1]["verdict"], "magnitude differs");
  EXPECT_EQ(report["verdicts"][1]["mark"], "≈");
  EXPECT_EQ(report["schemaVersion"], kReportSchemaVersion);
  // The same claim reads the same on both sizes when its numbers are the same.
  const json claim = PaperRatio({{"value", 0.5 / 4.5}, {"source", "T"}}, {{"points", {{{"x", 1}}}}});
  const ValueFunction steady = [](size_t v, size_t, int, size_t) { return std::optional<double>(v == 0 ? 1.0 : 2.0); };
  const json quick = Report(json::array({claim}), ExperimentMode::kQuick, steady)["claims"][0];
  const json full = Report(json::array({claim}), ExperimentMode::kFull, steady)["claims"][0];
  EXPECT_EQ(full["verdictText"], "direction agrees, magnitude ×4.5");
  for (const char* key : {"verdict", "mark", "verdictText", "kind", "explained"}) EXPECT_EQ(quick[key], full[key]) << key;
}

TEST(ExperimentReportTest, MarkdownAndOverview) {
  json known = PaperRatio({{"value", 0.5 / 4.5}, {"source", "Table 9"}});
  known["knownMagnitude"] = "a cause | with a bar";
  const json report = Report(json::array({known, Claim("highest", {{"variant", "c"}, {"text", "c is dearest"}})}));
  const std::string md = FormatReportMarkdown(report);
  EXPECT_NE(md.find("`tcpsim reproduce synthetic`: 27 runs, 3 replications per cell"), std::string::npos) << md;
  EXPECT_NE(md.find("| x | a | B | c |\n|---|---|---|---|\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2 | 1 ± 0.25 | 2 ± 0.25 (paper 2.1, ×0.95) | 3 ± 0.25 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- ✓ agrees (order): c is dearest"), std::string::npos) << md;
  EXPECT_NE(md.find("  - paper: 0.1111, Table 9; tolerance ±10 %: synthetic: the paper prints two digits"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("  - paper against ours: x = 1: ours 0.5 (×4.5, outside ±10 %)"), std::string::npos) << md;
  const std::string overview = FormatClaimsOverview({report});
  EXPECT_NE(overview.find("| `synthetic` | full | 1 | 1 | 0 | 0 | 1 / 0 / 0 |"), std::string::npos) << overview;
  EXPECT_NE(overview.find("| `synthetic` | ratio claim | ratio | 0.1111 (x = 1) | 0.5 | ×4.5 (0 of 2 within ±10 %) | "
                          "≈ direction agrees, magnitude ×4.5 | a cause \\| with a bar |"),
            std::string::npos)
      << overview;
  EXPECT_NE(FormatVerdictLegend().find("| ≈ | magnitude differs |"), std::string::npos);
}

TEST(ExperimentReportTest, TextTablesAndClaims) {
  const json report = Report(json::array({Claim("lowest", {{"variant", "a"}, {"text", "a is cheapest"}}),
                                          Claim("highest", {{"variant", "c"}, {"text", "c is dearest"}})}));
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("synthetic\n"), std::string::npos) << text;
  EXPECT_NE(text.find("mode full, 3 replications per cell, 27 runs"), std::string::npos) << text;
  EXPECT_NE(text.find("  x | a"), std::string::npos) << text;
  EXPECT_NE(text.find("| B "), std::string::npos) << "variants are headed by their labels\n" << text;
  EXPECT_NE(text.find("2 ± 0.25 (paper 2.1, ×0.95)"), std::string::npos) << text;
  EXPECT_NE(text.find("paper numbers beside ours: 1, 1 within their tolerance, 1 within 2 times, 0 farther; "
                      "tolerance ±10 %: synthetic: the paper prints two digits"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("k [s]"), std::string::npos) << text;
  EXPECT_NE(text.find("13.05 ± 0.64 (n=2)"), std::string::npos) << text;
  EXPECT_NE(text.find("✗ differs (no known cause) [order] a is cheapest"), std::string::npos) << text;
  EXPECT_NE(text.find("✓ agrees [order] c is dearest"), std::string::npos) << text;
  EXPECT_NE(text.find("x = 3: a 2.5; among a 2.5, b 2, c 3  -> differs"), std::string::npos) << text;
  // c is dearest reads b's cell at x = 2, which has the paper's number.
  EXPECT_NE(text.find("B: paper 2.1, ours 2 (×0.95, within ±10 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 agree, 0 differ in magnitude, 1 differ, 0 not checked; 1 without a known cause"),
            std::string::npos)
      << text;
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

// The seed papers' claims on the reduced runs (the full runs are `tcpsim reproduce NAME`).
class BuiltInClaimsTest : public ::testing::TestWithParam<std::string> {};

// Every claim's verdict is what its notes say on --quick: a claim whose order, direction, bound or
// significance fails has a known cause for it, and one with a known cause fails (else the note is
// out of date); a paper number beyond its tolerance in a claim that holds has a known cause, and a
// known magnitude difference shows. Every claim that reads a paper number compares it.
TEST_P(BuiltInClaimsTest, VerdictsAreWhatTheirNotesSayOnQuick) {
  const Experiment e = ParseExperimentText(*ExperimentText(GetParam()));
  const json report = RunExperiment(e, ExperimentMode::kQuick);
  for (size_t i = 0; i < e.claims.size(); ++i) {
    const json& claim = report["claims"][i];
    const std::string verdict = claim["verdict"].get<std::string>();
    if (verdict == "not checked") continue;
    const bool known = !KnownDifference(e.claims[i], ExperimentMode::kQuick).empty();
    const bool known_magnitude = !KnownMagnitudeDifference(e.claims[i], ExperimentMode::kQuick).empty();
    const bool magnitudes_agree = !claim.contains("magnitude") || claim["magnitude"]["agree"].get<bool>();
    EXPECT_EQ(verdict == "differs", known) << e.claims[i].text << "\n" << FormatReport(report);
    if (verdict != "differs") {
      EXPECT_EQ(!magnitudes_agree, known_magnitude) << e.claims[i].text << "\n" << FormatReport(report);
    }
    // The claim's own paper number, or the cells' it reads, are compared: a claim that states one
    // ("paper: 32.5 against 24.5") is not left without.
    if (e.claims[i].paper) EXPECT_TRUE(claim.contains("magnitude")) << e.claims[i].text;
    // Each claim says what kind it is and its verdict in the one vocabulary; one that compares paper
    // numbers sums up with the farthest: the paper's number, ours and the ratio.
    EXPECT_EQ(claim["mark"], VerdictOf(verdict).mark);
    EXPECT_TRUE(claim["kind"].is_string());
    if (claim.contains("magnitude")) {
      const json& farthest = claim["magnitude"]["farthest"]["comparison"];
      EXPECT_TRUE(farthest.contains("paper") && farthest.contains("ours")) << e.claims[i].text;
      EXPECT_TRUE(farthest["factor"].is_number() || farthest.contains("note")) << e.claims[i].text;
    }
  }
  EXPECT_TRUE(ClaimsHold(report));
  ExpectConformsToReportSchema(report);
}

// No claim agrees with a paper number more than 2 times away from ours (or of the opposite sign):
// a magnitude that far off is "magnitude differs" (or "differs"), and its note says the cause found
// in our model or the paper's setup ("Found: ...", "Found in part: ...") or plainly that it was not
// found ("Not found. ..."). Savorić et al.'s Table 2 throughputs (several times the paper's), E-TCP's
// Fig. 5 gains (a tenth of the paper's) and every other such gap are checked here on --quick.
TEST_P(BuiltInClaimsTest, NoClaimAgreesWithAPaperNumberMoreThanTwiceAway) {
  const Experiment e = ParseExperimentText(*ExperimentText(GetParam()));
  const json report = RunExperiment(e, ExperimentMode::kQuick);
  for (size_t i = 0; i < e.claims.size(); ++i) {
    const json& claim = report["claims"][i];
    for (const json& r : claim["results"]) {
      for (const json& m : r.value("magnitudes", json::array())) {
        const bool far = m["factor"].is_number() ? m["factor"].get<double>() > 2 || m["factor"].get<double>() < 0.5
                                                 : m.value("note", "") == "opposite sign";
        if (!far) continue;
        EXPECT_FALSE(m["within"].get<bool>()) << e.claims[i].text << ": " << m.dump();
        EXPECT_NE(claim["verdict"], "agrees") << e.claims[i].text << ": " << m.dump();
        const std::string& cause = claim["verdict"] == "differs" ? KnownDifference(e.claims[i], ExperimentMode::kQuick)
                                                                 : KnownMagnitudeDifference(e.claims[i], ExperimentMode::kQuick);
        const bool says = cause.starts_with("Found") || cause.starts_with("Not found");
        EXPECT_TRUE(says) << e.claims[i].text << ": a paper number " << m.dump()
                          << " needs a cause that says whether it was found, not \"" << cause << "\"";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Experiments, BuiltInClaimsTest, ::testing::ValuesIn(ExperimentNames()),
                         [](const auto& info) { return testing::TestName(info.param); });

}  // namespace
}  // namespace tcb
