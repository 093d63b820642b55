// Validates an instance against a compiled schema: each keyword adds its errors to a Sink at the
// instance location it is about; a probe (for oneOf/anyOf/not) stops at the first one.
#include "scenario/json_schema_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tcb {
namespace json_schema_internal {
namespace {

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

bool IsFalseSchema(const json& schema) { return schema.is_boolean() && !schema.get<bool>(); }

}  // namespace

const TypeName* FindTypeName(std::string_view name) {
  for (const TypeName& t : kTypeNames) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

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

unsigned TypeMask(const json& type) {
  if (type.is_string()) return FindTypeName(type.get_ref<const std::string&>())->bits;
  unsigned mask = 0;
  for (const json& t : type) mask |= FindTypeName(t.get_ref<const std::string&>())->bits;
  return mask;
}

}  // namespace json_schema_internal

using namespace json_schema_internal;

std::vector<Found> JsonSchema::Impl::Collect(const json& instance, const json& schema) const {
  Sink sink;
  Evaluate(instance, schema, Loc{}, sink);
  return InDocumentOrder(std::move(sink.found));
}

// `depth` is that of the instance value, so that the nesting limit holds inside probes too.
bool JsonSchema::Impl::Matches(const json& instance, const json& schema, size_t depth) const {
  Sink probe{true, {}};
  Loc loc;
  loc.depth = depth;
  Evaluate(instance, schema, loc, probe);
  return probe.found.empty();
}

void JsonSchema::Impl::Evaluate(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) sink.Add(loc, [&] { return "is not allowed"; });
    return;
  }
  if (loc.depth > kMaxDepth) {
    sink.Add(loc, [&] { return "is nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)"; });
    return;
  }
  // One lookup of the compiled schema per value checked (a hash lookup per keyword was a tenth of
  // the time of checking a scenario).
  const Node& node = NodeOf(schema);
  // A wrong type makes this schema's other keywords moot; reporting it alone keeps the message clear.
  if (const json* type = node.keywords[Kw("type")]) {
    unsigned expected = TypeMask(*type);
    if ((InstanceType(inst) & expected) == 0) {
      sink.Add(loc, [&] {
        return "must be " + JoinAlternatives(TypePhrases(*type)) + " (got " + Got(inst, expected) + ")";
      });
      return;
    }
  }
  if (const json* ref = node.ref) {
    Evaluate(inst, *ref, loc, sink);
    if (sink.Done()) return;
  }
  if (const json* c = node.keywords[Kw("const")]; c != nullptr && inst != *c) {
    sink.Add(loc, [&] { return "must be " + Show(*c) + " (got " + Show(inst) + ")"; });
  }
  if (const json* values = node.keywords[Kw("enum")]) CheckEnum(inst, *values, loc, sink);
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
  if (const json* all = node.keywords[Kw("allOf")]) {
    for (const json& s : *all) {
      Evaluate(inst, s, loc, sink);
      if (sink.Done()) return;
    }
  }
  if (const json* any = node.keywords[Kw("anyOf")]) CheckAlternatives(inst, *any, false, loc, sink);
  if (sink.Done()) return;
  if (const json* one = node.keywords[Kw("oneOf")]) CheckAlternatives(inst, *one, true, loc, sink);
  if (sink.Done()) return;
  if (const json* n = node.keywords[Kw("not")]; n != nullptr && Matches(inst, *n, loc.depth)) {
    std::vector<std::string> phrases = Describe(*n);
    bool vague = phrases.empty() || std::find(phrases.begin(), phrases.end(), "anything") != phrases.end();
    sink.Add(loc, [&] { return vague ? "is not allowed" : "must not be " + JoinAlternatives(phrases); });
  }
}

void JsonSchema::Impl::CheckEnum(const json& inst, const json& values, const Loc& loc, Sink& sink) const {
  if (std::find(values.begin(), values.end(), inst) != values.end()) return;
  sink.Add(loc, [&] {
    std::vector<std::string> shown;
    std::vector<std::string> strings;
    for (const json& v : values) {
      shown.push_back(Show(v));
      if (v.is_string()) strings.push_back(v.get<std::string>());
    }
    std::string message = OneOfValues(shown) + " (got " + Show(inst) + ")";
    if (inst.is_string() && shown.size() > 1) message += DidYouMean(inst.get<std::string>(), strings);
    return message;
  });
}

void JsonSchema::Impl::CheckNumber(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
  const Node& node = NodeOf(schema);
  struct Bound {
    size_t keyword;
    const char* op;
    bool (*violated)(int);
  };
  static constexpr Bound kBounds[] = {
      {Kw("minimum"), ">=", [](int c) { return c < 0; }},
      {Kw("exclusiveMinimum"), ">", [](int c) { return c <= 0; }},
      {Kw("maximum"), "<=", [](int c) { return c > 0; }},
      {Kw("exclusiveMaximum"), "<", [](int c) { return c >= 0; }},
  };
  for (const Bound& b : kBounds) {
    const json* limit = node.keywords[b.keyword];
    if (limit != nullptr && b.violated(CompareNumbers(inst, *limit))) {
      sink.Add(loc, [&] { return std::string("must be ") + b.op + " " + Show(*limit) + " (got " + Show(inst) + ")"; });
    }
  }
  if (const json* m = node.keywords[Kw("multipleOf")]; m != nullptr && !IsMultipleOf(inst, *m)) {
    sink.Add(loc, [&] { return "must be a multiple of " + Show(*m) + " (got " + Show(inst) + ")"; });
  }
}

void JsonSchema::Impl::CheckString(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
  const Node& node = NodeOf(schema);
  const std::string& s = inst.get_ref<const std::string&>();
  size_t length = CodePoints(s);
  if (const json* min = node.keywords[Kw("minLength")]; min != nullptr && length < AsCount(*min)) {
    sink.Add(loc, [&] { return "must have at least " + Show(*min) + " character(s)"; });
  }
  if (const json* max = node.keywords[Kw("maxLength")]; max != nullptr && length > AsCount(*max)) {
    sink.Add(loc, [&] { return "must have at most " + Show(*max) + " character(s)"; });
  }
  if (!node.MatchesPattern(s)) {
    sink.Add(loc, [&] {
      // "x-pattern-message" says in words what the pattern allows.
      const json* words = Find(schema, "x-pattern-message");
      const std::string expected = words != nullptr && words->is_string()
                                       ? words->get<std::string>()
                                       : "match pattern " + Show(schema["pattern"]);
      return "must " + expected + " (got " + Show(inst) + ")";
    });
  }
}

bool JsonSchema::Impl::Node::MatchesPattern(const std::string& s) const {
  if (pattern_bytes) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [&](char c) { return pattern_bytes->test(static_cast<unsigned char>(c)); });
  }
  return !pattern || std::regex_search(s, *pattern);
}

void JsonSchema::Impl::CheckObject(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
  const Node& node = NodeOf(schema);
  if (const json* min = node.keywords[Kw("minProperties")]; min != nullptr && inst.size() < AsCount(*min)) {
    sink.Add(loc, [&] { return "must have at least " + Show(*min) + " field(s)"; });
  }
  if (const json* max = node.keywords[Kw("maxProperties")]; max != nullptr && inst.size() > AsCount(*max)) {
    sink.Add(loc, [&] { return "must have at most " + Show(*max) + " field(s)"; });
  }
  const json* properties = node.keywords[Kw("properties")];
  const json* additional = node.keywords[Kw("additionalProperties")];
  const json* names = node.keywords[Kw("propertyNames")];
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
      sink.Add(FieldLoc(loc, key, kKeyRank),
               [&] { return "unknown field " + Quote(key) + SuggestField(key, properties, inst); });
    }
    if (sink.Done()) return;
  }
  if (const json* required = node.keywords[Kw("required")]) {
    for (size_t i = 0; i < required->size(); ++i) {
      const std::string& name = (*required)[i].get_ref<const std::string&>();
      if (!inst.contains(name)) sink.Add(RequiredLoc(loc, i), [&] { return "missing required field " + Quote(name); });
    }
    if (sink.Done()) return;
  }
  for (const auto& item : inst.items()) {
    const json* sub = properties != nullptr ? Find(*properties, item.key()) : nullptr;
    if (sub == nullptr && additional != nullptr && !IsFalseSchema(*additional)) sub = additional;
    if (sub == nullptr) continue;
    Evaluate(item.value(), *sub, FieldLoc(loc, item.key(), kChildRank), sink);
    if (sink.Done()) return;
  }
}

void JsonSchema::Impl::CheckArray(const json& inst, const json& schema, const Loc& loc, Sink& sink) const {
  const Node& node = NodeOf(schema);
  if (const json* min = node.keywords[Kw("minItems")]; min != nullptr && inst.size() < AsCount(*min)) {
    sink.Add(loc, [&] { return "must have at least " + Show(*min) + " item(s)"; });
  }
  if (const json* max = node.keywords[Kw("maxItems")]; max != nullptr && inst.size() > AsCount(*max)) {
    sink.Add(loc, [&] { return "must have at most " + Show(*max) + " item(s)"; });
  }
  if (const json* unique = node.keywords[Kw("uniqueItems")]; unique != nullptr && unique->get<bool>()) {
    for (size_t i = 1; i < inst.size() && !sink.Done(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (inst[i] == inst[j]) {
          sink.Add(ItemLoc(loc, i), [&] { return "must be unique (same as " + JsonPathIndex(loc.Path(), j) + ")"; });
          break;
        }
      }
    }
  }
  if (const json* items = node.keywords[Kw("items")]) {
    for (size_t i = 0; i < inst.size() && !sink.Done(); ++i) Evaluate(inst[i], *items, ItemLoc(loc, i), sink);
  }
}

void JsonSchema::Impl::CheckAlternatives(const json& inst, const json& branches, bool exactly_one,
                                         const Loc& loc, Sink& sink) const {
  size_t matching = 0;
  for (const json& b : branches) {
    if (Matches(inst, b, loc.depth)) ++matching;
    if (matching > (exactly_one ? 1u : 0u)) break;
  }
  if (matching == 1 || (!exactly_one && matching > 1)) return;
  if (matching > 1) {
    sink.Add(loc, [&] { return "matches more than one alternative"; });
    return;
  }
  // A probe only needs to know that nothing matched, not which branch explains it best.
  if (sink.probe) {
    sink.Add(loc, [&] { return "matches no alternative"; });
    return;
  }
  ReportBestBranch(inst, branches, loc, sink);
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

}  // namespace tcb
