// Fills in absent properties from schema defaults, following $ref, allOf and the first matching
// oneOf/anyOf branch.
#include "scenario/json_schema_internal.h"

#include <algorithm>

namespace tcb {

using namespace json_schema_internal;

const json* JsonSchema::Impl::DefaultOf(const json& schema) const {
  if (!schema.is_object()) return nullptr;
  if (const json* d = Keyword(schema, Kw("default"))) return d;
  if (const json* ref = NodeOf(schema).ref) return DefaultOf(*ref);
  return nullptr;
}

// `filling` holds the property schemas whose defaults are being filled in, innermost last; meeting one
// again means the defaults nest without end (a recursive property with a default), a schema bug.
void JsonSchema::Impl::Apply(json& inst, const json& schema, std::vector<const json*>& filling, size_t depth) const {
  if (!schema.is_object() || depth > kMaxDepth) return;
  const Node& node = NodeOf(schema);
  // Branches are chosen on the instance as given, before this schema's own defaults can sway the choice.
  std::vector<const json*> chosen;
  for (size_t keyword : {Kw("anyOf"), Kw("oneOf")}) {
    if (const json* list = node.keywords[keyword]) {
      for (const json& b : *list) {
        if (Matches(inst, b, depth)) {
          chosen.push_back(&b);
          break;
        }
      }
    }
  }
  if (inst.is_object()) {
    const json* properties = node.keywords[Kw("properties")];
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
    const json* additional = node.keywords[Kw("additionalProperties")];
    if (additional != nullptr && additional->is_object()) {
      for (auto& item : inst.items()) {
        if (properties == nullptr || !properties->contains(item.key())) {
          Apply(item.value(), *additional, filling, depth + 1);
        }
      }
    }
  } else if (inst.is_array()) {
    if (const json* items = node.keywords[Kw("items")]) {
      for (json& item : inst) Apply(item, *items, filling, depth + 1);
    }
  }
  if (const json* ref = node.ref) Apply(inst, *ref, filling, depth);
  if (const json* all = node.keywords[Kw("allOf")]) {
    for (const json& s : *all) Apply(inst, s, filling, depth);
  }
  for (const json* b : chosen) Apply(inst, *b, filling, depth);
}

void JsonSchema::ApplyDefaults(nlohmann::json& instance, std::string_view at) const {
  std::vector<const nlohmann::json*> filling;
  impl_->Apply(instance, impl_->SchemaAt(at), filling, 0);
}

}  // namespace tcb
