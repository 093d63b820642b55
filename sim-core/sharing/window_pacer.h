// Spreads one window's worth of segments over time, a segment every `interval`, until the window
// has been sent or its owner stops it: E-TCP's rate-based pacing of a cached ensemble's first window
// and of half-closed ensembles (Eggert et al. §3.1, §4.2).
#pragma once

#include <cstdint>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

class WindowPacer {
 public:
  // Paces `budget` bytes from `now` on, one segment every `interval`. ACKs for segments sent after
  // packet `last_uid` (the last one sent before pacing began) tell the ACK clock has started.
  void Start(SimTime now, SimTime interval, Bytes budget, uint64_t last_uid) {
    active_ = true;
    interval_ = interval;
    budget_ = budget;
    next_ = now;
    from_uid_ = last_uid;
  }
  void Stop() { active_ = false; }

  bool active() const { return active_; }
  // Whether a segment may leave at `now` (always, when not pacing).
  bool Allows(SimTime now) const { return !active_ || now >= next_; }
  SimTime next() const { return next_; }
  uint64_t from_uid() const { return from_uid_; }
  // A segment of `bytes` left at `now`; pacing ends once the budget is spent.
  void OnSent(SimTime now, Bytes bytes) {
    if (!active_) return;
    next_ = now + interval_;
    budget_ -= bytes;
    if (budget_ <= 0) active_ = false;
  }
  // One `mss` every interval while pacing, else 0.
  double rate_bps(Bytes mss) const {
    return active_ && interval_.ns() > 0 ? static_cast<double>(mss) * 8.0 / interval_.seconds() : 0.0;
  }

 private:
  bool active_ = false;
  SimTime interval_;
  SimTime next_;
  Bytes budget_ = 0;
  uint64_t from_uid_ = 0;
};

}  // namespace tcb
