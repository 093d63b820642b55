// Validates scenario JSON against a JSON Schema (draft 2020-12) subset and fills in schema defaults.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcb {

// One validation failure, worded for the user who wrote the document.
struct SchemaError {
  // JSONPath-style location in the instance: "$", "$.traffic[3].from", "$.links[0]['odd key']".
  std::string path;
  // What is wrong there, e.g. "must be >= 1 (got 0)" or "unknown field \"rtt_ms\"; did you mean \"rtt\"?".
  std::string message;

  friend bool operator==(const SchemaError&, const SchemaError&) = default;
};

// A compiled schema. Supported keywords: $defs, $ref (local "#..." pointers; siblings also apply), type,
// enum, const, properties, required, additionalProperties, minProperties, maxProperties, propertyNames,
// items (one schema), minItems, maxItems, uniqueItems, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf, minLength, maxLength (code points), pattern (ECMAScript, unanchored),
// allOf, anyOf, oneOf, not. Annotations are ignored: title, description, $comment, examples, default,
// deprecated, readOnly, $schema, $id and any key starting with "x-".
//
// Error order is the instance's document order: at each value, first errors about the value itself
// (type, enum, const, bounds, lengths, pattern, item/field counts, failed alternatives), then, for
// objects, unknown or badly named fields in key order, then missing required fields in the order the
// schema lists them, then the fields' own errors in key order; array items in index order. Object keys
// are in nlohmann::json's sorted key order, not the order in the source text. Errors at the same place
// come in keyword order (a schema's type, then its $ref target, then its other keywords), so the first
// error is deterministic. A wrong type hides the other keywords of the schema that declares it.
//
// A value that fails oneOf/anyOf is explained by one branch. For an object, a discriminator property
// (one whose schema is a "const" in every branch that admits objects, e.g. "kind") picks the branch; a
// discriminator that matches no branch, or is missing but required, is reported itself. Otherwise, among
// the branches that accept the value's JSON type, the branch whose first error lies deepest wins (ties:
// the earlier branch; an unknown or missing field counts at its object's depth). If no branch accepts the
// type, the error names what the branches accept: "must be a number or \"unlimited\" (got ...)".
//
// Documents nested deeper than 64 levels (possible only with a recursive schema) are rejected.
//
// A JsonSchema is immutable and cheap to copy; copies share the compiled schema.
class JsonSchema {
 public:
  // Compiles a schema document. Throws std::invalid_argument naming the schema location (a JSON pointer
  // fragment such as "#/$defs/tcp/properties/cc") for an unsupported or misspelled keyword, a malformed
  // keyword value, a bad pattern, an unresolvable $ref, a $ref/allOf/anyOf/oneOf/not cycle that never
  // descends into the instance, or a "default" that does not satisfy its own schema.
  static JsonSchema Compile(const nlohmann::json& schema);

  // Validates `instance` against the subschema at JSON pointer fragment `at` ("#" is the root, or e.g.
  // "#/$defs/tcpOptions"); error paths are relative to `instance` ("$"). Returns the first error in
  // document order, or nullopt when valid. Throws std::invalid_argument if `at` names no subschema.
  std::optional<SchemaError> Validate(const nlohmann::json& instance, std::string_view at = "#") const;

  // As Validate, but returns every error in document order (e.g. to mark each field of a web form).
  // A failed oneOf/anyOf contributes the errors of the one branch it reports.
  std::vector<SchemaError> ValidateAll(const nlohmann::json& instance, std::string_view at = "#") const;

  // Fills in absent object properties whose schema has a "default", recursively: inside inserted
  // defaults, object properties, additionalProperties, array items, allOf, the $ref target and the first
  // oneOf/anyOf branch that the instance matches. A "default" beside a $ref takes precedence over one in
  // the referenced schema; a property's own schema takes precedence over the $ref/allOf/branch schemas.
  // Precondition: the instance is valid (an invalid one is filled in as far as possible, never rejected).
  void ApplyDefaults(nlohmann::json& instance, std::string_view at = "#") const;

  // The subschema at JSON pointer fragment `at`, for tools such as form generators. $ref keywords inside
  // it are left as they are; their values are fragments that can be passed back here. Throws
  // std::invalid_argument if `at` does not name a subschema.
  const nlohmann::json& SubschemaAt(std::string_view at) const;

 private:
  struct Impl;

  explicit JsonSchema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<const Impl> impl_;
};

}  // namespace tcb
