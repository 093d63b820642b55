// A run's memory account.
#include "core/memory_budget.h"

#include <cstdio>
#include <iterator>

namespace tcb {

MemoryBudget::Registration& MemoryBudget::Registration::operator=(Registration&& other) noexcept {
  if (this != &other) {
    End();
    budget_ = other.budget_;
    slot_ = other.slot_;
    other.budget_ = nullptr;
  }
  return *this;
}

MemoryBudget::Registration::~Registration() { End(); }

void MemoryBudget::Registration::End() {
  if (budget_ == nullptr) return;
  budget_->parts_[slot_] = nullptr;
  budget_->free_slots_.push_back(slot_);
  budget_ = nullptr;
}

MemoryBudget::Registration MemoryBudget::Register(const MemoryPart* part) {
  size_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
    parts_[slot] = part;
  } else {
    slot = parts_.size();
    parts_.push_back(part);
  }
  return Registration(this, slot);
}

const MemoryPart* MemoryBudget::LargestPart() const {
  const MemoryPart* largest = nullptr;
  Bytes most = 0;
  for (const MemoryPart* part : parts_) {
    if (part == nullptr) continue;
    const Bytes bytes = part->MemoryBytes();
    if (bytes > most) {
      most = bytes;
      largest = part;
    }
  }
  return largest;
}

void MemoryBudget::ThrowExceeded(SimTime now) const {
  const MemoryPart* largest = LargestPart();
  const std::string part = largest != nullptr ? largest->DescribeMemory() : std::string();
  char at[64];
  std::snprintf(at, sizeof at, "%.3f", now.seconds());
  std::string message = "the run needs more than its memory limit of " + HumanBytes(limit_) + " (at " + at +
                        " s of simulated time)";
  if (largest != nullptr) message += ": " + part + " (about " + HumanBytes(largest->MemoryBytes()) + ")";
  throw MemoryLimitExceeded(std::move(message), limit_, part);
}

std::string HumanBytes(Bytes bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0 || value >= 100) {
    std::snprintf(text, sizeof text, "%.0f %s", value, kUnits[unit]);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

}  // namespace tcb
