// Claims: ratio, lowest/highest and significant, checked per point.
#include "experiment/claims.h"

#include <limits>
#include <set>
#include <tuple>

namespace tcb {

namespace {

using nlohmann::json;

// One cell a claim looks at.
struct CellRef {
  size_t variant = 0;
  size_t point = 0;  // Into the plan's points.
  size_t metric = 0;
  friend auto operator<=>(const CellRef&, const CellRef&) = default;
};

const char* KindName(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::kRatio: return "ratio";
    case ClaimKind::kLowest: return "lowest";
    case ClaimKind::kHighest: return "highest";
    case ClaimKind::kSignificant: return "significant";
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

// JSON has no infinity: an infinite ratio is written as a string.
json RatioJson(double r) {
  if (r == std::numeric_limits<double>::infinity()) return "inf";
  if (r == -std::numeric_limits<double>::infinity()) return "-inf";
  return r;
}

bool Matches(const std::vector<std::optional<size_t>>& filter, const std::vector<size_t>& point) {
  for (size_t i = 0; i < point.size(); ++i) {
    if (filter[i] && *filter[i] != point[i]) return false;
  }
  return true;
}

// Outcome of a ratio claim at one point. 0/0 counts as 1 (equal means); x/0 is infinite.
json CheckRatio(const Claim& claim, const SampleSummary& a, const SampleSummary& b) {
  if (a.n == 0 || b.n == 0) return {{"outcome", "no data"}, {"reason", "a side has no values"}};
  double ratio;
  if (b.mean == 0) {
    ratio = a.mean == 0 ? 1.0 : (a.mean > 0 ? 1.0 : -1.0) * std::numeric_limits<double>::infinity();
  } else {
    ratio = a.mean / b.mean;
  }
  const bool agrees = (!claim.min || ratio >= *claim.min) && (!claim.max || ratio <= *claim.max);
  return {{"outcome", agrees ? "agrees" : "differs"}, {"ratio", RatioJson(ratio)}};
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

}  // namespace

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
  json out{{"text", claim.text}, {"kind", KindName(claim.kind)}};
  if (const std::string& known = KnownDifference(claim, plan.mode); !known.empty()) out["known"] = known;
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
  size_t agreeing = 0;
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
    if (claim.kind == ClaimKind::kRatio || claim.kind == ClaimKind::kSignificant) {
      const std::optional<CellRef> b = Resolve(claim.b, point, stats);
      if (!b || !seen.emplace(*a, *b).second) continue;
      result["b"] = CellJson(e, plan, stats, *b);
      const SampleSummary& sb = stats.At(b->variant, b->point, b->metric);
      result.update(claim.kind == ClaimKind::kRatio ? CheckRatio(claim, sa, sb)
                                                    : CheckSignificant(claim, sa, sb));
    } else {
      if (!seen.emplace(*a, *a).second) continue;
      const bool lowest = claim.kind == ClaimKind::kLowest;
      bool agrees = sa.n > 0;
      json means = json::array();
      for (size_t v : claim.among) {
        const SampleSummary& s = stats.At(v, a->point, a->metric);
        means.push_back({{"variant", e.variants[v].name},
                         {"n", s.n},
                         {"mean", s.n > 0 ? json(s.mean) : json(nullptr)}});
        if (s.n == 0) {
          agrees = false;
        } else if (sa.n > 0 && (lowest ? s.mean < sa.mean : s.mean > sa.mean)) {
          agrees = false;
        }
      }
      result["means"] = std::move(means);
      bool missing = sa.n == 0;
      for (const json& m : result["means"]) missing = missing || m["n"] == 0;
      result["outcome"] = missing ? "no data" : agrees ? "agrees" : "differs";
    }
    if (result["outcome"] == "agrees") ++agreeing;
    results.push_back(std::move(result));
  }

  const size_t checked = results.size();
  bool holds = false;
  switch (claim.points) {
    case ClaimPoints::kAll:
    case ClaimPoints::kListed: holds = agreeing == checked; break;
    case ClaimPoints::kMost: holds = 2 * agreeing > checked; break;
    case ClaimPoints::kAny: holds = agreeing > 0; break;
  }
  out["verdict"] = checked == 0 ? "not checked" : holds ? "agrees" : "differs";
  out["checked"] = checked;
  out["agreeing"] = agreeing;
  out["results"] = std::move(results);
  return out;
}

}  // namespace tcb
