// One HTTP/2 connection between a web client and its server.
#include "workload/http2_connection.h"

#include <algorithm>

#include "workload/sent_segment_tap.h"

namespace tcb {

using http2::kFrameHeaderBytes;

Http2Connection::Http2Connection(WorkloadContext& context, const AppPlacement& placement, std::string name,
                                 const TcpConfig& tcp, const Http2Options& options, Bytes request_bytes,
                                 SimTime server_think, Listener& listener)
    : context_(context),
      options_(options),
      request_bytes_(request_bytes),
      server_think_(server_think),
      listener_(listener),
      agenda_(context.sim.events()) {
  // The server's controller, whatever the host's sharing scheme made, is tapped: a new segment
  // leaving is when the server's unsent data shrinks.
  const NodeId server = placement.to;
  ControllerFactory tapped = [this, inner = context.make_controller, server](
                                 const TcpConfig& config, SenderHandle& sender,
                                 const ConnectionContext& c) -> std::unique_ptr<CongestionControl> {
    std::unique_ptr<CongestionControl> controller = inner(config, sender, c);
    if (c.local != server) return controller;
    return std::make_unique<SentSegmentTap>(std::move(controller), [this] { OnServerSegmentSent(); });
  };
  tcp_ = &context.flows.AddTcp(std::move(name), placement.item, placement.from, placement.to, tcp, tapped,
                               placement.traits);
  flow_ = tcp_->id();
  tcp_->initiator().SetApplication(this);
  tcp_->responder().SetApplication(this);

  // RFC 9113 §3.4: the client's preface is the magic and a SETTINGS frame, which may be followed
  // by other frames at once. Chromium's carries its four settings (and SETTINGS_MAX_FRAME_SIZE
  // when it is not the initial value), then a WINDOW_UPDATE that raises the connection's window
  // to its own (net/spdy/spdy_session.cc, SendInitialData).
  const int settings = http2::kClientSettings + (options_.max_frame_bytes != http2::kDefaultMaxFrameBytes ? 1 : 0);
  ClientWrite(FrameKind::kPreface, 0, 0, http2::kPrefaceBytes);
  ClientWrite(FrameKind::kSettings, 0, 0, kFrameHeaderBytes + settings * http2::kSettingBytes);
  ClientWrite(FrameKind::kWindowUpdate, 0, http2::kClientConnectionWindowBytes - http2::kInitialWindowBytes,
              http2::kWindowUpdateBytes);
  tcp_->responder().Listen();
  tcp_->initiator().Open();
}

// RFC 9113 §4.3, §6.10: a header block larger than the peer's maximum frame size continues in
// CONTINUATION frames, each with its own frame header.
Bytes Http2Connection::HeaderBlockFrames(Bytes block, Bytes max_frame) const {
  const Bytes frames = std::max<Bytes>(1, (block + max_frame - 1) / max_frame);
  return block + frames * kFrameHeaderBytes;
}

void Http2Connection::Request(int object, Bytes body, ContentType content) {
  const StreamId id = next_stream_;
  next_stream_ += 2;
  Stream s;
  s.object = object;
  s.content = content;
  s.body = body;
  streams_.emplace(id, s);
  ++open_streams_;
  // The server announces no SETTINGS_MAX_FRAME_SIZE, so the client's frames stay within the
  // initial one.
  ClientWrite(FrameKind::kHeaders, id, 0, HeaderBlockFrames(request_bytes_, http2::kDefaultMaxFrameBytes));
}

void Http2Connection::Close() {
  closing_ = true;
  tcp_->initiator().Close();
  context_.flows.EndFlow(flow_);
}

void Http2Connection::Append(std::deque<Frame>& frames, Bytes& written, FrameKind kind, StreamId stream,
                             Bytes payload, Bytes bytes, bool end_stream) {
  written += bytes;
  Frame f;
  f.kind = kind;
  f.stream = stream;
  f.end = written;
  f.payload = payload;
  f.end_stream = end_stream;
  frames.push_back(f);
}

void Http2Connection::ClientWrite(FrameKind kind, StreamId stream, Bytes payload, Bytes bytes) {
  if (closing_) return;  // Nothing is written after the client has closed.
  Append(to_server_, client_written_, kind, stream, payload, bytes, false);
  if (connected_) {
    client_sent_ = client_written_;
    tcp_->initiator().Send(bytes);
  }
}

void Http2Connection::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  connected_ = true;
  if (client_written_ > client_sent_) {
    const Bytes pending = client_written_ - client_sent_;
    client_sent_ = client_written_;
    endpoint.Send(pending);
  }
}

void Http2Connection::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  if (endpoint.initiator()) {
    ClientRead(total);
  } else {
    ServerRead(total);
  }
}

// The client reads the server's frames as their bytes arrive in order: DATA payload is passed on
// as it comes (a frame decoder need not wait for a frame's end to deliver its data), everything
// else once whole.
void Http2Connection::ClientRead(Bytes total) {
  while (!to_client_.empty()) {
    Frame& front = to_client_.front();
    Bytes delta = 0;
    if (front.kind == FrameKind::kData) {
      const Bytes got = std::clamp<Bytes>(total - (front.end - front.payload), 0, front.payload);
      delta = got - front.consumed;
      front.consumed = got;
    }
    const Frame f = front;
    const bool whole = total >= f.end;
    if (whole) to_client_.pop_front();
    // The listener may request and close from here on; `f` is a copy.
    if (delta > 0) {
      Stream& s = streams_.at(f.stream);
      s.body_read += delta;
      s.unacked += delta;
      connection_unacked_ += delta;
      const int object = s.object;
      const Bytes read = s.body_read;
      // Chromium returns a window once more than half of it has been consumed, on a stream only
      // while the stream is open (net/spdy/spdy_stream.cc and spdy_session.cc,
      // IncreaseRecvWindowSize; RFC 9113 §6.9).
      const bool stream_ends = whole && f.end_stream;
      if (!stream_ends && s.unacked > http2::kClientStreamWindowBytes / 2) {
        const Bytes increment = s.unacked;
        s.unacked = 0;
        ClientWrite(FrameKind::kWindowUpdate, f.stream, increment, http2::kWindowUpdateBytes);
      }
      if (connection_unacked_ > http2::kClientConnectionWindowBytes / 2) {
        const Bytes increment = connection_unacked_;
        connection_unacked_ = 0;
        ClientWrite(FrameKind::kWindowUpdate, 0, increment, http2::kWindowUpdateBytes);
      }
      listener_.OnResponseBytes(object, read);
    }
    if (!whole) break;
    if (f.kind == FrameKind::kSettings) {
      ClientWrite(FrameKind::kSettingsAck, 0, 0, kFrameHeaderBytes);  // RFC 9113 §6.5.3.
    } else if (f.end_stream) {
      // RFC 9113 §5.1: END_STREAM closes the stream; the response is complete.
      const int object = streams_.at(f.stream).object;
      streams_.erase(f.stream);
      --open_streams_;
      listener_.OnResponseComplete(object);
    }
  }
}

// The server acts on each of the client's frames once it is whole.
void Http2Connection::ServerRead(Bytes total) {
  while (!to_server_.empty() && to_server_.front().end <= total) {
    const Frame f = to_server_.front();
    to_server_.pop_front();
    switch (f.kind) {
      case FrameKind::kPreface:
        // RFC 9113 §3.4: the server's preface, its first frame, is a SETTINGS frame; ours announces
        // SETTINGS_MAX_CONCURRENT_STREAMS.
        ServerWrite(FrameKind::kSettings, 0, 0, kFrameHeaderBytes + http2::kSettingBytes, false);
        break;
      case FrameKind::kSettings:
        // RFC 9113 §6.5.3: settings are acknowledged at once. The client's INITIAL_WINDOW_SIZE
        // becomes every stream's send window (§6.9.2); it arrives before any request.
        stream_initial_window_ = http2::kClientStreamWindowBytes;
        ServerWrite(FrameKind::kSettingsAck, 0, 0, kFrameHeaderBytes, false);
        break;
      case FrameKind::kWindowUpdate:
        if (f.stream == 0) {
          connection_window_ += f.payload;
        } else if (auto it = streams_.find(f.stream); it != streams_.end()) {
          it->second.send_window += f.payload;
        }
        TryWrite();
        break;
      case FrameKind::kHeaders: {
        streams_.at(f.stream).send_window = stream_initial_window_;
        const StreamId id = f.stream;
        auto respond = [this, id] {
          streams_.at(id).ready = true;
          turn_.push_back(id);
          TryWrite();
        };
        // Requests are answered independently: each response is ready its think time after its
        // request arrived, whatever else the server is doing.
        if (server_think_.ns() > 0) {
          agenda_.After(server_think_, std::move(respond));
        } else {
          respond();
        }
        break;
      }
      case FrameKind::kSettingsAck:
      case FrameKind::kData:
        break;
    }
  }
}

void Http2Connection::ServerWrite(FrameKind kind, StreamId stream, Bytes payload, Bytes bytes, bool end_stream) {
  Append(to_client_, server_written_, kind, stream, payload, bytes, end_stream);
  tcp_->responder().Send(bytes);
}

bool Http2Connection::Writable(const Stream& s) const {
  if (!s.ready) return false;
  if (!s.headers_written) return true;
  // RFC 9113 §6.9.1: DATA needs room in both the stream's and the connection's window.
  return s.body_written < s.body && s.send_window > 0 && connection_window_ > 0;
}

Http2Connection::StreamId Http2Connection::Pick() {
  StreamId best = 0;
  StreamPriority best_priority;
  for (StreamId id : turn_) {
    const Stream& s = streams_.at(id);
    if (!Writable(s)) continue;
    // Round robin: the first stream in turn that can write.
    if (options_.scheduler == Http2Scheduler::kRoundRobin) return id;
    // RFC 9218 §10: more urgent responses first; non-incremental ones of the same urgency one by one
    // in stream order, incremental ones sharing the connection in turn. Where the RFC leaves the
    // two kinds' mix open, non-incremental responses go first, as quiche orders them
    // (quiche/src/stream/mod.rs, StreamPriorityKey).
    const StreamPriority p = options_.priorities[static_cast<size_t>(s.content)];
    const bool better = best == 0 || p.urgency < best_priority.urgency ||
                        (p.urgency == best_priority.urgency && !p.incremental &&
                         (best_priority.incremental || id < best));
    if (better) {
      best = id;
      best_priority = p;
    }
  }
  return best;
}

void Http2Connection::WriteNextFrame(StreamId id) {
  Stream& s = streams_.at(id);
  if (!s.headers_written) {
    s.headers_written = true;
    ServerWrite(FrameKind::kHeaders, id, 0, HeaderBlockFrames(options_.response_headers_bytes, options_.max_frame_bytes),
                s.body == 0);
  } else {
    // RFC 9113 §4.2, §6.9.1: a DATA frame carries at most the client's maximum frame size, and no
    // more than the flow-control windows allow.
    const Bytes n = std::min({options_.max_frame_bytes, s.body - s.body_written, s.send_window, connection_window_});
    s.body_written += n;
    s.send_window -= n;
    connection_window_ -= n;
    ServerWrite(FrameKind::kData, id, n, kFrameHeaderBytes + n, s.body_written == s.body);
  }
  // The stream's turn is over: to the back of the line, or out once its response is written.
  const bool done = s.headers_written && s.body_written == s.body;
  turn_.erase(std::find(turn_.begin(), turn_.end(), id));
  if (!done) turn_.push_back(id);
}

// The server writes frames, choosing each when it writes it, while the connection's unsent data is
// below the low-water mark: Linux accepts a write while write_seq - snd_nxt < TCP_NOTSENT_LOWAT
// (tcp_stream_memory_free() in net/ipv4/tcp_ipv4.c, called with wake = 0 from tcp_sendmsg).
void Http2Connection::TryWrite() {
  if (waiting_for_space_) return;  // Woken by OnServerSegmentSent.
  const TcpEndpoint& server = tcp_->responder();
  for (;;) {
    const StreamId id = Pick();
    if (id == 0) return;
    if (options_.notsent_lowat > 0 && server.unsent_bytes() >= options_.notsent_lowat) {
      waiting_for_space_ = true;
      return;
    }
    WriteNextFrame(id);
  }
}

// A server blocked on the low-water mark is woken only once its unsent data is below half the mark
// (tcp_stream_memory_free() with wake = 1, from sk_stream_write_space), and writes after the stack
// has done with the segment that woke it.
void Http2Connection::OnServerSegmentSent() {
  if (!waiting_for_space_ || write_pending_) return;
  if (2 * tcp_->responder().unsent_bytes() >= options_.notsent_lowat) return;
  write_pending_ = true;
  agenda_.At(context_.sim.Now(), [this] {
    write_pending_ = false;
    waiting_for_space_ = false;
    TryWrite();
  });
}

}  // namespace tcb
