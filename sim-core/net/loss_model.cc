// Loss models.
#include "net/loss_model.h"

#include <algorithm>

namespace tcb {

ListLoss::ListLoss(std::vector<int64_t> ordinals) : ordinals_(std::move(ordinals)) {
  std::sort(ordinals_.begin(), ordinals_.end());
  ordinals_.erase(std::unique(ordinals_.begin(), ordinals_.end()), ordinals_.end());
}

bool ListLoss::Lose(const Packet&) {
  ++count_;
  while (next_ < ordinals_.size() && ordinals_[next_] < count_) ++next_;
  return next_ < ordinals_.size() && ordinals_[next_] == count_;
}

}  // namespace tcb
