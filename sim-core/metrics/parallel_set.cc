// Savorić §5's metrics.
#include "metrics/parallel_set.h"

#include <algorithm>
#include <map>

#include "metrics/summary.h"

namespace tcb {

ParallelSetMonitor::ParallelSetMonitor(const FlowRegistry& flows, std::vector<std::string> items)
    : flows_(flows), items_(std::move(items)) {
  for (const std::string& item : items_) fresh_[item];
}

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
  bool could_share = false;
  for (Live& l : live_) {
    const TcpConnection& other = *flows_.connection(l.flow);
    // The data sender is the side the application wrote to.
    const TcpEndpoint& sender = other.initiator().bytes_written() >= other.responder().bytes_written()
                                    ? other.initiator()
                                    : other.responder();
    if ((sender.established() || sender.closed()) && sender.controller().rtt().has_sample()) {
      could_share = true;
    }
    l.overlapped = true;
  }
  live_.push_back({flow.id, Delivered(flow.id), could_share, !live_.empty()});
  ++members_;
}

void ParallelSetMonitor::OnFlowEnd(const FlowInfo& flow) {
  if (!InSet(flow)) return;
  auto it = std::find_if(live_.begin(), live_.end(), [&](const Live& l) { return l.flow == flow.id; });
  if (it == live_.end()) return;
  ClosePeriod(flow.end);
  const Live member = *it;
  live_.erase(it);
  if (flow.end <= flow.start) return;
  // The member is final: it no longer overlaps anyone new, and it ended before the run stopped.
  const TcpFlowRecord r = TcpFlowRecord::Of(*flows_.connection(flow.id));
  const double segments = static_cast<double>(r.bytes) / static_cast<double>(r.mss);
  const double seconds = (flow.end - flow.start).seconds();
  if (member.overlapped) parallel_.Add(segments, seconds);
  if (!member.could_share) return;
  NewStats& n = fresh_[flow.item];
  n.throughput.Add(segments, seconds);
  if (!r.initial.valid) return;
  const double mss = static_cast<double>(r.mss);
  n.cwnd.Add(static_cast<double>(r.initial.cwnd) / mss);
  n.ssthresh.Add(static_cast<double>(std::min(r.initial.ssthresh, TcpConfig::kInfiniteSsthresh)) / mss);
  if (r.initial.has_rtt) {
    n.srtt.Add(r.initial.srtt.seconds());
    n.rttvar.Add(r.initial.rttvar.seconds());
  }
}

void ParallelSetMonitor::Throughput::Add(double s, double d) {
  ++count;
  segments += s;
  seconds += d;
  rate_sum += s / d;
}

nlohmann::json ParallelSetMonitor::Throughput::Json() const {
  using nlohmann::json;
  return {{"connections", count},
          {"t1SegmentsPerS", seconds > 0 ? json(segments / seconds) : json(nullptr)},
          {"t2SegmentsPerS", count > 0 ? json(rate_sum / count) : json(nullptr)}};
}

void ParallelSetMonitor::Mean::Add(double x) {
  sum += x;
  ++n;
}

nlohmann::json ParallelSetMonitor::Mean::Json() const {
  return n > 0 ? nlohmann::json(sum / n) : nlohmann::json(nullptr);
}

nlohmann::json ParallelSetMonitor::Summary(SimTime stop) {
  using nlohmann::json;
  ClosePeriod(stop);
  json new_connections = json::object();
  for (const auto& [item, n] : fresh_) {
    json j = n.throughput.Json();
    j["meanInitialCwndSegments"] = n.cwnd.Json();
    j["meanInitialSsthreshSegments"] = n.ssthresh.Json();
    j["meanInitialSrttS"] = n.srtt.Json();
    j["meanInitialRttvarS"] = n.rttvar.Json();
    new_connections[item] = std::move(j);
  }
  json parallel_json = parallel_.Json();
  parallel_json["meanJainIndex"] = periods_ > 0 ? json(jain_sum_ / static_cast<double>(periods_)) : json(nullptr);
  parallel_json["periods"] = periods_;
  return {{"items", items_},
          {"connections", members_},
          {"newConnections", std::move(new_connections)},
          {"parallel", std::move(parallel_json)}};
}

}  // namespace tcb
