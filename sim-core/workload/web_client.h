// A web client retrieving pages from a server, with the retrieval methods the seed papers compare
// (Gürkan §4.3-4.6, E-TCP §4):
//  - HTTP/1.0 serial: a new connection per object, one object at a time;
//  - HTTP/1.0 parallel: a new connection per object, as many at once as the client's concurrency
//    limit allows (E-TCP §4: 4 or unlimited);
//  - HTTP/1.1 pipelined: one persistent connection (for all pages, or one per page as in Gürkan
//    §4.5); requests go out as objects become known, up to a number of outstanding requests; what
//    happens after idle periods is the TCP option slowStartRestart;
//  - HTTP/1.1 segment-filled (Gürkan §4.6): one persistent connection; the server extends the
//    primary's response to whole segments with the start of the inline objects, and sends all the
//    inline objects glued together in answer to one request, so no segment is under-filled until
//    the page's end;
//  - HTTP/1.1 persistent, as browsers use it: up to a number of persistent connections per server
//    (Chromium's 6), each carrying one request at a time; a request goes to an idle connection,
//    or opens a new one while below the limit, or waits;
//  - HTTP/2 (RFC 9113): one connection per server carrying all of a page's objects as multiplexed
//    streams (workload/http2_connection.h).
// The client sees a link once it has read that far into the HTML (or, optionally, only when the
// whole HTML has arrived), waits its parse delay, then requests the object. The application plays
// both ends: the client initiates connections, the server answers each request after its think
// time. One application per client.
#pragma once

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/agenda.h"
#include "core/distributions.h"
#include "core/ring_buffer.h"
#include "workload/application.h"
#include "workload/http2_connection.h"
#include "workload/web_page.h"

namespace tcb {

enum class HttpMode : uint8_t { kSerial, kParallel, kPipelined, kSegmentFilled, kPersistent, kHttp2 };
enum class LinkDiscovery : uint8_t { kAsHtmlArrives, kAfterHtml };

struct HttpOptions {
  HttpMode mode = HttpMode::kParallel;
  // Parallel and persistent: open connections at most; 0 = unlimited.
  int max_connections = 0;
  int max_outstanding = 0;   // Pipelined: requests awaiting their response at most; 0 = unlimited.
  // HTTP/1.1 and HTTP/2: persistent connections per page, closed when the page has arrived (Gürkan
  // §4.5), or for all of the client's pages.
  bool connection_per_page = false;
  Bytes request_bytes = 210;  // Gürkan §3.1 (after Mah: median request 240 bytes).
  SimTime server_think;       // From a request's arrival to its response being written.
  SimTime client_parse;       // From seeing a link to requesting the object.
  LinkDiscovery discovery = LinkDiscovery::kAsHtmlArrives;
  // Seconds from a page's completion to the next page's start (Gürkan §4.1: think time).
  Distribution think = Distribution::Constant(0);
  // Seconds between successive connection opens within a page: from the previous object's arrival
  // (serial) or the previous open (parallel). Gürkan §4.2: "short time intervals like 1-10 msec".
  Distribution connection_gap = Distribution::Constant(0);
  int64_t pages = 1;  // -1: until the item's stop time.
  Http2Options http2;  // HTTP/2; `request_bytes` is each request's header block.
};

class WebClientApp final : public Application, public TcpApplication, public Http2Connection::Listener {
 public:
  WebClientApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, HttpOptions http,
               const PageModel& pages, Rng rng);

  void OnEvent() override;  // Starts the next page.

  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;

  // Http2Connection::Listener.
  void OnResponseBytes(int object, Bytes body_read) override;
  void OnResponseComplete(int object) override;

 private:
  struct ObjectState {
    bool requested = false;
    bool done = false;
    size_t transfer = 0;
    std::vector<int> children;  // In link order.
    size_t next_child = 0;      // First child whose link has not been seen.
  };
  // Where an object's bytes lie in the stream a connection delivers to the client.
  struct Extent {
    int object;
    Bytes begin;
    Bytes end;
  };
  struct Connection {
    TcpConnection* tcp = nullptr;  // Not owned.
    bool persistent = false;
    bool connected = false;
    int64_t requests_unsent = 0;  // Written by the client before the handshake completed.
    // RingBuffer rather than std::deque, which allocates a block on its first element (4 KiB in
    // libc++, the WebAssembly build's): HTTP/1.0 opens a connection per object.
    RingBuffer<Extent> extents;   // Client side: objects still arriving, in stream order.
    Bytes stream_end = 0;         // Client side: end of the last extent.
    RingBuffer<Bytes> response_ends;  // Client side: stream offsets where awaited responses end.
    Bytes responses_total = 0;        // Bytes of all responses requested so far.
    std::vector<Bytes> responses;  // Server side: response sizes, one per request, in order.
    size_t responses_scheduled = 0;
    SimTime server_free;           // Server side: when it has finished with earlier requests.
    uint64_t last_used = 0;        // HTTP/1.1 persistent: when its last response ended, in order.
  };

  void StartPage();
  void Pump();
  void OpenForObject(int object);
  Connection& Persistent();
  // HTTP/1.1 persistent: the most recently used idle connection, or null.
  Connection* IdlePooled();
  Connection& OpenPooled();
  Http2Connection& Session();
  // Closes the persistent connections (HTTP/1.1 and HTTP/2) and ends their flows; with a
  // connection per page, forgets them.
  void ClosePersistent();
  std::string PageFlowName() const;
  void Request(Connection& c, Bytes response, const std::vector<int>& objects);
  void WriteRequests(Connection& c, int64_t n);
  void SeeLinks(int parent, Bytes read);
  void MakeKnown(int object);
  void ObjectArrived(int object);
  void MarkRequested(int object, FlowId flow);
  void FinishPage();
  bool MorePages() const;
  Connection& ConnectionOf(const TcpEndpoint& endpoint);

  TcpConfig tcp_;
  HttpOptions http_;
  const PageModel& model_;  // Not owned.
  Rng rng_;
  Agenda agenda_;

  // Open connections by flow; a connection of HTTP/1.0 is forgotten once its object has arrived.
  std::unordered_map<FlowId, std::unique_ptr<Connection>> connections_;
  Connection* persistent_ = nullptr;
  std::vector<Connection*> pool_;  // HTTP/1.1 persistent: open connections, in opening order.
  uint64_t uses_ = 0;              // Responses ended on pooled connections.
  // Per-page persistent connections of finished pages, kept until the next page starts so that a
  // page can finish inside a callback that still uses its connection.
  std::vector<std::unique_ptr<Connection>> retired_;
  // HTTP/2: the connection in use, and every one not yet finished (a closed one still exchanges
  // FINs); they are destroyed once finished.
  Http2Connection* session_ = nullptr;
  std::vector<std::unique_ptr<Http2Connection>> sessions_;

  // The page in progress.
  int64_t pages_started_ = 0;
  WebPage page_;
  std::vector<ObjectState> objects_;
  size_t record_ = 0;
  std::deque<int> ready_;  // Known, not yet requested, in the order their links were seen.
  int arrived_ = 0;
  int html_left_ = 0;
  int open_objects_ = 0;   // HTTP/1.0: object connections open.
  int outstanding_ = 0;    // Persistent: requests awaiting their response.
  int in_flight_ = 0;      // Objects requested and not yet arrived.
  SimTime busy_since_;
  SimTime retrieval_;
  SimTime next_open_;      // HTTP/1.0: no connection opens before this.
  bool glued_requested_ = false;
  bool pump_pending_ = false;
};

}  // namespace tcb
