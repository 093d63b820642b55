// RFC 6298 round-trip time estimation.
#include "tcp/rtt_estimator.h"

namespace tcb {

void RttEstimator::AddSample(SimTime rtt) {
  if (granularity_.ns() > 0) rtt = Max(CeilToTick(rtt, granularity_), granularity_);
  if (!has_sample_) {
    // RFC 6298 §2.2: SRTT <- R, RTTVAR <- R/2.
    srtt_ = rtt;
    rttvar_ = rtt / 2;
    has_sample_ = true;
  } else {
    // RFC 6298 §2.3 with alpha = 1/8, beta = 1/4; RTTVAR is updated with the old SRTT.
    const SimTime err = srtt_ > rtt ? srtt_ - rtt : rtt - srtt_;
    rttvar_ = rttvar_ - rttvar_ / 4 + err / 4;
    srtt_ = srtt_ - srtt_ / 8 + rtt / 8;
  }
  UpdateRto();
}

void RttEstimator::Set(SimTime srtt, SimTime rttvar) {
  srtt_ = srtt;
  rttvar_ = rttvar;
  has_sample_ = true;
  UpdateRto();
}

void RttEstimator::UpdateRto() {
  // RFC 6298 §2.2-2.5: RTO = SRTT + max(G, K*RTTVAR), K = 4, clamped to [min RTO, max RTO].
  rto_ = srtt_ + Max(granularity_, rttvar_ * 4);
  rto_ = Min(Max(rto_, min_rto_), max_rto_);
}

}  // namespace tcb
