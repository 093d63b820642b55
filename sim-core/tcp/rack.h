// RFC 8985 RACK-TLP: loss detection by time over the sender's SentLog. A segment is lost once a
// segment sent after it has been delivered and RACK.rtt + RACK.reo_wnd has passed since it was
// sent (RACK, §6); segments not yet past that deadline wait for the reordering timer. The tail
// loss probe's timeout (TLP, §7.2) is computed here too; the controller (tcp/connection_control.cc)
// arms the timers, sends the probe and starts recovery.
//
// The reordering window is RFC 8985 §6.2's, without its DSACK-driven growth: our receiver sends no
// D-SACK (RFC 2883) blocks, so RACK.reo_wnd_mult stays 1 and the window is min_RTT / 4, capped by
// SRTT (zero in recovery, or once DupThresh segments are SACKed, while no reordering has been
// seen).
#pragma once

#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "tcp/sent_log.h"

namespace tcb {

// RFC 8985 §6.2 RACK_sent_after(): segment 1 (sent at t1, ending at seq1) was sent after segment 2;
// equal times (a burst sent at one instant) are ordered by sequence.
inline bool RackSentAfter(SimTime t1, SeqNo seq1, SimTime t2, SeqNo seq2) {
  return t1 > t2 || (t1 == t2 && seq1 > seq2);
}

class Rack {
 public:
  // What loss detection needs to know of the connection besides the SentLog.
  struct Context {
    SimTime now;
    SimTime min_rtt;      // RACK.min_RTT (§6.2 step 1); Infinite before any sample.
    bool has_srtt = false;
    SimTime srtt;
    bool in_recovery = false;  // In fast recovery or RTO recovery.
    int dupthresh = 3;
  };
  struct Detection {
    Bytes newly_lost = 0;
    // RFC 8985 §6.2 step 5: how long until the latest deadline of a segment that may still turn out
    // lost (the reordering timer's timeout); zero when there is none.
    SimTime timeout;
  };

  // RFC 8985 §6.2 steps 2 and 3, for the segments one ACK delivered, cumulatively or selectively
  // (in ascending sequence order, as SentLog::OnAck lists them): RACK.xmit_ts, RACK.end_seq and
  // RACK.rtt follow the most recently sent of them, and RACK.fack the highest, below which a
  // delivery of a never-retransmitted segment means reordering.
  void OnDelivered(SimTime now, const std::vector<SentRecord>& segments, SimTime min_rtt);
  // RFC 8985 §6.2 step 4, RACK_update_reo_wnd() without DSACK rounds.
  SimTime ReorderingWindow(const SentLog& log, const Context& c) const;
  // RFC 8985 §6.2 step 5, RACK_detect_loss(): marks lost, in `log`, every segment sent before
  // RACK.xmit_ts whose deadline (its transmission + RACK.rtt + RACK.reo_wnd) has passed. A
  // retransmission counts as a segment of its own: one marked lost is sent again.
  Detection DetectLoss(SentLog& log, const Context& c) const;

  // A segment has been delivered since the connection started (RACK.rtt is defined).
  bool has_rtt() const { return has_rtt_; }
  SimTime rtt() const { return rtt_; }
  SimTime xmit_ts() const { return xmit_ts_; }
  SeqNo end_seq() const { return end_seq_; }
  bool reordering_seen() const { return reordering_seen_; }

 private:
  bool has_rtt_ = false;
  SimTime xmit_ts_;
  SeqNo end_seq_ = 0;
  SimTime rtt_;
  SeqNo fack_ = 0;
  bool reordering_seen_ = false;
};

// RFC 8985 §7.2 TLP_calc_PTO(): two smoothed RTTs, plus the receiver's worst-case delayed-ACK
// allowance when a single segment is in flight (its ACK may be delayed), one second before any
// RTT sample; never later than the retransmission timer (`until_rto` away).
SimTime ProbeTimeout(bool has_srtt, SimTime srtt, bool one_segment_in_flight, SimTime until_rto);

// RFC 8985 §7.2: WCDelAckT, the worst-case delayed-ACK timer the PTO allows for (200 ms, as the
// RFC recommends and Linux's TCP_DELACK_MAX).
inline constexpr SimTime kTlpMaxAckDelay = SimTime::Milliseconds(200);

}  // namespace tcb
