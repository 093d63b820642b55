// tcpsim reproduce, experiments and experiment: running a seed paper's experiment on a pool of
// threads and printing our numbers beside the paper's.
#pragma once

#include <string>
#include <vector>

namespace tcb::cli {

// `tcpsim reproduce <name|file|-> [--quick|--full] [--jobs N] [--json] [--check] [-o DIR]`.
// Returns the exit code: 0, or 1 with --check when a claim differs. Throws UsageError and
// ScenarioError for bad input.
int Reproduce(const std::vector<std::string>& args);
// `tcpsim experiments`: the built-in experiments, one per line.
int ListExperiments(const std::vector<std::string>& args);
// `tcpsim experiment NAME`: the experiment document as built in.
int PrintExperiment(const std::vector<std::string>& args);

}  // namespace tcb::cli
