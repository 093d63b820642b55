// The web client and its server.
#include "workload/web_client.h"

#include <algorithm>
#include <string>

namespace tcb {

namespace {
SimTime Seconds(double s) { return SimTime::FromSeconds(s); }
}  // namespace

WebClientApp::WebClientApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp,
                           HttpOptions http, const PageModel& pages, Rng rng)
    : Application(context, std::move(placement)),
      tcp_(tcp),
      http_(std::move(http)),
      model_(pages),
      rng_(rng),
      agenda_(context.sim.events()) {}

bool WebClientApp::MorePages() const { return http_.pages < 0 || pages_started_ < http_.pages; }

void WebClientApp::OnEvent() {
  if (context_.sim.Now() >= placement_.stop) {
    ClosePersistent();
    return;
  }
  StartPage();
}

void WebClientApp::StartPage() {
  const SimTime now = context_.sim.Now();
  retired_.clear();
  std::erase_if(sessions_, [&](const std::unique_ptr<Http2Connection>& s) {
    return s.get() != session_ && s->Finished(now);
  });
  page_ = model_.Page(pages_started_, rng_);
  const int n = static_cast<int>(page_.objects.size());
  objects_.assign(n, ObjectState{});
  // Children in the order the client meets their links.
  for (int i = 1; i < n; ++i) objects_[page_.objects[i].parent].children.push_back(i);
  for (ObjectState& o : objects_) {
    std::stable_sort(o.children.begin(), o.children.end(), [&](int a, int b) {
      return page_.objects[a].link_at < page_.objects[b].link_at;
    });
  }
  html_left_ = 0;
  for (const WebObject& o : page_.objects) html_left_ += o.content == ContentType::kHtml ? 1 : 0;
  record_ = context_.flows.BeginPage(placement_.item, placement_.copy, pages_started_,
                                     page_.TotalBytes(), n);
  ++pages_started_;
  ready_.clear();
  arrived_ = 0;
  in_flight_ = 0;
  retrieval_ = SimTime::Zero();
  next_open_ = now;
  glued_requested_ = false;
  if (http_.mode == HttpMode::kSegmentFilled) {
    // The client asks for the primary; the server fills its last segment with the inline objects
    // (Gürkan Table 4.7: primaries are multiples of 1460 bytes), so every object is on its way.
    for (int i = 0; i < n; ++i) MarkRequested(i, Persistent().tcp->id());
    const Bytes total = page_.TotalBytes();
    const Bytes mss = tcp_.mss;
    const Bytes first = std::min(total, (page_.objects[0].bytes + mss - 1) / mss * mss);
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) all[i] = i;
    Request(Persistent(), first, all);
    return;
  }
  ready_.push_back(0);
  Pump();
}

void WebClientApp::MakeKnown(int object) {
  auto ready = [this, object, page = pages_started_] {
    if (page != pages_started_) return;  // A delayed parse of a page already finished.
    ready_.push_back(object);
    Pump();
  };
  if (http_.client_parse.ns() > 0) {
    agenda_.After(http_.client_parse, std::move(ready));
  } else {
    ready();
  }
}

void WebClientApp::Pump() {
  const SimTime now = context_.sim.Now();
  auto wake_at = [this](SimTime t) {
    if (pump_pending_) return;
    pump_pending_ = true;
    agenda_.At(t, [this] {
      pump_pending_ = false;
      Pump();
    });
  };
  switch (http_.mode) {
    case HttpMode::kSerial:
      if (in_flight_ > 0 || ready_.empty()) return;
      if (now < next_open_) return wake_at(next_open_);
      OpenForObject(ready_.front());
      ready_.pop_front();
      return;
    case HttpMode::kParallel:
      while (!ready_.empty() && (http_.max_connections == 0 || open_objects_ < http_.max_connections)) {
        if (now < next_open_) return wake_at(next_open_);
        OpenForObject(ready_.front());
        ready_.pop_front();
        next_open_ = now + Seconds(http_.connection_gap.Draw(rng_));
      }
      return;
    case HttpMode::kPipelined:
      while (!ready_.empty() && (http_.max_outstanding == 0 || outstanding_ < http_.max_outstanding)) {
        const int object = ready_.front();
        ready_.pop_front();
        MarkRequested(object, Persistent().tcp->id());
        Request(Persistent(), page_.objects[object].bytes, {object});
      }
      return;
    case HttpMode::kPersistent:
      // A request goes to the most recently used idle connection (Chromium's socket pool:
      // TransportClientSocketPool::AssignIdleSocketToRequest in
      // net/socket/transport_client_socket_pool.cc), or to a new one while fewer than the limit
      // are open, or waits for a response to end.
      while (!ready_.empty()) {
        Connection* c = IdlePooled();
        if (c == nullptr) {
          if (http_.max_connections > 0 && static_cast<int>(pool_.size()) >= http_.max_connections) return;
          c = &OpenPooled();
        }
        const int object = ready_.front();
        ready_.pop_front();
        MarkRequested(object, c->tcp->id());
        Request(*c, page_.objects[object].bytes, {object});
      }
      return;
    case HttpMode::kHttp2:
      // RFC 9113 §5.1.2: a new stream per request, while fewer than SETTINGS_MAX_CONCURRENT_STREAMS
      // are open.
      while (!ready_.empty() && Session().CanOpenStream()) {
        const int object = ready_.front();
        ready_.pop_front();
        const WebObject& o = page_.objects[object];
        MarkRequested(object, Session().flow());
        Session().Request(object, o.bytes, o.content);
      }
      return;
    case HttpMode::kSegmentFilled: {
      // One request for the rest of the page once every link of the primary has been seen.
      if (glued_requested_ || ready_.size() < objects_[0].children.size()) return;
      glued_requested_ = true;
      const Bytes rest = page_.TotalBytes() - persistent_->responses.back();
      if (rest > 0) Request(*persistent_, rest, {});
      return;
    }
  }
}

void WebClientApp::OpenForObject(int object) {
  // "<flow>.p<page>.o<object>", built in place: HTTP/1.0 opens a connection per object.
  std::string name = placement_.flow_name;
  name.append(".p").append(std::to_string(pages_started_ - 1)).append(".o").append(std::to_string(object));
  ConnectionTraits traits = placement_.traits;
  traits.content = page_.objects[object].content;  // E-TCP §4: tickets follow the content.
  TcpConnection& tcp = context_.flows.AddTcp(std::move(name), placement_.item, placement_.from, placement_.to,
                                             tcp_, context_.make_controller, traits);
  auto owned = std::make_unique<Connection>();
  Connection& c = *owned;
  c.tcp = &tcp;
  connections_[tcp.id()] = std::move(owned);
  tcp.initiator().SetApplication(this);
  tcp.responder().SetApplication(this);
  ++open_objects_;
  MarkRequested(object, tcp.id());
  Request(c, page_.objects[object].bytes, {object});
  tcp.responder().Listen();
  tcp.initiator().Open();
}

std::string WebClientApp::PageFlowName() const {
  return http_.connection_per_page ? placement_.flow_name + ".p" + std::to_string(pages_started_ - 1)
                                   : placement_.flow_name;
}

WebClientApp::Connection& WebClientApp::Persistent() {
  if (persistent_ != nullptr) return *persistent_;
  TcpConnection& tcp = context_.flows.AddTcp(PageFlowName(), placement_.item, placement_.from, placement_.to,
                                             tcp_, context_.make_controller, placement_.traits);
  auto owned = std::make_unique<Connection>();
  owned->tcp = &tcp;
  owned->persistent = true;
  persistent_ = owned.get();
  connections_[tcp.id()] = std::move(owned);
  tcp.initiator().SetApplication(this);
  tcp.responder().SetApplication(this);
  tcp.responder().Listen();
  tcp.initiator().Open();
  return *persistent_;
}

WebClientApp::Connection* WebClientApp::IdlePooled() {
  Connection* best = nullptr;
  for (Connection* c : pool_) {
    if (c->response_ends.empty() && (best == nullptr || c->last_used > best->last_used)) best = c;
  }
  return best;
}

WebClientApp::Connection& WebClientApp::OpenPooled() {
  const std::string name = PageFlowName() + ".c" + std::to_string(pool_.size());
  TcpConnection& tcp = context_.flows.AddTcp(name, placement_.item, placement_.from, placement_.to, tcp_,
                                             context_.make_controller, placement_.traits);
  auto owned = std::make_unique<Connection>();
  Connection& c = *owned;
  c.tcp = &tcp;
  c.persistent = true;
  connections_[tcp.id()] = std::move(owned);
  pool_.push_back(&c);
  tcp.initiator().SetApplication(this);
  tcp.responder().SetApplication(this);
  tcp.responder().Listen();
  tcp.initiator().Open();
  return c;
}

Http2Connection& WebClientApp::Session() {
  if (session_ == nullptr) {
    sessions_.push_back(std::make_unique<Http2Connection>(context_, placement_, PageFlowName(), tcp_, http_.http2,
                                                          http_.request_bytes, http_.server_think, *this));
    session_ = sessions_.back().get();
  }
  return *session_;
}

void WebClientApp::Request(Connection& c, Bytes response, const std::vector<int>& objects) {
  for (int o : objects) {
    c.extents.emplace_back() = Extent{o, c.stream_end, c.stream_end + page_.objects[o].bytes};
    c.stream_end += page_.objects[o].bytes;
  }
  c.responses_total += response;
  c.response_ends.emplace_back() = c.responses_total;
  c.responses.push_back(response);
  ++outstanding_;
  if (c.connected) {
    WriteRequests(c, 1);
  } else {
    ++c.requests_unsent;
  }
}

void WebClientApp::WriteRequests(Connection& c, int64_t n) {
  if (n > 0) c.tcp->initiator().Send(n * http_.request_bytes);
}

void WebClientApp::MarkRequested(int object, FlowId flow) {
  ObjectState& s = objects_[object];
  s.requested = true;
  s.transfer = context_.flows.BeginTransfer(flow, page_.objects[object].bytes);
  if (in_flight_++ == 0) busy_since_ = context_.sim.Now();
}

WebClientApp::Connection& WebClientApp::ConnectionOf(const TcpEndpoint& endpoint) {
  return *connections_.at(endpoint.flow());
}

void WebClientApp::OnConnected(TcpEndpoint& endpoint) {
  if (!endpoint.initiator()) return;
  Connection& c = ConnectionOf(endpoint);
  c.connected = true;
  WriteRequests(c, c.requests_unsent);
  c.requests_unsent = 0;
}

void WebClientApp::OnDataReceived(TcpEndpoint& endpoint, Bytes total) {
  Connection& c = ConnectionOf(endpoint);
  const SimTime now = context_.sim.Now();
  if (!endpoint.initiator()) {
    // The server: every complete request is answered, in order, after the server's think time.
    const size_t complete = static_cast<size_t>(total / http_.request_bytes);
    while (c.responses_scheduled < complete && c.responses_scheduled < c.responses.size()) {
      const Bytes size = c.responses[c.responses_scheduled++];
      const SimTime at = Max(now, c.server_free) + http_.server_think;
      c.server_free = at;
      TcpEndpoint* server = &endpoint;
      const bool close = !c.persistent;
      auto respond = [server, size, close] {
        server->Send(size);
        if (close) server->Close();
      };
      if (at == now) {
        respond();
      } else {
        agenda_.At(at, std::move(respond));
      }
    }
    return;
  }
  while (!c.response_ends.empty() && c.response_ends.front() <= total) {
    c.response_ends.pop_front();
    --outstanding_;
    if (c.response_ends.empty()) c.last_used = ++uses_;
  }
  while (!c.extents.empty()) {
    const Extent e = c.extents.front();
    if (total <= e.begin) break;
    SeeLinks(e.object, std::min(total, e.end) - e.begin);
    if (total < e.end) break;
    c.extents.pop_front();
    const bool object_connection_done = !c.persistent;
    if (object_connection_done) {
      context_.flows.EndFlow(endpoint.flow());
      --open_objects_;
      if (http_.mode == HttpMode::kSerial) next_open_ = now + Seconds(http_.connection_gap.Draw(rng_));
      // Nothing more comes on it (the server has closed its side); only closing callbacks remain.
      connections_.erase(endpoint.flow());
    }
    ObjectArrived(e.object);
    if (object_connection_done) break;
  }
  if (arrived_ < static_cast<int>(objects_.size())) Pump();
}

void WebClientApp::SeeLinks(int parent, Bytes read) {
  // Segment-filled: the glued response carries everything the primary names, and more.
  if (http_.mode == HttpMode::kSegmentFilled && parent != 0) return;
  const Bytes size = page_.objects[parent].bytes;
  if (http_.discovery == LinkDiscovery::kAfterHtml && read < size) return;
  ObjectState& p = objects_[parent];
  while (p.next_child < p.children.size()) {
    const int child = p.children[p.next_child];
    const double at = page_.objects[child].link_at * static_cast<double>(size);
    if (static_cast<double>(read) < at) break;
    ++p.next_child;
    MakeKnown(child);
  }
}

void WebClientApp::ObjectArrived(int object) {
  const SimTime now = context_.sim.Now();
  objects_[object].done = true;
  context_.flows.EndTransfer(objects_[object].transfer);
  ++arrived_;
  if (--in_flight_ == 0) retrieval_ = retrieval_ + (now - busy_since_);
  PageRecord& record = context_.flows.page(record_);
  if (page_.objects[object].content == ContentType::kHtml && --html_left_ == 0) record.html_end = now;
  if (arrived_ == static_cast<int>(objects_.size())) FinishPage();
}

void WebClientApp::FinishPage() {
  const SimTime now = context_.sim.Now();
  PageRecord& record = context_.flows.page(record_);
  record.end = now;
  if (record.html_end.IsInfinite()) record.html_end = now;  // A page without HTML.
  record.retrieval = retrieval_;
  context_.flows.EndPage(record_);
  const bool more = MorePages();
  if (more) context_.sim.events().Schedule(*this, now + Seconds(http_.think.Draw(rng_)));
  // Gürkan §4.5: with a connection per web document, the client closes it once the page is in.
  if (http_.connection_per_page || !more) ClosePersistent();
}

void WebClientApp::ClosePersistent() {
  auto close = [this](Connection& c) {
    const FlowId flow = c.tcp->id();
    c.tcp->initiator().Close();
    context_.flows.EndFlow(flow);
    if (http_.connection_per_page) {
      retired_.push_back(std::move(connections_.at(flow)));
      connections_.erase(flow);
    }
  };
  if (persistent_ != nullptr) close(*persistent_);
  for (Connection* c : pool_) close(*c);
  if (session_ != nullptr) session_->Close();
  if (http_.connection_per_page) {
    persistent_ = nullptr;
    pool_.clear();
    session_ = nullptr;
  }
}

void WebClientApp::OnPeerClosed(TcpEndpoint& endpoint) { endpoint.Close(); }

void WebClientApp::OnResponseBytes(int object, Bytes body_read) { SeeLinks(object, body_read); }

void WebClientApp::OnResponseComplete(int object) {
  ObjectArrived(object);
  if (arrived_ < static_cast<int>(objects_.size())) Pump();
}

}  // namespace tcb
