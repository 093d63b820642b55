// Reno's window as Linux runs it.
#include "tcp/linux_reno.h"

namespace tcb {

void LinuxRenoOps::IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked_bytes) {
  uint32_t acked = delivered_.Take(now, acked_bytes, tcb.mss);
  uint32_t cwnd = LinuxSegments(tcb.cwnd, tcb.mss);
  // tcp_reno_cong_avoid(): "In 'safe' area, increase."
  if (LinuxInSlowStart(tcb)) {
    acked = LinuxSlowStart(&cwnd, acked, static_cast<uint64_t>(tcb.ssthresh / tcb.mss));
  }
  // "In dangerous area, increase slowly": tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked), w being
  // the window after slow start took its part of this ACK.
  if (acked > 0) LinuxCongAvoidAi(&cwnd, &credit_, cwnd, acked);
  // snd_cwnd_clamp is the owner's: it caps cwnd by the receive window afterwards.
  tcb.cwnd = Bytes{cwnd} * tcb.mss;
}

Bytes LinuxRenoOps::SsThresh(Tcb& tcb, SimTime, Bytes) {
  credit_ = 0;
  return Bytes{std::max<uint32_t>(LinuxSegments(tcb.cwnd, tcb.mss) >> 1U, 2)} * tcb.mss;
}

}  // namespace tcb
