// Conformance of the JSON Schema validator: every case of the official JSON-Schema-Test-Suite
// (draft 2020-12) for the keywords scenario/json_schema.h supports, vendored in
// third_party/JSON-Schema-Test-Suite/ (see its README.md for the upstream commit and the file list).
// One test per case; cases that need what the validator deliberately leaves out are skipped by name,
// with the reason, in kSkipped below.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenario/json_schema.h"
#include "testing/test_paths.h"

namespace tcb {
namespace {

using nlohmann::json;

// The suite's draft 2020-12 files vendored: one per supported keyword (plus boolean schemas, default,
// and infinite-loop detection), named as upstream.
const char* const kSuiteFiles[] = {
    "additionalProperties", "allOf",          "anyOf",      "boolean_schema", "const",
    "default",              "defs",           "enum",       "exclusiveMaximum", "exclusiveMinimum",
    "infinite-loop-detection", "items",       "maxItems",   "maxLength",      "maxProperties",
    "maximum",              "minItems",       "minLength",  "minProperties",  "minimum",
    "multipleOf",           "not",            "oneOf",      "pattern",        "properties",
    "propertyNames",        "ref",            "required",   "type",           "uniqueItems",
};

// Cases the validator does not run, keyed "file/group description" (the whole group: its schema does
// not compile here) or "file/group description/test description" (one case), with the reason.
const std::map<std::string, std::string>& Skipped() {
  // Keywords the validator leaves out (scenario/json_schema.h lists what it supports); Compile names them.
  const std::string pattern_properties = "patternProperties is not supported";
  const std::string prefix_items = "prefixItems (tuple validation) is not supported";
  const std::string if_then_else = "if/then/else is not supported";
  const std::string unevaluated = "unevaluatedProperties is not supported";
  // Only local "#/..." JSON pointer references: no $id base URIs, no $anchor, nothing fetched.
  const std::string remote_ref = "remote $ref (the draft 2020-12 metaschema) is not supported";
  const std::string id_base = "$ref resolved against a $id base URI is not supported";
  const std::string anchor = "$anchor is not supported";
  // Stricter than the specification on purpose: these are schema mistakes, rejected by Compile.
  const std::string bad_default =
      "Compile rejects a default that fails its own schema (draft 2020-12 makes default an annotation)";
  const std::string empty_enum = "Compile rejects an empty enum (draft 2020-12 validation §6.1.2: SHOULD be non-empty)";
  // "integer" means a JSON integer (draft 2020-12 core §4.2.1 counts 1.0 too), so that a value that
  // passes converts to int64 exactly.
  const std::string decimal_count = "counts must be JSON integers; Compile rejects 2.0";
  const std::string integral_float = "\"integer\" accepts JSON integers only; 1.0 is rejected";
  // std::regex (ECMAScript) has no "u" flag: no \p{...} property escapes.
  const std::string unicode_regex = "std::regex has no Unicode property escapes (\\p{Letter})";
  static const std::map<std::string, std::string> kSkipped = {
      {"additionalProperties/additionalProperties being false does not allow other properties", pattern_properties},
      {"additionalProperties/non-ASCII pattern with additionalProperties", pattern_properties},
      {"additionalProperties/dependentSchemas with additionalProperties", "dependentSchemas is not supported"},
      {"default/invalid type for default", bad_default},
      {"default/invalid string value for default", bad_default},
      {"default/the default keyword does not do anything if the property is missing", bad_default},
      {"defs/validate definition against metaschema", remote_ref},
      {"enum/empty enum", empty_enum},
      {"items/items and subitems", prefix_items},
      {"items/prefixItems with no additional items allowed", prefix_items},
      {"items/items does not look in applicators, valid case", prefix_items},
      {"items/prefixItems validation adjusts the starting index for items", prefix_items},
      {"items/items with heterogeneous array", prefix_items},
      {"maxItems/maxItems validation with a decimal", decimal_count},
      {"maxLength/maxLength validation with a decimal", decimal_count},
      {"maxProperties/maxProperties validation with a decimal", decimal_count},
      {"minItems/minItems validation with a decimal", decimal_count},
      {"minLength/minLength validation with a decimal", decimal_count},
      {"minProperties/minProperties validation with a decimal", decimal_count},
      {"not/collect annotations inside a 'not', even if collection is disabled", unevaluated},
      {"pattern/pattern with Unicode property escape requires unicode mode", unicode_regex},
      {"properties/properties, patternProperties, additionalProperties interaction", pattern_properties},
      {"ref/relative pointer ref to array", prefix_items},
      {"ref/remote ref, containing refs itself", remote_ref},
      {"ref/Recursive references between schemas", id_base},
      {"ref/ref creates new scope when adjacent to keywords", unevaluated},
      {"ref/refs with relative uris and defs", id_base},
      {"ref/relative refs with absolute uris and defs", id_base},
      {"ref/$id must be resolved against nearest parent, not just immediate parent", id_base},
      {"ref/order of evaluation: $id and $ref", id_base},
      {"ref/order of evaluation: $id and $anchor and $ref", anchor},
      {"ref/order of evaluation: $id and $ref on nested schema", id_base},
      {"ref/simple URN base URI with $ref via the URN", id_base},
      {"ref/URN base URI with URN and JSON pointer ref", id_base},
      {"ref/URN base URI with URN and anchor ref", anchor},
      {"ref/URN ref with nested pointer ref", id_base},
      {"ref/ref to if", if_then_else},
      {"ref/ref to then", if_then_else},
      {"ref/ref to else", if_then_else},
      {"ref/ref with absolute-path-reference", id_base},
      {"type/integer type matches integers/a float with zero fractional part is an integer", integral_float},
      {"uniqueItems/uniqueItems with an array of items", prefix_items},
      {"uniqueItems/uniqueItems with an array of items and additionalItems=false", prefix_items},
      {"uniqueItems/uniqueItems=false with an array of items", prefix_items},
      {"uniqueItems/uniqueItems=false with an array of items and additionalItems=false", prefix_items},
  };
  return kSkipped;
}

struct SuiteCase {
  std::string file;
  std::string group;        // The group's "description".
  std::string description;  // The case's "description".
  json schema;
  json data;
  bool valid = false;
  std::string name;     // The GoogleTest name: letters, digits and underscores.
  std::string pointer;  // Where the case is upstream, e.g. "type.json#/0/tests/1".
};

// How GoogleTest (and the ctest names it discovers) shows a case: a pointer into the suite file.
void PrintTo(const SuiteCase& c, std::ostream* out) { *out << c.pointer; }

std::filesystem::path SuiteDir() {
  return TestSourceDir() / "third_party/JSON-Schema-Test-Suite/tests/draft2020-12";
}

// "additionalProperties being false does not allow other properties" -> "being_false_does_not_allow...".
std::string Identifier(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// Every case of every file, in file order; a file that is missing or malformed is a failed case of
// its own rather than no cases at all.
std::vector<SuiteCase> LoadSuite() {
  std::vector<SuiteCase> cases;
  std::set<std::string> names;
  for (const char* file : kSuiteFiles) {
    std::ifstream in(SuiteDir() / (std::string(file) + ".json"));
    json groups = json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!groups.is_array()) {
      SuiteCase broken;
      broken.file = file;
      broken.name = Identifier(file) + "_unreadable";
      broken.pointer = std::string(file) + ".json";
      cases.push_back(std::move(broken));
      continue;
    }
    for (size_t g = 0; g < groups.size(); ++g) {
      const json& group = groups[g];
      for (size_t t = 0; t < group.at("tests").size(); ++t) {
        const json& test = group["tests"][t];
        SuiteCase c{file, group.at("description"), test.at("description"), group.at("schema"), test.at("data"),
                    test.at("valid").get<bool>(), {},
                    std::string(file) + ".json#/" + std::to_string(g) + "/tests/" + std::to_string(t)};
        // Group and case numbers keep names unique and in file order; the words say what is tested.
        c.name = Identifier(file) + "_" + std::to_string(g) + "_" + std::to_string(t) + "_" +
                 Identifier(c.group) + "__" + Identifier(c.description);
        if (!names.insert(c.name).second) c.name += "_" + std::to_string(cases.size());
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

const std::string* SkipReason(const SuiteCase& c) {
  for (const std::string& key : {c.file + "/" + c.group + "/" + c.description, c.file + "/" + c.group}) {
    auto it = Skipped().find(key);
    if (it != Skipped().end()) return &it->second;
  }
  return nullptr;
}

class JsonSchemaSuiteTest : public ::testing::TestWithParam<SuiteCase> {};

TEST_P(JsonSchemaSuiteTest, MatchesTheSuite) {
  const SuiteCase& c = GetParam();
  ASSERT_FALSE(c.schema.is_null()) << "cannot read " << (SuiteDir() / (c.file + ".json"));
  SCOPED_TRACE(c.file + ".json: " + c.group + " / " + c.description + "\nschema: " + c.schema.dump() +
               "\ndata: " + c.data.dump());
  // What the validator says, or why it cannot say it.
  std::optional<bool> valid;
  std::string first_error;
  std::string compile_error;
  try {
    JsonSchema schema = JsonSchema::Compile(c.schema);
    std::optional<SchemaError> error = schema.Validate(c.data);
    valid = !error.has_value();
    if (error) first_error = error->path + ": " + error->message;
    // Validate and ValidateAll must agree on whether there is an error, and on the first one.
    std::vector<SchemaError> all = schema.ValidateAll(c.data);
    EXPECT_EQ(all.empty(), *valid);
    if (error && !all.empty()) {
      EXPECT_EQ(all.front(), *error);
    }
  } catch (const std::invalid_argument& e) {
    compile_error = e.what();
  }
  if (const std::string* reason = SkipReason(c)) {
    // A skip stays honest: a listed case that now passes must come off the list.
    EXPECT_FALSE(valid.has_value() && *valid == c.valid) << "passes now; remove it from kSkipped";
    GTEST_SKIP() << *reason;
  }
  ASSERT_TRUE(valid.has_value()) << "the schema does not compile: " << compile_error;
  EXPECT_EQ(*valid, c.valid) << (c.valid ? "rejected a valid instance: " + first_error
                                         : std::string("accepted an invalid instance"));
  // The product's promise for every error: one line, naming where.
  if (!first_error.empty()) {
    EXPECT_EQ(first_error.find('\n'), std::string::npos) << first_error;
    EXPECT_EQ(first_error.rfind("$", 0), 0u) << first_error;
  }
}

INSTANTIATE_TEST_SUITE_P(Draft2020_12, JsonSchemaSuiteTest, ::testing::ValuesIn(LoadSuite()),
                         [](const auto& info) { return info.param.name; });

TEST(JsonSchemaSuiteFilesTest, SkipListNamesExistingCases) {
  std::set<std::string> keys;
  for (const SuiteCase& c : LoadSuite()) {
    keys.insert(c.file + "/" + c.group);
    keys.insert(c.file + "/" + c.group + "/" + c.description);
  }
  for (const auto& [key, reason] : Skipped()) EXPECT_TRUE(keys.count(key)) << "no such case: " << key;
}

}  // namespace
}  // namespace tcb
