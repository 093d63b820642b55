// Claims: orderings, ratios, magnitudes and significance, checked per point, with every paper number
// a claim reads set beside ours; the verdict covers both.
#include "experiment/claims.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

namespace tcb {

namespace {

using nlohmann::json;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// One cell a claim looks at.
struct CellRef {
  size_t variant = 0;
  size_t point = 0;  // Into the plan's points.
  size_t metric = 0;
  friend auto operator<=>(const CellRef&, const CellRef&) = default;
};

const char* TestName(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::kRatio: return "ratio";
    case ClaimKind::kLowest: return "lowest";
    case ClaimKind::kHighest: return "highest";
    case ClaimKind::kSignificant: return "significant";
    case ClaimKind::kMagnitude: return "magnitude";
  }
  return "ratio";
}

// The selector at the point being checked: its fixed axes override the point's values. nullopt when
// the resulting point is not part of this mode.
std::optional<CellRef> Resolve(const CellSelector& selector, const std::vector<size_t>& checked,
                               const CellStatistics& stats) {
  std::vector<size_t> point = checked;
  for (size_t i = 0; i < point.size(); ++i) {
    if (selector.point[i]) point[i] = *selector.point[i];
  }
  const std::optional<size_t> index = stats.PointIndex(point);
  if (!index) return std::nullopt;
  return CellRef{*selector.variant, *index, *selector.metric};
}

json CellJson(const Experiment& e, const ExperimentPlan& plan, const CellStatistics& stats,
              const CellRef& c) {
  const SampleSummary& s = stats.At(c.variant, c.point, c.metric);
  return {{"variant", e.variants[c.variant].name},
          {"metric", e.metrics[c.metric].name},
          {"point", PointDocument(e, plan.points[c.point])},
          {"n", s.n},
          {"mean", s.n > 0 ? json(s.mean) : json(nullptr)}};
}

// JSON has no infinity: an infinite number is written as a string.
json FiniteOrText(double r) {
  if (r == kInfinity) return "inf";
  if (r == -kInfinity) return "-inf";
  return r;
}

bool Matches(const std::vector<std::optional<size_t>>& filter, const std::vector<size_t>& point) {
  for (size_t i = 0; i < point.size(); ++i) {
    if (filter[i] && *filter[i] != point[i]) return false;
  }
  return true;
}

// mean(a) / mean(b); 0/0 counts as 1 (equal means), x/0 is infinite.
double Ratio(const SampleSummary& a, const SampleSummary& b) {
  if (b.mean != 0) return a.mean / b.mean;
  return a.mean == 0 ? 1.0 : (a.mean > 0 ? kInfinity : -kInfinity);
}

// The comparison of a and b in the claim's measure (`ratio` is Ratio(a, b)), and the measure's
// value for "no change".
double Measured(ClaimMeasure measure, double ratio, const SampleSummary& a, const SampleSummary& b) {
  switch (measure) {
    case ClaimMeasure::kRatio: return ratio;
    case ClaimMeasure::kReduction: return 1 - ratio;
    case ClaimMeasure::kIncrease: return ratio - 1;
    case ClaimMeasure::kSaving: return b.mean - a.mean;
  }
  return ratio;
}
double NoChange(ClaimMeasure measure) { return measure == ClaimMeasure::kRatio ? 1.0 : 0.0; }

// Which side of "no change" the paper's number puts a ratio claim: +1 above, -1 below, 0 when its
// range includes no change (the claim then has no direction and is judged by magnitude alone).
int PaperSide(const Claim& claim) {
  const double neutral = NoChange(claim.measure);
  if (claim.paper->min && *claim.paper->min > neutral) return 1;
  if (claim.paper->max && *claim.paper->max < neutral) return -1;
  return 0;
}

// Whether the claim's test says which way a difference goes (every kind but a magnitude, and a ratio
// whose paper range includes no change).
bool HasDirection(const Claim& claim) {
  if (claim.kind == ClaimKind::kMagnitude) return false;
  if (claim.kind == ClaimKind::kRatio && claim.paper) return PaperSide(claim) != 0;
  return true;
}

json PaperNumberJson(std::optional<double> min, std::optional<double> max) {
  if (min && max && *min == *max) return *min;
  json range = json::object();
  if (min) range["min"] = *min;
  if (max) range["max"] = *max;
  return range;
}

json ToleranceJson(const Tolerance& t, bool with_basis) {
  json out{{"relative", t.relative}, {"absolute", t.absolute}};
  if (with_basis) out["basis"] = t.basis;
  return out;
}

// Ours against one paper number.
json Comparison(double ours, std::optional<double> min, std::optional<double> max, const Tolerance& tolerance) {
  json out{{"paper", PaperNumberJson(min, max)}, {"ours", FiniteOrText(ours)}};
  const std::optional<double> factor = std::isfinite(ours) ? MagnitudeFactor(ours, min, max) : std::nullopt;
  out["factor"] = factor ? json(*factor) : json(nullptr);
  if (!std::isfinite(ours)) {
    out["note"] = "ours is infinite";
  } else if (!factor) {
    const bool zero = (min && ours < *min && *min == 0) || (max && ours > *max && *max == 0);
    out["note"] = zero ? "the paper's number is 0" : "opposite sign";
  }
  out["within"] = std::isfinite(ours) && WithinTolerance(ours, min, max, tolerance);
  out["tolerance"] = ToleranceJson(tolerance, false);
  return out;
}

// The paper values of the cells a claim reads at one point, each compared with ours (cells without
// data are left out: the test reports them).
json CellComparisons(const Experiment& e, const ExperimentPlan& plan, const CellStatistics& stats,
                     const std::vector<CellRef>& cells) {
  json out = json::array();
  std::set<CellRef> seen;
  for (const CellRef& c : cells) {
    if (!seen.insert(c).second) continue;
    const PaperValue* paper = FindPaperValue(e, c.variant, plan.points[c.point], c.metric);
    const SampleSummary& s = stats.At(c.variant, c.point, c.metric);
    if (paper == nullptr || s.n == 0) continue;
    json comparison{{"source", "cell"},
                    {"variant", e.variants[c.variant].name},
                    {"metric", e.metrics[c.metric].name},
                    {"point", PointDocument(e, plan.points[c.point])}};
    comparison.update(Comparison(s.mean, paper->value, paper->value, paper->tolerance));
    out.push_back(std::move(comparison));
  }
  return out;
}

// Outcome of a ratio claim at one point.
json CheckRatio(const Claim& claim, const SampleSummary& a, const SampleSummary& b) {
  if (a.n == 0 || b.n == 0) return {{"outcome", "no data"}, {"reason", "a side has no values"}};
  const double ratio = Ratio(a, b);
  json out{{"ratio", FiniteOrText(ratio)}};
  if (!claim.paper) {
    const bool agrees = (!claim.min || ratio >= *claim.min) && (!claim.max || ratio <= *claim.max);
    out["outcome"] = agrees ? "agrees" : "differs";
    return out;
  }
  const double measured = Measured(claim.measure, ratio, a, b);
  if (claim.measure != ClaimMeasure::kRatio) out["measured"] = FiniteOrText(measured);
  json comparison{{"source", "claim"}};
  comparison.update(Comparison(measured, claim.paper->min, claim.paper->max, claim.tolerance));
  const int side = PaperSide(claim);
  const double neutral = NoChange(claim.measure);
  const bool agrees = side > 0   ? measured > neutral
                      : side < 0 ? measured < neutral
                                 : comparison["within"].get<bool>();
  out["outcome"] = agrees ? "agrees" : "differs";
  out["magnitudes"] = json::array({std::move(comparison)});
  return out;
}

json CheckSignificant(const Claim& claim, const SampleSummary& a, const SampleSummary& b) {
  const UnpairedTTest test = CompareUnpaired(a, b);
  const std::optional<DifferenceInterval> interval = IntervalAt(test, claim.level);
  if (!interval) {
    return {{"outcome", "no data"}, {"reason", "the t-test needs two runs or more on each side"}};
  }
  const bool agrees = claim.greater ? interval->low > 0 : interval->high < 0;
  json out{{"outcome", agrees ? "agrees" : "differs"},
           {"difference", test.difference},
           {"interval", {interval->low, interval->high}},
           {"dof", test.status == UnpairedTTest::Status::kTested ? json(test.dof) : json(nullptr)}};
  // Savorić et al. §6's way of reporting the same comparison.
  if (const std::optional<SignificanceReport> report = ReportSignificance(a, b)) {
    out["reported"] = {{"level", report->interval.level},
                       {"interval", {report->interval.low, report->interval.high}},
                       {"significant", report->significant}};
  }
  return out;
}

// A magnitude claim at one point: mean(a) against the claim's paper number or the cell's.
json CheckMagnitude(const Experiment& e, const ExperimentPlan& plan, const Claim& claim, const CellRef& a,
                    const SampleSummary& sa) {
  if (sa.n == 0) return {{"outcome", "no data"}, {"reason", "no values"}};
  json comparison;
  if (claim.paper) {
    comparison = {{"source", "claim"}};
    comparison.update(Comparison(sa.mean, claim.paper->min, claim.paper->max, claim.tolerance));
  } else if (const PaperValue* p = FindPaperValue(e, a.variant, plan.points[a.point], a.metric)) {
    comparison = {{"source", "cell"},
                  {"variant", e.variants[a.variant].name},
                  {"metric", e.metrics[a.metric].name},
                  {"point", PointDocument(e, plan.points[a.point])}};
    comparison.update(Comparison(sa.mean, p->value, p->value, p->tolerance));
  } else {
    return {{"outcome", "no data"}, {"reason", "the paper gives no number here"}};
  }
  json out{{"outcome", comparison["within"].get<bool>() ? "agrees" : "differs"}};
  out["magnitudes"] = json::array({std::move(comparison)});
  return out;
}

std::string FormatSignificant(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g", x);
  return buffer;
}

// "direction agrees, magnitude ×4.5": the words of a verdict, from the magnitudes' summary.
std::string VerdictText(const std::string& verdict, bool direction, const json& magnitude) {
  if (verdict != "magnitude differs") return verdict;
  std::string s = direction ? "direction agrees, magnitude " : "magnitude ";
  const int opposite = magnitude.value("oppositeSign", 0);
  if (magnitude["worstFactor"].is_number()) {
    s += FactorText(magnitude["worstFactor"].get<double>());
    if (opposite > 0) s += ", opposite sign at " + std::to_string(opposite) + (opposite == 1 ? " point" : " points");
  } else if (opposite > 0) {
    s += "of the opposite sign at " + std::to_string(opposite) + (opposite == 1 ? " point" : " points");
  } else {
    s += "off";
  }
  return s;
}

}  // namespace

const std::vector<VerdictInfo>& Verdicts() {
  static const std::vector<VerdictInfo> verdicts = {
      {"agrees", "✓", "agree",
       "The claim's order, direction, bound or significance holds, and every paper number it compares is within "
       "its tolerance."},
      {"magnitude differs", "≈", "differ in magnitude",
       "The claim's order, direction, bound or significance holds (a magnitude claim has none), but a paper "
       "number it compares is farther from ours than its tolerance: the verdict gives the factor, ours / paper."},
      {"differs", "✗", "differ", "The claim's order, direction, bound or significance does not hold."},
      {"not checked", "–", "not checked", "No point of the claim is part of this mode."},
  };
  return verdicts;
}

const VerdictInfo& VerdictOf(const std::string& verdict) {
  for (const VerdictInfo& v : Verdicts()) {
    if (verdict == v.verdict) return v;
  }
  throw std::invalid_argument("no verdict \"" + verdict + "\"");
}

std::optional<double> MagnitudeFactor(double ours, std::optional<double> min, std::optional<double> max) {
  if (min && ours < *min) {
    if (*min == 0 || (ours < 0) != (*min < 0)) return std::nullopt;
    return ours / *min;
  }
  if (max && ours > *max) {
    if (*max == 0 || (ours < 0) != (*max < 0)) return std::nullopt;
    return ours / *max;
  }
  return 1.0;
}

bool WithinTolerance(double ours, std::optional<double> min, std::optional<double> max, const Tolerance& t) {
  auto slack = [&t](double end) { return std::max(t.relative * std::fabs(end), t.absolute); };
  if (min && ours < *min - slack(*min)) return false;
  if (max && ours > *max + slack(*max)) return false;
  // An absolute tolerance (a printing precision) widens a number near zero by more than half of it:
  // it never lets a number more than 2 times away agree.
  const std::optional<double> factor = MagnitudeFactor(ours, min, max);
  return !factor || (*factor >= 0.5 && *factor <= 2);
}

std::string FactorText(double factor) { return "×" + FormatSignificant(factor); }

CellStatistics::CellStatistics(const Experiment& experiment, const ExperimentPlan& plan,
                               std::vector<SampleSummary> cells)
    : points_(plan.points.size()), metrics_(experiment.metrics.size()), cells_(std::move(cells)) {
  for (size_t p = 0; p < plan.points.size(); ++p) point_index_.emplace(plan.points[p], p);
}

std::optional<size_t> CellStatistics::PointIndex(const std::vector<size_t>& point) const {
  auto it = point_index_.find(point);
  if (it == point_index_.end()) return std::nullopt;
  return it->second;
}

nlohmann::json EvaluateClaim(const Experiment& e, const ExperimentPlan& plan, const CellStatistics& stats,
                             const Claim& claim) {
  const bool direction = HasDirection(claim);
  json out{{"text", claim.text},
           {"kind", AgreementKindName(ClaimAgreementKind(claim))},
           {"test", TestName(claim.kind)}};
  const std::string& known = KnownDifference(claim, plan.mode);
  const std::string& known_magnitude = KnownMagnitudeDifference(claim, plan.mode);
  if (!known.empty()) out["known"] = known;
  if (!known_magnitude.empty()) out["knownMagnitude"] = known_magnitude;
  switch (claim.points) {
    case ClaimPoints::kAll: out["points"] = "all"; break;
    case ClaimPoints::kMost: out["points"] = "most"; break;
    case ClaimPoints::kAny: out["points"] = "any"; break;
    case ClaimPoints::kListed: {
      json filters = json::array();
      for (const auto& filter : claim.point_filters) {
        json f = json::object();
        for (size_t i = 0; i < filter.size(); ++i) {
          if (filter[i]) f[e.axes[i].name] = e.axes[i].values[*filter[i]].value;
        }
        filters.push_back(std::move(f));
      }
      out["points"] = std::move(filters);
      break;
    }
  }
  if (claim.min) out["min"] = *claim.min;
  if (claim.max) out["max"] = *claim.max;
  if (claim.paper) {
    if (claim.kind == ClaimKind::kRatio) out["measure"] = ClaimMeasureName(claim.measure);
    json paper = PaperNumberJson(claim.paper->min, claim.paper->max);
    if (!paper.is_object()) paper = {{"value", paper}};
    paper["source"] = claim.paper->source;
    out["paper"] = std::move(paper);
    out["tolerance"] = ToleranceJson(claim.tolerance, true);
  }
  if (claim.kind == ClaimKind::kSignificant) {
    out["direction"] = claim.greater ? "greater" : "less";
    out["level"] = claim.level;
  }
  if (claim.kind == ClaimKind::kLowest || claim.kind == ClaimKind::kHighest) {
    json among = json::array();
    for (size_t v : claim.among) among.push_back(e.variants[v].name);
    out["among"] = std::move(among);
  }

  json results = json::array();
  size_t agreeing = 0, no_data = 0;
  // A selector that fixes every axis resolves to the same cells at every point: check those once.
  std::set<std::tuple<CellRef, CellRef>> seen;
  for (size_t p = 0; p < plan.points.size(); ++p) {
    const std::vector<size_t>& point = plan.points[p];
    if (claim.points == ClaimPoints::kListed) {
      bool listed = false;
      for (const auto& filter : claim.point_filters) listed = listed || Matches(filter, point);
      if (!listed) continue;
    }
    const std::optional<CellRef> a = Resolve(claim.a, point, stats);
    if (!a) continue;
    json result;
    result["point"] = PointDocument(e, point);
    result["a"] = CellJson(e, plan, stats, *a);
    const SampleSummary& sa = stats.At(a->variant, a->point, a->metric);
    std::vector<CellRef> read{*a};
    if (claim.kind == ClaimKind::kRatio || claim.kind == ClaimKind::kSignificant) {
      const std::optional<CellRef> b = Resolve(claim.b, point, stats);
      if (!b || !seen.emplace(*a, *b).second) continue;
      read.push_back(*b);
      result["b"] = CellJson(e, plan, stats, *b);
      const SampleSummary& sb = stats.At(b->variant, b->point, b->metric);
      result.update(claim.kind == ClaimKind::kRatio ? CheckRatio(claim, sa, sb) : CheckSignificant(claim, sa, sb));
    } else if (claim.kind == ClaimKind::kMagnitude) {
      if (!seen.emplace(*a, *a).second) continue;
      result.update(CheckMagnitude(e, plan, claim, *a, sa));
    } else {
      if (!seen.emplace(*a, *a).second) continue;
      const bool lowest = claim.kind == ClaimKind::kLowest;
      bool agrees = sa.n > 0;
      bool missing = sa.n == 0;
      json means = json::array();
      for (size_t v : claim.among) {
        const SampleSummary& s = stats.At(v, a->point, a->metric);
        read.push_back(CellRef{v, a->point, a->metric});
        means.push_back({{"variant", e.variants[v].name},
                         {"n", s.n},
                         {"mean", s.n > 0 ? json(s.mean) : json(nullptr)}});
        if (s.n == 0) {
          missing = true;
        } else if (sa.n > 0 && (lowest ? s.mean < sa.mean : s.mean > sa.mean)) {
          agrees = false;
        }
      }
      result["means"] = std::move(means);
      result["outcome"] = missing ? "no data" : agrees ? "agrees" : "differs";
    }
    // Without a paper number of its own, a claim compares the paper values of the cells it reads.
    if (!claim.paper && claim.kind != ClaimKind::kMagnitude) {
      json magnitudes = CellComparisons(e, plan, stats, read);
      if (!magnitudes.empty()) result["magnitudes"] = std::move(magnitudes);
    }
    if (result["outcome"] == "agrees") ++agreeing;
    if (result["outcome"] == "no data") ++no_data;
    results.push_back(std::move(result));
  }

  // The magnitudes over every point checked: how many paper numbers, how many within their
  // tolerance, the factor farthest from 1 among the others, at how many points all were within, and
  // the farthest comparison (one outside its tolerance if any is; no factor counts as farthest).
  size_t compared = 0, within = 0, points_compared = 0, points_within = 0;
  int opposite = 0;
  std::optional<double> worst;
  const json* farthest = nullptr;
  const json* farthest_at = nullptr;
  double farthest_distance = -1;
  for (const json& r : results) {
    if (!r.contains("magnitudes")) continue;
    ++points_compared;
    bool all_within = true;
    for (const json& m : r["magnitudes"]) all_within = all_within && m["within"].get<bool>();
    points_within += all_within;
    for (const json& m : r["magnitudes"]) {
      const bool outside = !m["within"].get<bool>();
      const double distance = m["factor"].is_number() && m["factor"].get<double>() > 0
                                  ? std::fabs(std::log(m["factor"].get<double>()))
                                  : kInfinity;
      const bool farthest_outside = farthest != nullptr && !(*farthest)["within"].get<bool>();
      if (farthest == nullptr || (outside && !farthest_outside) ||
          (outside == farthest_outside && distance > farthest_distance)) {
        farthest = &m;
        farthest_at = &r["point"];
        farthest_distance = distance;
      }
      ++compared;
      if (m["within"].get<bool>()) {
        ++within;
        continue;
      }
      if (!m["factor"].is_number()) {
        opposite += m.value("note", "") == "opposite sign";
        continue;
      }
      const double f = m["factor"].get<double>();
      if (!worst || std::fabs(std::log(f)) > std::fabs(std::log(*worst))) worst = f;
    }
  }

  const size_t checked = results.size();
  bool holds = false;
  if (!direction) {
    holds = no_data == 0;  // Judged by magnitude alone.
  } else {
    switch (claim.points) {
      case ClaimPoints::kAll:
      case ClaimPoints::kListed: holds = agreeing == checked; break;
      case ClaimPoints::kMost: holds = 2 * agreeing > checked; break;
      case ClaimPoints::kAny: holds = agreeing > 0; break;
    }
  }
  // The magnitudes hold at the points the claim's rule asks for (the paper's "in most cases" is a
  // statement about its numbers too); a claim without direction is judged at every point.
  bool magnitudes_agree = within == compared;
  if (direction && compared > 0 && claim.points == ClaimPoints::kMost) {
    magnitudes_agree = 2 * points_within > points_compared;
  }
  if (direction && compared > 0 && claim.points == ClaimPoints::kAny) magnitudes_agree = points_within > 0;
  const std::string verdict = checked == 0         ? "not checked"
                              : !holds             ? "differs"
                              : !magnitudes_agree ? "magnitude differs"
                                                   : "agrees";
  json magnitude;
  if (compared > 0) {
    magnitude = {{"compared", compared},
                 {"within", within},
                 {"agree", magnitudes_agree},
                 {"worstFactor", worst ? json(*worst) : json(nullptr)}};
    if (opposite > 0) magnitude["oppositeSign"] = opposite;
    magnitude["farthest"] = {{"at", *farthest_at}, {"comparison", *farthest}};
  }
  out["verdict"] = verdict;
  out["mark"] = VerdictOf(verdict).mark;
  out["verdictText"] = VerdictText(verdict, direction, magnitude);
  out["hasDirection"] = direction;
  // Every part that does not agree has a cause: --check fails on a claim that is not explained. A
  // claim whose test fails is explained by the cause of that (its magnitudes then have the wrong side
  // too); one that holds needs a cause for magnitudes beyond their tolerance.
  out["explained"] =
      checked == 0 || (holds ? magnitudes_agree || !known_magnitude.empty() : !known.empty());
  if (compared > 0) out["magnitude"] = std::move(magnitude);
  out["checked"] = checked;
  out["agreeing"] = agreeing;
  out["results"] = std::move(results);
  return out;
}

}  // namespace tcb
