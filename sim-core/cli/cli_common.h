// What the tcpsim commands share: the usage error, exit codes and reading input files.
#pragma once

#include <string>

namespace tcb::cli {

// Bad input (a scenario, an experiment or an argument) exits with this code.
constexpr int kBadInput = 2;

// A usage error: exit code 2 like bad scenarios, the path is the offending argument.
struct UsageError {
  std::string message;
};

// The contents of a file, or of stdin for "-". Throws ScenarioError at "$" when it cannot be read.
std::string ReadInput(const std::string& source);

}  // namespace tcb::cli
