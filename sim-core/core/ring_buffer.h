// A growable FIFO ring buffer with indexed access, cheaper than std::deque for the per-link queues.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "core/memory_budget.h"

namespace tcb {

template <class T>
class RingBuffer {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  T& front() { return slots_[head_]; }
  T& back() { return slots_[(head_ + size_ - 1) & mask_]; }
  // Element `i` counted from the front.
  T& operator[](size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask_]; }

  // Appends a value-initialised element and returns it, to be filled in place: a record built
  // elsewhere and copied in is stored field by field and read back in wider moves, which stalls
  // store-to-load forwarding.
  T& emplace_back() {
    if (size_ == slots_.size()) Grow();
    T& slot = slots_[(head_ + size_) & mask_];
    slot = T{};
    ++size_;
    return slot;
  }
  // Charges the slots allocated from now on to `budget` (not owned; must outlive the buffer's growth).
  void SetBudget(MemoryBudget* budget) { budget_ = budget; }
  size_t capacity() const { return slots_.size(); }

  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }

 private:
  void Grow() {
    const size_t capacity = slots_.empty() ? 16 : slots_.size() * 2;
    if (budget_ != nullptr) budget_->Charge(static_cast<Bytes>((capacity - slots_.size()) * sizeof(T)));
    std::vector<T> grown(capacity);
    for (size_t i = 0; i < size_; ++i) grown[i] = std::move((*this)[i]);
    slots_ = std::move(grown);
    head_ = 0;
    mask_ = capacity - 1;
  }

  std::vector<T> slots_;
  size_t head_ = 0;
  size_t size_ = 0;
  size_t mask_ = 0;
  MemoryBudget* budget_ = nullptr;  // Not owned; null: not accounted.
};

}  // namespace tcb
