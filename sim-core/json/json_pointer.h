// JSON Pointers (RFC 6901), parsed here once for all of sim-core: the schema validator's $ref
// fragments, experiments and grids setting values in a scenario document, and reading numbers from a
// run summary, where a non-index segment inside an array selects an element by "name". And the
// JSONPath notation every error message names a place with ("$.traffic[0].to").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcb {

// The decoded reference tokens of `pointer` ("/a~1b/0" -> {"a/b", "0"}); nullopt when it is not a
// pointer (it must be empty or start with '/', and '~' must be followed by 0 or 1).
std::optional<std::vector<std::string>> ParseJsonPointer(std::string_view pointer);

// An array index token: "0", or digits without a leading zero (RFC 6901 §4).
std::optional<size_t> JsonPointerIndex(std::string_view token);

// Path of property `key` under `parent`: "$.name" for identifier-like keys, "$['odd key']" otherwise
// (with ' and \ backslash-escaped and control characters as \u00XX, so a path stays on one line).
std::string JsonPathChild(const std::string& parent, std::string_view key);
// Path of array element `index` under `parent`: "$.traffic[3]".
std::string JsonPathIndex(const std::string& parent, size_t index);

// Sets the value at `pointer` in `document`. The parent must exist: an object gains or replaces the
// last key, an array replaces the element at an existing index. Returns the problem, in words, when
// the pointer cannot be set (missing parent, index out of range, parent neither object nor array).
// Precondition: `pointer` is a valid, non-empty pointer.
std::optional<std::string> SetAtPointer(nlohmann::json& document, std::string_view pointer,
                                        nlohmann::json value);

// The value at `pointer` in a run summary, or nullptr when there is none. Extension of RFC 6901: when
// the current value is an array and the segment is not an index, it selects the first element that
// is an object whose "name" equals the segment ("/links/bottleneck:router0>router1/utilization").
// An index (digits without leading zeros) always means an index.
const nlohmann::json* FindInSummary(const nlohmann::json& summary, std::string_view pointer);

// The JSONPath of `pointer` inside `document`, in the notation of ScenarioError ("/traffic/0/to" ->
// "$.traffic[0].to"), for tracing a scenario error back to the set that caused it. Segments below what
// exists are written as object keys.
std::string PointerToJsonPath(const nlohmann::json& document, std::string_view pointer);

// Whether a JSONPath `inner` lies at or below `outer` ("$.tcp.flavor" is below "$.tcp", "$.tcpx" is
// not).
bool JsonPathWithin(std::string_view inner, std::string_view outer);

}  // namespace tcb
