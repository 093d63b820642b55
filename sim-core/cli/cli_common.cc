// What the tcpsim commands share.
#include "cli/cli_common.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "scenario/scenario.h"

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
