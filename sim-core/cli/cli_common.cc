// What the tcpsim commands share.
#include "cli/cli_common.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <iostream>
#include <iterator>
#include <sstream>

#include "scenario/scenario.h"

#if defined(__linux__)
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace tcb::cli {

std::string ReadInput(const std::string& source) {
  if (source == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  std::ifstream in(source, std::ios::binary);
  if (!in) throw ScenarioError("$", "cannot read file \"" + source + "\"");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tcb::cli

namespace tcb::cli {

int64_t ParseMaxMemoryMb(const std::string& text) {
  size_t used = 0;
  long long mb = 0;
  try {
    mb = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || mb < 1 || mb > kMaxMemoryMb) {
    throw UsageError{"--max-memory-mb must be a whole number of mebibytes from 1 to " + std::to_string(kMaxMemoryMb) +
                     " (got \"" + text + "\")"};
  }
  return static_cast<int64_t>(mb) << 20;
}

void DieWithParent(const std::string& text) {
  size_t used = 0;
  long pid = 0;
  try {
    pid = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || pid < 1) throw UsageError{"--parent-pid must be a process id (got \"" + text + "\")"};
#if defined(__linux__)
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) throw std::runtime_error("prctl(PR_SET_PDEATHSIG) failed");
  if (getppid() != static_cast<pid_t>(pid)) std::_Exit(1);
#endif
}

}  // namespace tcb::cli
