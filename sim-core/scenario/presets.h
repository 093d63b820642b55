// Built-in scenarios: the files in scenario/presets/, and the base scenario of every built-in
// experiment (scenario/experiments/) under the experiment's name, compiled into the library.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcb {

// Preset names (file names without ".json"; for experiments, the experiment's file name), sorted.
std::vector<std::string> PresetNames();
// The JSON text of a preset, or nullopt for an unknown name. An experiment's base scenario is its
// "scenario" member, serialised.
std::optional<std::string> PresetText(std::string_view name);

}  // namespace tcb
