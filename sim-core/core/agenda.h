// Several timed actions of one component behind a single event source: applications that wait for
// many things at once (a think time, a parse delay per object, a server's processing per request)
// keep them here, and only the earliest is on the event list.
#pragma once

#include <functional>
#include <vector>

#include "core/event_list.h"

namespace tcb {

class Agenda final : public EventSource {
 public:
  explicit Agenda(EventList& events) : events_(events) {}

  // Runs `action` at `when` (>= now). Actions due at the same time run in the order they were added.
  void At(SimTime when, std::function<void()> action);
  void After(SimTime delay, std::function<void()> action) { At(events_.Now() + delay, std::move(action)); }
  bool empty() const { return heap_.empty(); }

  void OnEvent() override;

 private:
  struct Item {
    SimTime at;
    uint64_t seq;
    std::function<void()> action;
  };
  static bool Later(const Item& x, const Item& y) { return x.at != y.at ? x.at > y.at : x.seq > y.seq; }

  EventList& events_;
  std::vector<Item> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace tcb
