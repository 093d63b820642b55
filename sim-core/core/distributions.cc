// Inverse-transform and rejection samplers over Rng; transcendental functions come from det_math.
#include "core/distributions.h"

#include <cmath>
#include <limits>

#include "core/det_math.h"

namespace tcb {

double Uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * rng.NextDouble(); }

double Exponential(Rng& rng, double mean) {
  // The open interval keeps log finite and the result strictly positive.
  return -mean * DetLog(rng.NextDoubleOpen());
}

double Pareto(Rng& rng, double shape, double scale) {
  // Inverse transform: scale * U^(-1/shape). log(U) < 0 for every U < 1, and DetExp of a
  // non-negative argument is >= 1, so the result never falls below scale.
  const double u = rng.NextDoubleOpen();
  return scale * DetExp(-DetLog(u) / shape);
}

double ParetoScaleForMean(double mean, double shape) { return mean * (shape - 1.0) / shape; }

double Normal(Rng& rng, double mean, double stddev) {
  double u;
  double s;
  do {
    u = 2.0 * rng.NextDouble() - 1.0;
    const double v = 2.0 * rng.NextDouble() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  return mean + stddev * (u * std::sqrt(-2.0 * DetLog(s) / s));
}

double Lognormal(Rng& rng, double mu, double sigma) { return DetExp(Normal(rng, mu, sigma)); }

LognormalParams LognormalFromMeanStddev(double mean, double stddev) {
  const double cv = stddev / mean;
  const double variance = DetLog(1.0 + cv * cv);
  return {DetLog(mean) - 0.5 * variance, std::sqrt(variance)};
}

double Gamma(Rng& rng, double shape, double scale) {
  if (!(shape > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  // Marsaglia & Tsang need shape >= 1; smaller shapes use Gamma(k) = Gamma(k + 1) * U^(1/k).
  const bool boost = shape < 1.0;
  const double a = boost ? shape + 1.0 : shape;
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  double sample;
  for (;;) {
    double x;
    double v;
    do {
      x = Normal(rng, 0.0, 1.0);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = rng.NextDoubleOpen();
    const double x2 = x * x;
    // Cheap squeeze first; the log test is exact acceptance.
    if (u < 1.0 - 0.0331 * (x2 * x2)) {
      sample = d * v;
      break;
    }
    if (DetLog(u) < 0.5 * x2 + d * ((1.0 - v) + DetLog(v))) {
      sample = d * v;
      break;
    }
  }
  if (boost) sample = sample * DetPow(rng.NextDoubleOpen(), 1.0 / shape);
  return sample * scale;
}

double Distribution::Draw(Rng& rng) const {
  double x = a;
  switch (kind) {
    case Kind::kConstant:
      break;
    case Kind::kUniform:
      x = Uniform(rng, a, b);
      break;
    case Kind::kExponential:
      x = Exponential(rng, a);
      break;
    case Kind::kPareto:
      x = Pareto(rng, a, b);
      break;
    case Kind::kLognormal: {
      const LognormalParams p = LognormalFromMeanStddev(a, b);
      x = Lognormal(rng, p.mu, p.sigma);
      break;
    }
    case Kind::kGamma:
      // mean = k theta, variance = k theta^2.
      x = b > 0 ? Gamma(rng, (a / b) * (a / b), b * b / a) : a;
      break;
  }
  return x < cap ? x : cap;
}

}  // namespace tcb
