// The totals of a run over its flows, transfers and pages (the summary's "run" and "items" members),
// folded in as each record becomes final, so that the run keeps no record of what has finished.
//
// The summary's floating-point sums are added in index order (flows by id, transfers and pages by
// index), and floating-point addition is not associative: to give the same bits whatever order
// records become final in, a record that is final before an earlier one waits in a queue until the
// earlier one is. A waiting entry is a few numbers; the queue spans from the oldest record still open
// to the newest final one (a flow that stays open for the whole run holds up the ones after it).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/flow_registry.h"

namespace tcb {

// Application bytes over [start, end) in bits per second; 0 over an empty span.
double GoodputBps(Bytes bytes, SimTime start, SimTime end);

// Jain, Chiu and Hawe's fairness index (sum x)^2 / (n sum x^2), one value at a time.
class JainAccumulator {
 public:
  void Add(double x) {
    sum_ += x;
    sum_sq_ += x * x;
    ++n_;
  }
  // 1 for an empty or all-zero set.
  double Index() const;
  size_t count() const { return n_; }

 private:
  double sum_ = 0;
  double sum_sq_ = 0;
  size_t n_ = 0;
};

// Page statistics over a set of pages (E-TCP §4: HTML and total time; Gürkan §4.1: the effective
// page retrieval rate, bytes of finished pages over the time spent retrieving them).
struct PageTotals {
  int64_t started = 0;
  int64_t completed = 0;
  double html_sum = 0;
  double total_sum = 0;
  double bytes = 0;
  double retrieval = 0;

  nlohmann::json Json() const;
};

class RunTotals final : public FlowObserver {
 public:
  // `items`: every traffic item, in scenario order (each has totals, flows or not). `fairness_items`:
  // the items whose TCP flows enter Jain's index; empty: every TCP flow.
  RunTotals(const std::vector<std::string>& items, const std::vector<std::string>& fairness_items);

  void OnFlowStart(const FlowInfo& flow) override;
  void OnFlowRecord(const FlowRecord& record) override;
  void OnTransferStart(size_t transfer, const TransferRecord& t, const FlowInfo& flow) override;
  void OnTransferRecord(size_t transfer, const TransferRecord& t) override;
  void OnPageStart(size_t page, const PageRecord& p) override;
  void OnPageRecord(size_t page, const PageRecord& p) override;

  // Folds what waited for the end of the run (the goodput of flows still open is measured up to
  // `stop`). Call once, after the flow registry's Finish().
  void Finish(SimTime stop);

  // The summary's members, after Finish(): "run" without the engine's counters (events, packets),
  // and "items".
  nlohmann::json RunJson() const;
  nlohmann::json ItemsJson() const;

 private:
  friend class RunTotalsPeer;

  struct ItemTotals {
    int64_t flows = 0;
    Bytes bytes = 0;
    int64_t transfers = 0;
    int64_t completed = 0;
    double completion_sum = 0;
    PageTotals pages;
  };
  // Entries opened in increasing key order, made ready in any order, and folded in key order: the
  // front entry as soon as it is ready.
  template <class T>
  class InOrder {
   public:
    void Open(uint64_t key, T value) { slots_.push_back({key, false, std::move(value)}); }
    // The entry with `key`, or null if there is none (never opened, or already folded).
    T* Find(uint64_t key);
    void MarkReady(uint64_t key);
    template <class Fold>
    void Drain(Fold fold) {
      while (!slots_.empty() && slots_.front().ready) {
        fold(slots_.front().value);
        slots_.pop_front();
      }
    }
    void MarkAllReady() {
      for (Slot& s : slots_) s.ready = true;
    }
    size_t size() const { return slots_.size(); }

   private:
    struct Slot {
      uint64_t key;
      bool ready;
      T value;
    };
    std::deque<Slot> slots_;
  };
  struct FairFlow {
    bool recorded = false;
    Bytes bytes = 0;
    SimTime start;
    SimTime end = SimTime::Infinite();
  };
  struct Transfer {
    ItemTotals* item;  // Not owned.
    SimTime start;
    SimTime end = SimTime::Infinite();
  };
  struct Page {
    ItemTotals* item;  // Not owned.
    bool completed = false;
    SimTime start, html_end, end, retrieval;
    Bytes bytes = 0;
  };

  ItemTotals& Item(const std::string& name) { return items_[name]; }
  void FoldFairFlow(const FairFlow& f);
  void FoldTransfer(const Transfer& t);
  void FoldPage(const Page& p);
  static void AddPage(PageTotals& totals, const Page& p);

  std::set<std::string> fairness_items_;
  std::map<std::string, ItemTotals> items_;
  int64_t tcp_flows_ = 0;
  int64_t udp_flows_ = 0;
  int64_t retransmissions_ = 0;
  int64_t timeouts_ = 0;
  size_t transfers_started_ = 0;
  int64_t transfers_completed_ = 0;
  double completion_sum_ = 0;
  JainAccumulator fairness_;
  PageTotals pages_;
  SimTime stop_ = SimTime::Infinite();  // Known once the run is over.
  InOrder<FairFlow> fair_flows_;  // By flow id.
  InOrder<Transfer> transfers_;   // By transfer index.
  InOrder<Page> pending_pages_;   // By page index.
};

}  // namespace tcb
