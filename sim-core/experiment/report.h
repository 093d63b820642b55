// The results of an experiment: per-run metric values, statistics per variant, point and metric, the
// paper's numbers beside ours, and the claims' verdicts; as a JSON report and as text tables.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/experiment.h"

namespace tcb {

// What an experiment keeps of one run: each metric's value (nullopt when the summary has null or
// nothing there) and the run's resultHash.
struct RunRecord {
  std::vector<std::optional<double>> metrics;
  std::string result_hash;
};

RunRecord RecordRun(const Experiment& experiment, const nlohmann::json& summary);

// The report (report.schema.json): for every variant, point and metric (in that order), n, mean,
// sample sd and the half-width of the 95% Student-t interval, beside the paper's value; every claim
// with its verdict and the numbers that decided it at each point; and runsHash, the SHA-256 of the
// runs' resultHashes in run order. `runs` must be in plan order (whatever order they ran in), so the
// report depends only on the experiment and the mode. No wall time.
nlohmann::json BuildReport(const Experiment& experiment, const ExperimentPlan& plan,
                           const std::vector<RunRecord>& runs);

// The report schema (report.schema.json), as compiled into the library.
const nlohmann::json& ReportSchemaDocument();

// The report as text: per metric a table (rows: points, columns: variants, cells "mean ± ci95
// (paper X)"), then the claims, each "agrees", "DIFFERS" or "not checked", with its numbers.
std::string FormatReport(const nlohmann::json& report);

// True unless a claim of the report differs that is not marked known. (A claim with no point in this mode is not checked.)
bool ClaimsHold(const nlohmann::json& report);

// Runs every run of the mode in order in this thread with `run` (by default RunSpecSummary), and
// builds the report.
nlohmann::json RunExperiment(const Experiment& experiment, ExperimentMode mode,
                             const std::function<nlohmann::json(const RunSpec&)>& run = RunSpecSummary);

}  // namespace tcb
