// A run's own account of its memory: the parts of a run that grow with its traffic (the packet pool,
// link queues, connections, flow records, series and trace) charge what they allocate as they grow,
// so that a run that would exhaust its host stops first, with an error naming the limit and the
// part of the scenario that grew ("the queue of link bottleneck:router0>router1 holds 2104332
// packets"). Charges are made where structures grow (a pool's chunk, a queue's doubling, a flow's
// creation), never per event, so accounting costs the hot path nothing; the runner checks the
// account between slices of events (scenario/run.cc), so a run overshoots its limit by at most what
// one slice allocates. An operating-system limit on the process (the service's RLIMIT_AS) stays
// the backstop for what is not accounted here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

// A part of a run that holds memory in proportion to its traffic, and can say so in the scenario's
// words when the run must stop.
class MemoryPart {
 public:
  virtual ~MemoryPart() = default;
  // What the part holds now, in bytes (an estimate of its allocations).
  virtual Bytes MemoryBytes() const = 0;
  // What it holds, e.g. "the queue of link bottleneck:router0>router1 holds 2104332 packets".
  virtual std::string DescribeMemory() const = 0;
};

// Thrown by the runner when a run's account exceeds its limit.
class MemoryLimitExceeded : public std::runtime_error {
 public:
  MemoryLimitExceeded(std::string message, Bytes limit, std::string part)
      : std::runtime_error(std::move(message)), limit_(limit), part_(std::move(part)) {}
  Bytes limit() const { return limit_; }
  // DescribeMemory() of the largest part, or empty when no registered part holds anything.
  const std::string& part() const { return part_; }

 private:
  Bytes limit_;
  std::string part_;
};

class MemoryBudget {
 public:
  MemoryBudget() = default;
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // 0 (the default): no limit; charges are still counted.
  void SetLimit(Bytes limit) { limit_ = limit > 0 ? limit : 0; }
  Bytes limit() const { return limit_; }

  void Charge(Bytes bytes) {
    used_ += bytes;
    if (used_ > peak_) peak_ = used_;
  }
  void Refund(Bytes bytes) { used_ -= bytes; }
  Bytes used() const { return used_; }
  Bytes peak() const { return peak_; }
  bool Exceeded() const { return limit_ > 0 && used_ > limit_; }

  // Keeps `part` (not owned) for the report until the registration is destroyed.
  class Registration {
   public:
    Registration() = default;
    Registration(MemoryBudget* budget, size_t slot) : budget_(budget), slot_(slot) {}
    Registration(Registration&& other) noexcept { *this = std::move(other); }
    Registration& operator=(Registration&& other) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    ~Registration();

   private:
    void End();
    MemoryBudget* budget_ = nullptr;  // Not owned.
    size_t slot_ = 0;
  };
  [[nodiscard]] Registration Register(const MemoryPart* part);

  // The largest registered part by MemoryBytes(), or null when none holds anything.
  const MemoryPart* LargestPart() const;
  // Throws MemoryLimitExceeded naming the limit, the simulated time and the largest part.
  [[noreturn]] void ThrowExceeded(SimTime now) const;

 private:
  Bytes limit_ = 0;
  Bytes used_ = 0;
  Bytes peak_ = 0;
  std::vector<const MemoryPart*> parts_;  // Not owned; null where a registration ended.
  std::vector<size_t> free_slots_;
};

// "387 MB", "12 kB": a byte count as a person reads it (decimal units).
std::string HumanBytes(Bytes bytes);

}  // namespace tcb
