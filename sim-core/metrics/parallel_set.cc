// Savorić §5's metrics.
#include "metrics/parallel_set.h"

#include <algorithm>
#include <map>

#include "metrics/summary.h"

namespace tcb {

ParallelSetMonitor::ParallelSetMonitor(const FlowRegistry& flows, std::vector<std::string> items)
    : flows_(flows), items_(std::move(items)) {}

bool ParallelSetMonitor::InSet(const FlowInfo& flow) const {
  return flow.protocol == Protocol::kTcp &&
         std::find(items_.begin(), items_.end(), flow.item) != items_.end();
}

Bytes ParallelSetMonitor::Delivered(FlowId flow) const {
  const TcpConnection& c = *flows_.connection(flow);
  return c.initiator().bytes_received() + c.responder().bytes_received();
}

void ParallelSetMonitor::ClosePeriod(SimTime now) {
  const SimTime span = now - period_start_;
  if (live_.size() >= 2 && span.ns() > 0) {
    std::vector<double> rates;
    for (const Live& l : live_) {
      rates.push_back(static_cast<double>(Delivered(l.flow) - l.bytes_at_period_start) / span.seconds());
    }
    jain_sum_ += JainIndex(rates);
    ++periods_;
  }
  for (Live& l : live_) l.bytes_at_period_start = Delivered(l.flow);
  period_start_ = now;
}

void ParallelSetMonitor::OnFlowStart(const FlowInfo& flow) {
  if (!InSet(flow)) return;
  ClosePeriod(flow.start);
  if (could_share_.size() <= static_cast<size_t>(flow.id)) {
    could_share_.resize(flow.id + 1, 0);
    overlapped_.resize(flow.id + 1, 0);
  }
  for (const Live& l : live_) {
    const TcpConnection& other = *flows_.connection(l.flow);
    // The data sender is the side the application wrote to.
    const TcpEndpoint& sender = other.initiator().bytes_written() >= other.responder().bytes_written()
                                    ? other.initiator()
                                    : other.responder();
    if ((sender.established() || sender.closed()) && sender.controller().rtt().has_sample()) {
      could_share_[flow.id] = 1;
    }
    overlapped_[l.flow] = 1;
    overlapped_[flow.id] = 1;
  }
  live_.push_back({flow.id, Delivered(flow.id)});
  ++members_;
}

void ParallelSetMonitor::OnFlowEnd(const FlowInfo& flow) {
  if (!InSet(flow)) return;
  auto it = std::find_if(live_.begin(), live_.end(), [&](const Live& l) { return l.flow == flow.id; });
  if (it == live_.end()) return;
  ClosePeriod(flow.end);
  live_.erase(it);
  const TcpConnection& c = *flows_.connection(flow.id);
  const TcpFlowRecord r = TcpFlowRecord::Of(c);
  if (flow.end > flow.start) {
    ended_.push_back({flow.id, static_cast<double>(r.bytes) / static_cast<double>(r.mss),
                      (flow.end - flow.start).seconds(), r.initial, r.mss});
  }
}

namespace {

// Sums for T1 and T2 over finished connections.
struct Throughput {
  int64_t count = 0;
  double segments = 0;
  double seconds = 0;
  double rate_sum = 0;

  void Add(double s, double d) {
    ++count;
    segments += s;
    seconds += d;
    rate_sum += s / d;
  }
  nlohmann::json Json() const {
    using nlohmann::json;
    return {{"connections", count},
            {"t1SegmentsPerS", seconds > 0 ? json(segments / seconds) : json(nullptr)},
            {"t2SegmentsPerS", count > 0 ? json(rate_sum / count) : json(nullptr)}};
  }
};

struct Mean {
  double sum = 0;
  int64_t n = 0;
  void Add(double x) {
    sum += x;
    ++n;
  }
  nlohmann::json Json() const { return n > 0 ? nlohmann::json(sum / n) : nlohmann::json(nullptr); }
};

}  // namespace

nlohmann::json ParallelSetMonitor::Summary(SimTime stop) {
  using nlohmann::json;
  ClosePeriod(stop);
  struct NewStats {
    Throughput throughput;
    Mean cwnd, ssthresh, srtt, rttvar;
  };
  std::map<std::string, NewStats> fresh;
  for (const std::string& item : items_) fresh[item];
  Throughput parallel;
  for (const Ended& e : ended_) {
    const FlowInfo& f = flows_.flows()[e.flow];
    if (f.end > stop) continue;
    if (overlapped_[e.flow]) parallel.Add(e.segments, e.seconds);
    if (!could_share_[e.flow]) continue;
    NewStats& n = fresh[f.item];
    n.throughput.Add(e.segments, e.seconds);
    if (!e.initial.valid) continue;
    const double mss = static_cast<double>(e.mss);
    n.cwnd.Add(static_cast<double>(e.initial.cwnd) / mss);
    n.ssthresh.Add(static_cast<double>(std::min(e.initial.ssthresh, TcpConfig::kInfiniteSsthresh)) / mss);
    if (e.initial.has_rtt) {
      n.srtt.Add(e.initial.srtt.seconds());
      n.rttvar.Add(e.initial.rttvar.seconds());
    }
  }
  json new_connections = json::object();
  for (const auto& [item, n] : fresh) {
    json j = n.throughput.Json();
    j["meanInitialCwndSegments"] = n.cwnd.Json();
    j["meanInitialSsthreshSegments"] = n.ssthresh.Json();
    j["meanInitialSrttS"] = n.srtt.Json();
    j["meanInitialRttvarS"] = n.rttvar.Json();
    new_connections[item] = std::move(j);
  }
  json parallel_json = parallel.Json();
  parallel_json["meanJainIndex"] = periods_ > 0 ? json(jain_sum_ / static_cast<double>(periods_)) : json(nullptr);
  parallel_json["periods"] = periods_;
  return {{"items", items_},
          {"connections", members_},
          {"newConnections", std::move(new_connections)},
          {"parallel", std::move(parallel_json)}};
}

}  // namespace tcb
