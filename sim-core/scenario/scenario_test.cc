// Scenario parsing beyond the schema: defaults, overrides, templates, references, and the result
// schema as the contract of what a run prints.
#include "scenario/scenario.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "scenario/json_schema.h"
#include "scenario/papers.h"
#include "scenario/presets.h"
#include "scenario/run.h"

namespace tcb {
namespace {

using nlohmann::json;

json Minimal() {
  return json::parse(R"({"schemaVersion": 1,
    "topology": {"kind": "dumbbell", "pairs": 3, "bottleneck": {"bandwidthMbps": 1.6, "delayMs": 50},
                 "access": {"bandwidthMbps": 10, "delayMs": 1}},
    "traffic": [{"type": "bulk", "from": "left{i}", "to": "right{i}", "count": 3}]})");
}

void ExpectError(const json& doc, const std::string& path, const std::string& problem_start) {
  try {
    ParseScenario(doc);
    ADD_FAILURE() << "no error for " << doc.dump();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), path) << e.what();
    EXPECT_EQ(e.problem().rfind(problem_start, 0), 0u) << e.what();
  }
}

TEST(ScenarioTest, EveryPresetParses) {
  const auto names = PresetNames();
  EXPECT_GE(names.size(), 3u);
  for (const std::string& name : names) {
    EXPECT_NO_THROW(ParseScenarioText(*PresetText(name))) << name;
  }
}

// Presets and experiments name their source by a catalogue id, which the gallery and the
// reproductions page group by; a typo must not make a preset fall out of its paper's group.
TEST(ScenarioTest, EveryPresetCitesACataloguedPaper) {
  std::set<std::string> ids;
  for (const json& paper : PaperCatalogue()["papers"]) {
    EXPECT_TRUE(ids.insert(paper["id"].get<std::string>()).second) << "duplicate id " << paper["id"];
    for (const char* field : {"short", "authors", "title"}) {
      EXPECT_TRUE(paper.contains(field) && !paper[field].get<std::string>().empty()) << paper["id"] << " " << field;
    }
  }
  for (const std::string& name : PresetNames()) {
    const Scenario s = ParseScenarioText(*PresetText(name));
    EXPECT_TRUE(ids.count(s.paper)) << name << " cites no catalogued paper";
  }
  json doc = Minimal();
  doc["paper"] = {{"id", "etcp"}, {"section", "§4"}};
  EXPECT_EQ(ParseScenario(doc).paper, "etcp");
  doc["paper"]["id"] = "nope";
  ExpectError(doc, "$.paper.id", "unknown paper \"nope\"");
  doc["paper"] = {{"section", "§4"}};
  ExpectError(doc, "$.paper", "missing required field \"id\"");
}

TEST(ScenarioTest, DefaultsComeFromTheSchema) {
  const Scenario s = ParseScenario(Minimal());
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.duration, SimTime::Seconds(60));
  EXPECT_EQ(s.record.trace, TraceLevel::kSummary);
  const TcpConfig& tcp = s.traffic[0].tcp;
  EXPECT_EQ(tcp.flavor, TcpFlavor::kNewReno);
  EXPECT_EQ(tcp.mss, 1460);
  EXPECT_EQ(tcp.min_rto, SimTime::Seconds(1));
  EXPECT_EQ(tcp.initial_ssthresh, TcpConfig::kInfiniteSsthresh);
  // Unlimited: at most unlimitedQueuePackets.
  EXPECT_EQ(s.topology.links[0].params.queue.packets, 100000);
  EXPECT_EQ(s.topology.links[0].params.queue.bytes, -1);
  EXPECT_EQ(s.topology.links[0].params.rate, 1600000);
}

TEST(ScenarioTest, ItemTcpOverridesOnlyWhatItSets) {
  json doc = Minimal();
  doc["tcp"] = {{"flavor", "reno"}, {"mssBytes", 1000}};
  doc["traffic"].push_back({{"type", "bulk"}, {"from", "left0"}, {"to", "right1"}, {"tcp", {{"mssBytes", 512}}}});
  const Scenario s = ParseScenario(doc);
  EXPECT_EQ(s.traffic[0].tcp.mss, 1000);
  EXPECT_EQ(s.traffic[1].tcp.mss, 512);
  EXPECT_EQ(s.traffic[1].tcp.flavor, TcpFlavor::kReno);  // Inherited, not reset to the default.
  EXPECT_EQ(s.document["traffic"][1]["tcp"]["flavor"], "reno");
}

// tcp.cubic.rules picks RFC 9438's CUBIC (the default, so that no scenario written before it moves)
// or Linux's tcp_cubic.c, whose integer parameters must exist: bic_scale = round(c * 1024 / 10) at
// least 1, beta = round(beta * 1024) below 1024 (cubictcp_register() divides by both).
TEST(ScenarioTest, CubicRulesDefaultToRfc9438AndCheckLinuxsIntegerParameters) {
  json doc = Minimal();
  doc["tcp"] = {{"flavor", "cubic"}};
  EXPECT_EQ(ParseScenario(doc).traffic[0].tcp.cubic.rules, CubicRules::kRfc9438);
  doc["tcp"]["cubic"] = {{"rules", "linux"}};
  EXPECT_EQ(ParseScenario(doc).traffic[0].tcp.cubic.rules, CubicRules::kLinux);
  doc["tcp"]["cubic"]["c"] = 0.0048;  // bic_scale = round(0.49) = 0
  ExpectError(doc, "$.tcp.cubic.c", "with rules 'linux' C is Linux's bic_scale");
  doc["tcp"]["cubic"]["c"] = 0.0049;  // round(0.502) = 1
  EXPECT_NO_THROW(ParseScenario(doc));
  doc["tcp"]["cubic"]["beta"] = 0.9995;  // round(1023.49) = 1023
  EXPECT_NO_THROW(ParseScenario(doc));
  doc["tcp"]["cubic"]["beta"] = 0.9996;  // round(1023.59) = 1024
  ExpectError(doc, "$.tcp.cubic.beta", "with rules 'linux' beta is Linux's round(beta * 1024)");
  doc["tcp"]["cubic"]["rules"] = "rfc9438";
  EXPECT_NO_THROW(ParseScenario(doc));  // RFC 9438's real-valued C and beta take any value.
  doc["tcp"]["cubic"]["rules"] = "bsd";
  ExpectError(doc, "$.tcp.cubic.rules", "must be one of");
}

TEST(ScenarioTest, CountExpandsTemplatesAndNamesDefaultToTheType) {
  json doc = Minimal();
  doc["traffic"].push_back({{"type", "telnet"}, {"from", "left2"}, {"to", "right0"}});
  const Scenario s = ParseScenario(doc);
  EXPECT_EQ(s.traffic[0].from, (std::vector<std::string>{"left0", "left1", "left2"}));
  EXPECT_EQ(s.traffic[0].to[2], "right2");
  json offset = Minimal();
  offset["traffic"][0]["count"] = 2;
  offset["traffic"][0]["to"] = "right{i+1}";
  EXPECT_EQ(ParseScenario(offset).traffic[0].to, (std::vector<std::string>{"right1", "right2"}));
  // Several copies per node (Gürkan §4.1: 2 to 16 web clients on each client node).
  json spread = Minimal();
  spread["traffic"][0]["count"] = 6;
  spread["traffic"][0]["from"] = "left{i%3}";
  spread["traffic"][0]["to"] = "right{i/2}";
  const Scenario spread_s = ParseScenario(spread);
  EXPECT_EQ(spread_s.traffic[0].from,
            (std::vector<std::string>{"left0", "left1", "left2", "left0", "left1", "left2"}));
  EXPECT_EQ(spread_s.traffic[0].to,
            (std::vector<std::string>{"right0", "right0", "right1", "right1", "right2", "right2"}));
  spread["traffic"][0]["from"] = "left{i%2+1}";
  spread["traffic"][0]["to"] = "right{i/3+1}";
  EXPECT_EQ(ParseScenario(spread).traffic[0].from[2], "left1");
  EXPECT_EQ(ParseScenario(spread).traffic[0].to[5], "right2");
  EXPECT_EQ(s.traffic[0].name, "bulk0");
  EXPECT_EQ(s.traffic[1].name, "telnet1");
}

TEST(ScenarioTest, ReferenceErrors) {
  json doc = Minimal();
  doc["traffic"][0]["count"] = 4;  // left3 does not exist.
  ExpectError(doc, "$.traffic[0].from", "unknown node \"left3\"");
  doc = Minimal();
  doc["traffic"][0]["from"] = "left{j}";
  ExpectError(doc, "$.traffic[0].from", "unknown placeholder");
  doc = Minimal();
  doc["traffic"][0]["to"] = "right{i+";
  ExpectError(doc, "$.traffic[0].to", "unknown placeholder");
  for (const char* bad : {"right{i%0}", "right{i/}", "right{i%2%3}", "right{i+1%2}", "right}", "right{i%1234567}"}) {
    doc = Minimal();
    doc["traffic"][0]["to"] = bad;
    ExpectError(doc, "$.traffic[0].to", "unknown placeholder");
  }
  doc = Minimal();
  doc["traffic"][0]["to"] = "left{i}";
  ExpectError(doc, "$.traffic[0].to", "same node as \"from\"");
  doc = Minimal();
  doc["traffic"].push_back(doc["traffic"][0]);
  doc["traffic"][0]["name"] = doc["traffic"][1]["name"] = "web";
  ExpectError(doc, "$.traffic[1].name", "duplicate traffic item name \"web\"");
  doc = Minimal();
  doc["record"] = {{"fairness", {"nope"}}};
  ExpectError(doc, "$.record.fairness[0]", "no traffic item named \"nope\"");
  doc = Minimal();
  doc["record"] = {{"pcapLinks", {"bottleneck", "nope"}}};
  ExpectError(doc, "$.record.pcapLinks[1]", "no link named \"nope\"");
  doc = Minimal();
  doc["tcp"] = {{"minRtoMs", 5000}, {"maxRtoMs", 1000}};
  ExpectError(doc, "$.tcp.minRtoMs", "must not exceed maxRtoMs");
  doc = Minimal();
  doc["traffic"][0]["repeat"] = 2;
  ExpectError(doc, "$.traffic[0].repeat", "an unlimited transfer cannot repeat");
}

TEST(ScenarioTest, CustomTopologyChecks) {
  json doc = json::parse(R"({"schemaVersion": 1,
    "topology": {"kind": "custom", "nodes": [{"name": "a", "address": "10.0.0.1"}, {"name": "b"}],
                 "links": [{"a": "a", "b": "b", "bandwidthMbps": 1, "delayMs": 1}]},
    "traffic": [{"type": "bulk", "from": "a", "to": "b"}]})");
  const Scenario s = ParseScenario(doc);
  EXPECT_EQ(s.topology.links[0].name, "a-b");
  EXPECT_EQ(FormatIpv4(s.topology.nodes[0].address), "10.0.0.1");

  json dup = doc;
  dup["topology"]["nodes"][1]["name"] = "a";
  ExpectError(dup, "$.topology.nodes[1].name", "duplicate node name \"a\"");
  json addr = doc;
  addr["topology"]["nodes"][1]["address"] = "10.0.0.1";
  ExpectError(addr, "$.topology.nodes[1].address", "address 10.0.0.1 is used by another node");
  json bad_addr = doc;
  bad_addr["topology"]["nodes"][1]["address"] = "10.0.0.300";
  ExpectError(bad_addr, "$.topology.nodes[1].address", "not an IPv4 address");
  json self = doc;
  self["topology"]["links"][0]["b"] = "a";
  ExpectError(self, "$.topology.links[0].b", "a link must join two different nodes");
  json braces = doc;
  braces["topology"]["nodes"][1]["name"] = "b{i}";
  ExpectError(braces, "$.topology.nodes[1].name", "must be letters, digits, '_', '.' or '-' (got \"b{i}\")");
}

TEST(ScenarioTest, NumbersBeyondDoubleAreBadInputNotACrash) {
  // Found by the fuzzer: nlohmann raises out_of_range, not parse_error, for these.
  try {
    ParseScenarioText(R"({"schemaVersion": 1, "durationS": 642e759})");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$");
    EXPECT_EQ(e.problem(), "invalid JSON: number overflow parsing '642e759'");
  }
}

TEST(ScenarioTest, JsonSyntaxErrorsGiveLineAndColumn) {
  try {
    ParseScenarioText("{\n  \"schemaVersion\": 1,\n  oops\n}");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$");
    EXPECT_EQ(e.problem().rfind("invalid JSON at line 3, column 3", 0), 0u) << e.problem();
  }
}

TEST(ResultSchemaTest, EveryPresetsSummaryConformsToTheResultSchema) {
  const JsonSchema schema = JsonSchema::Compile(ResultSchemaDocument());
  for (const std::string& name : PresetNames()) {
    json doc = json::parse(*PresetText(name));
    doc["durationS"] = std::min(doc["durationS"].get<double>(), 5.0);
    const RunOutput run = RunScenario(ParseScenario(doc));
    const auto error = schema.Validate(run.summary);
    EXPECT_FALSE(error.has_value()) << name << ": " << error->path << ": " << error->message;
    EXPECT_FALSE(schema.Validate(run.PrintedSummary()).has_value());
  }
}

TEST(ResultSchemaTest, SchemasCompile) {
  EXPECT_NO_THROW(JsonSchema::Compile(ScenarioSchemaDocument()));
  EXPECT_NO_THROW(JsonSchema::Compile(ResultSchemaDocument()));
}

}  // namespace
}  // namespace tcb
