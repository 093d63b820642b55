// One HTTP/2 connection (RFC 9113) between a web client and its server, modelled at the level that
// matters for congestion: every frame's bytes in each direction, and when the server writes them.
//
// The client opens one TCP connection, sends the connection preface and then each request as a
// HEADERS frame on a new stream, as many streams at once as the server's
// SETTINGS_MAX_CONCURRENT_STREAMS allows. The server answers each request after its think time
// with a HEADERS frame and DATA frames of at most the maximum frame size, and interleaves the
// streams that have data ready, round robin or by RFC 9218 priorities. It decides what comes next
// only when it writes into the TCP send buffer, and it writes only while the connection's unsent
// data is below a low-water mark (Linux's TCP_NOTSENT_LOWAT), so that a request arriving later
// still gets its share. A response is complete when the last byte of its last DATA frame has been
// delivered in order to the client. Flow control follows RFC 9113 §5.2 and §6.9 with Chromium's
// windows and WINDOW_UPDATE rule; HPACK is a size (requests' and responses' header blocks), server
// push, PING and GOAWAY are not modelled.
#pragma once

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "core/agenda.h"
#include "workload/application.h"

namespace tcb {

namespace http2 {
// RFC 9113 §4.1: every frame starts with a 9-octet header.
inline constexpr Bytes kFrameHeaderBytes = 9;
// RFC 9113 §4.2: SETTINGS_MAX_FRAME_SIZE starts at 2^14 and may be set up to 2^24 - 1.
inline constexpr Bytes kDefaultMaxFrameBytes = 16384;
inline constexpr Bytes kLargestMaxFrameBytes = 16777215;
// RFC 9113 §3.4: the client's preface starts with the 24 octets "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".
inline constexpr Bytes kPrefaceBytes = 24;
// RFC 9113 §6.5.1: each setting is a 16-bit identifier and a 32-bit value.
inline constexpr Bytes kSettingBytes = 6;
// RFC 9113 §6.9: a WINDOW_UPDATE carries a 31-bit increment in 4 octets.
inline constexpr Bytes kWindowUpdateBytes = kFrameHeaderBytes + 4;
// RFC 9113 §6.9.2: every flow-control window starts at 65,535 octets.
inline constexpr Bytes kInitialWindowBytes = 65535;
// Chromium's receive windows (net/http/http_network_session.cc: kSpdyStreamMaxRecvWindowSize,
// kSpdySessionMaxRecvWindowSize), which its preface announces.
inline constexpr Bytes kClientStreamWindowBytes = 6 * 1024 * 1024;
inline constexpr Bytes kClientConnectionWindowBytes = 15 * 1024 * 1024;
// The settings in Chromium's preface (AddDefaultHttp2Settings in net/http/http_network_session.cc):
// HEADER_TABLE_SIZE, ENABLE_PUSH, INITIAL_WINDOW_SIZE, MAX_HEADER_LIST_SIZE.
inline constexpr int kClientSettings = 4;
}  // namespace http2

enum class Http2Scheduler : uint8_t { kRoundRobin, kWeighted };

// RFC 9218 §4: a response's priority, sent by the client with its request.
struct StreamPriority {
  int urgency = 3;           // §4.1: 0 (most urgent) to 7; 3 by default.
  bool incremental = false;  // §4.2: whether the client uses the response as it arrives.
};

inline constexpr size_t kContentTypeCount = 5;  // ContentType's values.

struct Http2Options {
  // RFC 9113 §6.5.2 recommends a SETTINGS_MAX_CONCURRENT_STREAMS of no fewer than 100.
  int max_concurrent_streams = 100;
  // The client's SETTINGS_MAX_FRAME_SIZE: the largest DATA payload the server sends.
  Bytes max_frame_bytes = http2::kDefaultMaxFrameBytes;
  // A response's header block (HPACK-coded). RFC 7541 §C.6.1's first response (:status, cache-control,
  // date, location; Huffman-coded into an empty table) takes 54 octets.
  Bytes response_headers_bytes = 54;
  Http2Scheduler scheduler = Http2Scheduler::kRoundRobin;
  // By content type (ContentType's order), for the weighted scheduler: RFC 9218's defaults here; the
  // schema's defaults are Chromium's.
  std::array<StreamPriority, kContentTypeCount> priorities{};
  // The server writes while the connection's unsent data is below this (TCP_NOTSENT_LOWAT); 0: no
  // mark, everything ready is written at once. Cloudflare's 16 KB (Meenan, "Optimizing HTTP/2
  // prioritization with BBR and tcp_notsent_lowat", 2018) is the schema's default.
  Bytes notsent_lowat = 16384;
};

class Http2Connection final : public TcpApplication {
 public:
  // What the connection tells the page logic about responses. Called from inside the connection's
  // TCP callbacks; the listener may call Request() and Close().
  class Listener {
   public:
    virtual ~Listener() = default;
    // `body_read` bytes of the response's body (all frames' payload so far) have arrived in order.
    virtual void OnResponseBytes(int object, Bytes body_read) = 0;
    // The last byte of the response's last DATA frame has arrived.
    virtual void OnResponseComplete(int object) = 0;
  };

  // Opens the connection from `placement.from` to `placement.to` now, named `name`. `request_bytes`
  // is each request's header block; the server answers `server_think` after a request arrives.
  Http2Connection(WorkloadContext& context, const AppPlacement& placement, std::string name,
                  const TcpConfig& tcp, const Http2Options& options, Bytes request_bytes,
                  SimTime server_think, Listener& listener);

  // The client requests `object` (`body` bytes of `content`) on a new stream. Needs CanOpenStream().
  void Request(int object, Bytes body, ContentType content);
  bool CanOpenStream() const { return open_streams_ < options_.max_concurrent_streams; }
  // The client closes the connection (after what it has written); the application ends the flow.
  void Close();

  FlowId flow() const { return flow_; }
  // Both ends have closed: nothing will call the connection any more once its agenda is done.
  bool Finished(SimTime now) const { return closed_ends_ == 2 && agenda_.empty() && now > agenda_.LastEntryAt(); }

  // TcpApplication, for both endpoints.
  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override { endpoint.Close(); }
  void OnClosed(TcpEndpoint&) override { ++closed_ends_; }

 private:
  friend class Http2ConnectionPeer;
  using StreamId = uint64_t;

  enum class FrameKind : uint8_t { kPreface, kSettings, kSettingsAck, kWindowUpdate, kHeaders, kData };
  // A frame (or the preface's magic) in one direction's byte stream.
  struct Frame {
    FrameKind kind = FrameKind::kData;
    StreamId stream = 0;  // 0: the connection.
    Bytes end = 0;        // Offset in the direction's stream just past the frame.
    Bytes payload = 0;    // DATA: body bytes (the frame's last bytes); WINDOW_UPDATE: the increment.
    bool end_stream = false;
    Bytes consumed = 0;   // Client side: DATA payload already passed on.
  };
  struct Stream {
    int object = 0;
    ContentType content = ContentType::kOther;
    Bytes body = 0;
    // Server side.
    bool ready = false;  // The server's think time is over.
    bool headers_written = false;
    Bytes body_written = 0;
    Bytes send_window = http2::kInitialWindowBytes;  // RFC 9113 §6.9.
    // Client side.
    Bytes body_read = 0;
    Bytes unacked = 0;  // Body read and not yet returned by a WINDOW_UPDATE.
    bool complete = false;
  };

  // Appends a frame of `bytes` to one direction's byte stream, which has `written` bytes so far.
  static void Append(std::deque<Frame>& frames, Bytes& written, FrameKind kind, StreamId stream, Bytes payload,
                     Bytes bytes, bool end_stream);
  // Client.
  void ClientWrite(FrameKind kind, StreamId stream, Bytes payload, Bytes bytes);
  void ClientRead(Bytes total);
  void ReturnWindow(StreamId id, Bytes bytes);
  // Server.
  void ServerRead(Bytes total);
  void ServerWrite(FrameKind kind, StreamId stream, Bytes payload, Bytes bytes, bool end_stream);
  void TryWrite();
  bool Writable(const Stream& s) const;
  // The next stream to write a frame of, by the scheduler; 0 when none can write.
  StreamId Pick();
  void WriteNextFrame(StreamId id);
  void OnServerSegmentSent();
  Bytes HeaderBlockFrames(Bytes block, Bytes max_frame) const;

  WorkloadContext& context_;
  Http2Options options_;
  Bytes request_bytes_;
  SimTime server_think_;
  Listener& listener_;
  Agenda agenda_;
  TcpConnection* tcp_ = nullptr;  // Not owned; not touched once both ends have closed.
  FlowId flow_ = -1;

  std::map<StreamId, Stream> streams_;  // Open streams, by id; erased once both sides are done.
  StreamId next_stream_ = 1;            // RFC 9113 §5.1.1: client streams are odd.
  int open_streams_ = 0;                // Client side: requested and not complete.

  // Client to server.
  std::deque<Frame> to_server_;  // Written by the client, not yet read by the server.
  Bytes client_written_ = 0;
  Bytes client_sent_ = 0;  // Handed to TCP (the client writes nothing before the handshake).
  bool connected_ = false;
  bool closing_ = false;
  Bytes connection_unacked_ = 0;  // Client: body read and not yet returned on stream 0.

  // Server to client.
  std::deque<Frame> to_client_;  // Written by the server, not yet read by the client.
  Bytes server_written_ = 0;
  Bytes connection_window_ = http2::kInitialWindowBytes;  // Server's send window (RFC 9113 §6.9.1).
  Bytes stream_initial_window_ = http2::kInitialWindowBytes;
  std::deque<StreamId> turn_;  // Streams with a response under way, in round-robin order.
  bool waiting_for_space_ = false;
  bool write_pending_ = false;

  int closed_ends_ = 0;
};

}  // namespace tcb
