// What the tcpsim commands share: the usage error, exit codes and reading input files.
#pragma once

#include <cstdint>
#include <string>

namespace tcb::cli {

// Bad input (a scenario, an experiment or an argument) exits with this code.
constexpr int kBadInput = 2;
// A run that needs more memory than its limit (--max-memory-mb, or the process's address-space
// limit) exits with this code: the input is valid, the run too large.
constexpr int kResourceLimit = 3;

// A usage error: exit code 2 like bad scenarios, the path is the offending argument.
struct UsageError {
  std::string message;
};

// The contents of a file, or of stdin for "-". Throws ScenarioError at "$" when it cannot be read.
std::string ReadInput(const std::string& source);

// The value of --max-memory-mb (mebibytes, a whole number from 1 to kMaxMemoryMb) in bytes; throws
// UsageError naming the option otherwise.
inline constexpr int64_t kMaxMemoryMb = int64_t{1} << 30;
int64_t ParseMaxMemoryMb(const std::string& text);

// --parent-pid PID (Linux): SIGKILL this process when its parent ends (PR_SET_PDEATHSIG), so that a
// simulator never outlives the worker or server that started it, whatever killed that; and end at
// once when the parent is already not PID (gone before the signal was asked for). Elsewhere it
// only checks its argument. Throws UsageError when `pid` is not a process id.
void DieWithParent(const std::string& pid);

}  // namespace tcb::cli
