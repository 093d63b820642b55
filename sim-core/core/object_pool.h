// A free-list pool for objects that are created and destroyed at a high rate (packets): allocation
// and release are O(1) and touch no allocator after warm-up.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

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
    *obj = blank_;
    ++live_;
    return obj;
  }
  void Release(T* obj) {
    free_.push_back(obj);
    --live_;
  }

  size_t live() const { return live_; }
  size_t capacity() const { return chunks_.size() * kChunk; }

 private:
  void Grow() {
    chunks_.push_back(std::make_unique<T[]>(kChunk));
    T* chunk = chunks_.back().get();
    // Reverse order so objects are handed out in address order.
    for (size_t i = kChunk; i > 0; --i) free_.push_back(&chunk[i - 1]);
  }

  // A default-initialised T to copy from. For an object of a packet's size, `*obj = T{}` is
  // compiled to `rep stos` (GCC's generic x86-64 tuning) or `memory.fill` (WebAssembly), both slow
  // to start for a few hundred bytes, where a copy of a T becomes a few vector moves.
  const T blank_{};
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<T*> free_;
  size_t live_ = 0;
};

}  // namespace tcb
