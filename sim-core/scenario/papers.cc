// The paper catalogue.
#include "scenario/papers.h"

#include <string>

#include "scenario/embedded_files.h"

namespace tcb {

const nlohmann::json& PaperCatalogue() {
  // Immutable after first use, so concurrent runs may share it (C++ initialises statics once).
  static const nlohmann::json catalogue = [] {
    nlohmann::json j = nlohmann::json::parse(*EmbeddedFileText("scenario/papers.json"));
    j.erase("$comment");
    return j;
  }();
  return catalogue;
}

bool IsKnownPaper(std::string_view id) {
  for (const nlohmann::json& paper : PaperCatalogue()["papers"]) {
    if (paper["id"].get_ref<const std::string&>() == id) return true;
  }
  return false;
}

}  // namespace tcb
