// A free-list pool for objects that are created and destroyed at a high rate (packets): allocation
// and release are O(1) and touch no allocator after warm-up.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/memory_budget.h"

namespace tcb {

// Hands out default-initialised T objects from chunks that are never returned to the allocator while
// the pool lives. Release() puts an object back; objects left out are reported by live().
template <class T, size_t kChunk = 512>
class ObjectPool {
 public:
  ObjectPool() = default;
  ObjectPool(const ObjectPool&) = delete;
  ObjectPool& operator=(const ObjectPool&) = delete;

  T* Acquire() {
    if (free_.empty()) Grow();
    T* obj = free_.back();
    free_.pop_back();
    Blank(obj);
    ++live_;
    return obj;
  }
  void Release(T* obj) {
    free_.push_back(obj);
    --live_;
  }

  size_t live() const { return live_; }
  size_t capacity() const { return chunks_.size() * kChunk; }
  // Bytes a pooled object costs: itself and its free-list entry.
  static constexpr Bytes kBytesPerObject = sizeof(T) + sizeof(T*);

  // Charges every chunk allocated from now on (and the ones so far) to `budget` (not owned; must
  // outlive the pool's growth).
  void SetBudget(MemoryBudget* budget) {
    budget_ = budget;
    if (budget_ != nullptr) budget_->Charge(static_cast<Bytes>(capacity()) * kBytesPerObject);
  }

 private:
  void Grow() {
    if (budget_ != nullptr) budget_->Charge(static_cast<Bytes>(kChunk) * kBytesPerObject);
    chunks_.push_back(std::make_unique<T[]>(kChunk));
    T* chunk = chunks_.back().get();
    // Reverse order so objects are handed out in address order.
    for (size_t i = kChunk; i > 0; --i) free_.push_back(&chunk[i - 1]);
  }

  // Copies blank_ over `obj` in pieces of at most 64 bytes. Natively the pieces are the same few
  // vector moves as one copy. In WebAssembly a constant copy of more than 64 bytes (a packet's 152)
  // becomes memory.copy, which V8 (Node 20) runs as a call out of the module into the C library's
  // memmove, dearer than the moves; each piece instead becomes eight 64-bit loads and stores.
  void Blank(T* obj) const {
    static_assert(std::is_trivially_copyable_v<T>, "pooled objects are blanked by copying bytes");
    constexpr size_t kPiece = 64;
    auto* to = reinterpret_cast<unsigned char*>(obj);
    const auto* from = reinterpret_cast<const unsigned char*>(&blank_);
    for (size_t at = 0; at < sizeof(T); at += kPiece) std::memcpy(to + at, from + at, std::min(kPiece, sizeof(T) - at));
  }

  // A default-initialised T to copy from. For an object of a packet's size, `*obj = T{}` is
  // compiled to `rep stos` (GCC's generic x86-64 tuning) or `memory.fill` (WebAssembly), both slow
  // to start for a few hundred bytes, where a copy of a T becomes a few vector moves.
  const T blank_{};
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<T*> free_;
  size_t live_ = 0;
  MemoryBudget* budget_ = nullptr;  // Not owned; null: not accounted.
};

}  // namespace tcb
