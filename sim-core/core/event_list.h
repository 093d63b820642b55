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

// A binary min-heap of (time, seq, source). Rescheduling or cancelling leaves the old entry in the
// heap; it is recognised as stale by its sequence number and skipped when it reaches the top.
//
// The entry being run stays at the top of the heap while its source runs (every entry scheduled
// meanwhile orders after it), and most sources schedule themselves again from OnEvent (a link its
// next arrival): that entry then takes the top's place in one sift-down, instead of a pop and a push.
class EventList {
 public:
  EventList() : heap_(1, kSentinel) {}

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
  // Entries in the heap, stale ones included.
  size_t heap_size() const { return size_; }

 private:
  // 32 bytes (24 in the fields) so that an entry's offset is a shift of its index.
  struct alignas(32) Entry {
    SimTime at;
    uint64_t seq;
    EventSource* source;  // Not owned.
  };
  // Fills the slot past the last entry, so that a node's second child can be read without a bounds
  // test; it orders after any entry (sequence numbers never reach its own).
  static constexpr Entry kSentinel{SimTime::Infinite(), UINT64_MAX, nullptr};

  static bool Before(const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at < b.at : a.seq < b.seq;
  }
  [[noreturn]] void ThrowScheduledInPast(SimTime at) const;
  void Push(const Entry& e);
  // Removes the top entry; ReplaceTop puts `e` in its place.
  void PopTop();
  void ReplaceTop(Entry e) { SiftDown(0, e); }
  // Moves `e` down from the hole at `i` to its place.
  void SiftDown(size_t i, Entry e);
  bool TopIsStale() const { return size_ > 0 && heap_[0].source->pending_seq_ != heap_[0].seq; }
  void DropStaleTop();

  // heap_[0, size_) is the heap; heap_[size_] holds kSentinel.
  std::vector<Entry> heap_;
  size_t size_ = 0;
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
