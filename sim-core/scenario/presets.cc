// Built-in scenarios.
#include "scenario/presets.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "scenario/embedded_files.h"

namespace tcb {

namespace {
constexpr std::string_view kPresetDir = "scenario/presets/";
// Experiments are read here as plain JSON (only their "scenario" member), so that scenarios do not
// depend on the experiment layer.
constexpr std::string_view kExperimentDir = "scenario/experiments/";
}  // namespace

std::vector<std::string> PresetNames() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (auto name = EmbeddedJsonName(f.path, kPresetDir)) names.emplace_back(*name);
    if (auto name = EmbeddedJsonName(f.path, kExperimentDir)) names.emplace_back(*name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> PresetText(std::string_view name) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (EmbeddedJsonName(f.path, kPresetDir) == name) return std::string(f.content);
  }
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (EmbeddedJsonName(f.path, kExperimentDir) == name) {
      return nlohmann::json::parse(f.content).at("scenario").dump(2) + "\n";
    }
  }
  return std::nullopt;
}

}  // namespace tcb
