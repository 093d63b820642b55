// RFC 6937 Proportional Rate Reduction: during fast recovery, how much a SACK sender may send on
// each ACK so that the window comes down to ssthresh smoothly (in proportion to what the receiver
// got) instead of in one step, and grows back towards it by slow start when losses took the pipe
// below it (the slow-start reduction bound, PRR-SSRB, which RFC 6937 §3 recommends and Linux and
// ns-3's TcpPrrRecovery use by default).
#pragma once

#include <algorithm>

#include "core/units.h"

namespace tcb {

class Prr {
 public:
  // Fast recovery begins. RFC 6937 §3: prr_delivered = prr_out = 0; RecoverFS = snd.nxt - snd.una.
  void Start(Bytes recover_fs) {
    prr_delivered_ = 0;
    prr_out_ = 0;
    recover_fs_ = std::max<Bytes>(recover_fs, 1);
  }
  // RFC 6937 §3 "On every ACK starting or during fast recovery": `delivered` is DeliveredData (the
  // change in snd.una plus newly SACKed bytes), `pipe` RFC 6675's pipe after the ACK. Returns the
  // congestion window, pipe + sndcnt.
  Bytes OnAck(Bytes delivered, Bytes pipe, Bytes ssthresh, Bytes mss) {
    prr_delivered_ += delivered;
    Bytes sndcnt;
    if (pipe > ssthresh) {
      // Proportional rate reduction: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out.
      sndcnt = (prr_delivered_ * ssthresh + recover_fs_ - 1) / recover_fs_ - prr_out_;
    } else {
      // Slow-start reduction bound: limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS.
      const Bytes limit = std::max(prr_delivered_ - prr_out_, delivered) + mss;
      sndcnt = std::min(ssthresh - pipe, limit);
    }
    return pipe + std::max<Bytes>(sndcnt, 0);
  }
  // RFC 6937 §3 "On any data transmission or retransmission": prr_out += data sent.
  void OnSent(Bytes bytes) { prr_out_ += bytes; }

  Bytes prr_delivered() const { return prr_delivered_; }
  Bytes prr_out() const { return prr_out_; }

 private:
  Bytes prr_delivered_ = 0;
  Bytes prr_out_ = 0;
  Bytes recover_fs_ = 1;
};

}  // namespace tcb
