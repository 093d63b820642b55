// The agenda.
#include "core/agenda.h"

#include <algorithm>

namespace tcb {

void Agenda::At(SimTime when, std::function<void()> action) {
  heap_.push_back({when, next_seq_++, std::move(action)});
  std::push_heap(heap_.begin(), heap_.end(), Later);
  if (!IsScheduled() || when < ScheduledAt()) events_.Schedule(*this, when);
}

void Agenda::OnEvent() {
  const SimTime now = events_.Now();
  // An action may add further actions, also for now; they run in this same loop, in order.
  while (!heap_.empty() && heap_.front().at <= now) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    std::function<void()> action = std::move(heap_.back().action);
    heap_.pop_back();
    action();
  }
  // Actions may have scheduled this source for a later item than the earliest one left.
  if (heap_.empty()) {
    events_.Cancel(*this);
  } else if (!IsScheduled() || ScheduledAt() != heap_.front().at) {
    events_.Schedule(*this, heap_.front().at);
  }
}

}  // namespace tcb
