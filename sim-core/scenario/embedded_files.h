// Files compiled into the library (schemas and presets), so the CLI and the WASM module need no files.
#pragma once

#include <string_view>
#include <vector>

namespace tcb {

struct EmbeddedFile {
  std::string_view path;  // Relative to sim-core/, e.g. "scenario/presets/dumbbell-bulk.json".
  std::string_view content;
};

// All embedded files, sorted by path.
const std::vector<EmbeddedFile>& EmbeddedFiles();

}  // namespace tcb
