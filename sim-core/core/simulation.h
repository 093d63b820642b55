// The simulation context shared by every component of one run: clock, event list, random streams
// and the run's memory account.
// There are no globals, so several simulations can run side by side in one process.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/event_list.h"
#include "core/memory_budget.h"
#include "core/rng.h"
#include "core/time.h"

namespace tcb {

class Simulation {
 public:
  explicit Simulation(uint64_t seed) : seed_(seed) {}
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  SimTime Now() const { return events_.Now(); }
  EventList& events() { return events_; }
  const EventList& events() const { return events_; }
  uint64_t seed() const { return seed_; }
  // What the run's growing parts have allocated, against the run's memory limit.
  MemoryBudget& memory() { return memory_; }
  const MemoryBudget& memory() const { return memory_; }

  // An independent random stream for the source called `name` (stable across scenario edits that
  // do not touch that source).
  Rng MakeRng(std::string_view name) const { return Rng::ForStream(seed_, name); }
  // MakeRng for the stream whose name has the Fnv1a64 hash `name_hash`.
  Rng MakeRngForNameHash(uint64_t name_hash) const { return Rng::ForStreamHash(seed_, name_hash); }

  // Runs events up to and including `until`, or until the list is empty or Stop() is called.
  void RunUntil(SimTime until) {
    stop_ = false;
    while (!stop_ && events_.RunNext(until)) {
    }
  }
  void Stop() { stop_ = true; }

 private:
  EventList events_;
  MemoryBudget memory_;
  uint64_t seed_;
  bool stop_ = false;
};

}  // namespace tcb
