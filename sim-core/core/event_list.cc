// The event list and timers.
#include "core/event_list.h"

#include <stdexcept>
#include <string>

namespace tcb {

void EventList::Push(const Entry& e) {
  // The new entry takes the sentinel's slot; a sentinel is appended after it.
  heap_.push_back(kSentinel);
  Entry* const h = heap_.data();
  size_t i = size_++;
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (!Before(e, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

// `e` is a copy, so that its fields stay in registers while entries move (WebAssembly code reloads
// what a store may alias).
//
// The loop is written twice, for the two compilers' sake; both move the same entries. For
// WebAssembly the lesser child's key is chosen as values and equal times are marked unlikely: clang
// otherwise selects the child's index, then loads its time and sequence again through it, and
// computes both comparisons of Before() to select one, which V8 emits as written (two more loads and
// a longer dependent chain on every level). This cut the WASM run of dumbbell-bulk from 308 to
// 287 ms, modern-bulk-cubic 372 -> 344 and savoric-table4 2655 -> 2388 (fastest of 11, 11 and 5
// runs alternating with native, Node 20). GCC compiles that form to branches on the children's
// order, which cost native flavor-bbr 6% (5.2 -> 5.5 ms; a branch-free mask select still cost 3%),
// so native builds keep the form GCC turns into conditional moves.
void EventList::SiftDown(size_t i, const Entry e) {
  Entry* const h = heap_.data();
  const size_t n = size_;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    // The lesser child; the sentinel past the last entry never is.
#if defined(__wasm__)
    SimTime at = h[child].at;
    uint64_t seq = h[child].seq;
    const SimTime right_at = h[child + 1].at;
    const uint64_t right_seq = h[child + 1].seq;
    if (right_at < at || (__builtin_expect(right_at == at, 0) && right_seq < seq)) {
      ++child;
      at = right_at;
      seq = right_seq;
    }
    if (!(at < e.at || (__builtin_expect(at == e.at, 0) && seq < e.seq))) break;
#else
    if (Before(h[child + 1], h[child])) ++child;
    if (!Before(h[child], e)) break;
#endif
    h[i] = h[child];
    i = child;
  }
  h[i] = e;
}

void EventList::PopTop() {
  const Entry last = heap_[--size_];
  heap_[size_] = kSentinel;
  heap_.pop_back();
  if (size_ > 0) SiftDown(0, last);
}

void EventList::ThrowScheduledInPast(SimTime at) const {
  throw std::logic_error("event scheduled in the past: at " + std::to_string(at.ns()) +
                         " ns, now " + std::to_string(now_.ns()) + " ns");
}

void EventList::Cancel(EventSource& source) { source.pending_seq_ = 0; }

void EventList::DropStaleTop() {
  while (TopIsStale()) PopTop();
}

SimTime EventList::NextTime() {
  DropStaleTop();
  return size_ == 0 ? SimTime::Infinite() : heap_[0].at;
}

bool EventList::RunNext(SimTime until) {
  if (TopIsStale()) DropStaleTop();
  if (size_ == 0 || heap_[0].at > until) return false;
  // The entry stays at the top while its source runs: whatever is scheduled meanwhile is due at or
  // after now with a larger sequence number, so it orders after the entry and never rises above it.
  EventSource* const source = heap_[0].source;
  now_ = heap_[0].at;
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
