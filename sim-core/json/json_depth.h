// How deeply a JSON text nests, measured before it is parsed: nlohmann's parser is iterative, but
// what walks a parsed document (the schema validator, dump(), the destructor of older releases) is
// recursive, so a document nested a hundred thousand deep would overflow the stack. Every JSON text
// sim-core reads from outside goes through ParseJsonText (scenario/scenario.h) or, in tcpsim serve,
// a request line, and both refuse more than kMaxJsonDepth levels first. The service's body parser
// refuses the same depth (MAX_JSON_DEPTH, server/src/config.ts).
#pragma once

#include <cstddef>
#include <string_view>

namespace tcb {

// Arrays and objects inside one another, at most. The deepest built-in document (a preset, an
// experiment, a page) nests 6 levels; a request of the service wraps a scenario or experiment in one
// or two more.
inline constexpr size_t kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text` (0 for a scalar), counting brackets outside
// strings and stopping once it exceeds `stop_above`. Malformed text is measured as far as it goes:
// the parser that follows reports the syntax error.
size_t JsonDepth(std::string_view text, size_t stop_above = kMaxJsonDepth);

}  // namespace tcb
