// Compiles a schema document: checks every keyword, resolves $refs to local JSON pointers, rejects
// $ref cycles that never descend into the instance and defaults that fail their own schema.
#include "scenario/json_schema_internal.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>

namespace tcb {
namespace json_schema_internal {
namespace {

constexpr std::string_view kAnnotations[] = {
    "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "$schema", "$id",
};

constexpr std::string_view kKeywords[] = {
    "$defs",         "$ref",          "type",           "enum",
    "const",         "properties",    "required",       "additionalProperties",
    "minProperties", "maxProperties", "propertyNames",  "items",
    "minItems",      "maxItems",      "uniqueItems",    "minimum",
    "maximum",       "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength",     "maxLength",     "pattern",        "oneOf",
    "anyOf",         "allOf",         "not",
};

// Real JSON Schema keywords this validator deliberately leaves out; named as such rather than as typos.
constexpr std::string_view kUnsupportedKeywords[] = {
    "prefixItems",      "contains",         "minContains",      "maxContains",
    "patternProperties", "dependentRequired", "dependentSchemas", "dependencies",
    "if",               "then",             "else",             "unevaluatedProperties",
    "unevaluatedItems", "format",           "$anchor",          "$dynamicRef",
    "$dynamicAnchor",   "$recursiveRef",    "$recursiveAnchor", "$vocabulary",
    "contentEncoding",  "contentMediaType", "contentSchema",    "writeOnly",
    "additionalItems",
};

template <size_t N>
bool Contains(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

bool IsAnnotation(std::string_view key) { return Contains(kAnnotations, key) || key.rfind("x-", 0) == 0; }

bool IsNonNegativeInteger(const json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

std::string PointerChild(const std::string& location, std::string_view token) {
  return location + (nlohmann::json::json_pointer() / std::string(token)).to_string();  // Escapes ~ and /.
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits a URI fragment such as "#/$defs/a~1b" into unescaped JSON pointer tokens; nullopt if it is
// not a local JSON pointer fragment.
std::optional<std::vector<std::string>> ParseFragment(std::string_view at) {
  if (at.empty() || at[0] != '#') return std::nullopt;
  std::string pointer;
  for (size_t i = 1; i < at.size(); ++i) {
    if (at[i] != '%') {
      pointer += at[i];
      continue;
    }
    if (i + 2 >= at.size()) return std::nullopt;
    int hi = HexValue(at[i + 1]);
    int lo = HexValue(at[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    pointer += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  // RFC 6901 §6: the fragment, percent-decoded, is a JSON Pointer.
  return ParseJsonPointer(pointer);
}

}  // namespace

std::optional<std::bitset<256>> PatternBytes(std::string_view pattern) {
  constexpr std::string_view kOpen = "^[", kClose = "]+$";
  if (pattern.size() <= kOpen.size() + kClose.size() || !pattern.starts_with(kOpen) ||
      !pattern.ends_with(kClose)) {
    return std::nullopt;
  }
  const std::string_view set = pattern.substr(kOpen.size(), pattern.size() - kOpen.size() - kClose.size());
  if (set.front() == '^') return std::nullopt;  // Negated.
  std::bitset<256> bytes;
  for (size_t i = 0; i < set.size(); ++i) {
    const auto c = static_cast<unsigned char>(set[i]);
    if (c == '\\' || c == '[' || c == ']') return std::nullopt;  // Escapes and classes: std::regex's.
    // ECMAScript (ECMA-262 §22.2.2.9): a '-' between two characters is a range; first or last, itself.
    if (i + 2 < set.size() && set[i + 1] == '-') {
      const auto last = static_cast<unsigned char>(set[i + 2]);
      if (last == '\\' || last == '[' || last == ']' || last < c) return std::nullopt;
      for (unsigned b = c; b <= last; ++b) bytes.set(b);
      i += 2;
    } else {
      bytes.set(c);
    }
  }
  return bytes;
}

}  // namespace json_schema_internal

using namespace json_schema_internal;

void JsonSchema::Impl::Fail(const std::string& location, const std::string& what) {
  throw std::invalid_argument("json schema " + location + ": " + what);
}

void JsonSchema::Impl::Walk(const json& schema, const std::string& location, Refs& refs) {
  if (!schema.is_object() && !schema.is_boolean()) {
    Fail(location, std::string("a schema must be an object or a boolean, not ") + schema.type_name());
  }
  Node& node = nodes[&schema];  // Stays valid while Walk adds other nodes (an unordered_map's do).
  node.location = location;
  walk_order.push_back(&schema);
  if (schema.is_boolean()) return;
  for (const auto& [key, value] : schema.items()) {
    for (size_t slot = 0; slot < kIndexedKeywordCount; ++slot) {
      if (kIndexedKeywords[slot] == key) node.keywords[slot] = &value;
    }
  }
  for (const auto& [key, value] : schema.items()) {
    const std::string at = PointerChild(location, key);
    if (IsAnnotation(key)) continue;
    if (key == "$defs" || key == "properties") {
      if (!value.is_object()) Fail(at, "must be an object whose values are schemas");
      for (const auto& [name, sub] : value.items()) Walk(sub, PointerChild(at, name), refs);
    } else if (key == "items" && value.is_array()) {
      Fail(at, "must be a single schema (the array form is tuple validation, which is not supported)");
    } else if (key == "additionalProperties" || key == "propertyNames" || key == "items" || key == "not") {
      Walk(value, at, refs);
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      if (!value.is_array() || value.empty()) Fail(at, "must be a non-empty array of schemas");
      for (size_t i = 0; i < value.size(); ++i) Walk(value[i], at + "/" + std::to_string(i), refs);
    } else if (key == "$ref") {
      if (!value.is_string()) Fail(at, "must be a string");
      refs.emplace_back(&schema, value.get<std::string>());
    } else if (key == "type") {
      CheckTypeKeyword(value, at);
    } else if (key == "enum") {
      if (!value.is_array() || value.empty()) Fail(at, "must be a non-empty array");
    } else if (key == "const") {
      // Any value.
    } else if (key == "required") {
      CheckRequiredKeyword(value, at);
    } else if (key == "minProperties" || key == "maxProperties" || key == "minItems" || key == "maxItems" ||
               key == "minLength" || key == "maxLength") {
      if (!IsNonNegativeInteger(value)) Fail(at, "must be a non-negative integer");
    } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      if (!value.is_number()) {
        Fail(at, value.is_boolean() ? "must be a number (draft 2020-12 form, e.g. \"exclusiveMinimum\": 0)"
                                    : "must be a number");
      }
    } else if (key == "multipleOf") {
      if (!value.is_number() || value.get<double>() <= 0) Fail(at, "must be a number > 0");
    } else if (key == "uniqueItems") {
      if (!value.is_boolean()) Fail(at, "must be a boolean");
    } else if (key == "pattern") {
      if (!value.is_string()) Fail(at, "must be a string");
      try {
        Node& node = nodes[&schema];
        node.pattern.emplace(value.get<std::string>(), std::regex::ECMAScript);
        node.pattern_bytes = PatternBytes(value.get_ref<const std::string&>());
      } catch (const std::regex_error& e) {
        Fail(at, "invalid regular expression " + Quote(value.get<std::string>()) + ": " + e.what());
      }
    } else {
      Fail(location, UnknownKeyword(key));
    }
  }
}

std::string JsonSchema::Impl::UnknownKeyword(const std::string& key) {
  if (key == "definitions") return "keyword \"definitions\" is draft-07; use \"$defs\"";
  if (Contains(kUnsupportedKeywords, key)) return "keyword " + Quote(key) + " is not supported by this validator";
  std::vector<std::string> known;
  for (std::string_view k : kKeywords) known.emplace_back(k);
  for (std::string_view k : kAnnotations) known.emplace_back(k);
  return "unknown keyword " + Quote(key) + DidYouMean(key, known);
}

void JsonSchema::Impl::CheckTypeKeyword(const json& value, const std::string& at) {
  auto check = [&](const json& name) {
    if (!name.is_string() || FindTypeName(name.get_ref<const std::string&>()) == nullptr) {
      Fail(at, "unknown type " + Show(name) +
                   " (expected \"null\", \"boolean\", \"object\", \"array\", \"number\", \"integer\" or \"string\")");
    }
  };
  if (value.is_array()) {
    if (value.empty()) Fail(at, "must not be empty");
    for (const json& name : value) check(name);
  } else {
    check(value);
  }
}

void JsonSchema::Impl::CheckRequiredKeyword(const json& value, const std::string& at) {
  if (!value.is_array()) Fail(at, "must be an array of strings");
  std::set<std::string> seen;
  for (const json& name : value) {
    if (!name.is_string()) Fail(at, "must be an array of strings");
    if (!seen.insert(name.get<std::string>()).second) Fail(at, "lists " + Show(name) + " twice");
  }
}

// Follows a JSON pointer fragment through the document; on failure returns nullptr and explains why.
const json* JsonSchema::Impl::Navigate(std::string_view at, std::string* why) const {
  std::optional<std::vector<std::string>> tokens = ParseFragment(at);
  if (!tokens) {
    *why = "not a local JSON pointer fragment such as \"#/$defs/name\"";
    return nullptr;
  }
  const json* node = &root;
  std::string reached = "#";
  for (const std::string& token : *tokens) {
    if (node->is_object()) {
      auto it = node->find(token);
      if (it == node->end()) {
        std::vector<std::string> keys;
        for (const auto& item : node->items()) keys.push_back(item.key());
        *why = "no " + Quote(token) + " in " + reached;
        if (std::optional<std::string> s = Suggest(token, keys)) {
          *why += "; did you mean " + Quote(PointerChild(reached, *s)) + "?";
        }
        return nullptr;
      }
      node = &*it;
    } else if (node->is_array()) {
      const std::optional<size_t> index = JsonPointerIndex(token);
      if (!index || *index >= node->size()) {
        *why = "no item " + Quote(token) + " in " + reached;
        return nullptr;
      }
      node = &(*node)[*index];
    } else {
      *why = reached + " has no members";
      return nullptr;
    }
    reached = PointerChild(reached, token);
  }
  return node;
}

const json& JsonSchema::Impl::SchemaAt(std::string_view at) const {
  std::string why;
  const json* node = Navigate(at, &why);
  if (node == nullptr) throw std::invalid_argument("no subschema at " + Quote(at) + ": " + why);
  if (nodes.count(node) == 0) throw std::invalid_argument(Quote(at) + " is not a schema");
  return *node;
}

void JsonSchema::Impl::ResolveRefs(const Refs& refs) {
  for (const auto& [owner, ref] : refs) {
    const std::string at = nodes.at(owner).location + "/$ref";
    if (ref.empty() || ref[0] != '#') {
      Fail(at, "$ref " + Quote(ref) + " is not supported: only local references (\"#/...\") are");
    }
    std::string why;
    const json* target = Navigate(ref, &why);
    if (target == nullptr) Fail(at, "$ref " + Quote(ref) + " does not resolve: " + why);
    if (nodes.count(target) == 0) Fail(at, "$ref " + Quote(ref) + " does not point to a schema");
    nodes.at(owner).ref = target;
  }
}

// Schemas applied to the same instance value as `schema` itself; a cycle among these never ends.
std::vector<const json*> JsonSchema::Impl::InPlaceChildren(const json& schema) const {
  std::vector<const json*> children;
  if (!schema.is_object()) return children;
  if (const json* ref = NodeOf(schema).ref) children.push_back(ref);
  for (const char* keyword : {"allOf", "anyOf", "oneOf"}) {
    if (const json* list = Find(schema, keyword)) {
      for (const json& s : *list) children.push_back(&s);
    }
  }
  if (const json* n = Find(schema, "not")) children.push_back(n);
  return children;
}

void JsonSchema::Impl::CheckCycles() const {
  std::unordered_map<const json*, int> state;  // 1: on the current path, 2: done.
  std::vector<const json*> path;
  for (const json* s : walk_order) VisitForCycles(s, state, path);
}

void JsonSchema::Impl::VisitForCycles(const json* schema, std::unordered_map<const json*, int>& state,
                                      std::vector<const json*>& path) const {
  if (state[schema] == 2) return;
  state[schema] = 1;
  path.push_back(schema);
  for (const json* child : InPlaceChildren(*schema)) {
    if (state[child] == 1) {
      std::string cycle;
      auto start = std::find(path.begin(), path.end(), child);
      for (auto it = start; it != path.end(); ++it) cycle += NodeOf(**it).location + " -> ";
      Fail(NodeOf(*child).location, "$ref cycle that never descends into the instance: " + cycle +
                                        NodeOf(*child).location);
    }
    VisitForCycles(child, state, path);
  }
  path.pop_back();
  state[schema] = 2;
}

// A default that its own schema rejects is a bug in the schema, reported at compile time.
void JsonSchema::Impl::CheckDefaults() const {
  for (const json* s : walk_order) {
    if (!s->is_object()) continue;
    const json* d = Find(*s, "default");
    if (d == nullptr) continue;
    json value = *d;
    std::vector<const json*> filling = {s};
    Apply(value, *s, filling, 0);
    std::vector<Found> errors = Collect(value, *s);
    if (!errors.empty()) {
      Fail(NodeOf(*s).location + "/default",
           "the default does not satisfy its schema: " + errors[0].error.path + ": " + errors[0].error.message);
    }
  }
}

JsonSchema JsonSchema::Compile(const nlohmann::json& schema) {
  auto impl = std::make_shared<Impl>();
  impl->root = schema;
  Impl::Refs refs;
  impl->Walk(impl->root, "#", refs);
  impl->ResolveRefs(refs);
  impl->CheckCycles();
  impl->CheckDefaults();
  return JsonSchema(std::move(impl));
}

const nlohmann::json& JsonSchema::SubschemaAt(std::string_view at) const { return impl_->SchemaAt(at); }

}  // namespace tcb
