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

// The version of report.schema.json that BuildReport writes.
inline constexpr int kReportSchemaVersion = 2;

// The report (report.schema.json): for every variant, point and metric (in that order), n, mean,
// sample sd and the half-width of the 95% Student-t interval, beside the paper's value and ours /
// paper; every claim with its kind, its verdict (the vocabulary in the report's "verdicts") and the
// numbers that decided it at each point, the paper's among them; and runsHash, the SHA-256 of the
// runs' resultHashes in run order. `runs` must be in plan order (whatever order they ran in), so the
// report depends only on the experiment and the mode. No wall time.
nlohmann::json BuildReport(const Experiment& experiment, const ExperimentPlan& plan,
                           const std::vector<RunRecord>& runs);

// The report schema (report.schema.json), as compiled into the library.
const nlohmann::json& ReportSchemaDocument();

// The report as text: per metric a table (rows: points, columns: variants, cells "mean ± ci95
// (paper X, ×ours/paper)"), then the claims, each with its verdict's mark and words, its known
// causes, its rule and its numbers at each point, the paper's beside ours.
std::string FormatReport(const nlohmann::json& report);

// The report as Markdown for docs/reproduction: the tables (a row per metric when there is one
// point), then the claims with their verdicts, paper numbers and known causes.
std::string FormatReportMarkdown(const nlohmann::json& report);

// Markdown: the verdicts, their marks and meanings (for docs/REPRODUCTION.md).
std::string FormatVerdictLegend();

// Markdown over several reports: their verdict counts, and every claim that compares a paper number,
// with the paper's number, ours and the ratio (the farthest one when it compares several), its
// verdict and its known cause.
std::string FormatClaimsOverview(const std::vector<nlohmann::json>& reports);

// True unless a claim of the report does not agree (in its test or its magnitudes) without a known
// cause for it. (A claim with no point in this mode is not checked.)
bool ClaimsHold(const nlohmann::json& report);

// Runs every run of the mode in order in this thread with `run` (by default RunSpecSummary), and
// builds the report.
nlohmann::json RunExperiment(const Experiment& experiment, ExperimentMode mode,
                             const std::function<nlohmann::json(const RunSpec&)>& run = RunSpecSummary);

}  // namespace tcb
