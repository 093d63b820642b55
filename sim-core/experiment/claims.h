// Checking an experiment's claims against the statistics of its cells.
#pragma once

#include <map>
#include <optional>
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

// One claim, checked at each point its rule names (points this mode leaves out are skipped; points
// with too little data count as not agreeing): the verdict ("agrees", "differs", or "not checked"
// when no point was left) and per point the outcome ("agrees", "differs", "no data") with the
// numbers that decided it.
nlohmann::json EvaluateClaim(const Experiment& experiment, const ExperimentPlan& plan,
                             const CellStatistics& stats, const Claim& claim);

}  // namespace tcb
