// Experiment reports: aggregation in run order, claims, and the text tables.
#include "experiment/report.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "experiment/claims.h"
#include "json/json_pointer.h"
#include "metrics/sha256.h"
#include "metrics/statistics.h"
#include "scenario/embedded_files.h"

namespace tcb {

namespace {

using nlohmann::json;

constexpr double kReportLevel = 0.95;

std::string FormatNumber(double x, int significant_digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant_digits, x);
  return buffer;
}

// Means (and ratios, differences, bounds) with four significant digits, interval half-widths with
// two: enough to set beside papers that print two to four. A string ("inf") prints as it is, null
// as "-".
std::string Number(const json& x) {
  if (x.is_number()) return FormatNumber(x.get<double>(), 4);
  return x.is_string() ? x.get<std::string>() : "-";
}
std::string HalfWidth(double x) { return FormatNumber(x, 2); }

// Display width of UTF-8 text: one column per code point (the report uses ±, −, ✓ and ✗).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string Pad(const std::string& s, size_t width) {
  return s + std::string(width - std::min(width, Width(s)), ' ');
}

std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < rows[r].size(); ++i) line += (i > 0 ? " | " : "  ") + Pad(rows[r][i], widths[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) {
      std::string rule = "  ";
      for (size_t i = 0; i < widths.size(); ++i) rule += (i > 0 ? "-+-" : "") + std::string(widths[i], '-');
      out += rule + "\n";
    }
  }
  return out;
}

std::string Labelled(const std::string& label, const std::string& unit) {
  return unit.empty() ? label : label + " [" + unit + "]";
}

// "loss = 0.08, flavor = reno", axes in the experiment's order ("all" without axes).
std::string PointText(const json& report, const json& point) {
  std::string s;
  for (const json& axis : report["axes"]) {
    const std::string name = axis["name"].get<std::string>();
    if (!point.contains(name)) continue;
    const json& value = point[name];
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    s += (s.empty() ? "" : ", ") + name + " = " + text;
  }
  return s.empty() ? "all" : s;
}

// A cell of a claim's result, "SACK 3.5", with its metric when the claim compares two, and its point
// when that differs from the point checked.
std::string ClaimCell(const json& report, const json& cell, const json& checked_point, bool show_metric) {
  std::string s = cell["variant"].get<std::string>();
  for (const json& v : report["variants"]) {
    if (v["name"] == cell["variant"]) s = v["label"].get<std::string>();
  }
  if (show_metric) s += " " + cell["metric"].get<std::string>();
  if (cell["point"] != checked_point) s += " at " + PointText(report, cell["point"]);
  return s + " " + Number(cell["mean"]);
}

std::string ClaimRule(const json& report, const json& claim) {
  const std::string kind = claim["kind"].get<std::string>();
  std::string rule;
  if (kind == "ratio") {
    const std::string min = claim.contains("min") ? Number(claim["min"]) : "";
    const std::string max = claim.contains("max") ? Number(claim["max"]) : "";
    rule = "mean(a) / mean(b)";
    if (!min.empty() && !max.empty()) {
      rule += " within [" + min + ", " + max + "]";
    } else {
      rule += min.empty() ? " at most " + max : " at least " + min;
    }
  } else if (kind == "significant") {
    rule = "mean(a) " + std::string(claim["direction"] == "greater" ? ">" : "<") + " mean(b) at confidence " +
           FormatNumber(claim["level"].get<double>(), 4) + " (unpaired t-test)";
  } else {
    rule = "a has the " + kind + " mean";
  }
  if (!claim["results"].empty()) {
    const std::string metric = claim["results"][0]["a"]["metric"].get<std::string>();
    for (const json& m : report["metrics"]) {
      if (m["name"] == metric) rule = m["label"].get<std::string>() + ": " + rule;
    }
  }
  const json& points = claim["points"];
  if (points.is_string()) return rule + ", " + points.get<std::string>() + " points";
  std::string listed;
  for (const json& filter : points) listed += (listed.empty() ? "" : "; ") + PointText(report, filter);
  return rule + ", at " + listed;
}

std::string ClaimResultLine(const json& report, const json& claim, const json& r) {
  const std::string kind = claim["kind"].get<std::string>();
  std::string s = PointText(report, r["point"]) + ": ";
  const bool two_metrics = r.contains("b") && r["a"]["metric"] != r["b"]["metric"];
  if (kind == "ratio") {
    s += ClaimCell(report, r["a"], r["point"], two_metrics) + " / " +
         ClaimCell(report, r["b"], r["point"], two_metrics);
    if (r.contains("ratio")) s += " = " + Number(r["ratio"]);
  } else if (kind == "significant") {
    s += ClaimCell(report, r["a"], r["point"], two_metrics) + " vs " +
         ClaimCell(report, r["b"], r["point"], two_metrics);
    if (r.contains("interval")) {
      s += "; difference " + Number(r["difference"]) + ", " +
           FormatNumber(claim["level"].get<double>() * 100, 4) + "% interval (" + Number(r["interval"][0]) +
           ", " + Number(r["interval"][1]) + ")";
      if (r["dof"].is_number()) s += ", dof " + FormatNumber(r["dof"].get<double>(), 3);
      if (r.contains("reported")) {
        const json& rep = r["reported"];
        s += "; Savorić-style " + FormatNumber(rep["level"].get<double>(), 2) + " : (" +
             Number(rep["interval"][0]) + ", " + Number(rep["interval"][1]) + ")" +
             (rep["significant"].get<bool>() ? "" : " not significant");
      }
    }
  } else {
    s += ClaimCell(report, r["a"], r["point"], false) + "; among";
    for (const json& m : r["means"]) {
      s += " " + m["variant"].get<std::string>() + " " + Number(m["mean"]) + ",";
    }
    s.pop_back();
  }
  const std::string outcome = r["outcome"].get<std::string>();
  s += "  -> " + (outcome == "differs" ? std::string("DIFFERS") : outcome);
  if (r.contains("reason")) s += " (" + r["reason"].get<std::string>() + ")";
  return s;
}

}  // namespace

const nlohmann::json& ReportSchemaDocument() {
  static const json schema = json::parse(EmbeddedFileText("scenario/schema/report.schema.json").value());
  return schema;
}

RunRecord RecordRun(const Experiment& experiment, const nlohmann::json& summary) {
  RunRecord record;
  for (const ExperimentMetric& m : experiment.metrics) {
    const json* value = FindInSummary(summary, m.pointer);
    std::optional<double> number;
    if (value != nullptr && value->is_number()) number = value->get<double>();
    record.metrics.push_back(number);
  }
  if (summary.contains("resultHash")) record.result_hash = summary["resultHash"].get<std::string>();
  return record;
}

nlohmann::json BuildReport(const Experiment& e, const ExperimentPlan& plan,
                           const std::vector<RunRecord>& runs) {
  if (runs.size() != plan.runs.size()) {
    throw std::invalid_argument("BuildReport: one record per run of the plan");
  }
  const size_t points = plan.points.size();
  const size_t metrics = e.metrics.size();

  // Values per cell in run order, so the statistics do not depend on the order the runs finished in.
  std::vector<std::vector<double>> values(e.variants.size() * points * metrics);
  std::string hashes;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunSpec& spec = plan.runs[i];
    for (size_t m = 0; m < metrics; ++m) {
      if (const std::optional<double> value = runs[i].metrics.at(m)) {
        values[(spec.variant * points + spec.point) * metrics + m].push_back(*value);
      }
    }
    hashes += runs[i].result_hash;
  }
  std::vector<SampleSummary> summaries;
  for (const auto& v : values) summaries.push_back(Summarize(v));
  const CellStatistics stats(e, plan, summaries);

  json report;
  report["schemaVersion"] = 1;
  report["experiment"] = e.name;
  report["title"] = e.title;
  report["reference"] = e.reference;
  report["mode"] = ExperimentModeName(plan.mode);
  report["replications"] = plan.replications;
  report["runs"] = plan.runs.size();
  report["runsHash"] = Sha256Hex(hashes);
  json variants = json::array();
  for (const Variant& v : e.variants) variants.push_back({{"name", v.name}, {"label", v.label}});
  report["variants"] = std::move(variants);
  json axes = json::array();
  for (size_t i = 0; i < e.axes.size(); ++i) {
    json axis{{"name", e.axes[i].name},
              {"label", e.axes[i].label},
              {"unit", e.axes[i].unit},
              {"values", json::array()}};
    // The values this mode uses, in the order of the experiment.
    for (size_t j = 0; j < e.axes[i].values.size(); ++j) {
      bool used = false;
      for (const auto& p : plan.points) used = used || p[i] == j;
      const AxisValue& value = e.axes[i].values[j];
      if (used) axis["values"].push_back({{"value", value.value}, {"label", value.label}});
    }
    axes.push_back(std::move(axis));
  }
  report["axes"] = std::move(axes);
  json point_list = json::array();
  for (const auto& p : plan.points) {
    point_list.push_back({{"point", PointDocument(e, p)}, {"label", PointLabel(e, p)}});
  }
  report["points"] = std::move(point_list);
  json metric_list = json::array();
  for (const ExperimentMetric& m : e.metrics) {
    metric_list.push_back({{"name", m.name}, {"label", m.label}, {"unit", m.unit}, {"pointer", m.pointer}});
  }
  report["metrics"] = std::move(metric_list);

  json cells = json::array();
  for (size_t v = 0; v < e.variants.size(); ++v) {
    for (size_t p = 0; p < points; ++p) {
      for (size_t m = 0; m < metrics; ++m) {
        const SampleSummary& s = stats.At(v, p, m);
        const std::optional<double> ci = ConfidenceHalfWidth(s, kReportLevel);
        json cell{{"variant", e.variants[v].name},
                  {"point", PointDocument(e, plan.points[p])},
                  {"metric", e.metrics[m].name},
                  {"n", s.n},
                  {"mean", s.n > 0 ? json(s.mean) : json(nullptr)},
                  {"sd", s.n > 1 ? json(s.sd) : json(nullptr)},
                  {"ci95", ci ? json(*ci) : json(nullptr)}};
        for (const PaperValue& pv : e.paper) {
          if (pv.variant == v && pv.metric == m && pv.point == plan.points[p]) {
            cell["paper"] = pv.value;
            if (!pv.note.empty()) cell["paperNote"] = pv.note;
          }
        }
        cells.push_back(std::move(cell));
      }
    }
  }
  report["cells"] = std::move(cells);

  json claims = json::array();
  size_t agree = 0, differ = 0, known_differ = 0, unchecked = 0;
  for (const Claim& c : e.claims) {
    json result = EvaluateClaim(e, plan, stats, c);
    const std::string verdict = result["verdict"].get<std::string>();
    agree += verdict == "agrees";
    (KnownDifference(c, plan.mode).empty() ? differ : known_differ) += verdict == "differs";
    unchecked += verdict == "not checked";
    claims.push_back(std::move(result));
  }
  report["claims"] = std::move(claims);
  report["claimSummary"] = {
      {"agree", agree}, {"differ", differ}, {"knownDiffer", known_differ}, {"notChecked", unchecked}};
  return report;
}

std::string FormatReport(const nlohmann::json& report) {
  std::string out = report["experiment"].get<std::string>();
  if (!report["title"].get<std::string>().empty()) out += ": " + report["title"].get<std::string>();
  out += "\n";
  if (!report["reference"].get<std::string>().empty()) out += report["reference"].get<std::string>() + "\n";
  const auto replications = report["replications"].get<int64_t>();
  out += "mode " + report["mode"].get<std::string>() + ", " + std::to_string(replications) + " replication" +
         (replications == 1 ? "" : "s") + " per cell, " + std::to_string(report["runs"].get<int64_t>()) +
         " runs; cells are mean ± 95% CI half-width (paper value); runs hash " +
         report["runsHash"].get<std::string>().substr(0, 16) + "\n";

  std::string row_header;
  for (const json& axis : report["axes"]) {
    row_header += (row_header.empty() ? "" : ", ") + axis["label"].get<std::string>();
  }
  if (row_header.empty()) row_header = "point";

  const json& cells = report["cells"];
  const size_t variants = report["variants"].size();
  const size_t points = report["points"].size();
  const size_t metrics = report["metrics"].size();
  for (size_t m = 0; m < metrics; ++m) {
    const json& metric = report["metrics"][m];
    out += "\n" + Labelled(metric["label"].get<std::string>(), metric["unit"].get<std::string>()) + "\n";
    std::vector<std::vector<std::string>> rows;
    rows.push_back({row_header});
    for (const json& v : report["variants"]) rows[0].push_back(v["label"].get<std::string>());
    for (size_t p = 0; p < points; ++p) {
      std::vector<std::string> row{report["points"][p]["label"].get<std::string>()};
      for (size_t v = 0; v < variants; ++v) {
        const json& cell = cells[(v * points + p) * metrics + m];
        std::string text = cell["n"] == 0 ? "no data" : Number(cell["mean"]);
        if (cell["ci95"].is_number()) text += " ± " + HalfWidth(cell["ci95"].get<double>());
        if (cell["n"].get<int64_t>() > 0 && cell["n"].get<int64_t>() < replications) {
          text += " (n=" + std::to_string(cell["n"].get<int64_t>()) + ")";
        }
        if (cell.contains("paper")) text += " (paper " + cell["paper"].dump() + ")";
        row.push_back(std::move(text));
      }
      rows.push_back(std::move(row));
    }
    out += Table(rows);
  }

  if (!report["claims"].empty()) {
    out += "\nclaims\n";
    for (const json& claim : report["claims"]) {
      const std::string verdict = claim["verdict"].get<std::string>();
      const bool known = claim.contains("known");
      std::string mark = "- not checked";
      if (verdict == "agrees") mark = known ? "✓ agrees (expected to differ)" : "✓ agrees";
      if (verdict == "differs") mark = known ? "✗ differs (known)" : "✗ DIFFERS";
      out += "  " + Pad(mark, 13) + " " + claim["text"].get<std::string>() + "\n";
      if (known) out += "                known: " + claim["known"].get<std::string>() + "\n";
      out += "                " + ClaimRule(report, claim) + "\n";
      for (const json& r : claim["results"]) {
        out += "                  " + ClaimResultLine(report, claim, r) + "\n";
      }
    }
    const json& s = report["claimSummary"];
    out += "\n" + std::to_string(s["agree"].get<int64_t>()) + " agree, " +
           std::to_string(s["differ"].get<int64_t>()) + " differ, " +
           (s["knownDiffer"] == 0 ? "" : std::to_string(s["knownDiffer"].get<int64_t>()) + " differ as known, ") +
           std::to_string(s["notChecked"].get<int64_t>()) + " not checked\n";
  }
  return out;
}

bool ClaimsHold(const nlohmann::json& report) { return report["claimSummary"]["differ"] == 0; }

nlohmann::json RunExperiment(const Experiment& experiment, ExperimentMode mode,
                             const std::function<nlohmann::json(const RunSpec&)>& run) {
  const ExperimentPlan plan = Expand(experiment, mode);
  std::vector<RunRecord> records;
  records.reserve(plan.runs.size());
  for (const RunSpec& spec : plan.runs) records.push_back(RecordRun(experiment, run(spec)));
  return BuildReport(experiment, plan, records);
}

}  // namespace tcb
