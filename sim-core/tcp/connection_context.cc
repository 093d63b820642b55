// Connection traits.
#include "tcp/connection_context.h"

#include <iterator>

namespace tcb {

namespace {
constexpr std::string_view kContentNames[] = {"html", "image", "java", "ftp", "other"};
}  // namespace

bool ParseContentType(std::string_view name, ContentType* type) {
  for (size_t i = 0; i < std::size(kContentNames); ++i) {
    if (kContentNames[i] == name) {
      *type = static_cast<ContentType>(i);
      return true;
    }
  }
  return false;
}

std::string_view ContentTypeName(ContentType type) { return kContentNames[static_cast<int>(type)]; }

}  // namespace tcb
