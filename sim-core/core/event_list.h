// The event list: components are event sources with at most one pending event each, keyed by
// (time, sequence) so that equal-time events run in the order they were scheduled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace tcb {

class EventList;

// A component that wants to be called back at a simulated time. It has at most one pending event:
// scheduling again replaces the previous one, so the event list grows with components, not packets.
class EventSource {
 public:
  EventSource() = default;
  EventSource(const EventSource&) = delete;
  EventSource& operator=(const EventSource&) = delete;
  virtual ~EventSource() = default;

  // Called by the event list when the pending event comes due.
  virtual void OnEvent() = 0;

  bool IsScheduled() const { return pending_seq_ != 0; }
  SimTime ScheduledAt() const { return pending_at_; }
  // The latest time this source was ever scheduled for. Rescheduling and cancelling leave entries
  // in the event list until their time (they are recognised as stale then), so a source may be
  // destroyed only once the clock has passed this time.
  SimTime LastEntryAt() const { return last_entry_at_; }

 private:
  friend class EventList;
  uint64_t pending_seq_ = 0;  // 0: nothing pending.
  SimTime pending_at_;
  SimTime last_entry_at_;
};

// A binary heap of (time, seq, source). Rescheduling or cancelling leaves the old entry in the heap;
// it is recognised as stale by its sequence number and skipped when it reaches the top.
//
// The entry being run stays at the top of the heap while its source runs (every entry scheduled
// meanwhile orders after it), and most sources schedule themselves again from OnEvent (a link its
// next arrival): that entry then takes the top's place in one sift-down, instead of a pop and a push.
class EventList {
 public:
  SimTime Now() const { return now_; }

  // Schedules `source` at `at` (>= Now()), replacing any pending event of that source.
  void Schedule(EventSource& source, SimTime at) {
    if (at < now_) ThrowScheduledInPast(at);
    const uint64_t seq = next_seq_++;
    source.pending_seq_ = seq;
    source.pending_at_ = at;
    if (at > source.last_entry_at_) source.last_entry_at_ = at;
    if (&source == running_) {
      // Replaces an earlier self-schedule of this run, which would have been stale.
      replacement_ = Entry{at, seq, &source};
      has_replacement_ = true;
      return;
    }
    Push(Entry{at, seq, &source});
  }
  void ScheduleIn(EventSource& source, SimTime delay) { Schedule(source, now_ + delay); }
  void Cancel(EventSource& source);

  // Runs the next live event if it is due at or before `until`; returns false when none is.
  bool RunNext(SimTime until);
  // Runs live events due at or before `until`, at most `max_events` of them; returns how many ran.
  uint64_t RunBatch(SimTime until, uint64_t max_events);
  // Time of the next live event, or SimTime::Infinite() when the list is empty.
  SimTime NextTime();

  uint64_t events_executed() const { return events_executed_; }
  size_t heap_size() const { return heap_.size(); }

 private:
  struct Entry {
    SimTime at;
    uint64_t seq;
    EventSource* source;  // Not owned.
  };
  static bool Later(const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at > b.at : a.seq > b.seq;
  }
  [[noreturn]] void ThrowScheduledInPast(SimTime at) const;
  void Push(const Entry& e);
  // Removes the top entry; ReplaceTop puts `e` in its place.
  void PopTop();
  void ReplaceTop(const Entry& e);
  // Moves `e` down from the hole at `i` to its place among the first `n` entries.
  void SiftDown(size_t i, const Entry& e, size_t n);
  void DropStaleTop();

  std::vector<Entry> heap_;
  SimTime now_;
  uint64_t next_seq_ = 1;
  uint64_t events_executed_ = 0;
  // The source whose event is running, and the entry it scheduled for itself meanwhile.
  EventSource* running_ = nullptr;  // Not owned.
  bool has_replacement_ = false;
  Entry replacement_{};
};

// A timer owned by a component: a callback at a deadline. Moving the deadline later costs nothing until
// the old deadline arrives (the timer then re-arms itself), which keeps per-ACK restarts of an RTO
// timer off the heap.
class Timer final : public EventSource {
 public:
  using Callback = void (*)(void* owner);

  Timer(EventList& events, void* owner, Callback callback)
      : events_(events), owner_(owner), callback_(callback) {}

  // Builds a timer that calls `owner->*Method()`.
  template <auto Method, class T>
  static Timer For(EventList& events, T* owner) {
    return Timer(events, owner, [](void* o) { (static_cast<T*>(o)->*Method)(); });
  }

  // Arms (or re-arms) the timer to fire at `deadline`.
  void Set(SimTime deadline);
  void Stop();
  bool IsArmed() const { return armed_; }
  SimTime Deadline() const { return deadline_; }

  void OnEvent() override;

 private:
  EventList& events_;
  void* owner_;  // Not owned.
  Callback callback_;
  SimTime deadline_;
  bool armed_ = false;
};

}  // namespace tcb
