// Run totals, folded in as records become final.
#include "metrics/run_totals.h"

#include <algorithm>

namespace tcb {

using nlohmann::json;

double GoodputBps(Bytes bytes, SimTime start, SimTime end) {
  const SimTime span = end - start;
  return span.ns() > 0 ? static_cast<double>(bytes) * 8.0 / span.seconds() : 0.0;
}

double JainAccumulator::Index() const {
  if (n_ == 0 || sum_sq_ == 0) return 1.0;
  // Jain, Chiu and Hawe, "A Quantitative Measure of Fairness and Discrimination for Resource
  // Allocation in Shared Computer Systems" (DEC-TR-301, 1984), §3: the index lies in [1/n, 1] and
  // is 1 when all are equal. Rounding of (sum x)^2 and n sum x^2 can put the quotient of equal
  // values one ulp above 1 (e.g. six goodputs of 6516278.134254906 B/s), outside
  // result.schema.json's bounds; it is 1.
  return std::min(1.0, sum_ * sum_ / (static_cast<double>(n_) * sum_sq_));
}

json PageTotals::Json() const {
  return {{"started", started},
          {"completed", completed},
          {"meanHtmlTimeS", completed > 0 ? json(html_sum / completed) : json(nullptr)},
          {"meanTotalTimeS", completed > 0 ? json(total_sum / completed) : json(nullptr)},
          {"retrievalRateBytesPerS", retrieval > 0 ? json(bytes / retrieval) : json(nullptr)}};
}

template <class T>
T* RunTotals::InOrder<T>::Find(uint64_t key) {
  auto it = std::lower_bound(slots_.begin(), slots_.end(), key,
                             [](const Slot& s, uint64_t k) { return s.key < k; });
  return it != slots_.end() && it->key == key ? &it->value : nullptr;
}

template <class T>
void RunTotals::InOrder<T>::MarkReady(uint64_t key) {
  auto it = std::lower_bound(slots_.begin(), slots_.end(), key,
                             [](const Slot& s, uint64_t k) { return s.key < k; });
  if (it != slots_.end() && it->key == key) it->ready = true;
}

RunTotals::RunTotals(const std::vector<std::string>& items, const std::vector<std::string>& fairness_items)
    : fairness_items_(fairness_items.begin(), fairness_items.end()) {
  for (const std::string& name : items) items_[name];
}

void RunTotals::OnFlowStart(const FlowInfo& flow) {
  if (flow.protocol != Protocol::kTcp) return;
  if (fairness_items_.empty() || fairness_items_.count(flow.item)) fair_flows_.Open(flow.id, FairFlow{});
}

void RunTotals::OnFlowRecord(const FlowRecord& r) {
  const FlowInfo& f = r.info;
  ItemTotals& item = Item(f.item);
  ++item.flows;
  if (f.protocol != Protocol::kTcp) {
    ++udp_flows_;
    item.bytes += r.udp.payload_received;
    return;
  }
  ++tcp_flows_;
  retransmissions_ += r.tcp.retransmissions;
  timeouts_ += r.tcp.timeouts;
  item.bytes += r.tcp.bytes;
  if (FairFlow* fair = fair_flows_.Find(f.id)) {
    *fair = FairFlow{true, r.tcp.bytes, f.start, f.end};
    // A flow still open at the end is measured up to the end of the run, known in Finish().
    if (!f.end.IsInfinite()) {
      fair_flows_.MarkReady(f.id);
      fair_flows_.Drain([this](const FairFlow& x) { FoldFairFlow(x); });
    }
  }
}

void RunTotals::FoldFairFlow(const FairFlow& f) {
  fairness_.Add(GoodputBps(f.bytes, f.start, f.end.IsInfinite() ? stop_ : f.end));
}

void RunTotals::OnTransferStart(size_t transfer, const TransferRecord& t, const FlowInfo& flow) {
  ++transfers_started_;
  ItemTotals& item = Item(flow.item);
  ++item.transfers;
  transfers_.Open(transfer, Transfer{&item, t.start});
}

void RunTotals::OnTransferRecord(size_t transfer, const TransferRecord& t) {
  if (Transfer* x = transfers_.Find(transfer)) x->end = t.end;
  transfers_.MarkReady(transfer);
  transfers_.Drain([this](const Transfer& x) { FoldTransfer(x); });
}

void RunTotals::FoldTransfer(const Transfer& t) {
  if (t.end.IsInfinite()) return;  // Unfinished: counted as started only.
  const double seconds = (t.end - t.start).seconds();
  ++transfers_completed_;
  completion_sum_ += seconds;
  ++t.item->completed;
  t.item->completion_sum += seconds;
}

void RunTotals::OnPageStart(size_t page, const PageRecord& p) {
  Page x;
  x.item = &Item(p.item);
  pending_pages_.Open(page, x);
}

void RunTotals::OnPageRecord(size_t page, const PageRecord& p) {
  if (Page* x = pending_pages_.Find(page)) {
    // Records are final by the time the run stops, so a page that has ended did so before the stop.
    x->completed = !p.end.IsInfinite();
    x->start = p.start;
    x->html_end = p.html_end;
    x->end = p.end;
    x->retrieval = p.retrieval;
    x->bytes = p.bytes;
  }
  pending_pages_.MarkReady(page);
  pending_pages_.Drain([this](const Page& x) { FoldPage(x); });
}

void RunTotals::AddPage(PageTotals& totals, const Page& p) {
  ++totals.started;
  if (!p.completed) return;
  ++totals.completed;
  totals.html_sum += (p.html_end - p.start).seconds();
  totals.total_sum += (p.end - p.start).seconds();
  totals.bytes += static_cast<double>(p.bytes);
  totals.retrieval += p.retrieval.seconds();
}

void RunTotals::FoldPage(const Page& p) {
  AddPage(p.item->pages, p);
  AddPage(pages_, p);
}

void RunTotals::Finish(SimTime stop) {
  stop_ = stop;
  fair_flows_.MarkAllReady();
  fair_flows_.Drain([this](const FairFlow& x) { FoldFairFlow(x); });
  transfers_.MarkAllReady();
  transfers_.Drain([this](const Transfer& x) { FoldTransfer(x); });
  pending_pages_.MarkAllReady();
  pending_pages_.Drain([this](const Page& x) { FoldPage(x); });
}

json RunTotals::RunJson() const {
  return {{"tcpFlows", tcp_flows_},
          {"udpFlows", udp_flows_},
          {"transfersStarted", transfers_started_},
          {"transfersCompleted", transfers_completed_},
          {"meanCompletionTimeS", transfers_completed_ > 0 ? json(completion_sum_ / transfers_completed_) : json(nullptr)},
          {"retransmissions", retransmissions_},
          {"timeouts", timeouts_},
          {"fairness", {{"jainIndex", fairness_.Index()}, {"flows", fairness_.count()}}},
          {"pages", pages_.Json()}};
}

json RunTotals::ItemsJson() const {
  json items = json::object();
  for (const auto& [name, t] : items_) {
    json j = {{"flows", t.flows},
              {"bytes", t.bytes},
              {"transfersStarted", t.transfers},
              {"transfersCompleted", t.completed},
              {"meanCompletionTimeS", t.completed > 0 ? json(t.completion_sum / t.completed) : json(nullptr)}};
    if (t.pages.started > 0) j["pages"] = t.pages.Json();
    items[name] = std::move(j);
  }
  return items;
}

}  // namespace tcb
