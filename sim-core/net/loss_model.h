// Loss models for a link direction: independent (Bernoulli) loss, or a list of packet ordinals to
// drop, for scripted experiments such as "three losses in one window".
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "net/packet.h"

namespace tcb {

class LossModel {
 public:
  virtual ~LossModel() = default;
  // Called once for every packet the link accepts, in order; true means the packet is lost in transit.
  virtual bool Lose(const Packet& packet) = 0;
};

class BernoulliLoss final : public LossModel {
 public:
  BernoulliLoss(double probability, Rng rng) : probability_(probability), rng_(rng) {}
  bool Lose(const Packet&) override { return rng_.NextDouble() < probability_; }

 private:
  double probability_;
  Rng rng_;
};

// Drops the packets whose 1-based ordinal among the packets accepted by the link is listed.
class ListLoss final : public LossModel {
 public:
  explicit ListLoss(std::vector<int64_t> ordinals);  // Any order; duplicates ignored.
  bool Lose(const Packet&) override;

 private:
  std::vector<int64_t> ordinals_;  // Sorted ascending.
  size_t next_ = 0;
  int64_t count_ = 0;
};

}  // namespace tcb
