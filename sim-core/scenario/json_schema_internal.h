// The parts of the JSON Schema validator shared by its files: the compiled schema (JsonSchema::Impl),
// how instance types are masked, where an error sits in the instance and how errors are collected.
//   json_schema_compile.cc   schema document -> compiled form: keyword checks, $ref resolution, cycles
//   json_schema_validate.cc  an instance against the compiled schema, keyword by keyword, into a Sink
//   json_schema_explain.cc   errors as one-line messages: JSON paths, document order, wording, the
//                            branch that explains a failed oneOf/anyOf
//   json_schema_defaults.cc  filling in schema defaults
// Only those files include this header; everyone else uses scenario/json_schema.h.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "json/json_pointer.h"
#include "scenario/json_schema.h"

namespace tcb {
namespace json_schema_internal {

using json = nlohmann::json;

// Instance types as bits. Numbers are split so that "integer" (JSON integers only, not 1.0) and
// "number" are both plain masks.
inline constexpr unsigned kNull = 1;
inline constexpr unsigned kBoolean = 2;
inline constexpr unsigned kObject = 4;
inline constexpr unsigned kArray = 8;
inline constexpr unsigned kString = 16;
inline constexpr unsigned kInteger = 32;
inline constexpr unsigned kFraction = 64;
inline constexpr unsigned kNumber = kInteger | kFraction;
inline constexpr unsigned kAnyType = kNull | kBoolean | kObject | kArray | kString | kNumber;

struct TypeName {
  std::string_view name;
  unsigned bits;
  std::string_view phrase;
};

// Also the order in which types inferred from a mask are named in messages.
inline constexpr TypeName kTypeNames[] = {
    {"null", kNull, "null"},         {"boolean", kBoolean, "a boolean"}, {"object", kObject, "an object"},
    {"array", kArray, "an array"},   {"number", kNumber, "a number"},   {"integer", kInteger, "an integer"},
    {"string", kString, "a string"},
};

// Recursive schemas accept arbitrarily deep documents; deeper than this, validation gives up rather than
// exhaust the stack (scenarios are a few levels deep; the WASM stack is small).
inline constexpr size_t kMaxDepth = 64;

// The bytes `pattern` allows when it is "^[set]+$" with a set of plain characters and ranges (no
// escapes, no negation), which every string of those bytes and no other matches; nullopt otherwise.
std::optional<std::bitset<256>> PatternBytes(std::string_view pattern);

inline const json* Find(const json& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// The keywords validation and defaults read on every instance value: Compile keeps where each
// sits in every schema object (JsonSchema::Impl::Node::keywords), so that a lookup is an index,
// not a search of the schema object's keys (which was a third of a scenario's validation).
inline constexpr std::string_view kIndexedKeywords[] = {
    "type",        "const",         "enum",          "allOf",         "anyOf",
    "oneOf",       "not",           "minimum",       "exclusiveMinimum", "maximum",
    "exclusiveMaximum", "multipleOf", "minLength",    "maxLength",     "minProperties",
    "maxProperties", "properties",  "additionalProperties", "propertyNames", "required",
    "items",       "minItems",      "maxItems",      "uniqueItems",   "default",
};
inline constexpr size_t kIndexedKeywordCount = std::size(kIndexedKeywords);

// A keyword's slot, checked when compiled: Kw("tpye") does not build.
consteval size_t Kw(std::string_view keyword) {
  for (size_t i = 0; i < kIndexedKeywordCount; ++i) {
    if (kIndexedKeywords[i] == keyword) return i;
  }
  throw "not a keyword of kIndexedKeywords";
}

// Types (json_schema_validate.cc).
const TypeName* FindTypeName(std::string_view name);
unsigned InstanceType(const json& v);
unsigned LiteralTypes(const json& v);
unsigned TypeMask(const json& type);

// Ranks order the errors found at one instance location; scenario/json_schema.h describes the resulting
// order.
enum Rank : int { kValueRank = 0, kKeyRank = 1, kRequiredRank = 2, kChildRank = 3 };

struct OrderPart {
  int rank;
  size_t index;
  std::string key;
};

bool operator<(const OrderPart& a, const OrderPart& b);

// A place in the instance: the step from its parent's place, and its depth, which ranks oneOf/anyOf
// branches by how far they got. Its JSONPath and document-order key are spelled out only when an
// error is found there (Sink::Add): a valid document, which is what the service checks thousands of
// times per sweep, then costs no string or vector per field (planning a sweep took half the time
// it did when every place carried both).
struct Loc {
  enum class Step : uint8_t { kRoot, kField, kItem, kRequired };

  const Loc* parent = nullptr;  // Not owned: a place lives on the stack below its parent's.
  Step step = Step::kRoot;
  Rank rank = kValueRank;                  // kField: kKeyRank or kChildRank.
  size_t index = 0;                        // kItem: the item's; kRequired: the name's in `required`.
  const std::string* key = nullptr;        // kField. Not owned.
  size_t depth = 0;

  std::string Path() const;
  std::vector<OrderPart> Order() const;
};

struct Found {
  SchemaError error;
  std::vector<OrderPart> order;
  size_t depth;
};

// Collects errors. A probe only asks whether the instance matches, so it stops at the first error
// found and keeps neither its place nor its message: `message` is a function that spells the error,
// which a probe never calls (oneOf branches are mostly tried and rejected, and spelling why took a
// good part of the time a valid scenario took to check).
struct Sink {
  bool probe = false;
  std::vector<Found> found;

  bool Done() const { return probe && !found.empty(); }
  template <class Message>
    requires std::is_invocable_r_v<std::string, Message>
  void Add(const Loc& loc, Message&& message) {
    if (probe) {
      found.push_back(Found{{}, {}, loc.depth});
      return;
    }
    Found f{{loc.Path(), message()}, loc.Order(), loc.depth};
    f.order.push_back({kValueRank, 0, {}});
    found.push_back(std::move(f));
  }
};

// Places and wording (json_schema_explain.cc). A place refers to its parent and to `key`, which
// must outlive it.
Loc FieldLoc(const Loc& parent, const std::string& key, Rank rank);
Loc ItemLoc(const Loc& parent, size_t index);
Loc RequiredLoc(const Loc& object, size_t index);
std::vector<Found> InDocumentOrder(std::vector<Found> found);
std::string Quote(std::string_view s);
std::string Show(const json& v);
std::string Got(const json& v, unsigned expected);
std::string OneOfValues(const std::vector<std::string>& shown);
std::string JoinAlternatives(const std::vector<std::string>& items);
std::optional<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates);
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);
std::vector<std::string> TypePhrases(const json& type);

}  // namespace json_schema_internal

struct JsonSchema::Impl {
  using json = nlohmann::json;
  using Found = json_schema_internal::Found;
  using Loc = json_schema_internal::Loc;
  using Sink = json_schema_internal::Sink;

  struct Node {
    std::string location;  // JSON pointer fragment in the schema document, e.g. "#/$defs/tcp".
    const json* ref = nullptr;  // Resolved $ref target. Not owned; points into `root`.
    std::optional<std::regex> pattern;
    // The same pattern as a set of bytes when it is one ("^[A-Za-z0-9_.-]+$", what names are held
    // to): checked byte by byte, where std::regex_search took thousands of instructions per name.
    std::optional<std::bitset<256>> pattern_bytes;
    // The values of the kIndexedKeywords the schema object has, by slot (Kw); null where absent.
    std::array<const json*, json_schema_internal::kIndexedKeywordCount> keywords{};

    // Whether `s` matches the pattern (true without one).
    bool MatchesPattern(const std::string& s) const;
  };
  using Refs = std::vector<std::pair<const json*, std::string>>;

  json root;
  // Every schema position in `root`, keyed by address: `root` never changes after Compile.
  std::unordered_map<const json*, Node> nodes;
  std::vector<const json*> walk_order;

  const Node& NodeOf(const json& schema) const { return nodes.at(&schema); }
  // The value of the keyword in `slot` (json_schema_internal::Kw) of a compiled schema object.
  const json* Keyword(const json& schema, size_t slot) const { return NodeOf(schema).keywords[slot]; }

  // json_schema_compile.cc
  [[noreturn]] static void Fail(const std::string& location, const std::string& what);
  void Walk(const json& schema, const std::string& location, Refs& refs);
  static std::string UnknownKeyword(const std::string& key);
  static void CheckTypeKeyword(const json& value, const std::string& at);
  static void CheckRequiredKeyword(const json& value, const std::string& at);
  const json* Navigate(std::string_view at, std::string* why) const;
  const json& SchemaAt(std::string_view at) const;
  void ResolveRefs(const Refs& refs);
  std::vector<const json*> InPlaceChildren(const json& schema) const;
  void CheckCycles() const;
  void VisitForCycles(const json* schema, std::unordered_map<const json*, int>& state,
                      std::vector<const json*>& path) const;
  void CheckDefaults() const;

  // json_schema_validate.cc
  std::vector<Found> Collect(const json& instance, const json& schema) const;
  bool Matches(const json& instance, const json& schema, size_t depth) const;
  void Evaluate(const json& inst, const json& schema, const Loc& loc, Sink& sink) const;
  void CheckEnum(const json& inst, const json& values, const Loc& loc, Sink& sink) const;
  void CheckNumber(const json& inst, const json& schema, const Loc& loc, Sink& sink) const;
  void CheckString(const json& inst, const json& schema, const Loc& loc, Sink& sink) const;
  void CheckObject(const json& inst, const json& schema, const Loc& loc, Sink& sink) const;
  void CheckArray(const json& inst, const json& schema, const Loc& loc, Sink& sink) const;
  void CheckAlternatives(const json& inst, const json& branches, bool exactly_one, const Loc& loc,
                         Sink& sink) const;

  // json_schema_explain.cc
  struct Discriminator {
    std::string property;
    std::vector<const json*> values;  // Per branch; null for branches that cannot be objects.
  };

  static std::string SuggestField(const std::string& key, const json* properties, const json& inst);
  void ReportBestBranch(const json& inst, const json& branches, const Loc& loc, Sink& sink) const;
  std::optional<Discriminator> FindDiscriminator(const json& branches) const;
  void CollectConsts(const json& schema, std::map<std::string, const json*>& out) const;
  bool Requires(const json& schema, const std::string& property) const;
  const json* ConstOf(const json& schema) const;
  unsigned AcceptedTypes(const json& schema) const;
  std::vector<std::string> Describe(const json& schema) const;

  // json_schema_defaults.cc
  const json* DefaultOf(const json& schema) const;
  void Apply(json& inst, const json& schema, std::vector<const json*>& filling, size_t depth) const;
};

}  // namespace tcb
