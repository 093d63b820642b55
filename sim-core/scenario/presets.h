// Built-in scenarios: the files in scenario/presets/, compiled into the library.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcb {

// Preset names (file names without ".json"), sorted.
std::vector<std::string> PresetNames();
// The JSON text of a preset, or nullopt for an unknown name.
std::optional<std::string_view> PresetText(std::string_view name);

}  // namespace tcb
