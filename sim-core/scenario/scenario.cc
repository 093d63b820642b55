// Scenario parsing: schema validation, defaults, override merging and reference checks.
#include "scenario/scenario.h"

#include <map>
#include <set>

#include "scenario/embedded_files.h"
#include "json/json_depth.h"
#include "json/json_pointer.h"
#include "scenario/json_schema.h"
#include "scenario/papers.h"
#include "tcp/linux_cubic.h"

namespace tcb {

namespace {

using nlohmann::json;

json ParseEmbedded(std::string_view path) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path == path) return json::parse(f.content);
  }
  throw std::logic_error("missing embedded file " + std::string(path));
}

const JsonSchema& CompiledScenarioSchema() {
  static const JsonSchema schema = JsonSchema::Compile(ScenarioSchemaDocument());
  return schema;
}

std::string Child(const std::string& path, std::string_view key) { return JsonPathChild(path, key); }
std::string Index(const std::string& path, size_t i) { return JsonPathIndex(path, i); }

SimTime Ms(const json& v) { return SimTime::FromMilliseconds(v.get<double>()); }
SimTime Sec(const json& v) { return SimTime::FromSeconds(v.get<double>()); }

BitsPerSec Mbps(const json& v, const std::string& path) {
  const double bps = v.get<double>() * 1e6;
  if (bps < 1) throw ScenarioError(path, "must be at least 1 b/s (0.000001 Mb/s)");
  return static_cast<BitsPerSec>(bps + 0.5);
}

QueueLimit ParseQueue(const json& q) {
  if (q.is_string()) return QueueLimit::Unlimited();
  if (q.contains("packets")) return QueueLimit::Packets(q["packets"].get<int64_t>());
  return QueueLimit::InBytes(q["bytes"].get<int64_t>());
}

LossSpec ParseLoss(const json& parent, const char* key) {
  LossSpec loss;
  if (!parent.contains(key)) return loss;
  const json& l = parent[key];
  if (l.contains("rate")) loss.rate = l["rate"].get<double>();
  if (l.contains("packets")) loss.packets = l["packets"].get<std::vector<int64_t>>();
  return loss;
}

LinkParams ParseLinkParams(const json& j, const std::string& path) {
  LinkParams p;
  p.rate = Mbps(j["bandwidthMbps"], Child(path, "bandwidthMbps"));
  p.delay = Ms(j["delayMs"]);
  p.queue = ParseQueue(j["queue"]);
  p.framing_bytes = j["framingBytes"].get<int64_t>();
  p.loss_forward = ParseLoss(j, "lossForward");
  p.loss_reverse = ParseLoss(j, "lossReverse");
  return p;
}

TopologySpec ParseCustomTopology(const json& t, const std::string& path) {
  TopologySpec spec;
  std::set<std::string> names;
  std::set<uint32_t> addresses;
  const json& nodes = t["nodes"];
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string npath = Index(Child(path, "nodes"), i);
    NodeSpec n;
    n.name = nodes[i]["name"].get<std::string>();
    if (!names.insert(n.name).second) {
      throw ScenarioError(Child(npath, "name"), "duplicate node name \"" + n.name + "\"");
    }
    if (nodes[i].contains("address")) {
      auto a = ParseIpv4(nodes[i]["address"].get<std::string>());
      if (!a) throw ScenarioError(Child(npath, "address"), "not an IPv4 address (each part 0-255)");
      n.address = *a;
    } else {
      n.address = Ipv4(10, 0, static_cast<int>((i + 1) / 256), static_cast<int>((i + 1) % 256));
    }
    if (!addresses.insert(n.address).second) {
      throw ScenarioError(Child(npath, "address"), "address " + FormatIpv4(n.address) +
                                                        " is used by another node");
    }
    spec.nodes.push_back(n);
  }
  std::set<std::string> link_names;
  const json& links = t["links"];
  for (size_t i = 0; i < links.size(); ++i) {
    const json& l = links[i];
    const std::string lpath = Index(Child(path, "links"), i);
    LinkSpec s;
    s.a = l["a"].get<std::string>();
    s.b = l["b"].get<std::string>();
    for (const auto& [key, value] : {std::pair{"a", s.a}, std::pair{"b", s.b}}) {
      if (!names.count(value)) {
        throw ScenarioError(Child(lpath, key), "unknown node \"" + value + "\"");
      }
    }
    if (s.a == s.b) throw ScenarioError(Child(lpath, "b"), "a link must join two different nodes");
    s.name = l.contains("name") ? l["name"].get<std::string>() : s.a + "-" + s.b;
    if (!link_names.insert(s.name).second) {
      throw ScenarioError(l.contains("name") ? Child(lpath, "name") : lpath,
                          "duplicate link name \"" + s.name + "\"");
    }
    s.params = ParseLinkParams(l, lpath);
    spec.links.push_back(std::move(s));
  }
  return spec;
}

TopologySpec ParseTopology(const json& t, const std::string& path) {
  const std::string kind = t["kind"].get<std::string>();
  if (kind == "single-link") return SingleLink(ParseLinkParams(t["link"], Child(path, "link")));
  if (kind == "dumbbell") {
    return Dumbbell(t["pairs"].get<int>(), ParseLinkParams(t["bottleneck"], Child(path, "bottleneck")),
                    ParseLinkParams(t["access"], Child(path, "access")));
  }
  if (kind == "parking-lot") {
    return ParkingLot(t["hops"].get<int>(), t["users"].get<int>(), t["crossPerRouter"].get<int>(),
                      ParseLinkParams(t["hop"], Child(path, "hop")),
                      ParseLinkParams(t["access"], Child(path, "access")));
  }
  if (kind == "two-lans") {
    return TwoLans(ParseLinkParams(t["backbone"], Child(path, "backbone")),
                   ParseLinkParams(t["access"], Child(path, "access")),
                   ParseLinkParams(t["lan"], Child(path, "lan")),
                   t["receiverLanLoss"].get<double>());
  }
  if (kind == "client-gateway") {
    std::vector<SimTime> clients, servers;
    for (const json& d : t["clientDelaysMs"]) clients.push_back(Ms(d));
    for (const json& d : t["serverDelaysMs"]) servers.push_back(Ms(d));
    return ClientGateway(clients, servers, ParseLinkParams(t["wan"], Child(path, "wan")),
                         Mbps(t["lanBandwidthMbps"], Child(path, "lanBandwidthMbps")),
                         ParseQueue(t["lanQueue"]));
  }
  return ParseCustomTopology(t, path);
}

TcpConfig ParseTcp(const json& t, const std::string& path) {
  TcpConfig c;
  TcpFlavor flavor = TcpFlavor::kNewReno;
  ParseTcpFlavor(t["flavor"].get<std::string>(), &flavor);
  c.SetFlavor(flavor);
  if (t.contains("recovery")) {
    if (c.flavor == TcpFlavor::kTahoe) {
      throw ScenarioError(Child(path, "recovery"), "Tahoe has no fast recovery; use another flavor (e.g. reno) to choose one");
    }
    ParseLossRecovery(t["recovery"].get<std::string>(), &c.recovery);
  }
  c.rack = t["rack"].get<bool>();
  if (c.rack && c.recovery != LossRecovery::kSackRfc6675 && c.recovery != LossRecovery::kPrr) {
    // RFC 8985 RACK-TLP detects losses from what the receiver SACKs: it needs a SACK scoreboard.
    throw ScenarioError(Child(path, "rack"),
                        "RACK-TLP needs SACK-based loss recovery: flavor 'sack', 'cubic' or 'bbr', or recovery 'sack-rfc6675' or 'prr'");
  }
  c.pacing = t["pacing"].get<std::string>() == "rate" ? PacingMode::kRate : PacingMode::kOff;
  ParsePacingRules(t["pacingRules"].get<std::string>(), &c.pacing_rules);
  const json& cubic = t["cubic"];
  ParseCubicRules(cubic["rules"].get<std::string>(), &c.cubic.rules);
  c.cubic.c = cubic["c"].get<double>();
  c.cubic.beta = cubic["beta"].get<double>();
  c.cubic.fast_convergence = cubic["fastConvergence"].get<bool>();
  c.cubic.hystart = cubic["hystart"].get<bool>();
  c.cubic.app_limited_growth = cubic["appLimitedGrowth"].get<bool>();
  ParseRenoRules(t["reno"]["rules"].get<std::string>(), &c.reno_rules);
  ParseBbrRules(t["bbr"]["rules"].get<std::string>(), &c.bbr_rules);
  if (c.cubic.rules == CubicRules::kLinux) {
    // tcp_cubic.c's integer parameters: cubictcp_register() divides by bic_scale * 10 and by
    // 1024 - beta.
    const std::string cubic_path = Child(path, "cubic");
    const LinuxCubicParameters linux_params = LinuxCubicParameters::From(c.cubic);
    if (linux_params.bic_scale < 1) {
      throw ScenarioError(Child(cubic_path, "c"),
                          "with rules 'linux' C is Linux's bic_scale = round(c * 1024 / 10), which must be at least 1: "
                          "c must be at least 5 / 1024 (0.00488)");
    }
    if (linux_params.beta >= LinuxCubicOps::kBetaScale) {
      throw ScenarioError(Child(cubic_path, "beta"),
                          "with rules 'linux' beta is Linux's round(beta * 1024), which must be below 1024: "
                          "beta must be below 1023.5 / 1024 (0.99951)");
    }
  }
  c.model = t["connection"].get<std::string>() == "one-way" ? ConnectionModel::kOneWay
                                                           : ConnectionModel::kFull;
  c.mss = t["mssBytes"].get<Bytes>();
  if (t["initialWindow"].is_string()) {
    c.initial_window_rule = t["initialWindow"].get<std::string>() == "rfc6928" ? TcpConfig::InitialWindowRule::kRfc6928
                                                                              : TcpConfig::InitialWindowRule::kRfc3390;
  } else {
    c.initial_window_segments = t["initialWindow"].get<int>();
  }
  if (t["initialSsthreshBytes"].is_number()) c.initial_ssthresh = t["initialSsthreshBytes"].get<Bytes>();
  c.receive_window = t["receiveWindowBytes"].get<Bytes>();
  c.delayed_ack = t["delayedAck"].get<bool>();
  c.delayed_ack_timeout = Ms(t["delayedAckTimeoutMs"]);
  ParseAckRules(t["ackRules"].get<std::string>(), &c.ack_rules);
  c.rto_granularity = Ms(t["rtoGranularityMs"]);
  c.min_rto = Ms(t["minRtoMs"]);
  c.max_rto = Ms(t["maxRtoMs"]);
  c.initial_rto = Ms(t["initialRtoMs"]);
  ParseRtoRules(t["rtoRules"].get<std::string>(), &c.rto_rules);
  c.linux_hz = t["linuxHz"].get<int>();
  c.dupack_threshold = t["dupackThreshold"].get<int>();
  c.right_edge_recovery = t["rightEdgeRecovery"].get<bool>();
  c.cwnd_validation = t["cwndValidation"].get<bool>();
  c.slow_start_restart = t["slowStartRestart"].get<bool>();
  c.nagle = t["nagle"].get<bool>();
  if (c.min_rto > c.max_rto) {
    throw ScenarioError(Child(path, "minRtoMs"), "must not exceed maxRtoMs");
  }
  return c;
}

Distribution ParseDistribution(const json& d, const std::string& path) {
  if (d.is_number()) return Distribution::Constant(d.get<double>());
  Distribution out;
  const std::string kind = d["dist"].get<std::string>();
  if (kind == "uniform") {
    out = {Distribution::Kind::kUniform, d["min"].get<double>(), d["max"].get<double>()};
    if (out.b < out.a) throw ScenarioError(Child(path, "max"), "must not be below min");
    return out;
  }
  if (kind == "exponential") out = {Distribution::Kind::kExponential, d["mean"].get<double>()};
  if (kind == "pareto") out = {Distribution::Kind::kPareto, d["shape"].get<double>(), d["scale"].get<double>()};
  if (kind == "lognormal") out = {Distribution::Kind::kLognormal, d["mean"].get<double>(), d["sd"].get<double>()};
  if (kind == "gamma") out = {Distribution::Kind::kGamma, d["mean"].get<double>(), d["sd"].get<double>()};
  if (d.contains("max")) out.cap = d["max"].get<double>();
  return out;
}

PageModel ParsePage(const json& p, const std::string& path) {
  PageModel model;
  if (!p.contains("objects")) {
    model.primary_bytes = ParseDistribution(p["primaryBytes"], Child(path, "primaryBytes"));
    model.inline_bytes = ParseDistribution(p["inlineBytes"], Child(path, "inlineBytes"));
    model.inline_count = ParseDistribution(p["inlines"], Child(path, "inlines"));
    return model;
  }
  WebPage page;
  const json& objects = p["objects"];
  for (size_t i = 0; i < objects.size(); ++i) {
    const json& o = objects[i];
    const std::string opath = Index(Child(path, "objects"), i);
    WebObject w;
    w.bytes = o["bytes"].get<Bytes>();
    w.content = i == 0 ? ContentType::kHtml : ContentType::kImage;
    if (o.contains("content")) ParseContentType(o["content"].get<std::string>(), &w.content);
    if (i == 0) {
      if (o.contains("parent")) throw ScenarioError(Child(opath, "parent"), "the page itself has no parent");
      if (o.contains("linkAt")) throw ScenarioError(Child(opath, "linkAt"), "the page itself has no link");
    } else {
      w.parent = o.contains("parent") ? o["parent"].get<int>() : 0;
      if (static_cast<size_t>(w.parent) >= i) {
        throw ScenarioError(Child(opath, "parent"), "must name an earlier object (0.." + std::to_string(i - 1) + ")");
      }
      if (o.contains("linkAt")) w.link_at = o["linkAt"].get<double>();
    }
    page.objects.push_back(w);
  }
  page.SpreadLinks();
  model.fixed.push_back(std::move(page));
  return model;
}

HttpMode ParseHttpMode(const std::string& name) {
  if (name == "1.0-serial") return HttpMode::kSerial;
  if (name == "1.1-pipelined") return HttpMode::kPipelined;
  if (name == "1.1-segment-filled") return HttpMode::kSegmentFilled;
  if (name == "1.1-persistent") return HttpMode::kPersistent;
  if (name == "2") return HttpMode::kHttp2;
  return HttpMode::kParallel;
}

Http2Options ParseHttp2(const json& j) {
  Http2Options o;
  o.max_concurrent_streams = j["maxConcurrentStreams"].get<int>();
  o.max_frame_bytes = j["maxFrameBytes"].get<Bytes>();
  o.response_headers_bytes = j["responseHeadersBytes"].get<Bytes>();
  o.scheduler = j["scheduler"].get<std::string>() == "weighted" ? Http2Scheduler::kWeighted : Http2Scheduler::kRoundRobin;
  for (const auto& [name, p] : j["priorities"].items()) {
    ContentType content = ContentType::kOther;
    ParseContentType(name, &content);
    o.priorities[static_cast<size_t>(content)] = {p["urgency"].get<int>(), p["incremental"].get<bool>()};
  }
  o.notsent_lowat = j["notSentLowatBytes"].is_string() ? 0 : j["notSentLowatBytes"].get<Bytes>();
  return o;
}

// Replaces "{i}" with the copy index; "{i+K}" adds K (papers number hosts from 1), "{i%N}" and
// "{i/N}" take the index modulo N or divided by N (several clients per host: Gürkan §4.1 puts 2-16
// web clients on each client node), and both combine as "{i%N+K}". Any other brace is an error.
std::string Instantiate(const std::string& pattern, int copy, const std::string& path) {
  auto bad = [&] {
    return ScenarioError(path, "unknown placeholder in \"" + pattern + "\" (use {i}, {i+K}, {i%N}, {i/N} or {i%N+K})");
  };
  // A decimal number of 1 to 5 digits at inner[pos], or -1.
  auto number = [](const std::string& inner, size_t& pos) -> int {
    const size_t begin = pos;
    while (pos < inner.size() && pos - begin < 6 && inner[pos] >= '0' && inner[pos] <= '9') ++pos;
    if (pos == begin || pos - begin > 5) return -1;
    return std::stoi(inner.substr(begin, pos - begin));
  };
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{' && pattern[i] != '}') {
      out += pattern[i];
      continue;
    }
    const size_t close = pattern.find('}', i);
    if (pattern[i] == '}' || close == std::string::npos) throw bad();
    const std::string inner = pattern.substr(i + 1, close - i - 1);
    if (inner.empty() || inner[0] != 'i') throw bad();
    size_t pos = 1;
    int value = copy;
    if (pos < inner.size() && (inner[pos] == '%' || inner[pos] == '/')) {
      const char op = inner[pos++];
      const int n = number(inner, pos);
      if (n <= 0) throw bad();
      value = op == '%' ? value % n : value / n;
    }
    if (pos < inner.size() && inner[pos] == '+') {
      ++pos;
      const int k = number(inner, pos);
      if (k < 0) throw bad();
      value += k;
    }
    if (pos != inner.size()) throw bad();
    out += std::to_string(value);
    i = close;
  }
  return out;
}

TrafficItem ParseTrafficItem(const json& t, size_t index, const std::string& path) {
  TrafficItem item;
  item.path = path;
  const std::string type = t["type"].get<std::string>();
  if (type == "bulk") item.type = TrafficType::kBulk;
  if (type == "transfers") item.type = TrafficType::kTransfers;
  if (type == "telnet") item.type = TrafficType::kTelnet;
  if (type == "onoff-udp") item.type = TrafficType::kOnOffUdp;
  if (type == "web") item.type = TrafficType::kWeb;
  if (type == "rounds") item.type = TrafficType::kRounds;
  if (type == "sessions") item.type = TrafficType::kSessions;
  item.name = t.contains("name") ? t["name"].get<std::string>() : type + std::to_string(index);
  item.count = t["count"].get<int>();
  for (int copy = 0; copy < item.count; ++copy) {
    item.from.push_back(Instantiate(t["from"].get<std::string>(), copy, Child(path, "from")));
    item.to.push_back(Instantiate(t["to"].get<std::string>(), copy, Child(path, "to")));
  }
  if (t.contains("startS")) item.start = Sec(t["startS"]);
  item.start_jitter = Sec(t["startJitterS"]);
  if (t.contains("stopS")) item.stop = Sec(t["stopS"]);
  if (t.contains("tcp")) item.tcp = ParseTcp(t["tcp"], Child(path, "tcp"));
  if (t.contains("content")) ParseContentType(t["content"].get<std::string>(), &item.traits.content);
  if (t.contains("tickets")) item.traits.tickets = t["tickets"].get<double>();
  if (t.contains("weight")) item.traits.weight = t["weight"].get<double>();

  switch (item.type) {
    case TrafficType::kBulk:
      item.bytes = t["bytes"].is_string() ? -1 : t["bytes"].get<Bytes>();
      item.repeat = t["repeat"].is_string() ? -1 : t["repeat"].get<int64_t>();
      if (item.bytes < 0 && item.repeat != 1) {
        throw ScenarioError(Child(path, "repeat"), "an unlimited transfer cannot repeat");
      }
      break;
    case TrafficType::kTransfers:
      item.bytes = t["bytes"].get<Bytes>();
      for (const json& a : t["atS"]) item.at.push_back(Sec(a));
      item.reuse_connection = t["reuseConnection"].get<bool>();
      break;
    case TrafficType::kTelnet:
      item.mean_interval = Sec(t["meanIntervalS"]);
      item.write_bytes = t["writeBytes"].get<Bytes>();
      break;
    case TrafficType::kOnOffUdp:
      item.rate = static_cast<BitsPerSec>(t["rateKbps"].get<double>() * 1e3 + 0.5);
      if (item.rate < 1) throw ScenarioError(Child(path, "rateKbps"), "must be at least 1 b/s");
      item.packet_bytes = t["packetBytes"].get<Bytes>();
      item.mean_on = Sec(t["meanOnS"]);
      item.mean_off = Sec(t["meanOffS"]);
      item.shape = t["shape"].get<double>();
      break;
    case TrafficType::kWeb: {
      if (item.tcp.model != ConnectionModel::kFull) {
        throw ScenarioError(Child(Child(path, "tcp"), "connection"),
                            "web traffic needs full connections (requests and responses go both ways)");
      }
      HttpOptions& h = item.http;
      h.mode = ParseHttpMode(t["http"].get<std::string>());
      h.max_connections = t["maxConnections"].is_string() ? 0 : t["maxConnections"].get<int>();
      h.max_outstanding = t["maxOutstandingRequests"].is_string() ? 0 : t["maxOutstandingRequests"].get<int>();
      h.connection_per_page = t["persistentConnection"].get<std::string>() == "per-page";
      h.request_bytes = t["requestBytes"].get<Bytes>();
      h.server_think = Ms(t["serverThinkMs"]);
      h.client_parse = Ms(t["clientParseMs"]);
      h.discovery = t["inlineRequests"].get<std::string>() == "after-html" ? LinkDiscovery::kAfterHtml
                                                                          : LinkDiscovery::kAsHtmlArrives;
      h.think = ParseDistribution(t["thinkS"], Child(path, "thinkS"));
      h.connection_gap = ParseDistribution(t["connectionGapS"], Child(path, "connectionGapS"));
      h.pages = t["pageCount"].is_string() ? -1 : t["pageCount"].get<int64_t>();
      if (t.contains("http2")) h.http2 = ParseHttp2(t["http2"]);
      item.page = ParsePage(t["page"], Child(path, "page"));
      break;
    }
    case TrafficType::kRounds:
      item.bytes = t["bytes"].get<Bytes>();
      item.rounds = t["rounds"].get<int>();
      item.idle = Sec(t["idleS"]);
      item.reuse_connection = t["reuseConnection"].get<bool>();
      break;
    case TrafficType::kSessions:
      item.sessions.bytes = ParseDistribution(t["bytes"], Child(path, "bytes"));
      item.sessions.gap = ParseDistribution(t["gapS"], Child(path, "gapS"));
      if (t.contains("sessions")) {
        const std::string spath = Child(path, "sessions");
        item.sessions.session_gap = ParseDistribution(t["sessions"]["gapS"], Child(spath, "gapS"));
        item.sessions.session_transfers = ParseDistribution(t["sessions"]["transfers"], Child(spath, "transfers"));
      }
      break;
  }
  return item;
}

SharingConfig ParseSharing(const json& j, const std::string& path) {
  SharingConfig c;
  ParseSchemeKind(j["scheme"].get<std::string>(), &c.scheme);
  if (j.contains("scope")) ParseSharingScope(j["scope"].get<std::string>(), &c.scope);
  switch (c.scheme) {
    case SchemeKind::kRfc9040Temporal:
      ParseMergeRule(j["merge"].get<std::string>(), &c.merge);
      c.merge_window = j["mergeWindow"].get<int>();
      c.ewma_weight = j["ewmaWeight"].get<double>();
      c.age_cwnd = j["ageCwnd"].get<bool>();
      c.cache_lifetime = Sec(j["lifetimeS"]);
      break;
    case SchemeKind::kEtcp:
      ParseTicketPolicy(j["tickets"].get<std::string>(), &c.tickets);
      c.cache = j["cache"].get<bool>();
      c.cache_lifetime = Sec(j["lifetimeS"]);
      c.handshake_avoidance = j["handshakeAvoidance"].get<bool>();
      c.pace_half_closed = j["paceHalfClosed"].get<bool>();
      break;
    case SchemeKind::kTcpInt:
      c.weighted = j["weighted"].get<bool>();
      c.delayed_ack_rules = j["delayedAckRules"].get<bool>();
      c.delayed_ack_bound = Ms(j["delayedAckBoundMs"]);
      break;
    case SchemeKind::kSpand:
      c.gateway = j["gateway"].get<std::string>();
      c.spand_window = Sec(j["windowS"]);
      c.min_samples = j["minSamples"].get<int>();
      c.segments_per_ack = j["segmentsPerAck"].get<int>();
      c.bucket_depth = j["bucketDepth"].get<int>();
      c.shift_optimisation = j["shiftOptimisation"].get<bool>();
      for (size_t i = 0; i < j["priors"].size(); ++i) {
        const json& p = j["priors"][i];
        const std::string net = p["network"].get<std::string>();
        const auto address = ParseIpv4(net.substr(0, net.size() - 3));
        if (!address) {
          throw ScenarioError(Child(Index(Child(path, "priors"), i), "network"), "not an IPv4 /24 network (each part 0-255)");
        }
        c.spand_priors.push_back({*address >> 8, p["wcPackets"].get<double>(), Ms(p["rttMs"])});
      }
      break;
    case SchemeKind::kCarefulResume:
      c.cache_lifetime = Sec(j["lifetimeS"]);
      if (j["maxJumpBytes"].is_number()) c.cr_max_jump = j["maxJumpBytes"].get<Bytes>();
      c.cr_beta = j["beta"].get<double>();
      break;
    case SchemeKind::kLinuxTcpMetrics:
      c.cache_lifetime = Sec(j["timeoutS"]);
      c.metrics_no_save = j["noMetricsSave"].get<bool>();
      c.metrics_no_ssthresh_save = j["noSsthreshMetricsSave"].get<bool>();
      if (j["initcwndSegments"].is_number()) c.metrics_initcwnd = j["initcwndSegments"].get<int>();
      if (j["cwndLockSegments"].is_number()) c.metrics_cwnd_lock = j["cwndLockSegments"].get<int>();
      break;
    case SchemeKind::kBdpResume:
      c.cache_lifetime = Sec(j["lifetimeS"]);
      c.bdp_max_window = j["maxWindowBytes"].is_number() ? j["maxWindowBytes"].get<Bytes>() : 0;  // "none".
      break;
    case SchemeKind::kMvTcbi:
    case SchemeKind::kFsTcbi:
      c.tcbi_initial_cwnd = j["initialCwndSegments"].get<int>();
      c.tcbi_initial_ssthresh = j["initialSsthreshSegments"].get<int>();
      break;
    default:
      break;
  }
  return c;
}

void ParseHosts(const json& hosts, const TopologySpec& topology, Scenario& s) {
  for (const auto& [name, host] : hosts.items()) {
    const std::string path = Child("$.hosts", name);
    if (name != "*") {
      bool found = false;
      for (const NodeSpec& n : topology.nodes) found = found || n.name == name;
      if (!found) throw ScenarioError(path, "no node named \"" + name + "\"");
    }
    const SharingConfig sharing = ParseSharing(host["sharing"], Child(path, "sharing"));
    if (name == "*") {
      s.default_sharing = sharing;
    } else {
      s.sharing.emplace_back(name, sharing);
    }
  }
}

// Replaces every built-in page reference ({"named": ...}) by the page itself, so that the normalised
// scenario says what was run.
void ExpandNamedPages(json& doc) {
  for (size_t i = 0; i < doc["traffic"].size(); ++i) {
    json& item = doc["traffic"][i];
    if (!item.contains("page") || !item["page"].contains("named")) continue;
    const std::string name = item["page"]["named"].get<std::string>();
    const std::string path = "scenario/pages/" + name + ".json";
    bool found = false;
    for (const EmbeddedFile& f : EmbeddedFiles()) {
      if (f.path == path) {
        item["page"] = json::parse(f.content);
        found = true;
      }
    }
    if (!found) {
      std::string known;
      for (const std::string& n : PageNames()) known += (known.empty() ? "" : ", ") + n;
      throw ScenarioError(Child(Child(Index("$.traffic", i), "page"), "named"),
                          "no built-in page \"" + name + "\" (there are " + known + ")");
    }
  }
}

// Copies the scenario-wide TCP options under every traffic item, overlaid with the item's own, so
// that schema defaults fill only what neither level set.
void MergeTcpOverrides(json& doc) {
  const json global = doc.contains("tcp") ? doc["tcp"] : json::object();
  for (json& item : doc["traffic"]) {
    if (item["type"] == "onoff-udp") continue;
    json merged = global;
    if (item.contains("tcp")) merged.update(item["tcp"]);
    item["tcp"] = std::move(merged);
  }
}

// Defaults that depend on a web item's retrieval method, which a schema default cannot say: the
// connection limit (unlimited for HTTP/1.0 parallel, Chromium's 6 per host for HTTP/1.1 persistent,
// net/socket/client_socket_pool_manager.cc), and the HTTP/2 options, present only for HTTP/2.
void FillHttpModeDefaults(json& doc) {
  for (json& item : doc["traffic"]) {
    if (item["type"] != "web") continue;
    const std::string http = item.contains("http") ? item["http"].get<std::string>() : "";
    if (!item.contains("maxConnections")) {
      item["maxConnections"] = http == "1.1-persistent" ? json(6) : json("unlimited");
    }
    if (http == "2" && !item.contains("http2")) item["http2"] = json::object();
  }
}

// Every traffic endpoint must exist and be reachable over the topology's links.
void CheckTrafficEndpoints(const Scenario& s) {
  std::map<std::string, size_t> node_index;
  for (size_t i = 0; i < s.topology.nodes.size(); ++i) node_index[s.topology.nodes[i].name] = i;
  // Connected components (links are duplex), for reachability.
  std::vector<size_t> parent(s.topology.nodes.size());
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const LinkSpec& l : s.topology.links) parent[find(node_index[l.a])] = find(node_index[l.b]);

  for (const TrafficItem& item : s.traffic) {
    for (int copy = 0; copy < item.count; ++copy) {
      auto from = node_index.find(item.from[copy]);
      auto to = node_index.find(item.to[copy]);
      if (from == node_index.end()) {
        throw ScenarioError(Child(item.path, "from"), "unknown node \"" + item.from[copy] + "\"");
      }
      if (to == node_index.end()) {
        throw ScenarioError(Child(item.path, "to"), "unknown node \"" + item.to[copy] + "\"");
      }
      if (from->second == to->second) {
        throw ScenarioError(Child(item.path, "to"), "same node as \"from\" (" + item.to[copy] + ")");
      }
      if (find(from->second) != find(to->second)) {
        throw ScenarioError(Child(item.path, "to"), "\"" + item.to[copy] +
                                                        "\" is unreachable from \"" +
                                                        item.from[copy] + "\"");
      }
    }
  }
}

// Rules that belong to one connection, which a scheme that gives a host's connections one window (and
// one RTT estimate: E-TCP, TCP-INT, the Congestion Manager; sharing/ensemble.h) cannot follow: BBR
// sets each connection's window from that connection's delivery-rate samples, where the group drives
// its window with the acknowledged bytes only; Linux's RTT estimator ends its variance rounds by one
// connection's sequence numbers, which a group's shared estimate does not have. `document` is the
// scenario as written, to name the field where it was set.
void CheckOneWindowHosts(const Scenario& s, const json& document) {
  auto scheme_of = [&](const std::string& host) -> std::optional<SchemeKind> {
    for (const auto& [name, config] : s.sharing) {
      if (name == host) return config.scheme;
    }
    if (s.default_sharing) return s.default_sharing->scheme;
    return std::nullopt;
  };
  for (size_t i = 0; i < s.traffic.size(); ++i) {
    const TrafficItem& item = s.traffic[i];
    const bool bbr = item.tcp.window_rule == WindowRule::kBbr;
    const bool linux_rto = item.tcp.rto_rules == RtoRules::kLinux;
    if (!bbr && !linux_rto) continue;
    const json& written = document["traffic"][i];
    const std::string field = bbr ? "flavor" : "rtoRules";
    const std::string path = written.contains("tcp") && written["tcp"].contains(field)
                                 ? Child(Child(item.path, "tcp"), field)
                                 : "$.tcp." + field;
    const std::string needs = bbr ? "BBR needs each connection's own delivery-rate samples"
                                  : "Linux's RTO rules need each connection's own RTT estimate";
    const std::string instead = bbr ? "use another flavor or scheme" : "use rtoRules 'rfc6298' or another scheme";
    for (int copy = 0; copy < item.count; ++copy) {
      for (const std::string& host : {item.from[copy], item.to[copy]}) {
        const std::optional<SchemeKind> scheme = scheme_of(host);
        if (scheme == SchemeKind::kEtcp || scheme == SchemeKind::kTcpInt || scheme == SchemeKind::kCongestionManager) {
          throw ScenarioError(path, needs + ", but host \"" + host +
                                        "\" shares one window among its connections (sharing scheme \"" +
                                        std::string(SchemeKindName(*scheme)) + "\"); " + instead);
        }
      }
    }
  }
}

}  // namespace

std::vector<std::string> PageNames() {
  constexpr std::string_view kDir = "scenario/pages/";
  std::vector<std::string> names;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path.substr(0, kDir.size()) == kDir) {
      names.emplace_back(f.path.substr(kDir.size(), f.path.size() - kDir.size() - 5));
    }
  }
  return names;
}

// Function-local statics: initialised once, thread-safely, on first use.
const nlohmann::json& ScenarioSchemaDocument() {
  static const json schema = ParseEmbedded("scenario/schema/scenario.schema.json");
  return schema;
}

const nlohmann::json& ResultSchemaDocument() {
  static const json schema = ParseEmbedded("scenario/schema/result.schema.json");
  return schema;
}

nlohmann::json ParseJsonText(std::string_view text) {
  if (JsonDepth(text) > kMaxJsonDepth) {
    throw ScenarioError("$", "nests arrays and objects more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  }
  try {
    return json::parse(text);
  } catch (const json::out_of_range& e) {
    // Numbers beyond the range of a double ("1e999") are syntax the parser cannot represent.
    std::string what = e.what();
    const size_t bracket = what.find("] ");
    throw ScenarioError("$", "invalid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; users want line and column.
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    const size_t colon = what.rfind(": ");
    const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    throw ScenarioError("$", "invalid JSON at line " + std::to_string(line) + ", column " +
                                 std::to_string(column) + ": " + detail);
  }
}

Scenario ParseScenario(const nlohmann::json& document) {
  const JsonSchema& schema = CompiledScenarioSchema();
  if (auto error = schema.Validate(document)) throw ScenarioError(error->path, error->message);

  Scenario s;
  s.document = document;
  ExpandNamedPages(s.document);
  MergeTcpOverrides(s.document);
  FillHttpModeDefaults(s.document);
  schema.ApplyDefaults(s.document);
  const json& d = s.document;

  s.name = d["name"].get<std::string>();
  s.description = d["description"].get<std::string>();
  s.reference = d["reference"].get<std::string>();
  if (d.contains("paper")) {
    s.paper = d["paper"]["id"].get<std::string>();
    if (!IsKnownPaper(s.paper)) {
      throw ScenarioError("$.paper.id", "unknown paper \"" + s.paper + "\" (tcpsim papers lists the catalogue)");
    }
  }
  s.seed = d["seed"].get<uint64_t>();
  s.duration = Sec(d["durationS"]);
  s.stop_when_idle = d["stopWhenIdle"].get<bool>();
  s.topology = ParseTopology(d["topology"], "$.topology");
  // An unlimited queue holds at most unlimitedQueuePackets: what a run that floods a link can queue
  // is bounded, and no built-in scenario comes near it (its description in the schema).
  const int64_t unlimited_queue_packets = d["unlimitedQueuePackets"].get<int64_t>();
  for (LinkSpec& link : s.topology.links) {
    QueueLimit& queue = link.params.queue;
    if (queue.packets < 0 && queue.bytes < 0) queue = QueueLimit::Packets(unlimited_queue_packets);
  }
  ParseTcp(d["tcp"], "$.tcp");  // Reports inconsistent scenario-wide options where they were written.
  ParseHosts(d["hosts"], s.topology, s);

  std::set<std::string> item_names;
  for (size_t i = 0; i < d["traffic"].size(); ++i) {
    const std::string path = Index("$.traffic", i);
    TrafficItem item = ParseTrafficItem(d["traffic"][i], i, path);
    if (!item_names.insert(item.name).second) {
      throw ScenarioError(Child(path, "name"), "duplicate traffic item name \"" + item.name + "\"");
    }
    s.traffic.push_back(std::move(item));
  }
  CheckTrafficEndpoints(s);
  CheckOneWindowHosts(s, document);
  // Rounds items advance together, so they must agree on the schedule.
  const TrafficItem* first_rounds = nullptr;
  for (const TrafficItem& item : s.traffic) {
    if (item.type != TrafficType::kRounds) continue;
    if (first_rounds == nullptr) {
      first_rounds = &item;
    } else if (item.rounds != first_rounds->rounds) {
      throw ScenarioError(Child(item.path, "rounds"), "every rounds item must have the same rounds (" +
                                                          first_rounds->name + " has " +
                                                          std::to_string(first_rounds->rounds) + ")");
    } else if (item.idle != first_rounds->idle) {
      throw ScenarioError(Child(item.path, "idleS"), "every rounds item must have the same idleS (as " +
                                                         first_rounds->name + ")");
    }
  }

  const json& r = d["record"];
  ParseTraceLevel(r["trace"].get<std::string>(), &s.record.trace);
  s.record.fairness = r["fairness"].get<std::vector<std::string>>();
  for (size_t i = 0; i < s.record.fairness.size(); ++i) {
    if (!item_names.count(s.record.fairness[i])) {
      throw ScenarioError(Index("$.record.fairness", i),
                          "no traffic item named \"" + s.record.fairness[i] + "\"");
    }
  }
  s.record.flow_records = r["flowRecords"].get<bool>();
  s.record.parallel_set = r["parallelSet"].get<std::vector<std::string>>();
  for (size_t i = 0; i < s.record.parallel_set.size(); ++i) {
    if (!item_names.count(s.record.parallel_set[i])) {
      throw ScenarioError(Index("$.record.parallelSet", i),
                          "no traffic item named \"" + s.record.parallel_set[i] + "\"");
    }
  }
  s.record.pcap_links = r["pcapLinks"].get<std::vector<std::string>>();
  for (size_t i = 0; i < s.record.pcap_links.size(); ++i) {
    bool found = false;
    for (const LinkSpec& l : s.topology.links) found = found || l.name == s.record.pcap_links[i];
    if (!found) {
      throw ScenarioError(Index("$.record.pcapLinks", i),
                          "no link named \"" + s.record.pcap_links[i] + "\"");
    }
  }
  return s;
}

Scenario ParseScenarioText(std::string_view text) { return ParseScenario(ParseJsonText(text)); }

}  // namespace tcb
