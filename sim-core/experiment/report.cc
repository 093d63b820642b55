// Experiment reports: aggregation in run order, claims and their verdicts, and the text and Markdown
// tables.
#include "experiment/report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
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

std::string VariantLabel(const json& report, const json& name) {
  for (const json& v : report["variants"]) {
    if (v["name"] == name) return v["label"].get<std::string>();
  }
  return name.get<std::string>();
}

std::string MetricLabel(const json& report, const json& name) {
  for (const json& m : report["metrics"]) {
    if (m["name"] == name) return m["label"].get<std::string>();
  }
  return name.get<std::string>();
}

// A cell of a claim's result, "SACK 3.5", with its metric when the claim compares two, and its point
// when that differs from the point checked.
std::string ClaimCell(const json& report, const json& cell, const json& checked_point, bool show_metric) {
  std::string s = VariantLabel(report, cell["variant"]);
  if (show_metric) s += " " + cell["metric"].get<std::string>();
  if (cell["point"] != checked_point) s += " at " + PointText(report, cell["point"]);
  return s + " " + Number(cell["mean"]);
}

// "±10 %", "±10 % or ±0.005".
std::string ToleranceText(const json& tolerance) {
  const double relative = tolerance["relative"].get<double>();
  const double absolute = tolerance.value("absolute", 0.0);
  const std::string r = "±" + FormatNumber(relative * 100, 3) + " %";
  const std::string a = "±" + FormatNumber(absolute, 3);
  if (absolute <= 0) return r;
  return relative > 0 ? r + " or " + a : a;
}

// A paper number: "0.44", "0.06–0.46", "≥ 0.5", "≤ 0.6".
std::string PaperNumberText(const json& paper) {
  if (paper.is_number()) return Number(paper);
  if (paper.contains("value")) return Number(paper["value"]);
  if (paper.contains("min") && paper.contains("max")) return Number(paper["min"]) + "–" + Number(paper["max"]);
  return paper.contains("min") ? "≥ " + Number(paper["min"]) : "≤ " + Number(paper["max"]);
}

// "(×4.5)", "(opposite sign)", with "within ±10 %" when it is.
std::string FactorNote(const json& m) {
  std::string s = m["factor"].is_number() ? FactorText(m["factor"].get<double>()) : m.value("note", "no factor");
  return s + (m["within"].get<bool>() ? ", within " : ", outside ") + ToleranceText(m["tolerance"]);
}

// One paper number against ours: "MV-TCBI: paper 32.54, ours 224.7 (×6.9, outside ±10 %)".
std::string MagnitudeText(const json& report, const json& m, const json& checked_point, bool name_cell) {
  std::string s;
  if (m["source"] == "cell" && name_cell) {
    s = VariantLabel(report, m["variant"]);
    if (m["point"] != checked_point) s += " at " + PointText(report, m["point"]);
    s += ": ";
  }
  return s + "paper " + PaperNumberText(m["paper"]) + ", ours " + Number(m["ours"]) + " (" + FactorNote(m) + ")";
}

const char* MeasureWords(const std::string& measure) {
  if (measure == "reduction") return "1 - mean(a) / mean(b)";
  if (measure == "increase") return "mean(a) / mean(b) - 1";
  if (measure == "saving") return "mean(b) - mean(a)";
  return "mean(a) / mean(b)";
}

std::string ClaimRule(const json& report, const json& claim) {
  const std::string test = claim["test"].get<std::string>();
  std::string rule;
  if (test == "ratio" && claim.contains("paper")) {
    const std::string measure = claim["measure"].get<std::string>();
    rule = std::string(MeasureWords(measure)) + " against the paper's " + PaperNumberText(claim["paper"]);
    rule += claim["hasDirection"].get<bool>() ? ", on the same side of no change"
                                              : " (no direction: the magnitude decides)";
  } else if (test == "ratio") {
    const std::string min = claim.contains("min") ? Number(claim["min"]) : "";
    const std::string max = claim.contains("max") ? Number(claim["max"]) : "";
    rule = "mean(a) / mean(b)";
    if (!min.empty() && !max.empty()) {
      rule += " within [" + min + ", " + max + "]";
    } else {
      rule += min.empty() ? " at most " + max : " at least " + min;
    }
  } else if (test == "significant") {
    rule = "mean(a) " + std::string(claim["direction"] == "greater" ? ">" : "<") + " mean(b) at confidence " +
           FormatNumber(claim["level"].get<double>(), 4) + " (unpaired t-test)";
  } else if (test == "magnitude") {
    rule = "mean(a) against " + (claim.contains("paper") ? "the paper's " + PaperNumberText(claim["paper"])
                                                         : std::string("the paper's value of its cell"));
  } else {
    rule = "a has the " + test + " mean";
  }
  if (!claim["results"].empty()) rule = MetricLabel(report, claim["results"][0]["a"]["metric"]) + ": " + rule;
  const json& points = claim["points"];
  if (points.is_string()) {
    rule += ", " + points.get<std::string>() + " points";
  } else {
    std::string listed;
    for (const json& filter : points) listed += (listed.empty() ? "" : "; ") + PointText(report, filter);
    rule += ", at " + listed;
  }
  if (claim.contains("paper")) {
    rule += "; paper: " + claim["paper"]["source"].get<std::string>() + "; tolerance " +
            ToleranceText(claim["tolerance"]) + ": " + claim["tolerance"]["basis"].get<std::string>();
  }
  return rule;
}

std::string ClaimResultLine(const json& report, const json& claim, const json& r) {
  const std::string test = claim["test"].get<std::string>();
  std::string s = PointText(report, r["point"]) + ": ";
  const bool two_metrics = r.contains("b") && r["a"]["metric"] != r["b"]["metric"];
  if (test == "ratio") {
    s += ClaimCell(report, r["a"], r["point"], two_metrics) + " / " +
         ClaimCell(report, r["b"], r["point"], two_metrics);
    if (r.contains("ratio")) s += " = " + Number(r["ratio"]);
    if (r.contains("measured")) s += ", " + claim["measure"].get<std::string>() + " " + Number(r["measured"]);
  } else if (test == "significant") {
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
  } else if (test == "magnitude") {
    s += ClaimCell(report, r["a"], r["point"], false);
  } else {
    s += ClaimCell(report, r["a"], r["point"], false) + "; among";
    for (const json& m : r["means"]) s += " " + m["variant"].get<std::string>() + " " + Number(m["mean"]) + ",";
    s.pop_back();
  }
  s += "  -> " + r["outcome"].get<std::string>();
  if (r.contains("reason")) s += " (" + r["reason"].get<std::string>() + ")";
  return s;
}

// A claim's headline: "≈ direction agrees, magnitude ×4.5", with what its notes say about it.
std::string ClaimHeadline(const json& claim) {
  std::string s = claim["mark"].get<std::string>() + " " + claim["verdictText"].get<std::string>();
  if (!claim["explained"].get<bool>()) s += " (no known cause)";
  return s;
}

// The notes of a claim: its known causes, and those that no longer show.
std::vector<std::string> ClaimNotes(const json& claim) {
  std::vector<std::string> notes;
  const std::string verdict = claim["verdict"].get<std::string>();
  const bool magnitudes_agree = !claim.contains("magnitude") || claim["magnitude"]["agree"].get<bool>();
  if (claim.contains("known")) {
    notes.push_back((verdict == "differs" || verdict == "not checked"
                         ? "known cause: "
                         : "known cause (no longer shows: the claim holds): ") +
                    claim["known"].get<std::string>());
  }
  if (claim.contains("knownMagnitude")) {
    notes.push_back((magnitudes_agree && verdict != "not checked"
                         ? "known cause of the magnitudes (no longer shows: they agree): "
                         : "known cause of the magnitudes: ") +
                    claim["knownMagnitude"].get<std::string>());
  }
  return notes;
}

// Cell text: "2 ± 0.25 (n=2) (paper 2.1, ×0.95)".
std::string CellText(const json& cell, int64_t replications) {
  std::string text = cell["n"] == 0 ? "no data" : Number(cell["mean"]);
  if (cell["ci95"].is_number()) text += " ± " + HalfWidth(cell["ci95"].get<double>());
  if (cell["n"].get<int64_t>() > 0 && cell["n"].get<int64_t>() < replications) {
    text += " (n=" + std::to_string(cell["n"].get<int64_t>()) + ")";
  }
  if (cell.contains("paper")) {
    text += " (paper " + Number(cell["paper"]);
    if (cell.contains("paperRatio") && cell["paperRatio"].is_number()) {
      text += ", " + FactorText(cell["paperRatio"].get<double>());
    }
    text += ")";
  }
  return text;
}

std::string SummaryLine(const json& report) {
  const json& s = report["claimSummary"];
  std::string line;
  for (const json& v : report["verdicts"]) {
    const std::string verdict = v["verdict"].get<std::string>();
    line += (line.empty() ? "" : ", ") + std::to_string(s["counts"][verdict].get<int64_t>()) + " " +
            v["summary"].get<std::string>();
  }
  const int64_t unexplained = s["unexplained"].get<int64_t>();
  if (unexplained > 0) line += "; " + std::to_string(unexplained) + " without a known cause";
  return line;
}

// What a report's header says of the paper numbers.
std::string PaperLine(const json& report) {
  if (!report.contains("paperSummary")) return "";
  const json& p = report["paperSummary"];
  std::string s = "paper numbers beside ours: " + std::to_string(p["compared"].get<int64_t>()) + ", " +
                  std::to_string(p["within"].get<int64_t>()) + " within their tolerance, " +
                  std::to_string(p["within2x"].get<int64_t>()) + " within 2 times, " +
                  std::to_string(p["beyond2x"].get<int64_t>()) + " farther";
  if (report.contains("paperTolerance")) {
    s += "; tolerance " + ToleranceText(report["paperTolerance"]) + ": " +
         report["paperTolerance"]["basis"].get<std::string>();
  }
  return s;
}

// Markdown: a table cell may not contain '|' or a line break.
std::string MdCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string MdTable(const std::vector<std::vector<std::string>>& rows) {
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    out += "|";
    for (const std::string& c : rows[r]) {
      out += ' ';
      out += MdCell(c);
      out += " |";
    }
    out += "\n";
    if (r == 0) {
      out += "|";
      for (size_t i = 0; i < rows[r].size(); ++i) out += "---|";
      out += "\n";
    }
  }
  return out;
}

// The comparisons of a claim that a reader needs: those outside the tolerance first, at most `limit`.
std::vector<std::pair<const json*, const json*>> ClaimMagnitudes(const json& claim, size_t limit) {
  std::vector<std::pair<const json*, const json*>> outside, inside;
  for (const json& r : claim["results"]) {
    if (!r.contains("magnitudes")) continue;
    for (const json& m : r["magnitudes"]) (m["within"].get<bool>() ? inside : outside).emplace_back(&r, &m);
  }
  outside.insert(outside.end(), inside.begin(), inside.end());
  if (outside.size() > limit) outside.resize(limit);
  return outside;
}

// A difference as Savorić et al. §6 report one (metrics/statistics.h, ReportSignificance).
json SignificanceDocument(double level, double low, double high, bool significant) {
  return {{"level", level}, {"interval", {low, high}}, {"significant", significant}};
}

// The experiment's significance table: per point, tested metric and other variant, ours and the
// paper's, and whether the two reach the same conclusion.
json DifferenceRows(const Experiment& e, const ExperimentPlan& plan, const CellStatistics& stats,
                    const DifferenceTable& table) {
  json rows = json::array();
  for (size_t p = 0; p < plan.points.size(); ++p) {
    for (size_t m : table.metrics) {
      for (size_t v = 0; v < e.variants.size(); ++v) {
        if (v == table.from) continue;
        json row{{"variant", e.variants[v].name},
                 {"metric", e.metrics[m].name},
                 {"point", PointDocument(e, plan.points[p])},
                 {"ours", nullptr}};
        const std::optional<SignificanceReport> ours =
            ReportSignificance(stats.At(table.from, p, m), stats.At(v, p, m));
        if (ours) {
          row["ours"] = SignificanceDocument(ours->interval.level, ours->interval.low, ours->interval.high,
                                             ours->significant);
        }
        if (const PaperDifference* paper = FindPaperDifference(table, v, plan.points[p], m)) {
          row["paper"] = SignificanceDocument(paper->level, paper->low, paper->high, paper->Significant());
          if (!paper->note.empty()) row["paperNote"] = paper->note;
          if (ours) {
            const bool same = ours->significant == paper->Significant() &&
                              (!ours->significant || (ours->interval.low > 0) == (paper->low > 0));
            row["sameConclusion"] = same;
          }
        }
        rows.push_back(std::move(row));
      }
    }
  }
  return {{"from", e.variants[table.from].name}, {"rows", std::move(rows)}};
}

// "0.99 : (-9.52, -2.26)" as the paper prints it, with "n.s." when not significant. The paper's
// bounds have two decimals; ours too, or three when both are below 1 in magnitude (a Jain index's
// differences).
std::string SignificanceText(const json& s, bool paper) {
  if (s.is_null()) return "-";
  const double low = s["interval"][0].get<double>(), high = s["interval"][1].get<double>();
  const int decimals = !paper && std::max(std::fabs(low), std::fabs(high)) < 1 ? 3 : 2;
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%.2f : (%+.*f, %+.*f)", s["level"].get<double>(), decimals, low, decimals,
                high);
  return std::string(buffer) + (s["significant"].get<bool>() ? "" : " n.s.");
}

// The significance table as rows: a metric (and point) per row, ours and the paper's per other variant.
std::vector<std::vector<std::string>> DifferenceTableRows(const json& report) {
  const json& d = report["differences"];
  const std::string from = VariantLabel(report, d["from"]);
  const bool points = report["points"].size() > 1;
  std::vector<std::string> others;
  for (const json& row : d["rows"]) {
    if (std::find(others.begin(), others.end(), row["variant"].get<std::string>()) == others.end()) {
      others.push_back(row["variant"].get<std::string>());
    }
  }
  std::vector<std::vector<std::string>> rows{{"metric"}};
  if (points) rows[0].push_back("point");
  for (const std::string& v : others) {
    rows[0].push_back(from + " − " + VariantLabel(report, v) + ", ours");
    rows[0].push_back("paper");
  }
  std::string last_key;
  for (const json& row : d["rows"]) {
    const std::string key = row["metric"].get<std::string>() + "|" + row["point"].dump();
    if (key != last_key) {
      std::vector<std::string> line{MetricLabel(report, row["metric"])};
      if (points) line.push_back(PointText(report, row["point"]));
      line.resize(line.size() + 2 * others.size(), "");
      rows.push_back(std::move(line));
      last_key = key;
    }
    const size_t at = (points ? 2 : 1) +
                      2 * static_cast<size_t>(std::find(others.begin(), others.end(), row["variant"].get<std::string>()) -
                                              others.begin());
    std::string ours = SignificanceText(row["ours"], false);
    if (row.contains("sameConclusion") && !row["sameConclusion"].get<bool>()) ours += " ≠";
    rows.back()[at] = std::move(ours);
    rows.back()[at + 1] = row.contains("paper") ? SignificanceText(row["paper"], true) : "";
  }
  return rows;
}

// "7 of 9 comparisons reach the paper's conclusion" over the rows that have both.
std::string DifferenceSummary(const json& report) {
  int64_t compared = 0, same = 0;
  for (const json& row : report["differences"]["rows"]) {
    if (!row.contains("sameConclusion")) continue;
    ++compared;
    same += row["sameConclusion"].get<bool>();
  }
  if (compared == 0) return "";
  return std::to_string(same) + " of " + std::to_string(compared) + " differences reach the paper's conclusion";
}

const char* const kDifferenceLegend =
    "each is the highest of the levels 0.99, 0.95 and 0.90 at which the unpaired t-test's interval "
    "excludes zero, with that interval, or the 0.90 interval and n.s. (Savorić et al. §6); ≠: a "
    "conclusion other than the paper's (significance, or the sign)";

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
    if (number && !m.per.empty()) {
      const json* per = FindInSummary(summary, m.per);
      const bool divisor = per != nullptr && per->is_number() && per->get<double>() != 0;
      number = divisor ? std::optional<double>(*number / per->get<double>()) : std::nullopt;
    }
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
  report["schemaVersion"] = kReportSchemaVersion;
  report["experiment"] = e.name;
  report["title"] = e.title;
  report["reference"] = e.reference;
  report["mode"] = ExperimentModeName(plan.mode);
  report["replications"] = plan.replications;
  report["runs"] = plan.runs.size();
  report["runsHash"] = Sha256Hex(hashes);
  json verdicts = json::array();
  for (const VerdictInfo& v : Verdicts()) {
    verdicts.push_back({{"verdict", v.verdict}, {"mark", v.mark}, {"summary", v.summary}, {"meaning", v.meaning}});
  }
  report["verdicts"] = std::move(verdicts);
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
    json metric{{"name", m.name}, {"label", m.label}, {"unit", m.unit}, {"pointer", m.pointer}};
    if (!m.per.empty()) metric["per"] = m.per;
    metric_list.push_back(std::move(metric));
  }
  report["metrics"] = std::move(metric_list);
  if (e.paper_tolerance) {
    report["paperTolerance"] = {{"relative", e.paper_tolerance->relative},
                                {"absolute", e.paper_tolerance->absolute},
                                {"basis", e.paper_tolerance->basis}};
  }

  json cells = json::array();
  int64_t compared = 0, within = 0, within2x = 0;
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
        if (const PaperValue* pv = FindPaperValue(e, v, plan.points[p], m)) {
          cell["paper"] = pv->value;
          if (!pv->note.empty()) cell["paperNote"] = pv->note;
          if (s.n > 0) {
            const std::optional<double> factor = MagnitudeFactor(s.mean, pv->value, pv->value);
            const bool in = WithinTolerance(s.mean, pv->value, pv->value, pv->tolerance);
            cell["paperRatio"] = factor ? json(*factor) : json(nullptr);
            cell["paperWithin"] = in;
            ++compared;
            within += in;
            within2x += in || (factor && *factor >= 0.5 && *factor <= 2);
          }
        }
        cells.push_back(std::move(cell));
      }
    }
  }
  report["cells"] = std::move(cells);
  if (!e.paper.empty()) {
    report["paperSummary"] = {
        {"compared", compared}, {"within", within}, {"within2x", within2x}, {"beyond2x", compared - within2x}};
  }

  json claims = json::array();
  json counts = json::object();
  for (const VerdictInfo& v : Verdicts()) counts[v.verdict] = 0;
  int64_t unexplained = 0;
  for (const Claim& c : e.claims) {
    json result = EvaluateClaim(e, plan, stats, c);
    counts[result["verdict"].get<std::string>()] = counts[result["verdict"].get<std::string>()].get<int64_t>() + 1;
    unexplained += !result["explained"].get<bool>();
    claims.push_back(std::move(result));
  }
  report["claims"] = std::move(claims);
  report["claimSummary"] = {{"counts", std::move(counts)}, {"unexplained", unexplained}};
  if (e.differences) report["differences"] = DifferenceRows(e, plan, stats, *e.differences);
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
         " runs; cells are mean ± 95% CI half-width (paper value, ours / paper); runs hash " +
         report["runsHash"].get<std::string>().substr(0, 16) + "\n";
  if (const std::string paper = PaperLine(report); !paper.empty()) out += paper + "\n";

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
      for (size_t v = 0; v < variants; ++v) row.push_back(CellText(cells[(v * points + p) * metrics + m], replications));
      rows.push_back(std::move(row));
    }
    out += Table(rows);
  }

  if (!report["claims"].empty()) {
    out += "\nclaims (their kind in brackets)\n";
    for (const json& claim : report["claims"]) {
      out += "  " + ClaimHeadline(claim) + " [" + claim["kind"].get<std::string>() + "] " +
             claim["text"].get<std::string>() + "\n";
      for (const std::string& note : ClaimNotes(claim)) out += "      " + note + "\n";
      out += "      " + ClaimRule(report, claim) + "\n";
      for (const json& r : claim["results"]) {
        out += "        " + ClaimResultLine(report, claim, r) + "\n";
        if (!r.contains("magnitudes")) continue;
        std::string line;
        for (const json& m : r["magnitudes"]) {
          line += (line.empty() ? "" : "; ") + MagnitudeText(report, m, r["point"], m["source"] == "cell");
        }
        out += "          " + line + "\n";
      }
    }
    out += "\n" + SummaryLine(report) + "\n";
  }
  if (report.contains("differences")) {
    const std::string summary = DifferenceSummary(report);
    out += "\ndifferences (" + std::string(kDifferenceLegend) + ")" + (summary.empty() ? "" : "; " + summary) + "\n";
    out += Table(DifferenceTableRows(report));
  }
  return out;
}

std::string FormatReportMarkdown(const nlohmann::json& report) {
  std::string out;
  const auto replications = report["replications"].get<int64_t>();
  out += "`tcpsim reproduce " + report["experiment"].get<std::string>() + (report["mode"] == "quick" ? " --quick" : "") +
         "`: " + std::to_string(report["runs"].get<int64_t>()) + " runs, " + std::to_string(replications) +
         " replication" + (replications == 1 ? "" : "s") + " per cell; cells are our mean ± 95% CI half-width, " +
         "the paper's number and ours / paper in parentheses; runs hash `" +
         report["runsHash"].get<std::string>().substr(0, 16) + "`.";
  if (std::string paper = PaperLine(report); !paper.empty()) {
    paper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(paper[0])));
    out += " " + paper + ".";
  }
  out += "\n";

  const json& cells = report["cells"];
  const size_t variants = report["variants"].size();
  const size_t points = report["points"].size();
  const size_t metrics = report["metrics"].size();
  if (points == 1) {
    // One point: a row per metric, as the papers' tables have it.
    std::vector<std::vector<std::string>> rows{{"metric"}};
    for (const json& v : report["variants"]) rows[0].push_back(v["label"].get<std::string>());
    for (size_t m = 0; m < metrics; ++m) {
      const json& metric = report["metrics"][m];
      std::vector<std::string> row{Labelled(metric["label"].get<std::string>(), metric["unit"].get<std::string>())};
      for (size_t v = 0; v < variants; ++v) row.push_back(CellText(cells[v * metrics + m], replications));
      rows.push_back(std::move(row));
    }
    out += "\n" + MdTable(rows);
  } else {
    std::string row_header;
    for (const json& axis : report["axes"]) {
      row_header += (row_header.empty() ? "" : ", ") + axis["label"].get<std::string>();
    }
    for (size_t m = 0; m < metrics; ++m) {
      const json& metric = report["metrics"][m];
      out += "\n" + Labelled(metric["label"].get<std::string>(), metric["unit"].get<std::string>()) + ":\n\n";
      std::vector<std::vector<std::string>> rows{{row_header}};
      for (const json& v : report["variants"]) rows[0].push_back(v["label"].get<std::string>());
      for (size_t p = 0; p < points; ++p) {
        std::vector<std::string> row{report["points"][p]["label"].get<std::string>()};
        for (size_t v = 0; v < variants; ++v) {
          row.push_back(CellText(cells[(v * points + p) * metrics + m], replications));
        }
        rows.push_back(std::move(row));
      }
      out += MdTable(rows);
    }
  }

  if (!report["claims"].empty()) {
    out += "\nClaims (" + SummaryLine(report) + "):\n\n";
    for (const json& claim : report["claims"]) {
      out += "- " + ClaimHeadline(claim) + " (" + claim["kind"].get<std::string>() + "): " +
             claim["text"].get<std::string>() + "\n";
      if (claim.contains("paper")) {
        out += "  - paper: " + PaperNumberText(claim["paper"]) +
               (claim.contains("measure") && claim["measure"] != "ratio" ? " (" + claim["measure"].get<std::string>() + ")"
                                                                         : "") +
               ", " + claim["paper"]["source"].get<std::string>() + "; tolerance " + ToleranceText(claim["tolerance"]) +
               ": " + claim["tolerance"]["basis"].get<std::string>() + "\n";
      }
      if (claim.contains("magnitude")) {
        const json& mag = claim["magnitude"];
        std::string line = "  - paper against ours: ";
        const auto shown = ClaimMagnitudes(claim, 6);
        for (size_t i = 0; i < shown.size(); ++i) {
          const json& r = *shown[i].first;
          const json& m = *shown[i].second;
          std::string where = PointText(report, r["point"]);
          if (m["source"] == "cell") {
            where = VariantLabel(report, m["variant"]) + (where == "all" ? "" : ", " + where);
          }
          line += (i > 0 ? "; " : "") + where + ": " +
                  (m["source"] == "cell" ? "paper " + PaperNumberText(m["paper"]) + ", ours " : "ours ") + Number(m["ours"]) +
                  " (" + FactorNote(m) + ")";
        }
        const int64_t total = mag["compared"].get<int64_t>();
        if (static_cast<int64_t>(shown.size()) < total) line += "; …";
        line += " (" + std::to_string(mag["within"].get<int64_t>()) + " of " + std::to_string(total) +
                " paper number" + (total == 1 ? "" : "s") + " within the tolerance)";
        out += line + "\n";
      }
      for (const std::string& note : ClaimNotes(claim)) out += "  - " + note + "\n";
    }
  }
  if (report.contains("differences")) {
    const std::string summary = DifferenceSummary(report);
    out += "\nDifferences (" + std::string(kDifferenceLegend) + ")" + (summary.empty() ? "" : "; " + summary) +
           ":\n\n" + MdTable(DifferenceTableRows(report));
  }
  return out;
}

std::string FormatVerdictLegend() {
  std::vector<std::vector<std::string>> rows{{"mark", "verdict", "meaning"}};
  for (const VerdictInfo& v : Verdicts()) rows.push_back({v.mark, v.verdict, v.meaning});
  return MdTable(rows);
}

std::string FormatClaimsOverview(const std::vector<nlohmann::json>& reports) {
  std::vector<std::vector<std::string>> counts{{"experiment", "mode"}};
  for (const VerdictInfo& v : Verdicts()) counts[0].push_back(std::string(v.mark) + " " + v.summary);
  counts[0].push_back("paper numbers within tolerance / 2× / farther");
  std::vector<std::vector<std::string>> rows{
      {"experiment", "claim", "kind", "paper", "ours", "ours / paper", "verdict", "known cause"}};
  for (const json& report : reports) {
    const std::string name = "`" + report["experiment"].get<std::string>() + "`";
    std::vector<std::string> line{name, report["mode"].get<std::string>()};
    for (const VerdictInfo& v : Verdicts()) {
      line.push_back(std::to_string(report["claimSummary"]["counts"][v.verdict].get<int64_t>()));
    }
    if (report.contains("paperSummary")) {
      const json& p = report["paperSummary"];
      line.push_back(std::to_string(p["within"].get<int64_t>()) + " / " +
                     std::to_string(p["within2x"].get<int64_t>() - p["within"].get<int64_t>()) + " / " +
                     std::to_string(p["beyond2x"].get<int64_t>()));
    } else {
      line.push_back("–");
    }
    counts.push_back(std::move(line));
    for (const json& claim : report["claims"]) {
      // Reports saved before claims named their farthest comparison are left out.
      if (!claim.contains("magnitude") || !claim["magnitude"].contains("farthest")) continue;
      const json& farthest = claim["magnitude"]["farthest"];
      const json& m = farthest["comparison"];
      std::string where;
      if (m["source"] == "cell") where = VariantLabel(report, m["variant"]);
      if (PointText(report, farthest["at"]) != "all") where += (where.empty() ? "" : ", ") + PointText(report, farthest["at"]);
      const int64_t total = claim["magnitude"]["compared"].get<int64_t>();
      std::string ratio = m["factor"].is_number() ? FactorText(m["factor"].get<double>()) : m.value("note", "–");
      if (total > 1) {
        ratio += " (" + std::to_string(claim["magnitude"]["within"].get<int64_t>()) + " of " + std::to_string(total) +
                 " within " + ToleranceText(m["tolerance"]) + ")";
      } else {
        ratio += std::string(m["within"].get<bool>() ? ", within " : ", outside ") + ToleranceText(m["tolerance"]);
      }
      const std::string verdict = claim["verdict"].get<std::string>();
      std::string cause;
      if (verdict == "differs" && claim.contains("known")) cause = claim["known"].get<std::string>();
      if (verdict == "magnitude differs" && claim.contains("knownMagnitude")) {
        cause = claim["knownMagnitude"].get<std::string>();
      }
      if (verdict != "agrees" && verdict != "not checked" && !claim["explained"].get<bool>()) cause = "none given";
      rows.push_back({name, claim["text"].get<std::string>(), claim["kind"].get<std::string>(),
                      PaperNumberText(m["paper"]) + (where.empty() ? "" : " (" + where + ")"), Number(m["ours"]), ratio,
                      ClaimHeadline(claim), cause});
    }
  }
  return MdTable(counts) + "\n" + MdTable(rows);
}

bool ClaimsHold(const nlohmann::json& report) { return report["claimSummary"]["unexplained"] == 0; }

nlohmann::json RunExperiment(const Experiment& experiment, ExperimentMode mode,
                             const std::function<nlohmann::json(const RunSpec&)>& run) {
  const ExperimentPlan plan = Expand(experiment, mode);
  std::vector<RunRecord> records;
  records.reserve(plan.runs.size());
  for (const RunSpec& spec : plan.runs) records.push_back(RecordRun(experiment, run(spec)));
  return BuildReport(experiment, plan, records);
}

}  // namespace tcb
