// Simulated time: a strong type over int64 nanoseconds, so a bare integer never means time.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace tcb {

// An instant or a duration of simulated time, in integer nanoseconds. Integer arithmetic keeps runs
// bit-identical across builds; conversions from seconds round to the nearest nanosecond.
class SimTime {
 public:
  constexpr SimTime() = default;

  static constexpr SimTime Zero() { return SimTime(0); }
  static constexpr SimTime Infinite() { return SimTime(std::numeric_limits<int64_t>::max()); }
  static constexpr SimTime Nanoseconds(int64_t ns) { return SimTime(ns); }
  static constexpr SimTime Microseconds(int64_t us) { return SimTime(us * 1000); }
  static constexpr SimTime Milliseconds(int64_t ms) { return SimTime(ms * 1000000); }
  static constexpr SimTime Seconds(int64_t s) { return SimTime(s * 1000000000); }
  // Rounds to the nearest nanosecond (half away from zero); the scenario parser uses this for inputs.
  static constexpr SimTime FromSeconds(double s) {
    double ns = s * 1e9;
    return SimTime(static_cast<int64_t>(ns < 0 ? ns - 0.5 : ns + 0.5));
  }
  static constexpr SimTime FromMilliseconds(double ms) {
    double ns = ms * 1e6;
    return SimTime(static_cast<int64_t>(ns < 0 ? ns - 0.5 : ns + 0.5));
  }

  constexpr int64_t ns() const { return ns_; }
  constexpr double seconds() const { return static_cast<double>(ns_) / 1e9; }
  constexpr double milliseconds() const { return static_cast<double>(ns_) / 1e6; }
  constexpr bool IsInfinite() const { return ns_ == std::numeric_limits<int64_t>::max(); }

  constexpr auto operator<=>(const SimTime&) const = default;
  constexpr SimTime operator+(SimTime o) const { return SimTime(ns_ + o.ns_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(ns_ - o.ns_); }
  constexpr SimTime& operator+=(SimTime o) { ns_ += o.ns_; return *this; }
  constexpr SimTime& operator-=(SimTime o) { ns_ -= o.ns_; return *this; }
  constexpr SimTime operator*(int64_t k) const { return SimTime(ns_ * k); }
  constexpr SimTime operator/(int64_t k) const { return SimTime(ns_ / k); }
  constexpr int64_t operator/(SimTime o) const { return ns_ / o.ns_; }

 private:
  constexpr explicit SimTime(int64_t ns) : ns_(ns) {}
  int64_t ns_ = 0;
};

constexpr SimTime Min(SimTime a, SimTime b) { return a < b ? a : b; }
constexpr SimTime Max(SimTime a, SimTime b) { return a < b ? b : a; }

// Rounds `t` up to the next multiple of `tick` (`t` itself when already on a tick). A zero tick means
// a clock of infinite resolution.
constexpr SimTime CeilToTick(SimTime t, SimTime tick) {
  if (tick.ns() <= 0) return t;
  int64_t q = t.ns() / tick.ns();
  if (q * tick.ns() < t.ns()) ++q;
  return SimTime::Nanoseconds(q * tick.ns());
}

}  // namespace tcb
