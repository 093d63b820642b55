// The HTTP/2 connection on its own, between two nodes: the order in which the server's frames reach
// the client (RFC 9113 §5 streams, RFC 9218 §10 scheduling), the low-water mark at which the server
// writes (Linux's TCP_NOTSENT_LOWAT), flow control (RFC 9113 §6.9) and the frames' bytes.
#include "workload/http2_connection.h"

#include <map>

#include <gtest/gtest.h>

#include "tcp/tcp_connection.h"

namespace tcb {
namespace {

constexpr Bytes kFrame = http2::kDefaultMaxFrameBytes;
constexpr Bytes kRequestBytes = 100;

// A client and a server joined by one link; the test is the connection's listener and records, in
// order, which response each piece of body that reaches the client belongs to.
class Http2Harness : public Http2Connection::Listener {
 public:
  struct Piece {
    int object;
    Bytes bytes;
  };

  explicit Http2Harness(const Http2Options& options, BitsPerSec rate = 10'000'000,
                        SimTime think = SimTime::Zero()) {
    const NodeId client = net_.AddNode("client", 0x0a000001);
    const NodeId server = net_.AddNode("server", 0x0a000002);
    net_.AddDuplexLink(client, server, "link", rate, SimTime::Milliseconds(20), QueueLimit::Unlimited());
    AppPlacement at;
    at.item = "web";
    at.flow_name = "web";
    at.from = client;
    at.to = server;
    TcpConfig tcp;
    tcp.mss = 1000;
    tcp.receive_window = 1 << 24;
    tcp.initial_window_segments = 4;
    connection_ = std::make_unique<Http2Connection>(context_, at, "web", tcp, options, kRequestBytes, think, *this);
  }

  Http2Connection& connection() { return *connection_; }
  void Run(double seconds = 60) { sim_.RunUntil(SimTime::FromSeconds(seconds)); }

  // Consecutive pieces of the same response merged: the order in which the responses' frames came.
  std::vector<Piece> Runs() const {
    std::vector<Piece> runs;
    for (const Piece& p : pieces_) {
      if (!runs.empty() && runs.back().object == p.object) {
        runs.back().bytes += p.bytes;
      } else {
        runs.push_back(p);
      }
    }
    return runs;
  }
  const std::vector<int>& completed() const { return completed_; }
  SimTime completed_at(int object) const { return completed_at_.at(object); }
  Bytes read(int object) const { return read_.count(object) ? read_.at(object) : 0; }
  // Body bytes of `object` that had arrived when `other` completed.
  Bytes ReadWhenComplete(int object, int other) const {
    const std::map<int, Bytes>& read = read_at_completion_.at(other);
    return read.count(object) ? read.at(object) : 0;
  }
  const TcpConnection& tcp() const { return *flows_.connection(connection_->flow()); }

  // Called when `object` has read at least `at` bytes of its body, once.
  void When(int object, Bytes at, std::function<void()> action) { triggers_.push_back({object, at, std::move(action)}); }

  void OnResponseBytes(int object, Bytes body_read) override {
    const Bytes delta = body_read - read(object);
    EXPECT_GT(delta, 0) << "object " << object << ": bytes must arrive in order, each once";
    read_[object] = body_read;
    pieces_.push_back({object, delta});
    for (Trigger& t : triggers_) {
      if (!t.done && t.object == object && body_read >= t.at) {
        t.done = true;
        t.action();
      }
    }
  }
  void OnResponseComplete(int object) override {
    completed_.push_back(object);
    completed_at_[object] = sim_.Now();
    read_at_completion_[object] = read_;
  }

 private:
  struct Trigger {
    int object;
    Bytes at;
    std::function<void()> action;
    bool done = false;
  };

  Simulation sim_{1};
  Network net_{sim_, nullptr};
  FlowRegistry flows_{net_};
  WorkloadContext context_{sim_, net_, flows_, MakeIndependentController};
  std::unique_ptr<Http2Connection> connection_;
  std::vector<Piece> pieces_;
  std::map<int, Bytes> read_;
  std::map<int, std::map<int, Bytes>> read_at_completion_;
  std::vector<int> completed_;
  std::map<int, SimTime> completed_at_;
  std::vector<Trigger> triggers_;
};

// RFC 9113 §5: every response arrives on its own stream, each byte once and in order (checked in
// OnResponseBytes), and completes once, when its last DATA frame is in.
TEST(Http2ConnectionTest, EveryResponseArrivesOnceAndInOrder) {
  Http2Harness h({});
  const std::vector<Bytes> bodies{40000, 1, 16384, 16385, 70000};
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i) h.connection().Request(i, bodies[i], ContentType::kImage);
  h.Run();
  std::vector<int> sorted = h.completed();
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3, 4}));
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i) EXPECT_EQ(h.read(i), bodies[i]) << i;
}

// RFC 9113 §4.1, §4.2, §3.4, §6.5, §6.9: the bytes of each direction are the frames' bytes exactly.
// Client: the 24-byte magic, a SETTINGS frame with Chromium's four settings, its connection
// WINDOW_UPDATE, the acknowledgement of the server's SETTINGS and one HEADERS frame per request.
// Server: its SETTINGS (one setting), the acknowledgement of the client's, and per response a
// HEADERS frame and DATA frames of at most 16,384 bytes, each frame with a 9-byte header.
TEST(Http2ConnectionTest, BytesOnTheWireAreTheFramesBytes) {
  Http2Options options;
  options.response_headers_bytes = 54;
  Http2Harness h(options);
  const std::vector<Bytes> bodies{40000, 1, 16384, 16385};
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i) h.connection().Request(i, bodies[i], ContentType::kImage);
  h.Run();
  Bytes to_client = 9 + 6 + 9;
  for (Bytes body : bodies) to_client += 9 + 54 + body + 9 * ((body + kFrame - 1) / kFrame);
  const Bytes to_server = 24 + (9 + 4 * 6) + 13 + 9 + 4 * (9 + kRequestBytes);
  EXPECT_EQ(h.tcp().initiator().bytes_received(), to_client);
  EXPECT_EQ(h.tcp().responder().bytes_received(), to_server);
}

// RFC 9113 §6.5.2: announcing a larger SETTINGS_MAX_FRAME_SIZE adds the setting to the client's
// SETTINGS frame and lets the server send larger DATA frames; §6.10: a header block larger than a
// frame continues in CONTINUATION frames.
TEST(Http2ConnectionTest, LargerFramesAndContinuations) {
  Http2Options options;
  options.max_frame_bytes = 65536;
  options.response_headers_bytes = 70000;  // Two frames of at most 65,536.
  Http2Harness h(options);
  h.connection().Request(0, 200000, ContentType::kImage);
  h.Run();
  EXPECT_EQ(h.tcp().initiator().bytes_received(), 9 + 6 + 9 + (70000 + 2 * 9) + (200000 + 4 * 9));
  EXPECT_EQ(h.tcp().responder().bytes_received(), 24 + (9 + 5 * 6) + 13 + 9 + (9 + kRequestBytes));
}

// Round robin: the server writes one frame per stream in turn. The first response had a head start:
// the server wrote its frames before it read the next requests, until its unsent data reached the
// low-water mark (two DATA frames, as TCP's initial window took 4,000 bytes of the first at once),
// and one more each time the others' HEADERS frames took their turns. From then on the three
// streams' DATA frames alternate, 16,384 bytes at a time.
TEST(Http2ConnectionTest, RoundRobinInterleavesStreamsFrameByFrame) {
  constexpr int kFrames = 6;
  Http2Harness h({});
  for (int i = 0; i < 3; ++i) h.connection().Request(i, kFrames * kFrame, ContentType::kImage);
  h.Run();
  const std::vector<Http2Harness::Piece> runs = h.Runs();
  ASSERT_FALSE(runs.empty());
  ASSERT_EQ(runs[0].object, 0);
  ASSERT_EQ(runs[0].bytes % kFrame, 0);
  EXPECT_EQ(runs[0].bytes, 4 * kFrame);
  // What round robin does with the rest: streams 1 and 2 and the remainder of 0, a frame each in turn.
  std::vector<int> left{kFrames - static_cast<int>(runs[0].bytes / kFrame), kFrames, kFrames};
  std::vector<int> expected;
  for (bool any = true; any;) {
    any = false;
    for (int object : {1, 2, 0}) {
      if (left[object] == 0) continue;
      --left[object];
      any = true;
      expected.push_back(object);
    }
  }
  ASSERT_EQ(runs.size(), expected.size() + 1);
  for (size_t k = 1; k < runs.size(); ++k) {
    EXPECT_EQ(runs[k].object, expected[k - 1]) << k;
    EXPECT_EQ(runs[k].bytes, kFrame) << k;
  }
}

// RFC 9218 §10 with Chromium's priorities (HTML urgency 0, images 3): the HTML requested after an
// image is served first. The image had frames written before the HTML's request was read (the
// server writes until its unsent data reaches the low-water mark: here two DATA frames, as TCP's
// initial window took 4,000 bytes of the first at once); nothing more of it before the HTML is
// complete. Round robin, by contrast, shares the connection, and the image, ahead from the start,
// is complete first.
TEST(Http2ConnectionTest, WeightedServesHtmlBeforeImages) {
  Http2Options options;
  options.scheduler = Http2Scheduler::kWeighted;
  options.priorities[static_cast<size_t>(ContentType::kHtml)] = {0, true};
  options.priorities[static_cast<size_t>(ContentType::kImage)] = {3, true};
  Http2Harness weighted(options);
  weighted.connection().Request(0, 100000, ContentType::kImage);
  weighted.connection().Request(1, 50000, ContentType::kHtml);
  weighted.Run();
  ASSERT_EQ(weighted.completed(), (std::vector<int>{1, 0}));
  EXPECT_EQ(weighted.ReadWhenComplete(0, 1), 2 * kFrame);

  options.scheduler = Http2Scheduler::kRoundRobin;
  Http2Harness round_robin(options);
  round_robin.connection().Request(0, 100000, ContentType::kImage);
  round_robin.connection().Request(1, 50000, ContentType::kHtml);
  round_robin.Run();
  EXPECT_EQ(round_robin.completed(), (std::vector<int>{0, 1}));
  EXPECT_EQ(round_robin.ReadWhenComplete(1, 0), 3 * kFrame);
}

// RFC 9218 §10: non-incremental responses of the same urgency are served one by one in the order of
// their stream IDs (the order of the requests); a more urgent one still goes first.
TEST(Http2ConnectionTest, WeightedServesNonIncrementalResponsesOneByOne) {
  Http2Options options;
  options.scheduler = Http2Scheduler::kWeighted;
  options.priorities[static_cast<size_t>(ContentType::kImage)] = {3, false};
  options.priorities[static_cast<size_t>(ContentType::kJava)] = {1, false};
  Http2Harness h(options);
  for (int i = 0; i < 3; ++i) h.connection().Request(i, 3 * kFrame, ContentType::kImage);
  h.connection().Request(3, 2 * kFrame, ContentType::kJava);
  h.Run();
  // The first image had frames written before the others' requests were read; then the script,
  // then the images in request order, each whole before the next starts.
  EXPECT_EQ(h.completed(), (std::vector<int>{3, 0, 1, 2}));
  const std::vector<Http2Harness::Piece> runs = h.Runs();
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[0].object, 0);
  EXPECT_EQ(runs[1].object, 3);
  EXPECT_EQ(runs[2].object, 0);
  EXPECT_EQ(runs[3].object, 1);
  EXPECT_EQ(runs[4].object, 2);
}

// The server chooses each frame when it writes it, and writes only while the connection's unsent
// data is below the low-water mark (TCP_NOTSENT_LOWAT): a request that arrives while an earlier
// response is under way gets frames before that response ends. Without the mark the whole earlier
// response was already in the send buffer, and the later one waits for all of it.
TEST(Http2ConnectionTest, ALateRequestGetsFramesBeforeEarlierStreamsFinish) {
  auto run = [](Bytes lowat) {
    Http2Options options;
    options.notsent_lowat = lowat;
    auto h = std::make_unique<Http2Harness>(options, 2'000'000);
    Http2Harness& ref = *h;
    h->connection().Request(0, 400000, ContentType::kImage);
    h->When(0, 50000, [&ref] { ref.connection().Request(1, 40000, ContentType::kImage); });
    h->Run();
    return h;
  };
  const auto with_mark = run(16384);
  EXPECT_EQ(with_mark->completed(), (std::vector<int>{1, 0}));
  EXPECT_LT(with_mark->ReadWhenComplete(0, 1), 200000);

  const auto without = run(0);
  EXPECT_EQ(without->completed(), (std::vector<int>{0, 1}));
  EXPECT_EQ(without->ReadWhenComplete(1, 0), 0);
}

// RFC 9113 §5.2, §6.9: a response larger than the stream's window (Chromium's 6 MB) arrives because
// the client returns the window with WINDOW_UPDATE frames once more than half of it has been
// consumed (Chromium's rule): two on the stream (after 3 MB and 6 MB) and one on the connection
// (after 7.5 MB), 13 bytes each.
TEST(Http2ConnectionTest, WindowUpdatesReopenTheFlowControlWindows) {
  Http2Harness h({}, 100'000'000);
  const Bytes body = 8'000'000;
  h.connection().Request(0, body, ContentType::kFtp);
  h.Run(120);
  ASSERT_EQ(h.completed(), (std::vector<int>{0}));
  EXPECT_EQ(h.read(0), body);
  EXPECT_EQ(h.tcp().responder().bytes_received(), 24 + (9 + 4 * 6) + 13 + 9 + (9 + kRequestBytes) + 3 * 13);
}

// RFC 9113 §5.1.1: each request opens a new client stream; the server answers each after its think
// time, independently of the others.
TEST(Http2ConnectionTest, ServerThinkTimeDelaysEachResponse) {
  Http2Harness quick({});
  quick.connection().Request(0, 1000, ContentType::kHtml);
  quick.Run();
  Http2Harness thinking({}, 10'000'000, SimTime::Milliseconds(30));
  thinking.connection().Request(0, 1000, ContentType::kHtml);
  thinking.Run();
  // The server's SETTINGS go out at once either way; only the response waits (and no longer queues
  // behind them on the link, which saves their 104 bytes' transmission, 83 us).
  const SimTime delay = thinking.completed_at(0) - quick.completed_at(0);
  EXPECT_LE(delay, SimTime::Milliseconds(30));
  EXPECT_GE(delay, SimTime::Milliseconds(29));
}

}  // namespace
}  // namespace tcb
