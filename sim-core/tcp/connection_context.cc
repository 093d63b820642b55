// Connection traits.
#include "tcp/connection_context.h"

#include "core/enum_names.h"

namespace tcb {

namespace {
constexpr std::string_view kContentNames[] = {"html", "image", "java", "ftp", "other"};
}  // namespace

bool ParseContentType(std::string_view name, ContentType* type) { return ParseEnumName(kContentNames, name, type); }
std::string_view ContentTypeName(ContentType type) { return EnumName(kContentNames, type); }

}  // namespace tcb
