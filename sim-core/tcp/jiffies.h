// The Linux kernel's tick clock for the `linux` rules that count in it: tcp_jiffies32 advances once
// every 1/HZ s (CONFIG_HZ: 1000 in x86_64_defconfig, 250 in Debian's kernels), and the timers of
// struct timer_list expire on a tick. Simulated time 0 is a tick.
#pragma once

#include <cstdint>

#include "core/time.h"

namespace tcb {

class Jiffies {
 public:
  explicit Jiffies(int hz) : tick_ns_(1'000'000'000 / hz) {}

  SimTime tick() const { return SimTime::Nanoseconds(tick_ns_); }
  // tcp_jiffies32 at `t`: the ticks completed.
  int64_t At(SimTime t) const { return t.ns() / tick_ns_; }
  // When the tick count reaches `jiffies`.
  SimTime Time(int64_t jiffies) const { return SimTime::Nanoseconds(jiffies * tick_ns_); }
  // include/linux/jiffies.h usecs_to_jiffies() (_usecs_to_jiffies() for an HZ dividing 1,000,000,
  // as every CONFIG_HZ choice does): rounds up.
  int64_t FromTime(SimTime d) const { return (d.ns() + tick_ns_ - 1) / tick_ns_; }
  // A timer_list armed at `now` for `jiffies` ticks (sk_reset_timer(sk, timer, jiffies + n)) fires
  // when the tick count reaches jiffies + n: up to one tick earlier than now + n ticks.
  SimTime Expiry(SimTime now, int64_t jiffies) const { return Time(At(now) + jiffies); }

 private:
  int64_t tick_ns_;
};

}  // namespace tcb
