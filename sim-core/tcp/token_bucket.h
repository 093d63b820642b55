// A token bucket for pacing (TCP/SPAND §5.2.5): `depth` segments of burst, refilled at `rate`
// segments per second; a segment leaves when a whole token is there.
#pragma once

#include <algorithm>

#include "core/time.h"

namespace tcb {

class TokenBucket {
 public:
  TokenBucket() = default;
  // Starts full: the first `depth` segments may leave at once.
  TokenBucket(double depth, double rate_per_second, SimTime now)
      : depth_(depth), rate_(rate_per_second), tokens_(depth), last_(now) {}

  SimTime NextSendTime(SimTime now) const {
    const double tokens = TokensAt(now);
    if (tokens >= 1.0 || rate_ <= 0) return now;
    // Round up so that the token is really there at that time.
    const double wait_ns = (1.0 - tokens) / rate_ * 1e9;
    return now + SimTime::Nanoseconds(static_cast<int64_t>(wait_ns) + 1);
  }
  // Takes one token for a segment sent now.
  void Consume(SimTime now) {
    tokens_ = TokensAt(now) - 1.0;
    last_ = now;
  }
  double depth() const { return depth_; }
  double rate() const { return rate_; }

 private:
  double TokensAt(SimTime now) const {
    return std::min(depth_, tokens_ + rate_ * (now - last_).seconds());
  }

  double depth_ = 0;
  double rate_ = 0;
  double tokens_ = 0;
  SimTime last_;
};

}  // namespace tcb
