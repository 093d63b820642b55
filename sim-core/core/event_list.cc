// The event list and timers.
#include "core/event_list.h"

#include <stdexcept>
#include <string>

namespace tcb {

void EventList::Push(const Entry& e) {
  heap_.push_back(e);
  size_t i = heap_.size() - 1;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!Later(heap_[parent], e)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventList::SiftDown(size_t i, const Entry& e, size_t n) {
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && Later(heap_[child], heap_[child + 1])) ++child;
    if (!Later(e, heap_[child])) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = e;
}

void EventList::PopTop() {
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftDown(0, last, heap_.size());
}

void EventList::ReplaceTop(const Entry& e) { SiftDown(0, e, heap_.size()); }

void EventList::ThrowScheduledInPast(SimTime at) const {
  throw std::logic_error("event scheduled in the past: at " + std::to_string(at.ns()) +
                         " ns, now " + std::to_string(now_.ns()) + " ns");
}

void EventList::Cancel(EventSource& source) { source.pending_seq_ = 0; }

void EventList::DropStaleTop() {
  while (!heap_.empty() && heap_.front().source->pending_seq_ != heap_.front().seq) PopTop();
}

SimTime EventList::NextTime() {
  DropStaleTop();
  return heap_.empty() ? SimTime::Infinite() : heap_.front().at;
}

bool EventList::RunNext(SimTime until) {
  DropStaleTop();
  if (heap_.empty() || heap_.front().at > until) return false;
  // The entry stays at the top while its source runs: whatever is scheduled meanwhile is due at or
  // after now with a larger sequence number, so it orders after the entry and never rises above it.
  EventSource* const source = heap_.front().source;
  now_ = heap_.front().at;
  source->pending_seq_ = 0;
  ++events_executed_;
  running_ = source;
  has_replacement_ = false;
  source->OnEvent();
  running_ = nullptr;
  if (has_replacement_) {
    ReplaceTop(replacement_);
  } else {
    PopTop();
  }
  return true;
}

// Out of line (with the WASM link's limit on inlining single-caller functions, wasm/CMakeLists.txt):
// inlined into the very large RunScenario the loop ran about 13% slower under V8.
[[gnu::noinline]] uint64_t EventList::RunBatch(SimTime until, uint64_t max_events) {
  uint64_t ran = 0;
  while (ran < max_events && RunNext(until)) ++ran;
  return ran;
}

void Timer::Set(SimTime deadline) {
  deadline_ = deadline;
  armed_ = true;
  // A later deadline is picked up when the pending event fires; an earlier one needs a new event.
  if (!IsScheduled() || deadline < ScheduledAt()) events_.Schedule(*this, deadline);
}

void Timer::Stop() {
  armed_ = false;
  events_.Cancel(*this);
}

void Timer::OnEvent() {
  if (!armed_) return;
  if (events_.Now() < deadline_) {
    events_.Schedule(*this, deadline_);
    return;
  }
  armed_ = false;
  callback_(owner_);
}

}  // namespace tcb
