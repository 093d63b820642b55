// The largest sample over a sliding window of "time" (BBR's packet-timed rounds), in constant space:
// Kathleen Nichols' windowed min/max filter as Linux keeps it (lib/win_minmax.c,
// minmax_running_max()) for BBR's bottleneck-bandwidth estimate. It holds the best, second-best and
// third-best samples of successive sub-windows, so the maximum it reports is exact for samples that
// are still inside the window, and an old maximum ages out after `window` time units.
#pragma once

#include <cstdint>

namespace tcb {

class WindowedMax {
 public:
  // Forgets every sample: the filter holds `value`, taken at `t` (lib/win_minmax.c minmax_reset()).
  void Reset(uint64_t t, double value) { s_[0] = s_[1] = s_[2] = {t, value}; }

  // Adds the sample `value` taken at `t` (never earlier than the last) and returns the maximum over
  // the samples taken in (t - window, t] (lib/win_minmax.c minmax_running_max()).
  double Update(uint64_t window, uint64_t t, double value) {
    const Sample v{t, value};
    // A new maximum, or nothing left in the window: forget the older samples.
    if (v.value >= s_[0].value || v.t - s_[2].t > window) {
      Reset(t, value);
      return value;
    }
    if (v.value >= s_[1].value) {
      s_[2] = s_[1] = v;
    } else if (v.value >= s_[2].value) {
      s_[2] = v;
    }
    // minmax_subwin_update(): as time advances, promote the second and third choices.
    const uint64_t dt = v.t - s_[0].t;
    if (dt > window) {
      // The whole window passed without a new maximum: the second choice is the maximum now (and
      // the third, if the second is out of the window too).
      s_[0] = s_[1];
      s_[1] = s_[2];
      s_[2] = v;
      if (v.t - s_[0].t > window) {
        s_[0] = s_[1];
        s_[1] = s_[2];
        s_[2] = v;
      }
    } else if (s_[1].t == s_[0].t && dt > window / 4) {
      // A quarter of the window without a new second choice: take one from the second quarter.
      s_[2] = s_[1] = v;
    } else if (s_[2].t == s_[1].t && dt > window / 2) {
      // Half the window without a new third choice: take one from the second half.
      s_[2] = v;
    }
    return s_[0].value;
  }

  double best() const { return s_[0].value; }

 private:
  struct Sample {
    uint64_t t = 0;
    double value = 0;
  };
  Sample s_[3];
};

}  // namespace tcb
