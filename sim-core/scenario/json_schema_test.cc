// Tests for the JSON Schema subset validator: each keyword, the messages users see, defaults, compile errors.
#include "scenario/json_schema.h"

#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "json/json_pointer.h"

namespace tcb {
namespace {

using nlohmann::json;

// "path: message", as the CLI prints it, or "ok".
std::string FirstError(const JsonSchema& schema, const json& instance, std::string_view at = "#") {
  std::optional<SchemaError> e = schema.Validate(instance, at);
  return e ? e->path + ": " + e->message : "ok";
}

std::string FirstError(const json& schema, const json& instance) {
  return FirstError(JsonSchema::Compile(schema), instance);
}

std::vector<std::string> AllErrors(const JsonSchema& schema, const json& instance) {
  std::vector<std::string> out;
  for (const SchemaError& e : schema.ValidateAll(instance)) out.push_back(e.path + ": " + e.message);
  return out;
}

std::string CompileError(const json& schema) {
  try {
    JsonSchema::Compile(schema);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "compiled";
}

// A cut-down scenario schema in the shape of the real one.
const json& ScenarioSchema() {
  static const json kSchema = json::parse(R"json({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.invalid/scenario.schema.json",
    "title": "Scenario",
    "type": "object",
    "required": ["topology", "traffic"],
    "additionalProperties": false,
    "properties": {
      "name": {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[a-z0-9-]+$"},
      "seed": {"type": "integer", "minimum": 0, "default": 1},
      "duration_s": {"type": "number", "exclusiveMinimum": 0, "default": 10, "x-unit": "s"},
      "topology": {"oneOf": [{"$ref": "#/$defs/singleLink"}, {"$ref": "#/$defs/dumbbell"}]},
      "tcp": {"$ref": "#/$defs/tcpOptions", "default": {}},
      "traffic": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/flow"}}
    },
    "$defs": {
      "rate": {"type": "number", "exclusiveMinimum": 0, "x-unit": "bit/s"},
      "queue": {
        "description": "Bottleneck buffer: a packet or byte limit, or none.",
        "oneOf": [
          {"type": "object", "properties": {"packets": {"type": "integer", "minimum": 1}},
           "required": ["packets"], "additionalProperties": false},
          {"type": "object", "properties": {"bytes": {"type": "integer", "minimum": 1500}},
           "required": ["bytes"], "additionalProperties": false},
          {"const": "unlimited"}
        ]
      },
      "singleLink": {
        "type": "object",
        "properties": {
          "kind": {"const": "single-link"},
          "rate_bps": {"$ref": "#/$defs/rate"},
          "delay_ms": {"type": "number", "minimum": 0},
          "queue": {"$ref": "#/$defs/queue", "default": "unlimited"}
        },
        "required": ["kind", "rate_bps", "delay_ms"],
        "additionalProperties": false
      },
      "dumbbell": {
        "type": "object",
        "properties": {
          "kind": {"const": "dumbbell"},
          "pairs": {"type": "integer", "minimum": 1, "maximum": 64, "default": 1},
          "bottleneck": {
            "type": "object",
            "properties": {
              "rate_bps": {"$ref": "#/$defs/rate"},
              "delay_ms": {"type": "number", "minimum": 0},
              "queue": {"$ref": "#/$defs/queue", "default": {"packets": 100}}
            },
            "required": ["rate_bps", "delay_ms"],
            "additionalProperties": false
          }
        },
        "required": ["kind", "bottleneck"],
        "additionalProperties": false
      },
      "tcpOptions": {
        "type": "object",
        "properties": {
          "cc": {"enum": ["tahoe", "reno", "newreno"], "default": "newreno"},
          "mss": {"type": "integer", "minimum": 536, "maximum": 9000, "default": 1460},
          "initial_window": {"type": "integer", "minimum": 1, "default": 10},
          "sack": {"type": "boolean", "default": false},
          "rto": {
            "type": "object",
            "properties": {
              "min_ms": {"type": "number", "minimum": 1, "default": 200},
              "max_ms": {"type": "number", "minimum": 1, "default": 60000}
            },
            "additionalProperties": false,
            "default": {}
          }
        },
        "additionalProperties": false
      },
      "flow": {
        "type": "object",
        "properties": {
          "from": {"type": "string"},
          "to": {"type": "string"},
          "start_s": {"type": "number", "minimum": 0, "default": 0},
          "bytes": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "unlimited"}], "default": "unlimited"},
          "app": {"enum": ["bulk", "http"], "default": "bulk"}
        },
        "required": ["from", "to"],
        "additionalProperties": false
      }
    }
  })json");
  return kSchema;
}

const JsonSchema& Scenario() {
  static const JsonSchema kCompiled = JsonSchema::Compile(ScenarioSchema());
  return kCompiled;
}

json ValidScenario() {
  return json::parse(R"json({
    "name": "dumbbell-bulk",
    "topology": {"kind": "dumbbell", "bottleneck": {"rate_bps": 10e6, "delay_ms": 20}},
    "tcp": {"cc": "reno"},
    "traffic": [{"from": "h0", "to": "h1"}, {"from": "h1", "to": "h0", "bytes": 100000}]
  })json");
}

// Returns ValidScenario() with the value at `pointer` replaced (or added).
json WithValue(const std::string& pointer, const json& value) {
  json doc = ValidScenario();
  doc[json::json_pointer(pointer)] = value;
  return doc;
}

json Without(const std::string& parent_pointer, const std::string& key) {
  json doc = ValidScenario();
  doc[json::json_pointer(parent_pointer)].erase(key);
  return doc;
}

// --- The scenario schema: what users see for typical mistakes. ---

TEST(ScenarioSchemaTest, AcceptsValidScenario) { EXPECT_EQ(FirstError(Scenario(), ValidScenario()), "ok"); }

TEST(ScenarioSchemaTest, MisspelledTopologyKindSuggestsTheKnownOne) {
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/kind", "dumbel")),
            "$.topology.kind: must be one of \"single-link\", \"dumbbell\" (got \"dumbel\"); did you mean \"dumbbell\"?");
}

TEST(ScenarioSchemaTest, UnknownTopologyKindListsTheKinds) {
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/kind", "ring")),
            "$.topology.kind: must be one of \"single-link\", \"dumbbell\" (got \"ring\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/kind", 3)),
            "$.topology.kind: must be one of \"single-link\", \"dumbbell\" (got 3)");
}

TEST(ScenarioSchemaTest, TopologyErrorComesFromTheBranchNamedByKind) {
  // Without the discriminator the single-link branch's errors would be as deep; "kind" picks dumbbell.
  EXPECT_EQ(FirstError(Scenario(), Without("/topology", "bottleneck")),
            "$.topology: missing required field \"bottleneck\"");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/bottleneck/delay_ms", -1)),
            "$.topology.bottleneck.delay_ms: must be >= 0 (got -1)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/rate_bps", 1e6)),
            "$.topology.rate_bps: unknown field \"rate_bps\"");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology/bottleneck/rate_bps", 0)),
            "$.topology.bottleneck.rate_bps: must be > 0 (got 0)");
}

TEST(ScenarioSchemaTest, TopologyWithoutKindReportsTheMissingField) {
  EXPECT_EQ(FirstError(Scenario(), Without("/topology", "kind")),
            "$.topology: missing required field \"kind\" (one of \"single-link\", \"dumbbell\")");
}

TEST(ScenarioSchemaTest, TopologyOfWrongType) {
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology", 5)), "$.topology: must be an object (got number 5)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/topology", "dumbbell")),
            "$.topology: must be an object (got string \"dumbbell\")");
}

TEST(ScenarioSchemaTest, QueueMistakes) {
  const std::string queue = "/topology/bottleneck/queue";
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json{{"packets", 50}})), "ok");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, "unlimited")), "ok");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, 50)),
            "$.topology.bottleneck.queue: must be an object or \"unlimited\" (got number 50)");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json{{"packets", 0}})),
            "$.topology.bottleneck.queue.packets: must be >= 1 (got 0)");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json{{"packets", 1.5}})),
            "$.topology.bottleneck.queue.packets: must be an integer (got 1.5)");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json{{"bytes", 1000}})),
            "$.topology.bottleneck.queue.bytes: must be >= 1500 (got 1000)");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json{{"pakets", 50}})),
            "$.topology.bottleneck.queue.pakets: unknown field \"pakets\"; did you mean \"packets\"?");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, "unlimted")),
            "$.topology.bottleneck.queue: must be \"unlimited\" (got \"unlimted\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue(queue, json::object())),
            "$.topology.bottleneck.queue: missing required field \"packets\"");
}

TEST(ScenarioSchemaTest, TcpOptionMistakes) {
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/cc", "vegas")),
            "$.tcp.cc: must be one of \"tahoe\", \"reno\", \"newreno\" (got \"vegas\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/cc", "Reno")),
            "$.tcp.cc: must be one of \"tahoe\", \"reno\", \"newreno\" (got \"Reno\"); did you mean \"reno\"?");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/mss", 1460.5)), "$.tcp.mss: must be an integer (got 1460.5)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/mss", "1460")),
            "$.tcp.mss: must be an integer (got string \"1460\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/mss", 100000)), "$.tcp.mss: must be <= 9000 (got 100000)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/sack", "yes")),
            "$.tcp.sack: must be a boolean (got string \"yes\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/initial_widow", 4)),
            "$.tcp.initial_widow: unknown field \"initial_widow\"; did you mean \"initial_window\"?");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp/rto/min_ms", 0)), "$.tcp.rto.min_ms: must be >= 1 (got 0)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/tcp", json::array())), "$.tcp: must be an object (got array)");
}

TEST(ScenarioSchemaTest, TrafficMistakes) {
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic", json::array())),
            "$.traffic: must have at least 1 item(s)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic/1/from", 3)),
            "$.traffic[1].from: must be a string (got number 3)");
  EXPECT_EQ(FirstError(Scenario(), Without("/traffic/1", "to")), "$.traffic[1]: missing required field \"to\"");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic/0/bytes", 1.5)),
            "$.traffic[0].bytes: must be an integer or \"unlimited\" (got 1.5)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic/0/bytes", 0)), "$.traffic[0].bytes: must be >= 1 (got 0)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic/0/bytes", "lots")),
            "$.traffic[0].bytes: must be \"unlimited\" (got \"lots\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic/0/app", "ftp")),
            "$.traffic[0].app: must be one of \"bulk\", \"http\" (got \"ftp\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/traffic", json::object())),
            "$.traffic: must be an array (got object)");
}

TEST(ScenarioSchemaTest, TopLevelMistakes) {
  EXPECT_EQ(FirstError(Scenario(), Without("", "traffic")), "$: missing required field \"traffic\"");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/durration_s", 5)),
            "$.durration_s: unknown field \"durration_s\"; did you mean \"duration_s\"?");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/duration_s", -5)), "$.duration_s: must be > 0 (got -5)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/seed", -1)), "$.seed: must be >= 0 (got -1)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/name", "Bad Name")),
            "$.name: must match pattern \"^[a-z0-9-]+$\" (got \"Bad Name\")");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/name", "")), "$.name: must have at least 1 character(s)");
  EXPECT_EQ(FirstError(Scenario(), WithValue("/odd key", 1)), "$['odd key']: unknown field \"odd key\"");
  EXPECT_EQ(FirstError(Scenario(), json::array()), "$: must be an object (got array)");
}

TEST(ScenarioSchemaTest, ReportsErrorsInDocumentOrder) {
  json doc = ValidScenario();
  doc["zzz"] = 1;
  doc.erase("traffic");
  doc["tcp"]["cc"] = "vegas";
  doc["topology"]["pairs"] = 0;
  EXPECT_EQ(AllErrors(Scenario(), doc),
            (std::vector<std::string>{
                "$.zzz: unknown field \"zzz\"",
                "$: missing required field \"traffic\"",
                "$.tcp.cc: must be one of \"tahoe\", \"reno\", \"newreno\" (got \"vegas\")",
                "$.topology.pairs: must be >= 1 (got 0)",
            }));
  EXPECT_EQ(FirstError(Scenario(), doc), "$.zzz: unknown field \"zzz\"");
}

TEST(ScenarioSchemaTest, FirstErrorDoesNotDependOnInsertionOrderOrRepetition) {
  json a = json::object();
  a["traffic"] = {{{"from", 1}, {"to", 2}}};
  a["topology"] = {{"kind", "single-link"}, {"rate_bps", -1}, {"delay_ms", "x"}};
  json b = json::object();
  b["topology"] = {{"delay_ms", "x"}, {"rate_bps", -1}, {"kind", "single-link"}};
  b["traffic"] = {{{"to", 2}, {"from", 1}}};
  const std::string expected = "$.topology.delay_ms: must be a number (got string \"x\")";
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(FirstError(Scenario(), a), expected);
    EXPECT_EQ(FirstError(Scenario(), b), expected);
  }
  EXPECT_EQ(AllErrors(Scenario(), a), AllErrors(Scenario(), b));
}

TEST(ScenarioSchemaTest, AppliesDefaultsRecursively) {
  json doc = ValidScenario();
  doc.erase("tcp");
  Scenario().ApplyDefaults(doc);
  EXPECT_EQ(FirstError(Scenario(), doc), "ok");
  EXPECT_EQ(doc["seed"], 1);
  EXPECT_EQ(doc["duration_s"], 10);
  // The default {} sits beside the $ref; its own properties, and theirs, get defaults in turn.
  EXPECT_EQ(doc["tcp"], json::parse(R"({"cc": "newreno", "mss": 1460, "initial_window": 10, "sack": false,
                                        "rto": {"min_ms": 200, "max_ms": 60000}})"));
  // Inside the oneOf branch chosen by "kind", and a default beside a $ref to another oneOf.
  EXPECT_EQ(doc["topology"]["pairs"], 1);
  EXPECT_EQ(doc["topology"]["bottleneck"]["queue"], json::parse(R"({"packets": 100})"));
  // Inside array items; present values are kept.
  EXPECT_EQ(doc["traffic"][0], json::parse(R"({"from": "h0", "to": "h1", "start_s": 0, "bytes": "unlimited",
                                               "app": "bulk"})"));
  EXPECT_EQ(doc["traffic"][1]["bytes"], 100000);
}

TEST(ScenarioSchemaTest, AppliesDefaultsOfTheOtherBranch) {
  json doc = ValidScenario();
  doc["topology"] = {{"kind", "single-link"}, {"rate_bps", 1e6}, {"delay_ms", 5}};
  doc["tcp"] = {{"cc", "tahoe"}, {"rto", {{"max_ms", 1000}}}};
  Scenario().ApplyDefaults(doc);
  EXPECT_EQ(doc["topology"], json::parse(R"({"kind": "single-link", "rate_bps": 1e6, "delay_ms": 5,
                                              "queue": "unlimited"})"));
  EXPECT_EQ(doc["tcp"]["cc"], "tahoe");
  EXPECT_EQ(doc["tcp"]["rto"], json::parse(R"({"min_ms": 200, "max_ms": 1000})"));
}

TEST(ScenarioSchemaTest, ApplyDefaultsToleratesInvalidDocuments) {
  json doc = json::parse(R"({"topology": 5, "tcp": [], "traffic": [3, {"from": 1}], "extra": {}})");
  Scenario().ApplyDefaults(doc);
  EXPECT_EQ(doc["topology"], 5);
  EXPECT_EQ(doc["tcp"], json::array());
  EXPECT_EQ(doc["traffic"][0], 3);
  EXPECT_EQ(doc["traffic"][1]["app"], "bulk");
  EXPECT_EQ(doc["seed"], 1);
  json scalar = "text";
  Scenario().ApplyDefaults(scalar);
  EXPECT_EQ(scalar, "text");
}

TEST(ScenarioSchemaTest, ValidatesAndFillsInASubschema) {
  EXPECT_EQ(FirstError(Scenario(), json{{"cc", "vegas"}}, "#/$defs/tcpOptions"),
            "$.cc: must be one of \"tahoe\", \"reno\", \"newreno\" (got \"vegas\")");
  EXPECT_EQ(FirstError(Scenario(), json{{"mss", 1200}}, "#/$defs/tcpOptions"), "ok");
  EXPECT_EQ(FirstError(Scenario(), 0, "#/$defs/rate"), "$: must be > 0 (got 0)");
  EXPECT_EQ(FirstError(Scenario(), json{{"kind", "dumbbell"}}, "#/properties/topology/oneOf/1"),
            "$: missing required field \"bottleneck\"");
}

TEST(ScenarioSchemaTest, SubschemaAtAndFragments) {
  EXPECT_EQ(&Scenario().SubschemaAt("#"), &Scenario().SubschemaAt("#"));
  EXPECT_EQ(Scenario().SubschemaAt("#/$defs/tcpOptions/properties/cc")["default"], "newreno");
  EXPECT_EQ(Scenario().SubschemaAt("#/properties/tcp")["$ref"], "#/$defs/tcpOptions");
  EXPECT_EQ(Scenario().SubschemaAt("#/%24defs/queue/oneOf/2")["const"], "unlimited");
}

TEST(ScenarioSchemaTest, DefaultsAtASubschema) {
  json tcp = {{"sack", true}};
  Scenario().ApplyDefaults(tcp, "#/$defs/tcpOptions");
  EXPECT_EQ(tcp, json::parse(R"({"cc": "newreno", "mss": 1460, "initial_window": 10, "sack": true,
                                 "rto": {"min_ms": 200, "max_ms": 60000}})"));
  json flows = json::parse(R"([{"from": "a", "to": "b", "app": "http"}])");
  Scenario().ApplyDefaults(flows, "#/properties/traffic");
  EXPECT_EQ(flows[0]["start_s"], 0);
  EXPECT_EQ(flows[0]["app"], "http");
}

// --- Keywords one by one. ---

TEST(JsonSchemaTest, Types) {
  EXPECT_EQ(FirstError(json{{"type", "null"}}, nullptr), "ok");
  EXPECT_EQ(FirstError(json{{"type", "null"}}, 0), "$: must be null (got number 0)");
  EXPECT_EQ(FirstError(json{{"type", "boolean"}}, false), "ok");
  EXPECT_EQ(FirstError(json{{"type", "boolean"}}, nullptr), "$: must be a boolean (got null)");
  EXPECT_EQ(FirstError(json{{"type", "object"}}, json::object()), "ok");
  EXPECT_EQ(FirstError(json{{"type", "object"}}, json::array()), "$: must be an object (got array)");
  EXPECT_EQ(FirstError(json{{"type", "array"}}, json::array()), "ok");
  EXPECT_EQ(FirstError(json{{"type", "array"}}, json::object()), "$: must be an array (got object)");
  EXPECT_EQ(FirstError(json{{"type", "string"}}, "x"), "ok");
  EXPECT_EQ(FirstError(json{{"type", "string"}}, 3), "$: must be a string (got number 3)");
  EXPECT_EQ(FirstError(json{{"type", "string"}}, true), "$: must be a string (got boolean true)");
  EXPECT_EQ(FirstError(json{{"type", "number"}}, 3), "ok");
  EXPECT_EQ(FirstError(json{{"type", "number"}}, -2.5), "ok");
  EXPECT_EQ(FirstError(json{{"type", "number"}}, "3"), "$: must be a number (got string \"3\")");
  EXPECT_EQ(FirstError(json{{"type", "integer"}}, 3), "ok");
  EXPECT_EQ(FirstError(json{{"type", "integer"}}, json::parse("18446744073709551615")), "ok");
  EXPECT_EQ(FirstError(json{{"type", "integer"}}, 1.5), "$: must be an integer (got 1.5)");
  EXPECT_EQ(FirstError(json{{"type", "integer"}}, json::parse("1.0")), "$: must be an integer (got 1.0)");
  EXPECT_EQ(FirstError(json{{"type", {"number", "string"}}}, true),
            "$: must be a number or a string (got boolean true)");
  EXPECT_EQ(FirstError(json{{"type", {"integer", "number", "null"}}}, "x"),
            "$: must be a number or null (got string \"x\")");
  EXPECT_EQ(FirstError(json{{"type", {"integer", "string", "null"}}}, 0.5),
            "$: must be an integer, a string or null (got 0.5)");
}

TEST(JsonSchemaTest, EnumAndConst) {
  json e = {{"enum", {"a", 1, nullptr, json::array({1, 2})}}};
  EXPECT_EQ(FirstError(e, "a"), "ok");
  EXPECT_EQ(FirstError(e, 1.0), "ok");  // JSON Schema equality is numeric.
  EXPECT_EQ(FirstError(e, json::array({1, 2})), "ok");
  EXPECT_EQ(FirstError(e, "b"), "$: must be one of \"a\", 1, null, [1,2] (got \"b\")");
  EXPECT_EQ(FirstError(json{{"enum", {"only"}}}, "x"), "$: must be \"only\" (got \"x\")");
  EXPECT_EQ(FirstError(json{{"const", "x"}}, "x"), "ok");
  EXPECT_EQ(FirstError(json{{"const", "x"}}, "y"), "$: must be \"x\" (got \"y\")");
  EXPECT_EQ(FirstError(json{{"const", {{"a", 1}}}}, json{{"a", 2}}), "$: must be {\"a\":1} (got {\"a\":2})");
}

TEST(JsonSchemaTest, LongValuesAreShortenedInMessages) {
  std::string long_value(100, 'x');
  EXPECT_EQ(FirstError(json{{"const", "y"}}, long_value),
            "$: must be \"y\" (got \"" + std::string(60, 'x') + "...\")");
}

TEST(JsonSchemaTest, PropertiesRequiredAdditional) {
  json s = json::parse(R"({
    "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
    "required": ["b", "a"],
    "additionalProperties": false
  })");
  EXPECT_EQ(FirstError(s, json{{"a", 1}, {"b", "x"}}), "ok");
  EXPECT_EQ(FirstError(s, json::object()), "$: missing required field \"b\"");
  EXPECT_EQ(FirstError(s, json{{"b", "x"}}), "$: missing required field \"a\"");
  EXPECT_EQ(FirstError(s, json{{"a", "1"}, {"b", "x"}}), "$.a: must be an integer (got string \"1\")");
  EXPECT_EQ(FirstError(s, json{{"a", 1}, {"b", "x"}, {"foo", 1}}), "$.foo: unknown field \"foo\"");
  // Properties the instance already has are not suggested.
  EXPECT_EQ(FirstError(s, json{{"a", 1}, {"b", "x"}, {"B", 1}}), "$.B: unknown field \"B\"");
  EXPECT_EQ(FirstError(s, json{{"a", 1}, {"B", "x"}}), "$.B: unknown field \"B\"; did you mean \"b\"?");
  // Without additionalProperties, extra fields are fine; with a schema, they must match it.
  EXPECT_EQ(FirstError(json{{"properties", {{"a", true}}}}, json{{"zzz", 1}}), "ok");
  json typed = {{"additionalProperties", {{"type", "number"}}}, {"properties", {{"name", {{"type", "string"}}}}}};
  EXPECT_EQ(FirstError(typed, json{{"name", "n"}, {"x", 1}}), "ok");
  EXPECT_EQ(FirstError(typed, json{{"name", "n"}, {"x", "1"}}), "$.x: must be a number (got string \"1\")");
  EXPECT_EQ(FirstError(json{{"additionalProperties", false}}, json{{"a b", 1}}), "$['a b']: unknown field \"a b\"");
}

TEST(JsonSchemaTest, PropertyCountsAndNames) {
  EXPECT_EQ(FirstError(json{{"minProperties", 1}}, json::object()), "$: must have at least 1 field(s)");
  EXPECT_EQ(FirstError(json{{"maxProperties", 1}}, json{{"a", 1}, {"b", 2}}), "$: must have at most 1 field(s)");
  EXPECT_EQ(FirstError(json{{"maxProperties", 1}}, json{{"a", 1}}), "ok");
  json names = {{"propertyNames", {{"pattern", "^[a-z]+$"}, {"maxLength", 3}}}};
  EXPECT_EQ(FirstError(names, json{{"abc", 1}}), "ok");
  EXPECT_EQ(FirstError(names, json{{"abc", 1}, {"Abc", 2}}),
            "$.Abc: field name must match pattern \"^[a-z]+$\" (got \"Abc\")");
  EXPECT_EQ(FirstError(names, json{{"abcd", 1}}), "$.abcd: field name must have at most 3 character(s)");
}

TEST(JsonSchemaTest, Arrays) {
  json s = json::parse(R"({"items": {"type": "integer"}, "minItems": 1, "maxItems": 3, "uniqueItems": true})");
  EXPECT_EQ(FirstError(s, json::array({1, 2, 3})), "ok");
  EXPECT_EQ(FirstError(s, json::array()), "$: must have at least 1 item(s)");
  EXPECT_EQ(FirstError(s, json::array({1, 2, 3, 4})), "$: must have at most 3 item(s)");
  EXPECT_EQ(FirstError(s, json::array({1, "2"})), "$[1]: must be an integer (got string \"2\")");
  EXPECT_EQ(FirstError(s, json::array({1, 2, 1})), "$[2]: must be unique (same as $[0])");
  EXPECT_EQ(FirstError(json{{"uniqueItems", true}}, json::parse(R"([{"a": 1}, {"a": 1.0}])")),
            "$[1]: must be unique (same as $[0])");
  EXPECT_EQ(FirstError(json{{"uniqueItems", false}}, json::array({1, 1})), "ok");
  EXPECT_EQ(FirstError(json{{"items", false}}, json::array()), "ok");
  EXPECT_EQ(FirstError(json{{"items", false}}, json::array({1})), "$[0]: is not allowed");
}

TEST(JsonSchemaTest, NumericBounds) {
  json s = json::parse(R"({"minimum": 1, "maximum": 10})");
  EXPECT_EQ(FirstError(s, 1), "ok");
  EXPECT_EQ(FirstError(s, 10), "ok");
  EXPECT_EQ(FirstError(s, 0), "$: must be >= 1 (got 0)");
  EXPECT_EQ(FirstError(s, 10.5), "$: must be <= 10 (got 10.5)");
  json x = json::parse(R"({"exclusiveMinimum": 0, "exclusiveMaximum": 1})");
  EXPECT_EQ(FirstError(x, 0.5), "ok");
  EXPECT_EQ(FirstError(x, 0), "$: must be > 0 (got 0)");
  EXPECT_EQ(FirstError(x, -5), "$: must be > 0 (got -5)");
  EXPECT_EQ(FirstError(x, 1), "$: must be < 1 (got 1)");
  EXPECT_EQ(FirstError(json{{"maximum", 1}}, 2), "$: must be <= 1 (got 2)");
  EXPECT_EQ(FirstError(json{{"minimum", 0.5}}, 0.25), "$: must be >= 0.5 (got 0.25)");
  // Bounds ignore other types, as in JSON Schema.
  EXPECT_EQ(FirstError(s, "0"), "ok");
  // Integers compare exactly across the int64 / uint64 divide.
  EXPECT_EQ(FirstError(json{{"minimum", 0}}, json::parse("18446744073709551615")), "ok");
  EXPECT_EQ(FirstError(json{{"maximum", json::parse("18446744073709551614")}}, json::parse("18446744073709551615")),
            "$: must be <= 18446744073709551614 (got 18446744073709551615)");
  EXPECT_EQ(FirstError(json{{"maximum", json::parse("9223372036854775808")}}, json::parse("-9223372036854775808")),
            "ok");
}

TEST(JsonSchemaTest, MultipleOf) {
  EXPECT_EQ(FirstError(json{{"multipleOf", 4}}, 12), "ok");
  EXPECT_EQ(FirstError(json{{"multipleOf", 4}}, -12), "ok");
  EXPECT_EQ(FirstError(json{{"multipleOf", 4}}, 10), "$: must be a multiple of 4 (got 10)");
  EXPECT_EQ(FirstError(json{{"multipleOf", 0.1}}, 0.3), "ok");
  EXPECT_EQ(FirstError(json{{"multipleOf", 0.5}}, 1.2), "$: must be a multiple of 0.5 (got 1.2)");
}

TEST(JsonSchemaTest, StringLengthCountsCodePoints) {
  json s = {{"minLength", 2}, {"maxLength", 5}};
  EXPECT_EQ(FirstError(s, "h\xc3\xa9llo"), "ok");  // "héllo": 6 bytes, 5 code points.
  EXPECT_EQ(FirstError(s, "\xf0\x9f\x98\x80"), "$: must have at least 2 character(s)");  // One emoji.
  EXPECT_EQ(FirstError(s, "abcdef"), "$: must have at most 5 character(s)");
}

// A pattern that is a set of bytes ("^[A-Za-z0-9_.-]+$") is checked without std::regex; it accepts
// and refuses exactly what std::regex_search does (ECMA-262 §22.2.2.9 for '-' in a class).
TEST(JsonSchemaTest, ByteSetPatternsMatchAsTheRegularExpressionDoes) {
  const std::vector<std::string> patterns = {"^[A-Za-z0-9_.-]+$", "^[A-Za-z0-9_.{}+%/-]+$", "^[-a]+$",
                                             "^[a-c-e]+$", "^[x]+$"};
  const std::vector<std::string> strings = {"", "a", "abc", "a-b", "A_z.9", "{i}+%/", "-", "d", "b-e", "x",
                                            "xx", "a b", "a\n", "\na", "\xc3\xa9", "name\x00", "[a]", "^a"};
  for (const std::string& pattern : patterns) {
    const std::regex regex(pattern, std::regex::ECMAScript);
    for (const std::string& s : strings) {
      const bool expected = std::regex_search(s, regex);
      EXPECT_EQ(FirstError(json{{"pattern", pattern}}, s) == "ok", expected) << pattern << " on " << json(s).dump();
    }
  }
  // Not byte sets: left to std::regex.
  EXPECT_EQ(FirstError(json{{"pattern", "^([A-Za-z0-9_.-]+|[*])$"}}, "*"), "ok");
  EXPECT_EQ(FirstError(json{{"pattern", "^[^a]+$"}}, "bcd"), "ok");
  EXPECT_EQ(FirstError(json{{"pattern", "^[\\d]+$"}}, "123"), "ok");
}

TEST(JsonSchemaTest, PatternIsUnanchored) {
  EXPECT_EQ(FirstError(json{{"pattern", "[0-9]+ms"}}, "delay 20ms"), "ok");
  EXPECT_EQ(FirstError(json{{"pattern", "^[0-9]+ms$"}}, "20 ms"), "$: must match pattern \"^[0-9]+ms$\" (got \"20 ms\")");
  // "x-pattern-message" replaces the regular expression with words.
  EXPECT_EQ(FirstError(json{{"pattern", "^[0-9]+ms$"}, {"x-pattern-message", "be a whole number of ms, e.g. 20ms"}},
                       "20 ms"),
            "$: must be a whole number of ms, e.g. 20ms (got \"20 ms\")");
}

TEST(JsonSchemaTest, BooleanSchemas) {
  EXPECT_EQ(FirstError(json(true), json{{"anything", 1}}), "ok");
  EXPECT_EQ(FirstError(json(false), 1), "$: is not allowed");
  EXPECT_EQ(FirstError(json{{"properties", {{"old", false}}}}, json{{"old", 1}}), "$.old: is not allowed");
}

TEST(JsonSchemaTest, AllOf) {
  json s = json::parse(R"({"allOf": [{"minimum": 0}, {"multipleOf": 2}]})");
  EXPECT_EQ(FirstError(s, 4), "ok");
  EXPECT_EQ(FirstError(s, -2), "$: must be >= 0 (got -2)");
  EXPECT_EQ(FirstError(s, 3), "$: must be a multiple of 2 (got 3)");
}

TEST(JsonSchemaTest, AnyOf) {
  json s = json::parse(R"({"anyOf": [{"type": "integer", "minimum": 10}, {"type": "string", "minLength": 3}]})");
  EXPECT_EQ(FirstError(s, 10), "ok");
  EXPECT_EQ(FirstError(s, "abc"), "ok");
  EXPECT_EQ(FirstError(s, 5), "$: must be >= 10 (got 5)");
  EXPECT_EQ(FirstError(s, "ab"), "$: must have at least 3 character(s)");
  EXPECT_EQ(FirstError(s, nullptr), "$: must be an integer or a string (got null)");
  // Overlapping branches are fine for anyOf.
  EXPECT_EQ(FirstError(json::parse(R"({"anyOf": [{"minimum": 0}, {"maximum": 10}]})"), 5), "ok");
}

TEST(JsonSchemaTest, OneOf) {
  json s = json::parse(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})");
  EXPECT_EQ(FirstError(s, -1), "ok");
  EXPECT_EQ(FirstError(s, 0.5), "ok");
  EXPECT_EQ(FirstError(s, 1), "$: matches more than one alternative");
  EXPECT_EQ(FirstError(s, -0.5), "$: must be >= 0 (got -0.5)");
  // The number-or-keyword style.
  json rate = json::parse(R"({"oneOf": [{"type": "number", "exclusiveMinimum": 0}, {"const": "unlimited"}]})");
  EXPECT_EQ(FirstError(rate, true), "$: must be a number or \"unlimited\" (got boolean true)");
  EXPECT_EQ(FirstError(rate, "fast"), "$: must be \"unlimited\" (got \"fast\")");
  EXPECT_EQ(FirstError(rate, -1), "$: must be > 0 (got -1)");
}

TEST(JsonSchemaTest, OneOfReportsTheBranchThatGotFurthest) {
  json s = json::parse(R"({"oneOf": [
    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}},
     "required": ["b"]}
  ]})");
  EXPECT_EQ(FirstError(s, json{{"b", {{"c", 1}}}}), "$.b.c: must be a string (got number 1)");
  EXPECT_EQ(FirstError(s, json{{"a", "x"}}), "$.a: must be an integer (got string \"x\")");
  // Equally deep: the first branch wins.
  EXPECT_EQ(FirstError(s, json::object()), "$: missing required field \"a\"");
}

TEST(JsonSchemaTest, DiscriminatorIgnoresConstsThatDoNotDiscriminate) {
  json s = json::parse(R"({"oneOf": [
    {"type": "object", "properties": {"v": {"const": 1}, "kind": {"const": "a"}, "x": {"type": "string"}}},
    {"type": "object", "properties": {"v": {"const": 1}, "kind": {"const": "b"}, "x": {"type": "integer"}}},
    {"type": "string"}
  ]})");
  EXPECT_EQ(FirstError(s, json{{"kind", "b"}, {"v", 1}, {"x", "s"}}), "$.x: must be an integer (got string \"s\")");
  EXPECT_EQ(FirstError(s, json{{"kind", "c"}}), "$.kind: must be one of \"a\", \"b\" (got \"c\")");
  EXPECT_EQ(FirstError(s, "ok"), "ok");
}

TEST(JsonSchemaTest, Not) {
  EXPECT_EQ(FirstError(json{{"not", {{"const", "x"}}}}, "y"), "ok");
  EXPECT_EQ(FirstError(json{{"not", {{"const", "x"}}}}, "x"), "$: must not be \"x\"");
  EXPECT_EQ(FirstError(json{{"not", {{"type", "null"}}}}, nullptr), "$: must not be null");
  EXPECT_EQ(FirstError(json{{"not", {{"required", {"a"}}}}}, json{{"a", 1}}), "$: is not allowed");
}

TEST(JsonSchemaTest, RefWithSiblingsAndGeneralPointers) {
  json s = json::parse(R"({
    "$defs": {"port": {"type": "integer", "minimum": 1, "maximum": 65535}, "a~b/c": {"type": "string"}},
    "properties": {
      "port": {"$ref": "#/$defs/port", "maximum": 1023},
      "copy": {"$ref": "#/properties/port"},
      "odd": {"$ref": "#/$defs/a~0b~1c"},
      "tree": {"$ref": "#"}
    }
  })");
  JsonSchema schema = JsonSchema::Compile(s);
  EXPECT_EQ(FirstError(schema, json{{"port", 80}}), "ok");
  EXPECT_EQ(FirstError(schema, json{{"port", 0}}), "$.port: must be >= 1 (got 0)");
  EXPECT_EQ(FirstError(schema, json{{"port", 8080}}), "$.port: must be <= 1023 (got 8080)");
  EXPECT_EQ(FirstError(schema, json{{"copy", 8080}}), "$.copy: must be <= 1023 (got 8080)");
  EXPECT_EQ(FirstError(schema, json{{"odd", 1}}), "$.odd: must be a string (got number 1)");
  EXPECT_EQ(FirstError(schema, json::parse(R"({"tree": {"tree": {"port": "x"}}})")),
            "$.tree.tree.port: must be an integer (got string \"x\")");
}

TEST(JsonSchemaTest, DocumentOrderAcrossRefAndSiblings) {
  // The $ref target is checked first, but its error lies later in the document.
  json s = json::parse(R"({
    "$defs": {"base": {"properties": {"b": {"type": "string"}}}},
    "$ref": "#/$defs/base",
    "properties": {"a": {"type": "string"}}
  })");
  EXPECT_EQ(FirstError(s, json{{"a", 1}, {"b", 2}}), "$.a: must be a string (got number 1)");
  EXPECT_EQ(AllErrors(JsonSchema::Compile(s), json{{"a", 1}, {"b", 2}}),
            (std::vector<std::string>{"$.a: must be a string (got number 1)", "$.b: must be a string (got number 2)"}));
  // Parents come before children, and arrays go by index, not by text order of the index.
  json deep = json::parse(R"({"items": {"properties": {"x": {"type": "string"}}, "required": ["y"]}})");
  EXPECT_EQ(AllErrors(JsonSchema::Compile(deep), json::parse(R"([{"y": 1}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {"x": 1}])")),
            (std::vector<std::string>{
                "$[1]: missing required field \"y\"", "$[2]: missing required field \"y\"",
                "$[3]: missing required field \"y\"", "$[4]: missing required field \"y\"",
                "$[5]: missing required field \"y\"", "$[6]: missing required field \"y\"",
                "$[7]: missing required field \"y\"", "$[8]: missing required field \"y\"",
                "$[9]: missing required field \"y\"", "$[10]: missing required field \"y\"",
                "$[10].x: must be a string (got number 1)"}));
}

// `levels` arrays around `core`.
json Nest(json core, int levels) {
  for (int i = 0; i < levels; ++i) {
    json outer = json::array();
    outer.push_back(std::move(core));
    core = std::move(outer);
  }
  return core;
}

TEST(JsonSchemaTest, DeepRecursionStops) {
  JsonSchema schema = JsonSchema::Compile(json::parse(R"({"type": "array", "items": {"$ref": "#"}})"));
  json deep = Nest(json::array(), 100);
  std::string path = "$";
  for (int i = 0; i < 65; ++i) path = JsonPathIndex(path, 0);
  EXPECT_EQ(FirstError(schema, deep), path + ": is nested too deeply (more than 64 levels)");
  json shallow = json::array({json::array({json::array()})});
  EXPECT_EQ(FirstError(schema, shallow), "ok");
  // Also when the recursion runs through alternatives, which probe their branches.
  JsonSchema alternatives = JsonSchema::Compile(
      json::parse(R"({"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#"}}]})"));
  EXPECT_EQ(FirstError(alternatives, Nest(nullptr, 10000)), path + ": is nested too deeply (more than 64 levels)");
}

TEST(JsonSchemaTest, RepeatedRulesAreReportedOnce) {
  json s = json::parse(R"({"allOf": [{"required": ["a"]}, {"required": ["a"]}]})");
  EXPECT_EQ(AllErrors(JsonSchema::Compile(s), json::object()),
            (std::vector<std::string>{"$: missing required field \"a\""}));
}

TEST(JsonSchemaTest, AnnotationsAreIgnored) {
  json s = json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "x", "$comment": "c",
    "title": "t", "description": "d", "examples": [1], "default": 1, "deprecated": true, "readOnly": false,
    "x-unit": "ms", "x-anything": {"minimum": "not a schema"}, "type": "integer"
  })");
  EXPECT_EQ(FirstError(s, 5), "ok");
}

TEST(JsonSchemaTest, DefaultsFromRefTargetAllOfAndAnyOf) {
  json s = json::parse(R"({
    "$defs": {
      "level": {"enum": ["low", "high"], "default": "low"},
      "withB": {"properties": {"b": {"type": "integer", "default": 2}}}
    },
    "properties": {
      "level": {"$ref": "#/$defs/level"},
      "override": {"$ref": "#/$defs/level", "default": "high"},
      "nested": {"type": "object", "properties": {"n": {"type": "integer", "default": 3}}, "default": {}},
      "list": {"type": "array", "items": {"properties": {"x": {"default": true}}}},
      "choice": {"anyOf": [
        {"type": "object", "properties": {"t": {"const": "a"}, "ax": {"default": "A"}}, "required": ["t"]},
        {"type": "object", "properties": {"t": {"const": "b"}, "bx": {"default": "B"}}, "required": ["t"]}
      ]}
    },
    "allOf": [{"$ref": "#/$defs/withB"}]
  })");
  JsonSchema schema = JsonSchema::Compile(s);
  json doc = json::parse(R"({"list": [{}, {"x": false}], "choice": {"t": "b"}})");
  schema.ApplyDefaults(doc);
  EXPECT_EQ(doc, json::parse(R"({
    "level": "low", "override": "high", "nested": {"n": 3}, "b": 2,
    "list": [{"x": true}, {"x": false}], "choice": {"t": "b", "bx": "B"}
  })"));
  json empty = json::object();
  schema.ApplyDefaults(empty, "#/properties/nested");
  EXPECT_EQ(empty, json::parse(R"({"n": 3})"));
}

// --- Compile errors. ---

TEST(JsonSchemaCompileTest, RejectsUnknownKeywordWithSuggestion) {
  EXPECT_EQ(CompileError(json::parse(R"({"$defs": {"tcp": {"properties": {"cc": {"enun": ["reno"]}}}}})")),
            "json schema #/$defs/tcp/properties/cc: unknown keyword \"enun\"; did you mean \"enum\"?");
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"a": {"defualt": 1}}})")),
            "json schema #/properties/a: unknown keyword \"defualt\"; did you mean \"default\"?");
  EXPECT_EQ(CompileError(json::parse(R"({"foo": 1})")), "json schema #: unknown keyword \"foo\"");
}

TEST(JsonSchemaCompileTest, RejectsUnsupportedKeywords) {
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"url": {"type": "string", "format": "uri"}}})")),
            "json schema #/properties/url: keyword \"format\" is not supported by this validator");
  EXPECT_EQ(CompileError(json::parse(R"({"definitions": {}})")),
            "json schema #: keyword \"definitions\" is draft-07; use \"$defs\"");
  EXPECT_EQ(CompileError(json::parse(R"({"items": [{"type": "string"}]})")),
            "json schema #/items: must be a single schema (the array form is tuple validation, which is not supported)");
}

TEST(JsonSchemaCompileTest, RejectsBadRefs) {
  EXPECT_EQ(CompileError(json::parse(R"({"$defs": {"tcp": {}}, "properties": {"t": {"$ref": "#/$defs/tpc"}}})")),
            "json schema #/properties/t/$ref: $ref \"#/$defs/tpc\" does not resolve: no \"tpc\" in #/$defs; "
            "did you mean \"#/$defs/tcp\"?");
  EXPECT_EQ(CompileError(json::parse(R"({"$ref": "#/$defs/missing"})")),
            "json schema #/$ref: $ref \"#/$defs/missing\" does not resolve: no \"$defs\" in #");
  EXPECT_EQ(CompileError(json::parse(R"({"$ref": "other.json#/x"})")),
            "json schema #/$ref: $ref \"other.json#/x\" is not supported: only local references (\"#/...\") are");
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"a": {}}, "$ref": "#/properties"})")),
            "json schema #/$ref: $ref \"#/properties\" does not point to a schema");
  EXPECT_EQ(CompileError(json::parse(R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}})")),
            "json schema #/$defs/a: $ref cycle that never descends into the instance: #/$defs/a -> #/$defs/b -> "
            "#/$defs/b/allOf/0 -> #/$defs/a");
  // Recursion through a property is fine.
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"child": {"$ref": "#"}}})")), "compiled");
}

TEST(JsonSchemaCompileTest, RejectsMalformedKeywordValues) {
  EXPECT_EQ(CompileError(json::parse(R"({"type": "float"})")),
            "json schema #/type: unknown type \"float\" (expected \"null\", \"boolean\", \"object\", \"array\", "
            "\"number\", \"integer\" or \"string\")");
  EXPECT_EQ(CompileError(json::parse(R"({"minimum": "1"})")), "json schema #/minimum: must be a number");
  EXPECT_EQ(CompileError(json::parse(R"({"exclusiveMinimum": true})")),
            "json schema #/exclusiveMinimum: must be a number (draft 2020-12 form, e.g. \"exclusiveMinimum\": 0)");
  EXPECT_EQ(CompileError(json::parse(R"({"minItems": -1})")), "json schema #/minItems: must be a non-negative integer");
  EXPECT_EQ(CompileError(json::parse(R"({"required": ["a", "a"]})")), "json schema #/required: lists \"a\" twice");
  EXPECT_EQ(CompileError(json::parse(R"({"oneOf": []})")), "json schema #/oneOf: must be a non-empty array of schemas");
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"a": 1}})")),
            "json schema #/properties/a: a schema must be an object or a boolean, not number");
  EXPECT_EQ(CompileError(json::parse(R"({"multipleOf": 0})")), "json schema #/multipleOf: must be a number > 0");
  EXPECT_EQ(CompileError(json::parse(R"({"pattern": "(["})")).rfind("json schema #/pattern: invalid regular expression \"([\": ", 0),
            0u);
}

TEST(JsonSchemaCompileTest, RejectsDefaultsThatFailTheirSchema) {
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"n": {"type": "integer", "minimum": 1, "default": 0}}})")),
            "json schema #/properties/n/default: the default does not satisfy its schema: $: must be >= 1 (got 0)");
  EXPECT_EQ(CompileError(json::parse(R"({"properties": {"child": {"$ref": "#", "default": {}}}})")),
            "json schema #/properties/child: its default would be filled in again inside itself, without end");
  // A default that becomes valid once its own defaults are filled in is fine.
  EXPECT_EQ(CompileError(json::parse(
                R"({"properties": {"o": {"properties": {"x": {"type": "integer", "default": 1}}, "required": ["x"],
                    "default": {}}}})")),
            "compiled");
}

TEST(JsonSchemaTest, BadLocationsThrow) {
  EXPECT_THROW(Scenario().SubschemaAt("#/$defs/nope"), std::invalid_argument);
  EXPECT_THROW(Scenario().SubschemaAt("#/properties"), std::invalid_argument);  // Not a schema.
  EXPECT_THROW(Scenario().SubschemaAt("$defs/flow"), std::invalid_argument);
  EXPECT_THROW(Scenario().Validate(json::object(), "#/$defs/tcpOption"), std::invalid_argument);
  try {
    Scenario().SubschemaAt("#/$defs/tcpOption");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no subschema at \"#/$defs/tcpOption\": no \"tcpOption\" in #/$defs; did you mean "
                           "\"#/$defs/tcpOptions\"?");
  }
}

TEST(JsonSchemaTest, CopiesShareTheCompiledSchema) {
  JsonSchema copy = Scenario();
  EXPECT_EQ(&copy.SubschemaAt("#/$defs/flow"), &Scenario().SubschemaAt("#/$defs/flow"));
  EXPECT_EQ(FirstError(copy, WithValue("/tcp/cc", "vegas")), FirstError(Scenario(), WithValue("/tcp/cc", "vegas")));
}

}  // namespace
}  // namespace tcb
