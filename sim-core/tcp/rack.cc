// RFC 8985 RACK-TLP loss detection.
#include "tcp/rack.h"

#include <algorithm>

namespace tcb {

void Rack::OnDelivered(SimTime now, const std::vector<SentRecord>& segments, SimTime min_rtt) {
  // Step 3, RACK_detect_reordering(), in ascending order of end_seq: a never-retransmitted segment
  // delivered below the highest delivered one arrived out of order.
  for (const SentRecord& s : segments) {
    if (s.end > fack_) {
      fack_ = s.end;
    } else if (s.end < fack_ && !s.retransmitted) {
      reordering_seen_ = true;
    }
  }
  // Step 2, RACK_update(), in ascending order of xmit_ts: the last segment taken sets RACK.rtt, the
  // most recently sent one RACK.xmit_ts and RACK.end_seq.
  const SentRecord* newest = nullptr;
  for (const SentRecord& s : segments) {
    // A retransmitted segment's delivery is ambiguous (the original may have arrived). Without
    // timestamps RFC 8985's echo-reply test is not available; its second test stays, as in Linux's
    // tcp_rack_advance(): an RTT below min_RTT cannot be the retransmission's.
    if (s.retransmitted && now - s.sent_time < min_rtt) continue;
    if (newest == nullptr || RackSentAfter(s.sent_time, s.end, newest->sent_time, newest->end)) newest = &s;
  }
  if (newest == nullptr) return;
  has_rtt_ = true;
  rtt_ = now - newest->sent_time;
  if (RackSentAfter(newest->sent_time, newest->end, xmit_ts_, end_seq_)) {
    xmit_ts_ = newest->sent_time;
    end_seq_ = newest->end;
  }
}

SimTime Rack::ReorderingWindow(const SentLog& log, const Context& c) const {
  if (!reordering_seen_) {
    // RFC 8985 §6.2 step 4: with no reordering seen, in recovery, or with DupThresh segments SACKed
    // (the classic fast-retransmit condition), do not wait.
    if (c.in_recovery) return SimTime::Zero();
    int sacked = 0;
    const auto records = log.records();
    for (auto it = records.rbegin(); it != records.rend() && sacked < c.dupthresh; ++it) {
      if (it->sacked) ++sacked;
    }
    if (sacked >= c.dupthresh) return SimTime::Zero();
  }
  // min(RACK.reo_wnd_mult * RACK.min_RTT / 4, SRTT), with RACK.reo_wnd_mult = 1 (no DSACK rounds).
  if (c.min_rtt == SimTime::Infinite()) return c.has_srtt ? c.srtt : SimTime::Zero();
  const SimTime w = c.min_rtt / 4;
  return c.has_srtt ? Min(w, c.srtt) : w;
}

Rack::Detection Rack::DetectLoss(SentLog& log, const Context& c) const {
  Detection d;
  if (!has_rtt_) return d;
  const SimTime reo_wnd = ReorderingWindow(log, c);
  for (SentRecord& r : log.records()) {
    // Delivered, or already lost and not yet sent again (Linux's tcp_rack_detect_loss() skips
    // those too): nothing to decide.
    if (r.sacked || (r.lost && !r.retrans_in_flight)) continue;
    if (!RackSentAfter(xmit_ts_, end_seq_, r.sent_time, r.end)) {
      // Records lie in sequence order, and a record never retransmitted was sent before every
      // record above it (new data leaves in sequence order; a retransmission leaves later still):
      // nothing above it was sent before RACK.xmit_ts either.
      if (!r.retransmitted) break;
      continue;
    }
    const SimTime remaining = r.sent_time + rtt_ + reo_wnd - c.now;
    if (remaining <= SimTime::Zero()) {
      log.MarkLost(r);
      d.newly_lost += r.bytes();
    } else {
      d.timeout = Max(d.timeout, remaining);
    }
  }
  return d;
}

SimTime ProbeTimeout(bool has_srtt, SimTime srtt, bool one_segment_in_flight, SimTime until_rto) {
  SimTime pto = SimTime::Seconds(1);
  if (has_srtt) {
    pto = srtt * 2;
    if (one_segment_in_flight) pto += kTlpMaxAckDelay;
  }
  return Min(pto, until_rto);
}

}  // namespace tcb
