// Linux's shared window arithmetic (net/ipv4/tcp_cong.c).
#include "tcp/linux_cong.h"

namespace tcb {

uint32_t LinuxSlowStart(uint32_t* cwnd, uint32_t acked, uint64_t ssthresh) {
  // tcp_slow_start(): "acked -= cwnd - tp->snd_cwnd" after cwnd = min(snd_cwnd + acked, ssthresh).
  const auto next = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{*cwnd} + acked, ssthresh));
  const uint32_t left = acked - (next - *cwnd);
  *cwnd = next;
  return left;
}

void LinuxCongAvoidAi(uint32_t* cwnd, uint32_t* credit, uint32_t w, uint32_t acked) {
  // tcp_cong_avoid_ai(): "If credits accumulated at a higher w, apply them gently now."
  if (*credit >= w) {
    *credit = 0;
    ++*cwnd;
  }
  *credit += acked;
  if (*credit >= w) {
    const uint32_t delta = *credit / w;
    *credit -= delta * w;
    *cwnd += delta;
  }
}

}  // namespace tcb
