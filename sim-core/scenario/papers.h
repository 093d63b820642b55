// The catalogue of papers, theses and RFCs that presets and experiments come from
// (scenario/papers.json, compiled into the library): one list for tcpsim, the WASM API, the server
// and the dashboard.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace tcb {

// {"papers": [{"id", "short", "authors", "title", "venue"?, "year"?, "url"?, "finding"?}, ...]},
// in the file's order.
const nlohmann::json& PaperCatalogue();

// Whether `id` names an entry of the catalogue.
bool IsKnownPaper(std::string_view id);

}  // namespace tcb
