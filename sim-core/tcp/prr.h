// RFC 9937 Proportional Rate Reduction (PRR, which obsoletes RFC 6937): during fast recovery, how
// much a SACK sender may send on each ACK so that the data in flight comes down to ssthresh
// smoothly, in proportion to what the receiver got, instead of in one step; and how it grows back
// towards ssthresh when losses took it below (the reduction bound: conservative, PRR-CRB, by
// default; slow start, PRR-SSRB, on ACKs that show recovery making good progress).
//
// What RFC 9937 changed from RFC 6937, all here: RecoverFS leaves out what was SACKed before
// recovery began (§6.1), so that the reduction spreads over the data that can still be delivered;
// PRR-SSRB is chosen per ACK only when the ACK advances SND.UNA and shows no further loss
// ("safeACK", §6.2), PRR-CRB otherwise; the first ACK of recovery always lets the fast retransmit
// out (§6.2); an ACK that delivers nothing leaves cwnd as it is (§6.2); and recovery ends with
// cwnd = ssthresh (§6's completion step, taken by the controller, tcp/connection_control.cc).
#pragma once

#include <algorithm>
#include <optional>

#include "core/units.h"

namespace tcb {

class Prr {
 public:
  // RFC 9937 §6.1: RecoverFS, the data that may be delivered during recovery, from the state after
  // the ACK that starts it: SND.NXT - SND.UNA, less what the scoreboard held SACKed before that
  // ACK, plus what that ACK cumulatively acknowledged (the rare case of an ACK that both advances
  // SND.UNA and starts recovery).
  static Bytes RecoverFs(Bytes outstanding, Bytes sacked, Bytes newly_sacked, Bytes newly_acked) {
    return outstanding - (sacked - newly_sacked) + newly_acked;
  }

  // Recovery begins (RFC 9937 §6.1): prr_delivered = prr_out = 0.
  void Start(Bytes recover_fs) {
    prr_delivered_ = 0;
    prr_out_ = 0;
    recover_fs_ = std::max<Bytes>(recover_fs, 1);
  }

  // RFC 9937 §6.2, on every ACK that starts or arrives during recovery. `delivered` is
  // DeliveredData (the bytes this ACK newly acknowledged, cumulatively or selectively), `pipe` RFC
  // 6675's pipe after the ACK, `safe_ack` whether the ACK advanced SND.UNA and indicated no further
  // loss. Returns the congestion window, pipe + sndcnt; nothing when the ACK delivered nothing
  // (cwnd then stays as it is).
  std::optional<Bytes> OnAck(Bytes delivered, Bytes pipe, Bytes ssthresh, Bytes mss, bool safe_ack) {
    if (delivered <= 0) return std::nullopt;
    prr_delivered_ += delivered;
    Bytes sndcnt;
    if (pipe > ssthresh) {
      // Proportional rate reduction: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out.
      sndcnt = (prr_delivered_ * ssthresh + recover_fs_ - 1) / recover_fs_ - prr_out_;
    } else {
      // PRR-CRB by default: sndcnt = MAX(prr_delivered - prr_out, DeliveredData); PRR-SSRB (one
      // more SMSS) when recovery is in good progress; never beyond ssthresh - pipe.
      sndcnt = std::max(prr_delivered_ - prr_out_, delivered);
      if (safe_ack) sndcnt += mss;
      sndcnt = std::min(ssthresh - pipe, sndcnt);
    }
    // Force a fast retransmit upon entering recovery: nothing sent yet, nothing allowed.
    if (prr_out_ == 0 && sndcnt == 0) sndcnt = mss;
    return pipe + std::max<Bytes>(sndcnt, 0);
  }

  // RFC 9937 §6, on any data transmission or retransmission in recovery: prr_out += data sent.
  void OnSent(Bytes bytes) { prr_out_ += bytes; }

  Bytes prr_delivered() const { return prr_delivered_; }
  Bytes prr_out() const { return prr_out_; }
  Bytes recover_fs() const { return recover_fs_; }

 private:
  Bytes prr_delivered_ = 0;
  Bytes prr_out_ = 0;
  Bytes recover_fs_ = 1;
};

}  // namespace tcb
