// Checking an experiment's claims against the statistics of its cells and the paper's numbers, and
// the verdicts they end in.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/experiment.h"
#include "metrics/statistics.h"

namespace tcb {

// The statistics of every cell of a plan, by variant, point (index into the plan's points) and metric.
class CellStatistics {
 public:
  // `cells` in variant, point, metric order.
  CellStatistics(const Experiment& experiment, const ExperimentPlan& plan, std::vector<SampleSummary> cells);

  const SampleSummary& At(size_t variant, size_t point, size_t metric) const {
    return cells_[(variant * points_ + point) * metrics_ + metric];
  }
  // The plan's index of a point (a value index per axis), or nullopt when this mode leaves it out.
  std::optional<size_t> PointIndex(const std::vector<size_t>& point) const;

 private:
  size_t points_;
  size_t metrics_;
  std::vector<SampleSummary> cells_;
  std::map<std::vector<size_t>, size_t> point_index_;
};

// The verdicts a claim can end in, defined once: the report schema's enum lists the same names (a
// test checks it), and the CLI, the reports, docs/reproduction and the web print these marks and
// words, taken from the report.
struct VerdictInfo {
  const char* verdict;  // The report's "verdict".
  const char* mark;     // ✓ ≈ ✗ –
  const char* summary;  // In counts: "3 agree, 2 differ in magnitude, ...".
  const char* meaning;
};
const std::vector<VerdictInfo>& Verdicts();
const VerdictInfo& VerdictOf(const std::string& verdict);

// How far our number is from a paper's (a value when min == max, else a range with open ends
// allowed): ours / paper for a value, ours over the nearer end of a range when outside it, 1 inside.
// nullopt when no factor says it: ours and the paper's number have opposite signs, or the paper's is 0.
std::optional<double> MagnitudeFactor(double ours, std::optional<double> min, std::optional<double> max);
// Whether ours is within the tolerance of the paper's number (a range is widened at each end), and
// not more than 2 times away from it (which an absolute tolerance near zero would allow).
bool WithinTolerance(double ours, std::optional<double> min, std::optional<double> max, const Tolerance& tolerance);

// "×4.5", "×0.067": a factor as verdicts print it (two significant digits).
std::string FactorText(double factor);

// One claim, checked at each point its rule names (points this mode leaves out are skipped; points
// with too little data count as not agreeing), with every paper number it reads compared with ours:
// its kind of agreement, per point the outcome of its test ("agrees", "differs", "no data") with the
// numbers that decided it and the magnitudes, and the verdict with its mark and words, whether every
// part that does not agree has a known cause ("explained"), and the magnitudes' summary.
nlohmann::json EvaluateClaim(const Experiment& experiment, const ExperimentPlan& plan,
                             const CellStatistics& stats, const Claim& claim);

}  // namespace tcb
