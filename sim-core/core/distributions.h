// Samplers for the distributions scenarios use (transfer sizes, think times, jitter), built only on
// Rng and det_math so that every build draws the same numbers.
#pragma once

#include <cstdint>
#include <limits>

#include "core/rng.h"

namespace tcb {

// Each sampler consumes a documented number of draws from `rng`, in a fixed order; changing that
// order changes every golden result downstream. Parameters outside the stated ranges give NaN or
// meaningless values; scenarios are validated before they get here.

// Uniform on [lo, hi) (hi itself only through rounding of lo + (hi - lo) u). One draw.
double Uniform(Rng& rng, double lo, double hi);

// Exponential with the given mean (> 0), i.e. rate 1/mean; always > 0. One draw.
double Exponential(Rng& rng, double mean);

// Pareto (type I) with tail index `shape` (> 0) and minimum `scale` (> 0): P(X > x) = (scale/x)^shape
// for x >= scale; always >= scale. Mean is finite only for shape > 1. One draw.
double Pareto(Rng& rng, double shape, double scale);

// The Pareto scale (minimum) that gives mean `mean` for a given shape > 1: mean * (shape - 1) / shape.
double ParetoScaleForMean(double mean, double shape);

// Normal with the given mean and standard deviation (>= 0), by the Marsaglia polar method; the
// second variate of each pair is discarded so the sampler keeps no state. Two draws per attempt,
// 4/pi attempts on average.
double Normal(Rng& rng, double mean, double stddev);

// Lognormal: exp(N(mu, sigma^2)), where mu and sigma (>= 0) are the mean and standard deviation of
// the underlying normal. Draws as Normal.
double Lognormal(Rng& rng, double mu, double sigma);

struct LognormalParams {
  double mu;
  double sigma;
};

// The underlying-normal parameters of the lognormal with the given mean (> 0) and standard
// deviation (>= 0): sigma^2 = log(1 + (stddev/mean)^2), mu = log(mean) - sigma^2 / 2.
LognormalParams LognormalFromMeanStddev(double mean, double stddev);

// Gamma with shape k (> 0) and scale theta (> 0): mean k theta, variance k theta^2. Marsaglia &
// Tsang (2000) squeeze/rejection on normal draws; for k < 1 it samples shape k + 1 and multiplies by
// U^(1/k), with U drawn after the shape-(k + 1) sample. NaN for k <= 0 or NaN.
double Gamma(Rng& rng, double shape, double scale);

// A quantity a scenario draws per use (a think time, an object size, a gap): a constant or one of
// the distributions above, with an optional cap. Scenarios give means and standard deviations, as
// the seed papers do (Savoric Table 1); Draw converts them to the samplers' parameters.
struct Distribution {
  enum class Kind : uint8_t { kConstant, kUniform, kExponential, kPareto, kLognormal, kGamma };

  Kind kind = Kind::kConstant;
  // constant: value; uniform: min, max; exponential: mean; pareto: shape, scale (its minimum);
  // lognormal and gamma: mean, standard deviation.
  double a = 0;
  double b = 0;
  // Draws above the cap are clamped to it (heavy tails such as Pareto with shape < 1 have no mean).
  double cap = std::numeric_limits<double>::infinity();

  static Distribution Constant(double value) { return {Kind::kConstant, value, 0}; }

  // Draws as the sampler of the kind does; a constant draws nothing.
  double Draw(Rng& rng) const;
  bool IsConstant() const { return kind == Kind::kConstant; }
};

}  // namespace tcb
