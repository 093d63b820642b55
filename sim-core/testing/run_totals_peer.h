// Tests' view inside the run totals: what waits to be folded.
#pragma once

#include "metrics/run_totals.h"

namespace tcb {

class RunTotalsPeer {
 public:
  // Entries waiting to be folded: fair flows, transfers and pages.
  static size_t Waiting(const RunTotals& t) {
    return t.fair_flows_.size() + t.transfers_.size() + t.pending_pages_.size();
  }
};

}  // namespace tcb
