// Tests for JSON Pointers: RFC 6901 parsing, setting into scenario documents (with the experiment's
// rules for missing parents and array indices), the name-selecting lookup into run summaries, and the
// JSONPath notation of error messages.
#include "json/json_pointer.h"

#include <gtest/gtest.h>

#include <fstream>

#include "testing/test_paths.h"

namespace tcb {
namespace {

using nlohmann::json;

TEST(JsonPointerTest, ParsesAndUnescapesTokens) {
  EXPECT_EQ(*ParseJsonPointer(""), std::vector<std::string>{});
  EXPECT_EQ(*ParseJsonPointer("/a/0"), (std::vector<std::string>{"a", "0"}));
  // RFC 6901 §3: ~1 is '/', ~0 is '~', decoded in that order ("~01" is "~1", not "/").
  EXPECT_EQ(*ParseJsonPointer("/a~1b/~01"), (std::vector<std::string>{"a/b", "~1"}));
  EXPECT_EQ(*ParseJsonPointer("/"), std::vector<std::string>{""});
  EXPECT_FALSE(ParseJsonPointer("a/b").has_value());
  EXPECT_FALSE(ParseJsonPointer("/a~2").has_value());
  EXPECT_FALSE(ParseJsonPointer("/a~").has_value());
  EXPECT_EQ(JsonPointerIndex("0"), 0u);
  EXPECT_EQ(JsonPointerIndex("12"), 12u);
  EXPECT_FALSE(JsonPointerIndex("01").has_value());
  EXPECT_FALSE(JsonPointerIndex("-").has_value());
  EXPECT_FALSE(JsonPointerIndex("1e3").has_value());
}

TEST(JsonPointerTest, SetReplacesOrAddsUnderAnExistingParent) {
  json doc = json::parse(R"({"tcp": {"flavor": "reno"}, "traffic": [{"count": 1}, {"count": 2}]})");
  EXPECT_FALSE(SetAtPointer(doc, "/tcp/flavor", "sack"));
  EXPECT_EQ(doc["tcp"]["flavor"], "sack");
  EXPECT_FALSE(SetAtPointer(doc, "/tcp/mssBytes", 1000));  // The parent exists: the key is added.
  EXPECT_EQ(doc["tcp"]["mssBytes"], 1000);
  EXPECT_FALSE(SetAtPointer(doc, "/traffic/1/count", 8));
  EXPECT_EQ(doc["traffic"][1]["count"], 8);
  EXPECT_FALSE(SetAtPointer(doc, "/hosts", {{"*", {{"sharing", {{"scheme", "tcp-int"}}}}}}));
  EXPECT_EQ(doc["hosts"]["*"]["sharing"]["scheme"], "tcp-int");
  EXPECT_FALSE(SetAtPointer(doc, "/a~1b", 1));
  EXPECT_EQ(doc["a/b"], 1);
}

TEST(JsonPointerTest, SetRefusesMissingParentsAndBadIndices) {
  json doc = json::parse(R"({"tcp": {"flavor": "reno"}, "durationS": 5, "traffic": [{"count": 1}]})");
  const json before = doc;
  EXPECT_EQ(SetAtPointer(doc, "/topology/pairs", 2).value_or(""), "the scenario has no \"topology\"");
  EXPECT_EQ(SetAtPointer(doc, "/tcp/x/y", 2).value_or(""), "/tcp has no \"x\"");
  EXPECT_EQ(SetAtPointer(doc, "/traffic/1/count", 2).value_or(""), "/traffic has 1 element; index 1 is out of range");
  EXPECT_EQ(SetAtPointer(doc, "/traffic/-", json::object()).value_or(""), "/traffic is an array; \"-\" is not an index");
  EXPECT_EQ(SetAtPointer(doc, "/durationS/x", 2).value_or(""), "/durationS is a number, not an object or array");
  EXPECT_EQ(doc, before) << "a refused set leaves the document alone";
}

TEST(JsonPointerTest, SummaryLookupSelectsArrayElementsByName) {
  const json summary = json::parse(R"({
    "run": {"timeouts": 3, "meanCompletionTimeS": null},
    "links": [{"name": "path:server>client", "utilization": 0.5},
              {"name": "bottleneck:router0>router1", "utilization": 0.9},
              {"name": "7", "utilization": 0.1}],
    "flows": [{"name": "a/b", "bytes": 10}]})");
  EXPECT_EQ(*FindInSummary(summary, "/run/timeouts"), 3);
  EXPECT_TRUE(FindInSummary(summary, "/run/meanCompletionTimeS")->is_null());
  EXPECT_EQ(*FindInSummary(summary, "/links/bottleneck:router0>router1/utilization"), 0.9);
  EXPECT_EQ(*FindInSummary(summary, "/links/0/utilization"), 0.5);
  EXPECT_EQ(*FindInSummary(summary, "/links/2/utilization"), 0.1);  // An index, though an element is named "7".
  EXPECT_EQ(*FindInSummary(summary, "/flows/a~1b/bytes"), 10);
  EXPECT_EQ(FindInSummary(summary, "/links/nowhere/utilization"), nullptr);
  EXPECT_EQ(FindInSummary(summary, "/links/5/utilization"), nullptr);
  EXPECT_EQ(FindInSummary(summary, "/run/timeouts/x"), nullptr);
  EXPECT_EQ(FindInSummary(summary, "/run/fairness"), nullptr);
  EXPECT_EQ(FindInSummary(summary, "not a pointer"), nullptr);
}

TEST(JsonPointerTest, JsonPathsFollowTheDocument) {
  const json doc = json::parse(R"({"traffic": [{"to": "x"}], "hosts": {"*": {}}, "tcp": {}})");
  EXPECT_EQ(PointerToJsonPath(doc, "/traffic/0/to"), "$.traffic[0].to");
  EXPECT_EQ(PointerToJsonPath(doc, "/hosts/*/sharing"), "$.hosts['*'].sharing");
  EXPECT_EQ(PointerToJsonPath(doc, "/tcp/0"), "$.tcp['0']");  // An object's key, though it looks like an index.
  EXPECT_EQ(PointerToJsonPath(doc, "/missing/0"), "$.missing['0']");
  EXPECT_TRUE(JsonPathWithin("$.tcp.flavor", "$.tcp"));
  EXPECT_TRUE(JsonPathWithin("$.traffic[0].to", "$.traffic"));
  EXPECT_TRUE(JsonPathWithin("$.tcp", "$.tcp"));
  EXPECT_FALSE(JsonPathWithin("$.tcpx", "$.tcp"));
  EXPECT_FALSE(JsonPathWithin("$.tcp", "$.tcp.flavor"));
}

TEST(JsonPathTest, ChildAndIndex) {
  EXPECT_EQ(JsonPathChild("$", "name"), "$.name");
  EXPECT_EQ(JsonPathChild("$", "_x9"), "$._x9");
  EXPECT_EQ(JsonPathChild("$", "9x"), "$['9x']");
  EXPECT_EQ(JsonPathChild("$", "rate-bps"), "$['rate-bps']");
  EXPECT_EQ(JsonPathChild("$", ""), "$['']");
  EXPECT_EQ(JsonPathChild("$.a", "it's"), "$.a['it\\'s']");
  EXPECT_EQ(JsonPathChild("$", "back\\slash"), "$['back\\\\slash']");
  EXPECT_EQ(JsonPathChild("$", "two\nlines"), "$['two\\u000alines']");
  EXPECT_EQ(JsonPathIndex(JsonPathChild("$", "traffic"), 3), "$.traffic[3]");
  EXPECT_EQ(JsonPathChild(JsonPathIndex(JsonPathChild(JsonPathChild("$", "topology"), "links"), 0), "odd key"),
            "$.topology.links[0]['odd key']");
}

// The cases both implementations pass (wasm/test/json-pointer.test.ts runs them on the TypeScript one).
TEST(JsonPointerTest, PassesTheCasesSharedWithTheTypeScriptImplementation) {
  std::ifstream in(TestSourceDir() / "json/json_pointer_cases.json");
  ASSERT_TRUE(in) << "json_pointer_cases.json";
  const json cases = json::parse(in);
  for (const json& c : cases["parse"]) {
    const auto tokens = ParseJsonPointer(c["pointer"].get<std::string>());
    if (c["tokens"].is_null()) {
      EXPECT_FALSE(tokens.has_value()) << c;
    } else {
      ASSERT_TRUE(tokens.has_value()) << c;
      EXPECT_EQ(json(*tokens), c["tokens"]) << c;
    }
  }
  for (const json& c : cases["set"]) {
    json doc = cases["setDocument"];
    const auto problem = SetAtPointer(doc, c["pointer"].get<std::string>(), c["value"]);
    if (c.contains("problem")) {
      EXPECT_EQ(problem.value_or("(set)"), c["problem"]) << c;
      EXPECT_EQ(doc, cases["setDocument"]) << c;
    } else {
      EXPECT_FALSE(problem.has_value()) << *problem;
      EXPECT_EQ(doc, c["document"]) << c;
    }
  }
  for (const json& c : cases["find"]) {
    const json* found = FindInSummary(cases["findDocument"], c["pointer"].get<std::string>());
    if (c.contains("value")) {
      ASSERT_NE(found, nullptr) << c;
      EXPECT_EQ(*found, c["value"]) << c;
    } else {
      EXPECT_EQ(found, nullptr) << c;
    }
  }
  for (const json& c : cases["path"]) {
    EXPECT_EQ(PointerToJsonPath(cases["pathDocument"], c["pointer"].get<std::string>()), c["path"]) << c;
  }
}

}  // namespace
}  // namespace tcb
