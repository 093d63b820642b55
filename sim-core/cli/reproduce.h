// tcpsim reproduce, experiments and experiment: running a seed paper's experiment on a pool of
// threads and printing our numbers beside the paper's.
#pragma once

#include <string>
#include <vector>

namespace tcb::cli {

// `tcpsim reproduce <name|file|-> [--quick|--full] [--jobs N] [--json|--markdown] [--check] [-o DIR]`.
// Returns the exit code: 0, or 1 with --check when a claim does not agree without a known cause.
// Throws UsageError and ScenarioError for bad input.
int Reproduce(const std::vector<std::string>& args);
// `tcpsim report <report.json|-> [--markdown]`, `tcpsim report --overview FILE...`, `tcpsim report
// --legend`: a saved report as text or Markdown, the claims with paper numbers over several reports,
// the verdicts' legend. Throws ScenarioError (with the JSON path) for a file that is not a report.
int PrintReports(const std::vector<std::string>& args);
// `tcpsim experiments`: the built-in experiments, one per line.
int ListExperiments(const std::vector<std::string>& args);
// `tcpsim experiment NAME`: the experiment document as built in.
int PrintExperiment(const std::vector<std::string>& args);

}  // namespace tcb::cli
