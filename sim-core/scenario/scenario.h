// The typed scenario: what scenario.schema.json describes, after validation, defaults and the checks
// a schema cannot express (names that must exist, routes that must exist).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace_sink.h"
#include "net/topology.h"
#include "sharing/sharing_config.h"
#include "tcp/tcp_config.h"
#include "workload/sessions.h"
#include "workload/web_client.h"
#include "workload/web_page.h"

namespace tcb {

// Bad input: where in the document (JSONPath, e.g. "$.traffic[2].to") and what is wrong.
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(std::string path, std::string problem)
      : std::runtime_error(path + ": " + problem), path_(std::move(path)), problem_(std::move(problem)) {}
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string path_;
  std::string problem_;
};

enum class TrafficType : uint8_t { kBulk, kTransfers, kTelnet, kOnOffUdp, kWeb, kRounds, kSessions };

struct TrafficItem {
  TrafficType type = TrafficType::kBulk;
  std::string name;
  std::string path;  // JSONPath of the item, for messages.
  int count = 1;
  // Node names, one per copy (after {i} substitution).
  std::vector<std::string> from;
  std::vector<std::string> to;
  SimTime start;
  SimTime start_jitter;
  SimTime stop = SimTime::Infinite();
  TcpConfig tcp;
  ConnectionTraits traits;

  // bulk
  Bytes bytes = -1;     // -1: unlimited. Also the size of each transfer of kTransfers.
  int64_t repeat = 1;   // -1: forever.
  // transfers
  std::vector<SimTime> at;
  bool reuse_connection = false;
  // telnet
  SimTime mean_interval;
  Bytes write_bytes = 1;
  // onoff-udp
  BitsPerSec rate = 0;
  Bytes packet_bytes = 0;
  SimTime mean_on;
  SimTime mean_off;
  double shape = 0;
  // web
  HttpOptions http;
  PageModel page;
  // rounds (also bytes, start_jitter, reuse_connection)
  int rounds = 0;
  SimTime idle;
  // sessions
  SessionModel sessions;
};

struct RecordOptions {
  TraceLevel trace = TraceLevel::kSummary;
  std::vector<std::string> fairness;  // Traffic item names; empty: all TCP flows.
  std::vector<std::string> pcap_links;
  std::vector<std::string> parallel_set;  // Traffic item names.
  bool flow_records = true;
};

struct Scenario {
  nlohmann::json document;  // The normalised document: defaults filled in, overrides merged.
  std::string name;
  std::string description;
  std::string reference;
  std::string paper;  // A paper catalogue id (scenario/papers.h), or empty.
  uint64_t seed = 1;
  SimTime duration;
  bool stop_when_idle = true;
  TopologySpec topology;
  // Sharing schemes by host name; `default_sharing` for the hosts not named ("*").
  std::vector<std::pair<std::string, SharingConfig>> sharing;
  std::optional<SharingConfig> default_sharing;
  std::vector<TrafficItem> traffic;
  RecordOptions record;
};

// Parses JSON text; syntax errors, and nesting deeper than kMaxJsonDepth (json/json_depth.h), become
// a ScenarioError at "$" (syntax errors with line and column).
nlohmann::json ParseJsonText(std::string_view text);
// Validates, fills in defaults and builds the typed scenario. Throws ScenarioError.
Scenario ParseScenario(const nlohmann::json& document);
Scenario ParseScenarioText(std::string_view text);

// The built-in web pages (scenario/pages), by name, sorted.
std::vector<std::string> PageNames();

// The scenario schema, as compiled into the library.
const nlohmann::json& ScenarioSchemaDocument();
const nlohmann::json& ResultSchemaDocument();

}  // namespace tcb
