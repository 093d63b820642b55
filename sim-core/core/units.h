// Unit-bearing integer types: a bare int never means bytes or a rate.
#pragma once

#include <cstdint>

#include "core/time.h"

namespace tcb {

using Bytes = int64_t;
using BitsPerSec = int64_t;
// TCP sequence numbers are 64-bit and never wrap inside the simulator; exporters wrap them mod 2^32.
using SeqNo = int64_t;

using NodeId = int32_t;
using LinkId = int32_t;
using FlowId = int32_t;
inline constexpr NodeId kNoNode = -1;

// Time to serialise `bytes` onto a link of `rate`, rounded up to a whole nanosecond.
constexpr SimTime TransmissionTime(Bytes bytes, BitsPerSec rate) {
  // bytes * 8e9 overflows int64 only above ~1.1 GB per packet.
  const int64_t num = bytes * 8 * 1000000000LL;
  return SimTime::Nanoseconds((num + rate - 1) / rate);
}

}  // namespace tcb
