// Turns failures into one-line messages: the JSON path and document order of an error, how values,
// types and alternatives are worded, typo suggestions, and the one branch that explains a failed
// oneOf/anyOf.
#include "scenario/json_schema_internal.h"

#include <algorithm>
#include <set>

namespace tcb {
namespace json_schema_internal {
namespace {

std::string Dump(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

// Cuts at a UTF-8 character boundary and marks the cut.
std::string Truncate(const std::string& s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

// Values quoted in messages are shortened so that an error stays one readable line.
constexpr size_t kMaxShownBytes = 60;

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

std::string Quote(std::string_view s) { return Dump(json(std::string(s))); }

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

bool operator<(const OrderPart& a, const OrderPart& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.index != b.index) return a.index < b.index;
  return a.key < b.key;
}

std::string Loc::Path() const {
  switch (step) {
    case Step::kRoot: return "$";
    case Step::kField: return JsonPathChild(parent->Path(), *key);
    case Step::kItem: return JsonPathIndex(parent->Path(), index);
    case Step::kRequired: return parent->Path();
  }
  return "$";
}

std::vector<OrderPart> Loc::Order() const {
  if (step == Step::kRoot) return {};
  std::vector<OrderPart> order = parent->Order();
  switch (step) {
    case Step::kField: order.push_back({rank, 0, *key}); break;
    case Step::kItem: order.push_back({kChildRank, index, {}}); break;
    case Step::kRequired: order.push_back({kRequiredRank, index, {}}); break;
    case Step::kRoot: break;
  }
  return order;
}

// An error about a key (unknown or badly named) is about the object's shape, so it counts at the
// object's depth: a branch that rejects a field gets less far than one that rejects the field's value.
Loc FieldLoc(const Loc& parent, const std::string& key, Rank rank) {
  return Loc{&parent, Loc::Step::kField, rank, 0, &key, parent.depth + (rank == kKeyRank ? 0 : 1)};
}

Loc ItemLoc(const Loc& parent, size_t index) {
  return Loc{&parent, Loc::Step::kItem, kChildRank, index, nullptr, parent.depth + 1};
}

// Missing required fields are reported at the object, after its key checks, in `required` order.
Loc RequiredLoc(const Loc& object, size_t index) {
  return Loc{&object, Loc::Step::kRequired, kRequiredRank, index, nullptr, object.depth};
}

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

}  // namespace json_schema_internal

using namespace json_schema_internal;

// Suggests a declared property the instance does not have yet; one it has cannot be what was meant.
std::string JsonSchema::Impl::SuggestField(const std::string& key, const json* properties, const json& inst) {
  if (properties == nullptr) return "";
  std::vector<std::string> candidates;
  for (const auto& item : properties->items()) {
    if (!inst.contains(item.key())) candidates.push_back(item.key());
  }
  return DidYouMean(key, candidates);
}

// Picks the one branch whose errors to show when no branch matched; see the header.
void JsonSchema::Impl::ReportBestBranch(const json& inst, const json& branches, const Loc& loc, Sink& sink) const {
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
        sink.Add(RequiredLoc(loc, 0), [&] {
          return "missing required field " + Quote(d->property) + " (" + (unique.size() == 1 ? "" : "one of ") +
                 CommaList(unique) + ")";
        });
        return;
      }
      if (given != inst.end() && candidates.empty()) {
        const json& value = *given;
        std::string message = OneOfValues(shown) + " (got " + Show(value) + ")";
        if (value.is_string()) message += DidYouMean(value.get<std::string>(), strings);
        sink.Add(FieldLoc(loc, d->property, kChildRank), [&] { return message; });
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
      sink.Add(loc, [&] { return "must be " + JoinAlternatives(phrases) + " (got " + Got(inst, accepted) + ")"; });
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
  // Unreachable: some candidate failed.
  if (best.empty()) sink.Add(loc, [] { return "matches no alternative"; });
  for (Found& f : best) sink.found.push_back(std::move(f));
}

// A property whose schema is a "const" in every branch that admits objects, e.g. "kind". Among several,
// the first in key order whose values tell the branches apart.
std::optional<JsonSchema::Impl::Discriminator> JsonSchema::Impl::FindDiscriminator(const json& branches) const {
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
void JsonSchema::Impl::CollectConsts(const json& schema, std::map<std::string, const json*>& out) const {
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
bool JsonSchema::Impl::Requires(const json& schema, const std::string& property) const {
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

const json* JsonSchema::Impl::ConstOf(const json& schema) const {
  if (!schema.is_object()) return nullptr;
  if (const json* c = Find(schema, "const")) return c;
  if (const json* ref = NodeOf(schema).ref) return ConstOf(*ref);
  return nullptr;
}

// The instance types `schema` can accept, judged from type, const, enum and the in-place applicators.
unsigned JsonSchema::Impl::AcceptedTypes(const json& schema) const {
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
std::vector<std::string> JsonSchema::Impl::Describe(const json& schema) const {
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
}  // namespace tcb
