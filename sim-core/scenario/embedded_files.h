// Files compiled into the library (schemas and presets), so the CLI and the WASM module need no files.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace tcb {

struct EmbeddedFile {
  std::string_view path;  // Relative to sim-core/, e.g. "scenario/presets/dumbbell-bulk.json".
  std::string_view content;
};

// All embedded files, sorted by path.
const std::vector<EmbeddedFile>& EmbeddedFiles();

// The content of the embedded file at `path`, or nullopt.
inline std::optional<std::string_view> EmbeddedFileText(std::string_view path) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path == path) return f.content;
  }
  return std::nullopt;
}

// The name of a JSON file directly in `dir` (e.g. "scenario/presets/"): the file name without ".json",
// or nullopt for a path elsewhere.
inline std::optional<std::string_view> EmbeddedJsonName(std::string_view path, std::string_view dir) {
  constexpr std::string_view kJson = ".json";
  if (path.substr(0, dir.size()) != dir || path.size() <= dir.size() + kJson.size() ||
      path.substr(path.size() - kJson.size()) != kJson) {
    return std::nullopt;
  }
  const std::string_view name = path.substr(dir.size(), path.size() - dir.size() - kJson.size());
  if (name.find('/') != std::string_view::npos) return std::nullopt;
  return name;
}

}  // namespace tcb
