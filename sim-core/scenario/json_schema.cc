// JSON Schema subset validator: checks the schema and resolves its $refs once, then validates by
// collecting errors keyed by their place in the instance, so the first error reported is deterministic.
#include "scenario/json_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace tcb {
namespace {

using nlohmann::json;

// Instance types as bits. Numbers are split so that "integer" (JSON integers only, not 1.0) and
// "number" are both plain masks.
constexpr unsigned kNull = 1;
constexpr unsigned kBoolean = 2;
constexpr unsigned kObject = 4;
constexpr unsigned kArray = 8;
constexpr unsigned kString = 16;
constexpr unsigned kInteger = 32;
constexpr unsigned kFraction = 64;
constexpr unsigned kNumber = kInteger | kFraction;
constexpr unsigned kAnyType = kNull | kBoolean | kObject | kArray | kString | kNumber;

struct TypeName {
  std::string_view name;
  unsigned bits;
  std::string_view phrase;
};

// Also the order in which types inferred from a mask are named in messages.
constexpr TypeName kTypeNames[] = {
    {"null", kNull, "null"},         {"boolean", kBoolean, "a boolean"}, {"object", kObject, "an object"},
    {"array", kArray, "an array"},   {"number", kNumber, "a number"},   {"integer", kInteger, "an integer"},
    {"string", kString, "a string"},
};

const TypeName* FindTypeName(std::string_view name) {
  for (const TypeName& t : kTypeNames) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

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

unsigned InstanceType(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return kNull;
    case json::value_t::boolean: return kBoolean;
    case json::value_t::object: return kObject;
    case json::value_t::array: return kArray;
    case json::value_t::string: return kString;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return kInteger;
    case json::value_t::number_float: return kFraction;
    default: return 0;
  }
}

// Types a literal admits: 1 and 1.0 compare equal, so a numeric const or enum value admits both kinds.
unsigned LiteralTypes(const json& v) {
  unsigned t = InstanceType(v);
  return (t & kNumber) ? kNumber : t;
}

std::string Dump(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string Quote(std::string_view s) { return Dump(json(std::string(s))); }

// Cuts at a UTF-8 character boundary and marks the cut.
std::string Truncate(const std::string& s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

// Recursive schemas accept arbitrarily deep documents; deeper than this, validation gives up rather than
// exhaust the stack (scenarios are a few levels deep; the WASM stack is small).
constexpr size_t kMaxDepth = 64;

// Values quoted in messages are shortened so that an error stays one readable line.
constexpr size_t kMaxShownBytes = 60;

std::string Show(const json& v) {
  if (v.is_string()) return Quote(Truncate(v.get_ref<const std::string&>(), kMaxShownBytes));
  return Truncate(Dump(v), kMaxShownBytes);
}

// The "(got ...)" text. When numbers were expected the kind of number is the problem ("must be an
// integer (got 1.5)"), so the value alone says it; otherwise the JSON type is named too.
std::string Got(const json& v, unsigned expected) {
  unsigned t = InstanceType(v);
  if ((t & kNumber) && (expected & kNumber)) return Show(v);
  switch (t) {
    case kNull: return "null";
    case kBoolean: return "boolean " + Show(v);
    case kObject: return "object";
    case kArray: return "array";
    case kString: return "string " + Show(v);
    case kInteger:
    case kFraction: return "number " + Show(v);
    default: return v.type_name();
  }
}

// Distinct values, comma-separated, in order of first appearance.
std::vector<std::string> Distinct(const std::vector<std::string>& items) {
  std::vector<std::string> unique;
  for (const std::string& s : items) {
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  }
  return unique;
}

std::string CommaList(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + items[i];
  return out;
}

// "must be X" for one allowed value, "must be one of X, Y" for several.
std::string OneOfValues(const std::vector<std::string>& shown) {
  std::vector<std::string> unique = Distinct(shown);
  return (unique.size() == 1 ? "must be " : "must be one of ") + CommaList(unique);
}

// "a", "a or b", "a, b or c", without repeats.
std::string JoinAlternatives(const std::vector<std::string>& items) {
  std::vector<std::string> unique = Distinct(items);
  std::string out;
  for (size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) out += (i + 1 == unique.size()) ? " or " : ", ";
    out += unique[i];
  }
  return out;
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Optimal-string-alignment distance (adjacent swaps count once), ignoring ASCII case.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && Lower(a[i - 1]) == Lower(b[j - 2]) && Lower(a[i - 2]) == Lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The closest candidate if it is close enough to be a plausible typo (about one edit per three letters,
// and never a rewrite of the whole word); the first of equally close candidates.
std::optional<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  size_t best_distance = 0;
  for (const std::string& c : candidates) {
    size_t distance = EditDistance(word, c);
    if (best == nullptr || distance < best_distance) {
      best = &c;
      best_distance = distance;
    }
  }
  if (best == nullptr || *best == word) return std::nullopt;
  size_t limit = std::clamp<size_t>(std::max(word.size(), best->size()) / 3, 1, 3);
  if (best_distance > limit || best_distance >= std::min(word.size(), best->size())) return std::nullopt;
  return *best;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> s = Suggest(word, candidates);
  return s ? "; did you mean " + Quote(*s) + "?" : "";
}

bool IsNonNegativeInteger(const json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

// Only called on values accepted by IsNonNegativeInteger.
uint64_t AsCount(const json& v) {
  return v.is_number_unsigned() ? v.get<uint64_t>() : static_cast<uint64_t>(v.get<int64_t>());
}

// An integer as sign and magnitude, so that int64 and uint64 values compare exactly.
struct BigInt {
  bool negative;
  uint64_t magnitude;
};

BigInt ToBigInt(const json& v) {
  if (v.is_number_unsigned()) return {false, v.get<uint64_t>()};
  int64_t x = v.get<int64_t>();
  if (x >= 0) return {false, static_cast<uint64_t>(x)};
  return {true, static_cast<uint64_t>(-(x + 1)) + 1};
}

int Sign(bool less, bool greater) { return less ? -1 : (greater ? 1 : 0); }

// Three-way comparison of two JSON numbers; exact for integers, via double otherwise.
int CompareNumbers(const json& a, const json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    BigInt x = ToBigInt(a);
    BigInt y = ToBigInt(b);
    if (x.negative != y.negative) return x.negative ? -1 : 1;
    int magnitude = Sign(x.magnitude < y.magnitude, x.magnitude > y.magnitude);
    return x.negative ? -magnitude : magnitude;
  }
  double x = a.get<double>();
  double y = b.get<double>();
  return Sign(x < y, x > y);
}

bool IsMultipleOf(const json& value, const json& divisor) {
  if (value.is_number_integer() && divisor.is_number_integer()) {
    return ToBigInt(value).magnitude % ToBigInt(divisor).magnitude == 0;
  }
  double q = value.get<double>() / divisor.get<double>();
  if (!std::isfinite(q)) return false;
  // Decimal divisors such as 0.1 are inexact in binary; accept quotients within rounding noise.
  return std::fabs(q - std::nearbyint(q)) <= 1e-9 * std::max(1.0, std::fabs(q));
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
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
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') return std::nullopt;
  std::string token;
  for (size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(token);
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return std::nullopt;
      token += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      token += pointer[i];
    }
  }
  return tokens;
}

// Ranks order the errors found at one instance location; see the header for the resulting order.
enum Rank : int { kValueRank = 0, kKeyRank = 1, kRequiredRank = 2, kChildRank = 3 };

struct OrderPart {
  int rank;
  size_t index;
  std::string key;
};

bool operator<(const OrderPart& a, const OrderPart& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.index != b.index) return a.index < b.index;
  return a.key < b.key;
}

// A place in the instance: its JSONPath, its document-order key and its depth, which ranks oneOf/anyOf
// branches by how far they got.
struct Loc {
  std::string path = "$";
  std::vector<OrderPart> order;
  size_t depth = 0;
};

// An error about a key (unknown or badly named) is about the object's shape, so it counts at the
// object's depth: a branch that rejects a field gets less far than one that rejects the field's value.
Loc FieldLoc(const Loc& parent, const std::string& key, Rank rank) {
  Loc loc{JsonPathChild(parent.path, key), parent.order, parent.depth + (rank == kKeyRank ? 0 : 1)};
  loc.order.push_back({rank, 0, key});
  return loc;
}

Loc ItemLoc(const Loc& parent, size_t index) {
  Loc loc{JsonPathIndex(parent.path, index), parent.order, parent.depth + 1};
  loc.order.push_back({kChildRank, index, {}});
  return loc;
}

// Missing required fields are reported at the object, after its key checks, in `required` order.
Loc RequiredLoc(const Loc& object, size_t index) {
  Loc loc = object;
  loc.order.push_back({kRequiredRank, index, {}});
  return loc;
}

struct Found {
  SchemaError error;
  std::vector<OrderPart> order;
  size_t depth;
};

// Collects errors. A probe only asks whether the instance matches, so it stops at the first error found.
struct Sink {
  bool probe = false;
  std::vector<Found> found;

  bool Done() const { return probe && !found.empty(); }
  void Add(const Loc& loc, std::string message) {
    Found f{{loc.path, std::move(message)}, loc.order, loc.depth};
    f.order.push_back({kValueRank, 0, {}});
    found.push_back(std::move(f));
  }
};

// Sorts into document order (stable, so errors at one place keep keyword order) and drops repeats,
// which arise when two applicable schemas state the same rule.
std::vector<Found> InDocumentOrder(std::vector<Found> found) {
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.order < b.order; });
  std::vector<Found> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (Found& f : found) {
    if (seen.insert({f.error.path, f.error.message}).second) out.push_back(std::move(f));
  }
  return out;
}

const json* Find(const json& schema, const char* keyword) {
  auto it = schema.find(keyword);
  return it == schema.end() ? nullptr : &*it;
}

bool IsFalseSchema(const json& schema) { return schema.is_boolean() && !schema.get<bool>(); }

unsigned TypeMask(const json& type) {
  if (type.is_string()) return FindTypeName(type.get_ref<const std::string&>())->bits;
  unsigned mask = 0;
  for (const json& t : type) mask |= FindTypeName(t.get_ref<const std::string&>())->bits;
  return mask;
}

// The "type" keyword as phrases; "integer" is left out when "number" already covers it.
std::vector<std::string> TypePhrases(const json& type) {
  std::vector<std::string> names;
  if (type.is_string()) {
    names.push_back(type.get<std::string>());
  } else {
    for (const json& t : type) names.push_back(t.get<std::string>());
  }
  bool has_number = std::find(names.begin(), names.end(), "number") != names.end();
  std::vector<std::string> phrases;
  for (const std::string& n : names) {
    if (n == "integer" && has_number) continue;
    phrases.emplace_back(FindTypeName(n)->phrase);
  }
  return phrases;
}

std::vector<std::string> MaskPhrases(unsigned mask) {
  if (mask == kAnyType) return {"anything"};
  std::vector<std::string> phrases;
  for (const TypeName& t : kTypeNames) {
    bool named = false;
    if (t.bits == kNumber) {
      named = (mask & kFraction) != 0;
    } else if (t.bits == kInteger) {
      named = (mask & kNumber) == kInteger;
    } else {
      named = (mask & t.bits) != 0;
    }
    if (named) phrases.emplace_back(t.phrase);
  }
  return phrases;
}

}  // namespace

struct JsonSchema::Impl {
  struct Node {
    std::string location;  // JSON pointer fragment in the schema document, e.g. "#/$defs/tcp".
    const json* ref = nullptr;  // Resolved $ref target. Not owned; points into `root`.
    std::optional<std::regex> pattern;
  };
  using Refs = std::vector<std::pair<const json*, std::string>>;

  json root;
  // Every schema position in `root`, keyed by address: `root` never changes after Compile.
  std::unordered_map<const json*, Node> nodes;
  std::vector<const json*> walk_order;

  [[noreturn]] static void Fail(const std::string& location, const std::string& what) {
    throw std::invalid_argument("json schema " + location + ": " + what);
  }

  const Node& NodeOf(const json& schema) const { return nodes.at(&schema); }

  void Walk(const json& schema, const std::string& location, Refs& refs) {
    if (!schema.is_object() && !schema.is_boolean()) {
      Fail(location, std::string("a schema must be an object or a boolean, not ") + schema.type_name());
    }
    nodes[&schema].location = location;
    walk_order.push_back(&schema);
    if (schema.is_boolean()) return;
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
          nodes[&schema].pattern.emplace(value.get<std::string>(), std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
          Fail(at, "invalid regular expression " + Quote(value.get<std::string>()) + ": " + e.what());
        }
      } else {
        Fail(location, UnknownKeyword(key));
      }
    }
  }

  static std::string UnknownKeyword(const std::string& key) {
    if (key == "definitions") return "keyword \"definitions\" is draft-07; use \"$defs\"";
    if (Contains(kUnsupportedKeywords, key)) return "keyword " + Quote(key) + " is not supported by this validator";
    std::vector<std::string> known;
    for (std::string_view k : kKeywords) known.emplace_back(k);
    for (std::string_view k : kAnnotations) known.emplace_back(k);
    return "unknown keyword " + Quote(key) + DidYouMean(key, known);
  }

  static void CheckTypeKeyword(const json& value, const std::string& at) {
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

  static void CheckRequiredKeyword(const json& value, const std::string& at) {
    if (!value.is_array()) Fail(at, "must be an array of strings");
    std::set<std::string> seen;
    for (const json& name : value) {
      if (!name.is_string()) Fail(at, "must be an array of strings");
      if (!seen.insert(name.get<std::string>()).second) Fail(at, "lists " + Show(name) + " twice");
    }
  }

  // Follows a JSON pointer fragment through the document; on failure returns nullptr and explains why.
  const json* Navigate(std::string_view at, std::string* why) const {
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
        bool digits = !token.empty() && token.size() < 10 &&
                      std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits || (token.size() > 1 && token[0] == '0') || std::stoul(token) >= node->size()) {
          *why = "no item " + Quote(token) + " in " + reached;
          return nullptr;
        }
        node = &(*node)[std::stoul(token)];
      } else {
        *why = reached + " has no members";
        return nullptr;
      }
      reached = PointerChild(reached, token);
    }
    return node;
  }

  const json& SchemaAt(std::string_view at) const {
    std::string why;
    const json* node = Navigate(at, &why);
    if (node == nullptr) throw std::invalid_argument("no subschema at " + Quote(at) + ": " + why);
    if (nodes.count(node) == 0) throw std::invalid_argument(Quote(at) + " is not a schema");
    return *node;
  }

  void ResolveRefs(const Refs& refs) {
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
  std::vector<const json*> InPlaceChildren(const json& schema) const {
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

  void CheckCycles() const {
    std::unordered_map<const json*, int> state;  // 1: on the current path, 2: done.
    std::vector<const json*> path;
    for (const json* s : walk_order) VisitForCycles(s, state, path);
  }

  void VisitForCycles(const json* schema, std::unordered_map<const json*, int>& state,
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
  void CheckDefaults() const {
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

  std::vector<Found> Collect(const json& instance, const json& schema) const {
    Sink sink;
    Evaluate(instance, schema, Loc{}, sink);
    return InDocumentOrder(std::move(sink.found));
  }

  // `depth` is that of the instance value, so that the nesting limit holds inside probes too.
  bool Matches(const json& instance, const json& schema, size_t depth) const {
    Sink probe{true, {}};
    Loc loc;
    loc.depth = depth;
    Evaluate(instance, schema, loc, probe);
    return probe.found.empty();
  }

  void Evaluate(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) sink.Add(loc, "is not allowed");
      return;
    }
    if (loc.depth > kMaxDepth) {
      sink.Add(loc, "is nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
      return;
    }
    // A wrong type makes this schema's other keywords moot; reporting it alone keeps the message clear.
    if (const json* type = Find(schema, "type")) {
      unsigned expected = TypeMask(*type);
      if ((InstanceType(inst) & expected) == 0) {
        sink.Add(loc, "must be " + JoinAlternatives(TypePhrases(*type)) + " (got " + Got(inst, expected) + ")");
        return;
      }
    }
    if (const json* ref = NodeOf(schema).ref) {
      Evaluate(inst, *ref, loc, sink);
      if (sink.Done()) return;
    }
    if (const json* c = Find(schema, "const"); c != nullptr && inst != *c) {
      sink.Add(loc, "must be " + Show(*c) + " (got " + Show(inst) + ")");
    }
    if (const json* values = Find(schema, "enum")) CheckEnum(inst, *values, loc, sink);
    if (sink.Done()) return;
    if (inst.is_number()) {
      CheckNumber(inst, schema, loc, sink);
    } else if (inst.is_string()) {
      CheckString(inst, schema, loc, sink);
    } else if (inst.is_object()) {
      CheckObject(inst, schema, loc, sink);
    } else if (inst.is_array()) {
      CheckArray(inst, schema, loc, sink);
    }
    if (sink.Done()) return;
    if (const json* all = Find(schema, "allOf")) {
      for (const json& s : *all) {
        Evaluate(inst, s, loc, sink);
        if (sink.Done()) return;
      }
    }
    if (const json* any = Find(schema, "anyOf")) CheckAlternatives(inst, *any, false, loc, sink);
    if (sink.Done()) return;
    if (const json* one = Find(schema, "oneOf")) CheckAlternatives(inst, *one, true, loc, sink);
    if (sink.Done()) return;
    if (const json* n = Find(schema, "not"); n != nullptr && Matches(inst, *n, loc.depth)) {
      std::vector<std::string> phrases = Describe(*n);
      bool vague = phrases.empty() || std::find(phrases.begin(), phrases.end(), "anything") != phrases.end();
      sink.Add(loc, vague ? "is not allowed" : "must not be " + JoinAlternatives(phrases));
    }
  }

  void CheckEnum(const json& inst, const json& values, const Loc& loc, Sink& sink) const {
    if (std::find(values.begin(), values.end(), inst) != values.end()) return;
    std::vector<std::string> shown;
    std::vector<std::string> strings;
    for (const json& v : values) {
      shown.push_back(Show(v));
      if (v.is_string()) strings.push_back(v.get<std::string>());
    }
    std::string message = OneOfValues(shown) + " (got " + Show(inst) + ")";
    if (inst.is_string() && shown.size() > 1) message += DidYouMean(inst.get<std::string>(), strings);
    sink.Add(loc, message);
  }

  void CheckNumber(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
    struct Bound {
      const char* keyword;
      const char* op;
      bool (*violated)(int);
    };
    static constexpr Bound kBounds[] = {
        {"minimum", ">=", [](int c) { return c < 0; }},
        {"exclusiveMinimum", ">", [](int c) { return c <= 0; }},
        {"maximum", "<=", [](int c) { return c > 0; }},
        {"exclusiveMaximum", "<", [](int c) { return c >= 0; }},
    };
    for (const Bound& b : kBounds) {
      const json* limit = Find(schema, b.keyword);
      if (limit != nullptr && b.violated(CompareNumbers(inst, *limit))) {
        sink.Add(loc, std::string("must be ") + b.op + " " + Show(*limit) + " (got " + Show(inst) + ")");
      }
    }
    if (const json* m = Find(schema, "multipleOf"); m != nullptr && !IsMultipleOf(inst, *m)) {
      sink.Add(loc, "must be a multiple of " + Show(*m) + " (got " + Show(inst) + ")");
    }
  }

  void CheckString(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
    const std::string& s = inst.get_ref<const std::string&>();
    size_t length = CodePoints(s);
    if (const json* min = Find(schema, "minLength"); min != nullptr && length < AsCount(*min)) {
      sink.Add(loc, "must have at least " + Show(*min) + " character(s)");
    }
    if (const json* max = Find(schema, "maxLength"); max != nullptr && length > AsCount(*max)) {
      sink.Add(loc, "must have at most " + Show(*max) + " character(s)");
    }
    const Node& node = NodeOf(schema);
    if (node.pattern && !std::regex_search(s, *node.pattern)) {
      // "x-pattern-message" says in words what the pattern allows.
      const json* words = Find(schema, "x-pattern-message");
      const std::string expected = words != nullptr && words->is_string()
                                       ? words->get<std::string>()
                                       : "match pattern " + Show(schema["pattern"]);
      sink.Add(loc, "must " + expected + " (got " + Show(inst) + ")");
    }
  }

  void CheckObject(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
    if (const json* min = Find(schema, "minProperties"); min != nullptr && inst.size() < AsCount(*min)) {
      sink.Add(loc, "must have at least " + Show(*min) + " field(s)");
    }
    if (const json* max = Find(schema, "maxProperties"); max != nullptr && inst.size() > AsCount(*max)) {
      sink.Add(loc, "must have at most " + Show(*max) + " field(s)");
    }
    const json* properties = Find(schema, "properties");
    const json* additional = Find(schema, "additionalProperties");
    const json* names = Find(schema, "propertyNames");
    for (const auto& item : inst.items()) {
      const std::string& key = item.key();
      if (names != nullptr) {
        Sink name_sink{sink.probe, {}};
        Evaluate(json(key), *names, FieldLoc(loc, key, kKeyRank), name_sink);
        for (Found& f : name_sink.found) {
          f.error.message = "field name " + f.error.message;
          sink.found.push_back(std::move(f));
        }
      }
      bool known = properties != nullptr && properties->contains(key);
      if (!known && additional != nullptr && IsFalseSchema(*additional)) {
        sink.Add(FieldLoc(loc, key, kKeyRank), "unknown field " + Quote(key) + SuggestField(key, properties, inst));
      }
      if (sink.Done()) return;
    }
    if (const json* required = Find(schema, "required")) {
      for (size_t i = 0; i < required->size(); ++i) {
        const std::string& name = (*required)[i].get_ref<const std::string&>();
        if (!inst.contains(name)) sink.Add(RequiredLoc(loc, i), "missing required field " + Quote(name));
      }
      if (sink.Done()) return;
    }
    for (const auto& item : inst.items()) {
      const json* sub = nullptr;
      if (properties != nullptr && properties->contains(item.key())) {
        sub = &(*properties)[item.key()];
      } else if (additional != nullptr && !IsFalseSchema(*additional)) {
        sub = additional;
      }
      if (sub == nullptr) continue;
      Evaluate(item.value(), *sub, FieldLoc(loc, item.key(), kChildRank), sink);
      if (sink.Done()) return;
    }
  }

  // Suggests a declared property the instance does not have yet; one it has cannot be what was meant.
  static std::string SuggestField(const std::string& key, const json* properties, const json& inst) {
    if (properties == nullptr) return "";
    std::vector<std::string> candidates;
    for (const auto& item : properties->items()) {
      if (!inst.contains(item.key())) candidates.push_back(item.key());
    }
    return DidYouMean(key, candidates);
  }

  void CheckArray(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
    if (const json* min = Find(schema, "minItems"); min != nullptr && inst.size() < AsCount(*min)) {
      sink.Add(loc, "must have at least " + Show(*min) + " item(s)");
    }
    if (const json* max = Find(schema, "maxItems"); max != nullptr && inst.size() > AsCount(*max)) {
      sink.Add(loc, "must have at most " + Show(*max) + " item(s)");
    }
    if (const json* unique = Find(schema, "uniqueItems"); unique != nullptr && unique->get<bool>()) {
      for (size_t i = 1; i < inst.size() && !sink.Done(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          if (inst[i] == inst[j]) {
            sink.Add(ItemLoc(loc, i), "must be unique (same as " + JsonPathIndex(loc.path, j) + ")");
            break;
          }
        }
      }
    }
    if (const json* items = Find(schema, "items")) {
      for (size_t i = 0; i < inst.size() && !sink.Done(); ++i) Evaluate(inst[i], *items, ItemLoc(loc, i), sink);
    }
  }

  void CheckAlternatives(const json& inst, const json& branches, bool exactly_one, const Loc& loc,
                         Sink& sink) const {
    size_t matching = 0;
    for (const json& b : branches) {
      if (Matches(inst, b, loc.depth)) ++matching;
      if (matching > (exactly_one ? 1u : 0u)) break;
    }
    if (matching == 1 || (!exactly_one && matching > 1)) return;
    if (matching > 1) {
      sink.Add(loc, "matches more than one alternative");
      return;
    }
    // A probe only needs to know that nothing matched, not which branch explains it best.
    if (sink.probe) {
      sink.Add(loc, "matches no alternative");
      return;
    }
    ReportBestBranch(inst, branches, loc, sink);
  }

  // Picks the one branch whose errors to show when no branch matched; see the header.
  void ReportBestBranch(const json& inst, const json& branches, const Loc& loc, Sink& sink) const {
    std::vector<size_t> candidates;
    if (inst.is_object()) {
      if (std::optional<Discriminator> d = FindDiscriminator(branches)) {
        auto given = inst.find(d->property);
        std::vector<std::string> shown;
        std::vector<std::string> strings;
        bool required = false;
        for (size_t i = 0; i < branches.size(); ++i) {
          const json* c = d->values[i];
          if (c == nullptr) continue;
          if (given != inst.end() && *c == *given) candidates.push_back(i);
          shown.push_back(Show(*c));
          if (c->is_string()) strings.push_back(c->get<std::string>());
          required = required || Requires(branches[i], d->property);
        }
        // Without it every branch complains about something else; the missing discriminator is the news.
        if (given == inst.end() && required) {
          std::vector<std::string> unique = Distinct(shown);
          sink.Add(RequiredLoc(loc, 0), "missing required field " + Quote(d->property) + " (" +
                                            (unique.size() == 1 ? "" : "one of ") + CommaList(unique) + ")");
          return;
        }
        if (given != inst.end() && candidates.empty()) {
          const json& value = *given;
          std::string message = OneOfValues(shown) + " (got " + Show(value) + ")";
          if (value.is_string()) message += DidYouMean(value.get<std::string>(), strings);
          sink.Add(FieldLoc(loc, d->property, kChildRank), message);
          return;
        }
      }
    }
    if (candidates.empty()) {
      unsigned type = InstanceType(inst);
      unsigned accepted = 0;
      std::vector<std::string> phrases;
      for (size_t i = 0; i < branches.size(); ++i) {
        unsigned mask = AcceptedTypes(branches[i]);
        accepted |= mask;
        if (mask & type) candidates.push_back(i);
        std::vector<std::string> p = Describe(branches[i]);
        phrases.insert(phrases.end(), p.begin(), p.end());
      }
      if (candidates.empty()) {
        sink.Add(loc, "must be " + JoinAlternatives(phrases) + " (got " + Got(inst, accepted) + ")");
        return;
      }
    }
    std::vector<Found> best;
    for (size_t i : candidates) {
      Sink branch_sink;
      Evaluate(inst, branches[i], loc, branch_sink);
      std::vector<Found> found = InDocumentOrder(std::move(branch_sink.found));
      if (!found.empty() && (best.empty() || found[0].depth > best[0].depth)) best = std::move(found);
    }
    if (best.empty()) sink.Add(loc, "matches no alternative");  // Unreachable: some candidate failed.
    for (Found& f : best) sink.found.push_back(std::move(f));
  }

  struct Discriminator {
    std::string property;
    std::vector<const json*> values;  // Per branch; null for branches that cannot be objects.
  };

  // A property whose schema is a "const" in every branch that admits objects, e.g. "kind". Among several,
  // the first in key order whose values tell the branches apart.
  std::optional<Discriminator> FindDiscriminator(const json& branches) const {
    std::vector<std::map<std::string, const json*>> consts(branches.size());
    std::vector<size_t> object_branches;
    for (size_t i = 0; i < branches.size(); ++i) {
      if (AcceptedTypes(branches[i]) & kObject) {
        CollectConsts(branches[i], consts[i]);
        object_branches.push_back(i);
      }
    }
    if (object_branches.empty()) return std::nullopt;
    std::optional<Discriminator> fallback;
    for (const auto& [property, first_value] : consts[object_branches[0]]) {
      Discriminator d{property, std::vector<const json*>(branches.size(), nullptr)};
      bool everywhere = true;
      std::vector<json> distinct;
      for (size_t i : object_branches) {
        auto it = consts[i].find(property);
        if (it == consts[i].end()) {
          everywhere = false;
          break;
        }
        d.values[i] = it->second;
        if (std::find(distinct.begin(), distinct.end(), *it->second) == distinct.end()) distinct.push_back(*it->second);
      }
      if (!everywhere) continue;
      if (distinct.size() == object_branches.size()) return d;
      if (!fallback) fallback = std::move(d);
    }
    return fallback;
  }

  // Property name -> its "const", for properties declared by `schema`, its $ref target or its allOf.
  void CollectConsts(const json& schema, std::map<std::string, const json*>& out) const {
    if (!schema.is_object()) return;
    if (const json* properties = Find(schema, "properties")) {
      for (const auto& item : properties->items()) {
        if (const json* c = ConstOf(item.value())) out.emplace(item.key(), c);
      }
    }
    if (const json* ref = NodeOf(schema).ref) CollectConsts(*ref, out);
    if (const json* all = Find(schema, "allOf")) {
      for (const json& s : *all) CollectConsts(s, out);
    }
  }

  // Whether `schema`, its $ref target or its allOf lists `property` as required.
  bool Requires(const json& schema, const std::string& property) const {
    if (!schema.is_object()) return false;
    if (const json* required = Find(schema, "required");
        required != nullptr && std::find(required->begin(), required->end(), property) != required->end()) {
      return true;
    }
    if (const json* ref = NodeOf(schema).ref; ref != nullptr && Requires(*ref, property)) return true;
    if (const json* all = Find(schema, "allOf")) {
      for (const json& s : *all) {
        if (Requires(s, property)) return true;
      }
    }
    return false;
  }

  const json* ConstOf(const json& schema) const {
    if (!schema.is_object()) return nullptr;
    if (const json* c = Find(schema, "const")) return c;
    if (const json* ref = NodeOf(schema).ref) return ConstOf(*ref);
    return nullptr;
  }

  // The instance types `schema` can accept, judged from type, const, enum and the in-place applicators.
  unsigned AcceptedTypes(const json& schema) const {
    if (schema.is_boolean()) return schema.get<bool>() ? kAnyType : 0;
    unsigned mask = kAnyType;
    if (const json* type = Find(schema, "type")) mask &= TypeMask(*type);
    if (const json* c = Find(schema, "const")) mask &= LiteralTypes(*c);
    if (const json* values = Find(schema, "enum")) {
      unsigned any = 0;
      for (const json& v : *values) any |= LiteralTypes(v);
      mask &= any;
    }
    if (const json* ref = NodeOf(schema).ref) mask &= AcceptedTypes(*ref);
    if (const json* all = Find(schema, "allOf")) {
      for (const json& s : *all) mask &= AcceptedTypes(s);
    }
    for (const char* keyword : {"anyOf", "oneOf"}) {
      if (const json* list = Find(schema, keyword)) {
        unsigned any = 0;
        for (const json& s : *list) any |= AcceptedTypes(s);
        mask &= any;
      }
    }
    return mask;
  }

  // What `schema` accepts, in words: its const or enum values, else its types.
  std::vector<std::string> Describe(const json& schema) const {
    if (schema.is_boolean()) return schema.get<bool>() ? std::vector<std::string>{"anything"} : std::vector<std::string>{};
    if (const json* c = Find(schema, "const")) return {Show(*c)};
    if (const json* values = Find(schema, "enum")) {
      std::vector<std::string> shown;
      for (const json& v : *values) shown.push_back(Show(v));
      return shown;
    }
    if (const json* type = Find(schema, "type")) return TypePhrases(*type);
    if (const json* ref = NodeOf(schema).ref) return Describe(*ref);
    std::vector<std::string> phrases;
    for (const char* keyword : {"anyOf", "oneOf"}) {
      if (const json* list = Find(schema, keyword)) {
        for (const json& s : *list) {
          std::vector<std::string> p = Describe(s);
          phrases.insert(phrases.end(), p.begin(), p.end());
        }
        return phrases;
      }
    }
    return MaskPhrases(AcceptedTypes(schema));
  }

  const json* DefaultOf(const json& schema) const {
    if (!schema.is_object()) return nullptr;
    if (const json* d = Find(schema, "default")) return d;
    if (const json* ref = NodeOf(schema).ref) return DefaultOf(*ref);
    return nullptr;
  }

  // `filling` holds the property schemas whose defaults are being filled in, innermost last; meeting one
  // again means the defaults nest without end (a recursive property with a default), a schema bug.
  void Apply(json& inst, const json& schema, std::vector<const json*>& filling, size_t depth) const {
    if (!schema.is_object() || depth > kMaxDepth) return;
    // Branches are chosen on the instance as given, before this schema's own defaults can sway the choice.
    std::vector<const json*> chosen;
    for (const char* keyword : {"anyOf", "oneOf"}) {
      if (const json* list = Find(schema, keyword)) {
        for (const json& b : *list) {
          if (Matches(inst, b, depth)) {
            chosen.push_back(&b);
            break;
          }
        }
      }
    }
    if (inst.is_object()) {
      const json* properties = Find(schema, "properties");
      if (properties != nullptr) {
        for (const auto& item : properties->items()) {
          const json& sub = item.value();
          auto it = inst.find(item.key());
          if (it != inst.end()) {
            Apply(*it, sub, filling, depth + 1);
          } else if (const json* d = DefaultOf(sub)) {
            if (std::find(filling.begin(), filling.end(), &sub) != filling.end()) {
              Fail(NodeOf(sub).location, "its default would be filled in again inside itself, without end");
            }
            json& inserted = inst[item.key()] = *d;
            filling.push_back(&sub);
            Apply(inserted, sub, filling, depth + 1);
            filling.pop_back();
          }
        }
      }
      const json* additional = Find(schema, "additionalProperties");
      if (additional != nullptr && additional->is_object()) {
        for (auto& item : inst.items()) {
          if (properties == nullptr || !properties->contains(item.key())) {
            Apply(item.value(), *additional, filling, depth + 1);
          }
        }
      }
    } else if (inst.is_array()) {
      if (const json* items = Find(schema, "items")) {
        for (json& item : inst) Apply(item, *items, filling, depth + 1);
      }
    }
    if (const json* ref = NodeOf(schema).ref) Apply(inst, *ref, filling, depth);
    if (const json* all = Find(schema, "allOf")) {
      for (const json& s : *all) Apply(inst, s, filling, depth);
    }
    for (const json* b : chosen) Apply(inst, *b, filling, depth);
  }
};

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

std::optional<SchemaError> JsonSchema::Validate(const nlohmann::json& instance, std::string_view at) const {
  std::vector<Found> found = impl_->Collect(instance, impl_->SchemaAt(at));
  if (found.empty()) return std::nullopt;
  return std::move(found[0].error);
}

std::vector<SchemaError> JsonSchema::ValidateAll(const nlohmann::json& instance, std::string_view at) const {
  std::vector<SchemaError> errors;
  for (Found& f : impl_->Collect(instance, impl_->SchemaAt(at))) errors.push_back(std::move(f.error));
  return errors;
}

void JsonSchema::ApplyDefaults(nlohmann::json& instance, std::string_view at) const {
  std::vector<const nlohmann::json*> filling;
  impl_->Apply(instance, impl_->SchemaAt(at), filling, 0);
}

const nlohmann::json& JsonSchema::SubschemaAt(std::string_view at) const { return impl_->SchemaAt(at); }

std::string JsonPathChild(const std::string& parent, std::string_view key) {
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool identifier = !key.empty() && letter(key[0]) &&
                    std::all_of(key.begin(), key.end(), [&](char c) { return letter(c) || digit(c); });
  if (identifier) return parent + "." + std::string(key);
  std::string out = parent + "['";
  for (char c : key) {
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      // Keeps the path on one line, as the CLI prints one error per line.
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "']";
}

std::string JsonPathIndex(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

}  // namespace tcb
