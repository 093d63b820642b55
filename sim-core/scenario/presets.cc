// Built-in scenarios.
#include "scenario/presets.h"

#include "scenario/embedded_files.h"

namespace tcb {

namespace {
constexpr std::string_view kPresetDir = "scenario/presets/";
constexpr std::string_view kJson = ".json";

std::optional<std::string_view> PresetName(std::string_view path) {
  if (path.substr(0, kPresetDir.size()) != kPresetDir || path.size() < kPresetDir.size() + kJson.size() ||
      path.substr(path.size() - kJson.size()) != kJson) {
    return std::nullopt;
  }
  return path.substr(kPresetDir.size(), path.size() - kPresetDir.size() - kJson.size());
}
}  // namespace

std::vector<std::string> PresetNames() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (auto name = PresetName(f.path)) names.emplace_back(*name);
  }
  return names;
}

std::optional<std::string_view> PresetText(std::string_view name) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (PresetName(f.path) == name) return f.content;
  }
  return std::nullopt;
}

}  // namespace tcb
