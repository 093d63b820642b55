// The web client: each retrieval method's connection pattern (Gürkan §4.3-4.6), link discovery as
// the HTML arrives or after it (E-TCP §4, Gürkan §4.4), think, parse and gap times, page metrics.
#include "workload/web_client.h"

#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "testing/test_scenarios.h"

namespace tcb {
namespace {

using nlohmann::json;
using testing::RunDoc;
using testing::SingleLinkScenario;

constexpr int kMss = 500;

// A page of an HTML part of `html` bytes naming `images` images of `image` bytes.
json Page(int html, int images, int image = 3000) {
  json objects = json::array({{{"bytes", html}}});
  for (int i = 0; i < images; ++i) objects.push_back({{"bytes", image}});
  return {{"objects", objects}};
}

json Web(const char* http, json page) {
  return {{"type", "web"}, {"name", "web"}, {"from", "client"}, {"to", "server"}, {"http", http},
          {"page", std::move(page)}};
}

json OnALink(json web, json queue = "unlimited") {
  return SingleLinkScenario(1, 20, std::move(queue),
                            {{"flavor", "newreno"}, {"mssBytes", kMss}, {"receiveWindowBytes", 64000}},
                            std::move(web));
}

struct FlowSpan {
  double start;
  double end;
};

std::vector<FlowSpan> Spans(const RunOutput& run) {
  std::vector<FlowSpan> spans;
  for (const json& f : run.summary["flows"]) spans.push_back({f["startS"].get<double>(), f["endS"].get<double>()});
  return spans;
}

int MaxOverlap(const std::vector<FlowSpan>& spans) {
  int best = 0;
  for (const FlowSpan& s : spans) {
    int n = 0;
    for (const FlowSpan& o : spans) n += o.start <= s.start && s.start < o.end ? 1 : 0;
    best = std::max(best, n);
  }
  return best;
}

TEST(WebClientTest, SerialOpensOneConnectionPerObjectOneAtATime) {
  const RunOutput run = RunDoc(OnALink(Web("1.0-serial", Page(6000, 4))));
  const std::vector<FlowSpan> spans = Spans(run);
  ASSERT_EQ(spans.size(), 5u);
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_GE(spans[i].start, spans[i - 1].end);
  const json& page = run.summary["pages"][0];
  EXPECT_EQ(page["bytes"], 6000 + 4 * 3000);
  EXPECT_EQ(page["objects"], 5);
  EXPECT_DOUBLE_EQ(page["totalTimeS"].get<double>(), spans.back().end);
  EXPECT_DOUBLE_EQ(page["htmlTimeS"].get<double>(), spans[0].end);
  // Every object is a request and a response: each connection delivered 210 + its object.
  EXPECT_EQ(run.summary["flows"][0]["bytes"], 210 + 6000);
  EXPECT_EQ(run.summary["run"]["transfersCompleted"], 5);
}

TEST(WebClientTest, ParallelRequestsInlinesAsTheHtmlArrivesUpToTheLimit) {
  json web = Web("1.0-parallel", Page(20000, 6));
  const RunOutput unlimited = RunDoc(OnALink(web));
  const std::vector<FlowSpan> spans = Spans(unlimited);
  ASSERT_EQ(spans.size(), 7u);
  // E-TCP §4.3: the client requests each image as it meets the link, before the HTML is complete.
  EXPECT_LT(spans[1].start, spans[0].end);
  EXPECT_GE(MaxOverlap(spans), 5);

  web["maxConnections"] = 2;
  const RunOutput limited = RunDoc(OnALink(web));
  EXPECT_EQ(MaxOverlap(Spans(limited)), 2);
  EXPECT_GT(limited.summary["pages"][0]["totalTimeS"].get<double>(),
            unlimited.summary["pages"][0]["totalTimeS"].get<double>());
}

TEST(WebClientTest, AfterHtmlRequestsWaitForTheWholeHtmlAndTheParseDelay) {
  json web = Web("1.0-parallel", Page(20000, 3));
  web["inlineRequests"] = "after-html";
  web["clientParseMs"] = 7;
  const std::vector<FlowSpan> spans = Spans(RunDoc(OnALink(web)));
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_NEAR(spans[i].start, spans[0].end + 0.007, 1e-9);
}

TEST(WebClientTest, LinksSpreadEvenlyUnlessPlaced) {
  // Three images: their links sit at 1/4, 1/2 and 3/4 of the HTML; an explicit linkAt moves one.
  json page = Page(40000, 3);
  page["objects"][3]["linkAt"] = 0.1;
  const RunOutput run = RunDoc(OnALink(Web("1.0-parallel", page)));
  // Connections open in the order the client meets the links: the placed one first.
  std::vector<std::string> order;
  for (const json& f : run.summary["flows"]) order.push_back(f["name"]);
  EXPECT_EQ(order, (std::vector<std::string>{"web.p0.o0", "web.p0.o3", "web.p0.o1", "web.p0.o2"}));
}

TEST(WebClientTest, ChildrenOfInlineHtmlWaitForTheirParent) {
  // A frameset: the page names two frames (HTML), each frame names an image.
  json page = {{"objects",
                {{{"bytes", 1000}},
                 {{"bytes", 8000}, {"content", "html"}},
                 {{"bytes", 8000}, {"content", "html"}},
                 {{"bytes", 2000}, {"parent", 1}},
                 {{"bytes", 2000}, {"parent", 2}}}}};
  const RunOutput run = RunDoc(OnALink(Web("1.0-parallel", page)));
  const json& flows = run.summary["flows"];
  auto flow = [&](const std::string& suffix) -> const json& {
    for (const json& f : flows) {
      if (f["name"].get<std::string>().size() >= suffix.size() &&
          f["name"].get<std::string>().compare(f["name"].get<std::string>().size() - suffix.size(), suffix.size(), suffix) == 0) {
        return f;
      }
    }
    throw std::runtime_error("no flow " + suffix);
  };
  EXPECT_GT(flow(".o3")["startS"].get<double>(), flow(".o1")["startS"].get<double>());
  EXPECT_GT(flow(".o4")["startS"].get<double>(), flow(".o2")["startS"].get<double>());
  // HTML time counts the three HTML parts, not the images.
  const double html_end = std::max({flow(".o0")["endS"].get<double>(), flow(".o1")["endS"].get<double>(),
                                    flow(".o2")["endS"].get<double>()});
  EXPECT_DOUBLE_EQ(run.summary["pages"][0]["htmlTimeS"].get<double>(), html_end);
}

TEST(WebClientTest, PipelinedUsesOnePersistentConnectionAcrossPages) {
  json web = Web("1.1-pipelined", Page(6000, 3));
  web["pageCount"] = 3;
  web["thinkS"] = 1;
  const RunOutput run = RunDoc(OnALink(web));
  ASSERT_EQ(run.summary["flows"].size(), 1u);
  ASSERT_EQ(run.summary["pages"].size(), 3u);
  for (int i = 1; i < 3; ++i) {
    const json& prev = run.summary["pages"][i - 1];
    EXPECT_NEAR(run.summary["pages"][i]["startS"].get<double>(),
                prev["startS"].get<double>() + prev["totalTimeS"].get<double>() + 1.0, 1e-9);
  }
  EXPECT_EQ(run.summary["flows"][0]["bytes"], 3 * (4 * 210 + 6000 + 3 * 3000));
  // Later pages skip the handshake.
  EXPECT_LT(run.summary["pages"][1]["totalTimeS"].get<double>(), run.summary["pages"][0]["totalTimeS"].get<double>());
}

// Gürkan §4.5: HTTP/1.1 retrieves each web document over one connection ("pipelining requires only
// one connection although parallel connection requires 4 for a document with 3 inlines"), so each
// page pays a handshake and starts from the initial window again (which is why §4.8's larger
// initial windows speed up pipelining).
TEST(WebClientTest, PersistentConnectionPerPageClosesWithItsPage) {
  for (const char* mode : {"1.1-pipelined", "1.1-segment-filled"}) {
    SCOPED_TRACE(mode);
    json web = Web(mode, Page(6000, 3));
    web["pageCount"] = 3;
    web["thinkS"] = 1;
    web["persistentConnection"] = "per-page";
    const RunOutput run = RunDoc(OnALink(web));
    const json& flows = run.summary["flows"];
    const json& pages = run.summary["pages"];
    ASSERT_EQ(flows.size(), 3u);
    ASSERT_EQ(pages.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(flows[i]["name"], "web.p" + std::to_string(i));
      EXPECT_TRUE(flows[i]["closed"].get<bool>());
      // The connection opens with the page and ends when its last object has arrived.
      EXPECT_DOUBLE_EQ(flows[i]["startS"].get<double>(), pages[i]["startS"].get<double>());
      EXPECT_NEAR(flows[i]["endS"].get<double>(),
                  pages[i]["startS"].get<double>() + pages[i]["totalTimeS"].get<double>(), 1e-9);
      EXPECT_EQ(flows[i]["initial"]["cwndBytes"], kMss);
    }
    // Every page costs what the first one did: a handshake and slow start from one segment.
    for (int i = 1; i < 3; ++i) {
      EXPECT_DOUBLE_EQ(pages[i]["totalTimeS"].get<double>(), pages[0]["totalTimeS"].get<double>());
    }
    web["persistentConnection"] = "per-client";
    const RunOutput shared = RunDoc(OnALink(web));
    ASSERT_EQ(shared.summary["flows"].size(), 1u);
    EXPECT_LT(shared.summary["pages"][2]["totalTimeS"].get<double>(), pages[2]["totalTimeS"].get<double>());
  }
}

TEST(WebClientTest, OneOutstandingRequestIsSlowerThanPipelining) {
  json web = Web("1.1-pipelined", Page(6000, 4));
  const double pipelined = RunDoc(OnALink(web)).summary["pages"][0]["totalTimeS"].get<double>();
  web["maxOutstandingRequests"] = 1;
  const double one_at_a_time = RunDoc(OnALink(web)).summary["pages"][0]["totalTimeS"].get<double>();
  // Each further request waits a round trip (40 ms) for the previous response.
  EXPECT_GT(one_at_a_time, pipelined + 3 * 0.04);
}

// Gürkan §4.6, Table 4.7: the primary's response is extended to whole segments with the start of
// the inline objects, and the rest of the page comes glued in one response; only the page's last
// segment may be short.
TEST(WebClientTest, SegmentFilledSendsOnlyFullSegmentsUntilThePagesEnd) {
  const json page = Page(1234, 3, 3100);  // 1234 + 9300 bytes.
  const RunOutput run = RunDoc(OnALink(Web("1.1-segment-filled", page)), TraceLevel::kFull);
  const PacketTrace& t = run.recorder->packet_trace();
  std::vector<int64_t> payloads;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.event[i] == static_cast<uint8_t>(PacketEvent::kSend) && !t.from_initiator[i] && t.payload[i] > 0) {
      payloads.push_back(t.payload[i]);
    }
  }
  ASSERT_EQ(payloads.size(), static_cast<size_t>((10534 + kMss - 1) / kMss));
  for (size_t i = 0; i + 1 < payloads.size(); ++i) EXPECT_EQ(payloads[i], kMss) << "segment " << i;
  // Two requests: the primary and the glued rest.
  EXPECT_EQ(run.summary["flows"][0]["bytes"], 2 * 210 + 10534);

  // Pipelined one request at a time (Gürkan Table 4.5), each response's last segment is short
  // (Gürkan Fig. 4.4).
  json one_at_a_time = Web("1.1-pipelined", page);
  one_at_a_time["maxOutstandingRequests"] = 1;
  const RunOutput pipelined = RunDoc(OnALink(one_at_a_time), TraceLevel::kFull);
  const PacketTrace& p = pipelined.recorder->packet_trace();
  int short_segments = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p.event[i] == static_cast<uint8_t>(PacketEvent::kSend) && !p.from_initiator[i] && p.payload[i] > 0 &&
        p.payload[i] < kMss) {
      ++short_segments;
    }
  }
  EXPECT_EQ(short_segments, 4);
}

TEST(WebClientTest, ServerThinkTimeDelaysEveryResponse) {
  json web = Web("1.0-serial", Page(3000, 2));
  const double base = RunDoc(OnALink(web)).summary["pages"][0]["totalTimeS"].get<double>();
  web["serverThinkMs"] = 50;
  const double thinking = RunDoc(OnALink(web)).summary["pages"][0]["totalTimeS"].get<double>();
  EXPECT_NEAR(thinking - base, 3 * 0.050, 1e-9);
}

TEST(WebClientTest, RetrievalTimeLeavesOutTheGapsBetweenSerialConnections) {
  json web = Web("1.0-serial", Page(3000, 2));
  const json plain = RunDoc(OnALink(web)).summary["pages"][0];
  web["connectionGapS"] = 0.5;
  const json gapped = RunDoc(OnALink(web)).summary["pages"][0];
  EXPECT_NEAR(gapped["totalTimeS"].get<double>() - plain["totalTimeS"].get<double>(), 2 * 0.5, 1e-9);
  EXPECT_NEAR(gapped["retrievalTimeS"].get<double>(), plain["retrievalTimeS"].get<double>(), 1e-9);
  EXPECT_NEAR(plain["retrievalTimeS"].get<double>(), plain["totalTimeS"].get<double>(), 1e-9);
  // Gürkan §4.1's effective retrieval rate: page bytes over retrieval time.
  const RunOutput run = RunDoc(OnALink(web));
  EXPECT_NEAR(run.summary["run"]["pages"]["retrievalRateBytesPerS"].get<double>(),
              9000 / gapped["retrievalTimeS"].get<double>(), 1e-6);
}

TEST(WebClientTest, MahPagesAreAPrimaryAndThreeInlinesOfAtLeastOneKilobyte) {
  json web = Web("1.0-parallel", {{"model", "mah"}});
  web["pageCount"] = 50;
  const RunOutput run = RunDoc(OnALink(web));
  ASSERT_EQ(run.summary["pages"].size(), 50u);
  for (const json& p : run.summary["pages"]) {
    EXPECT_EQ(p["objects"], 4);
    EXPECT_GE(p["bytes"].get<int64_t>(), 4000);
    EXPECT_LE(p["bytes"].get<int64_t>(), 4000000);  // The default caps: 1 MB per object.
  }
  for (const json& t : run.summary["transfers"]) EXPECT_GE(t["bytes"].get<int64_t>(), 1000);
}

TEST(WebClientTest, StopTimeEndsTheClientAfterItsCurrentPage) {
  json web = Web("1.1-pipelined", Page(3000, 1));
  web["pageCount"] = "forever";
  web["thinkS"] = 0.3;
  web["stopS"] = 2;
  json doc = OnALink(web);
  doc["durationS"] = 10;
  const RunOutput run = RunDoc(doc);
  EXPECT_EQ(run.summary["stopReason"], "idle");
  for (const json& p : run.summary["pages"]) EXPECT_LT(p["startS"].get<double>(), 2.0);
  EXPECT_GT(run.summary["pages"].size(), 3u);
  EXPECT_TRUE(run.summary["flows"][0]["closed"].get<bool>());
}

// A browser's HTTP/1.1 (Chromium): persistent connections to the server, at most maxConnections
// (default 6, net/socket/client_socket_pool_manager.cc), each carrying one request at a time; a
// request goes to an idle connection or opens a new one below the limit, or waits.
TEST(WebClientTest, PersistentOpensAtMostMaxConnectionsAndReusesThem) {
  json page = Page(30000, 12, 4000);
  const RunOutput run = RunDoc(OnALink(Web("1.1-persistent", page)));
  const json& flows = run.summary["flows"];
  ASSERT_EQ(flows.size(), 6u);  // The default limit, all in use with 12 images.
  for (size_t i = 0; i < flows.size(); ++i) EXPECT_EQ(flows[i]["name"], "web.c" + std::to_string(i));
  EXPECT_EQ(MaxOverlap(Spans(run)), 6);
  // Every object once, on some connection; connections carry several (reuse).
  const json& transfers = run.summary["transfers"];
  ASSERT_EQ(transfers.size(), 13u);
  std::map<int, int> per_flow;
  int64_t bytes = 0;
  for (const json& t : transfers) {
    EXPECT_FALSE(t["endS"].is_null());
    ++per_flow[t["flow"].get<int>()];
    bytes += t["bytes"].get<int64_t>();
  }
  EXPECT_EQ(bytes, 30000 + 12 * 4000);
  EXPECT_EQ(per_flow.size(), 6u);
  int reused = 0;
  for (const auto& [flow, n] : per_flow) reused += n > 1 ? 1 : 0;
  EXPECT_GT(reused, 0);
  // Each connection moved its requests and responses, nothing more.
  int64_t wire = 0;
  for (const json& f : flows) wire += f["bytes"].get<int64_t>();
  EXPECT_EQ(wire, 13 * 210 + 30000 + 12 * 4000);

  json limited = Web("1.1-persistent", page);
  limited["maxConnections"] = 2;
  const RunOutput two = RunDoc(OnALink(limited));
  EXPECT_EQ(two.summary["flows"].size(), 2u);
  EXPECT_EQ(two.summary["transfers"].size(), 13u);
  EXPECT_GT(two.summary["pages"][0]["totalTimeS"].get<double>(), run.summary["pages"][0]["totalTimeS"].get<double>());
}

// One request at a time per connection: a connection's responses never overlap, and a connection
// is reused only once its previous response has ended.
TEST(WebClientTest, PersistentConnectionsCarryOneRequestAtATime) {
  json web = Web("1.1-persistent", Page(20000, 8, 3000));
  web["maxConnections"] = 3;
  web["pageCount"] = 2;
  web["thinkS"] = 0.5;
  const RunOutput run = RunDoc(OnALink(web));
  ASSERT_EQ(run.summary["flows"].size(), 3u);  // Kept across pages (per-client).
  std::map<int, std::vector<FlowSpan>> by_flow;
  for (const json& t : run.summary["transfers"]) {
    by_flow[t["flow"].get<int>()].push_back({t["startS"].get<double>(), t["endS"].get<double>()});
  }
  for (auto& [flow, spans] : by_flow) {
    for (size_t i = 1; i < spans.size(); ++i) EXPECT_GE(spans[i].start, spans[i - 1].end) << flow;
  }
  EXPECT_EQ(run.summary["pages"].size(), 2u);
  // Per page, the pool opens again and closes with the page.
  web["persistentConnection"] = "per-page";
  const RunOutput per_page = RunDoc(OnALink(web));
  ASSERT_EQ(per_page.summary["flows"].size(), 6u);
  EXPECT_EQ(per_page.summary["flows"][3]["name"], "web.p1.c0");
}

// HTTP/2 (RFC 9113): one connection for the page, every object a stream on it, each delivered once;
// the page's records are those of every other mode.
TEST(WebClientTest, Http2CarriesThePageOnOneConnection) {
  const json page = Page(30000, 12, 4000);
  const RunOutput run = RunDoc(OnALink(Web("2", page)));
  const json& flows = run.summary["flows"];
  ASSERT_EQ(flows.size(), 1u);
  EXPECT_EQ(flows[0]["name"], "web");
  const json& transfers = run.summary["transfers"];
  ASSERT_EQ(transfers.size(), 13u);
  for (const json& t : transfers) {
    EXPECT_EQ(t["flow"], flows[0]["id"]);
    EXPECT_FALSE(t["endS"].is_null());
  }
  EXPECT_EQ(transfers[0]["bytes"], 30000);
  const json& p = run.summary["pages"][0];
  EXPECT_EQ(p["objects"], 13);
  EXPECT_EQ(p["bytes"], 30000 + 12 * 4000);
  EXPECT_DOUBLE_EQ(p["htmlTimeS"].get<double>(), transfers[0]["endS"].get<double>());
  double last = 0;
  for (const json& t : transfers) last = std::max(last, t["endS"].get<double>());
  EXPECT_DOUBLE_EQ(p["totalTimeS"].get<double>(), last);
  EXPECT_EQ(run.summary["items"]["web"]["pages"]["completed"], 1);
  EXPECT_DOUBLE_EQ(run.summary["items"]["web"]["pages"]["meanTotalTimeS"].get<double>(), last);
  // RFC 9113 §4.1, §3.4, §6.5, §6.9: the connection's bytes are the objects and the frames around
  // them: the client's preface (24 + 33 + 13), its SETTINGS acknowledgement and a 219-byte HEADERS
  // frame per request; the server's SETTINGS (15) and acknowledgement (9), and per response a
  // HEADERS frame (9 + 54) and a 9-byte header per DATA frame of at most 16,384 bytes.
  const int64_t to_server = 24 + 33 + 13 + 9 + 13 * (9 + 210);
  const int64_t to_client = 15 + 9 + 13 * (9 + 54) + 30000 + 2 * 9 + 12 * (4000 + 9);
  EXPECT_EQ(flows[0]["bytes"], to_server + to_client);
}

// One connection per origin: two clients of two servers, one connection each; a second page reuses
// the connection (per-client), or opens its own (per-page).
TEST(WebClientTest, Http2OpensOneConnectionPerClientServerPair) {
  json web = Web("2", Page(6000, 3));
  web["pageCount"] = 3;
  web["thinkS"] = 1;
  const RunOutput run = RunDoc(OnALink(web));
  ASSERT_EQ(run.summary["flows"].size(), 1u);
  ASSERT_EQ(run.summary["pages"].size(), 3u);
  EXPECT_LT(run.summary["pages"][1]["totalTimeS"].get<double>(), run.summary["pages"][0]["totalTimeS"].get<double>());
  web["persistentConnection"] = "per-page";
  const RunOutput per_page = RunDoc(OnALink(web));
  const json& flows = per_page.summary["flows"];
  ASSERT_EQ(flows.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(flows[i]["name"], "web.p" + std::to_string(i));
    EXPECT_TRUE(flows[i]["closed"].get<bool>());
  }

  json doc{{"schemaVersion", 1},
           {"tcp", {{"mssBytes", kMss}}},
           {"topology", {{"kind", "dumbbell"}, {"pairs", 2},
                         {"bottleneck", {{"bandwidthMbps", 2}, {"delayMs", 20}}},
                         {"access", {{"bandwidthMbps", 10}, {"delayMs", 1}}}}},
           {"traffic", json::array({{{"type", "web"}, {"name", "web"}, {"count", 2}, {"from", "left{i}"},
                                     {"to", "right{i}"}, {"http", "2"}, {"page", Page(6000, 5)}}})}};
  const RunOutput two = RunDoc(doc);
  ASSERT_EQ(two.summary["flows"].size(), 2u);
  EXPECT_EQ(two.summary["transfers"].size(), 12u);
}

// RFC 9113 §5.1.2: no more streams open at once than the server's SETTINGS_MAX_CONCURRENT_STREAMS.
TEST(WebClientTest, Http2RespectsMaxConcurrentStreams) {
  json web = Web("2", Page(20000, 8, 6000));
  web["http2"] = {{"maxConcurrentStreams", 2}};
  const RunOutput run = RunDoc(OnALink(web));
  std::vector<FlowSpan> spans;
  for (const json& t : run.summary["transfers"]) spans.push_back({t["startS"].get<double>(), t["endS"].get<double>()});
  ASSERT_EQ(spans.size(), 9u);
  EXPECT_EQ(MaxOverlap(spans), 2);
  const RunOutput unlimited = RunDoc(OnALink(Web("2", Page(20000, 8, 6000))));
  std::vector<FlowSpan> all;
  for (const json& t : unlimited.summary["transfers"]) all.push_back({t["startS"].get<double>(), t["endS"].get<double>()});
  EXPECT_GT(MaxOverlap(all), 2);
}

// The normalised scenario says what ran: HTTP/2's options with their defaults (RFC 9113 §6.5.2's
// 100 streams, §4.2's 16,384-byte frames, the 16 KB low-water mark, Chromium's priorities), and
// HTTP/1.1 persistent's limit of 6; other methods are left as they were.
TEST(WebClientTest, ModeDefaultsAreFilledIn) {
  const Scenario h2 = ParseScenario(OnALink(Web("2", Page(1000, 1))));
  const json& o = h2.document["traffic"][0]["http2"];
  EXPECT_EQ(o["maxConcurrentStreams"], 100);
  EXPECT_EQ(o["maxFrameBytes"], 16384);
  EXPECT_EQ(o["notSentLowatBytes"], 16384);
  EXPECT_EQ(o["scheduler"], "round-robin");
  EXPECT_EQ(o["priorities"]["html"], (json{{"urgency", 0}, {"incremental", true}}));
  EXPECT_EQ(o["priorities"]["image"], (json{{"urgency", 3}, {"incremental", true}}));
  EXPECT_EQ(h2.traffic[0].http.http2.priorities[static_cast<size_t>(ContentType::kJava)].urgency, 1);
  EXPECT_EQ(h2.traffic[0].http.mode, HttpMode::kHttp2);
  const Scenario h1 = ParseScenario(OnALink(Web("1.1-persistent", Page(1000, 1))));
  EXPECT_EQ(h1.document["traffic"][0]["maxConnections"], 6);
  EXPECT_EQ(h1.traffic[0].http.max_connections, 6);
  const Scenario h10 = ParseScenario(OnALink(Web("1.0-parallel", Page(1000, 1))));
  EXPECT_EQ(h10.document["traffic"][0]["maxConnections"], "unlimited");
  EXPECT_FALSE(h10.document["traffic"][0].contains("http2"));
  json partial = Web("2", Page(1000, 1));
  partial["http2"] = {{"scheduler", "weighted"}, {"priorities", {{"image", {{"urgency", 5}}}}},
                      {"notSentLowatBytes", "unlimited"}};
  const Scenario p = ParseScenario(OnALink(partial));
  EXPECT_EQ(p.traffic[0].http.http2.scheduler, Http2Scheduler::kWeighted);
  EXPECT_EQ(p.traffic[0].http.http2.notsent_lowat, 0);
  // RFC 9218 §4: a parameter left out takes the scheme's default (incremental: false).
  EXPECT_EQ(p.document["traffic"][0]["http2"]["priorities"]["image"], (json{{"urgency", 5}, {"incremental", false}}));
}

TEST(WebClientTest, Http2OptionErrorsNameTheField) {
  json web = Web("2", Page(1000, 1));
  web["http2"] = {{"maxFrameBytes", 1000}};
  try {
    ParseScenario(OnALink(web));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].http2.maxFrameBytes");
  }
  web["http2"] = {{"priorities", {{"image", {{"urgency", 8}}}}}};
  try {
    ParseScenario(OnALink(web));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].http2.priorities.image.urgency");
  }
}

// Determinism: the same scenario and seed give the same summary, to the hash, with drawn pages.
TEST(WebClientTest, Http2AndPersistentRunsAreDeterministic) {
  for (const char* mode : {"2", "1.1-persistent"}) {
    SCOPED_TRACE(mode);
    json web = Web(mode, {{"model", "mah"}});
    web["pageCount"] = 5;
    web["thinkS"] = {{"dist", "exponential"}, {"mean", 0.5}};
    json doc = OnALink(web, {{"packets", 8}});
    doc["seed"] = 11;
    const RunOutput a = RunDoc(doc);
    const RunOutput b = RunDoc(doc);
    EXPECT_EQ(a.summary["resultHash"], b.summary["resultHash"]);
    EXPECT_EQ(a.summary["pages"].size(), 5u);
  }
}

TEST(WebClientTest, NeedsFullConnections) {
  json doc = OnALink(Web("1.0-serial", Page(1000, 0)));
  doc["tcp"]["connection"] = "one-way";
  try {
    ParseScenario(doc);
    FAIL() << "accepted a one-way web client";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].tcp.connection");
  }
}

TEST(WebClientTest, PageErrorsNameTheObject) {
  json page = Page(1000, 2);
  page["objects"][2]["parent"] = 2;
  try {
    ParseScenario(OnALink(Web("1.0-serial", page)));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].page.objects[2].parent");
  }
  page = Page(1000, 2);
  page["objects"][0]["parent"] = 0;
  try {
    ParseScenario(OnALink(Web("1.0-serial", page)));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].page.objects[0].parent");
  }
}

}  // namespace
}  // namespace tcb

namespace tcb {
namespace {

// E-TCP §4's five pages, as shipped: the object counts the paper lists, and every size inside the
// range its label quotes from the paper ("medium image (7-13K)": 7 to 13 KB).
TEST(BuiltInPagesTest, MatchTheEtcpPageDescriptions) {
  const std::map<std::string, size_t> objects{
      {"etcp-text", 4}, {"etcp-map", 5}, {"etcp-graphics", 14}, {"etcp-frames", 27}, {"etcp-java", 36}};
  EXPECT_EQ(PageNames(), (std::vector<std::string>{"etcp-frames", "etcp-graphics", "etcp-java", "etcp-map", "etcp-text"}));
  for (const auto& [name, count] : objects) {
    SCOPED_TRACE(name);
    const Scenario s = ParseScenario(OnALink(Web("1.0-parallel", {{"named", name}})));
    const json& page = s.document["traffic"][0]["page"];
    ASSERT_EQ(page["objects"].size(), count);
    EXPECT_EQ(s.traffic[0].page.fixed.at(0).objects.size(), count);
    for (const json& o : page["objects"]) {
      const std::string label = o["label"];
      const size_t open = label.find('(');
      const size_t dash = label.find('-', open);
      const size_t k = label.find('K', open);
      ASSERT_NE(open, std::string::npos) << label;
      const double lo = std::stod(label.substr(open + 1));
      const double hi = dash != std::string::npos && dash < k ? std::stod(label.substr(dash + 1)) : lo;
      EXPECT_GE(o["bytes"].get<double>(), lo * 1024) << label;
      EXPECT_LE(o["bytes"].get<double>(), hi * 1024) << label;
    }
  }
}

TEST(BuiltInPagesTest, AnUnknownNameListsTheKnownOnes) {
  try {
    ParseScenario(OnALink(Web("1.0-parallel", {{"named", "etcp-news"}})));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.path(), "$.traffic[0].page.named");
    EXPECT_NE(e.problem().find("etcp-java"), std::string::npos) << e.problem();
  }
}

}  // namespace
}  // namespace tcb
