// Round-trip time estimation.
#include "tcp/rtt_estimator.h"

#include <algorithm>
#include <stdexcept>

namespace tcb {

void RttEstimator::AddSample(SimTime rtt) {
  if (rules_ == RtoRules::kLinux) {
    throw std::logic_error("Linux's RTT estimator needs the sender's sequence numbers with each sample");
  }
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

void RttEstimator::AddSample(SimTime rtt, SeqNo snd_una, SeqNo snd_nxt) {
  if (rules_ == RtoRules::kRfc6298) {
    AddSample(rtt);
    return;
  }
  // tcp_stamp_us_delta(): RTTs in whole microseconds (tcp_mstamp is tcp_clock_us()).
  AddLinuxSample(rtt.ns() / 1000, snd_una, snd_nxt);
}

void RttEstimator::AddLinuxSample(int64_t m, SeqNo snd_una, SeqNo snd_nxt) {
  // net/ipv4/tcp_input.c tcp_rtt_estimator() ("Jacobson's article in SIGCOMM '88"), line by line:
  // srtt_us is 8 x SRTT, mdev_us 4 x the mean deviation.
  const int64_t rto_min_us = min_rto_.ns() / 1000;  // tcp_rto_min_us()
  int64_t srtt = srtt_us_;
  if (srtt != 0) {
    m -= srtt >> 3;  // "m is now error in rtt est"
    srtt += m;       // "rtt = 7/8 rtt + 1/8 new"
    if (m < 0) {
      m = -m;
      m -= mdev_us_ >> 2;
      // "We use finer gain for mdev in this case (alpha*beta)": an RTT that falls lowers mdev by
      // 1/32 of the error, so that the RTO does not shrink fast.
      if (m > 0) m >>= 3;
    } else {
      m -= mdev_us_ >> 2;
    }
    mdev_us_ += m;  // "mdev = 3/4 mdev + 1/4 new"
    if (mdev_us_ > mdev_max_us_) {
      mdev_max_us_ = mdev_us_;
      if (mdev_max_us_ > rttvar_us_) rttvar_us_ = mdev_max_us_;
    }
    // Once per round of data (snd_una past the snd_nxt of the round's start): rttvar decays a
    // quarter of the way down to the round's largest mdev, which starts again at the minimum RTO.
    if (snd_una > rtt_seq_) {
      if (mdev_max_us_ < rttvar_us_) rttvar_us_ -= (rttvar_us_ - mdev_max_us_) >> 2;
      rtt_seq_ = snd_nxt;
      mdev_max_us_ = rto_min_us;
    }
  } else {
    // "No previous measure": SRTT = m, mdev = m / 2 ("make sure rto = 3*rtt"), and the variance
    // term at least the minimum RTO.
    srtt = m << 3;
    mdev_us_ = m << 1;
    rttvar_us_ = std::max(mdev_us_, rto_min_us);
    mdev_max_us_ = rttvar_us_;
    rtt_seq_ = snd_nxt;
  }
  srtt_us_ = std::max<int64_t>(1, srtt);
  has_sample_ = true;
  srtt_ = SimTime::Nanoseconds(srtt_us_ * 1000 / 8);
  rttvar_ = SimTime::Nanoseconds(mdev_us_ * 1000 / 4);
  UpdateRto();
}

void RttEstimator::Set(SimTime srtt, SimTime rttvar) {
  srtt_ = srtt;
  rttvar_ = rttvar;
  has_sample_ = true;
  if (rules_ == RtoRules::kLinux) {
    // As a first measurement would leave it: srtt_us = 8 SRTT, mdev_us = 4 mdev, and the variance
    // term at least the minimum RTO; the next sample ends this first round.
    srtt_us_ = std::max<int64_t>(1, srtt.ns() * 8 / 1000);
    mdev_us_ = rttvar.ns() * 4 / 1000;
    rttvar_us_ = std::max(mdev_us_, min_rto_.ns() / 1000);
    mdev_max_us_ = rttvar_us_;
    rtt_seq_ = 0;
  }
  UpdateRto();
}

void RttEstimator::UpdateRto() {
  if (rules_ == RtoRules::kLinux) {
    // tcp_set_rto(): icsk_rto = usecs_to_jiffies(srtt + rttvar_us) ("clamping at TCP_RTO_MIN is not
    // required, current algo guarantees that rto is higher"), then tcp_bound_rto(): at most the
    // maximum RTO.
    const int64_t jiffies = jiffies_.FromTime(SimTime::Microseconds((srtt_us_ >> 3) + rttvar_us_));
    rto_ = Min(jiffies_.Time(jiffies), max_rto_);
    return;
  }
  // RFC 6298 §2.2-2.5: RTO = SRTT + max(G, K*RTTVAR), K = 4, clamped to [min RTO, max RTO].
  rto_ = srtt_ + Max(granularity_, rttvar_ * 4);
  rto_ = Min(Max(rto_, min_rto_), max_rto_);
}

}  // namespace tcb
