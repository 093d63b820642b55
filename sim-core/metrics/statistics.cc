// Statistics over replications. Special functions use IEEE basic operations, sqrt and det_math only.
#include "metrics/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/det_math.h"

namespace tcb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Lentz's guard against division by zero (Numerical Recipes' FPMIN).
constexpr double kTiny = 1e-300;
constexpr double kEpsilon = 1e-16;
constexpr int kMaxContinuedFractionTerms = 100000;
// Beyond this many degrees of freedom the Cornish-Fisher expansion is exact to double precision, and
// the continued fraction would need ever more terms.
constexpr double kCornishFisherDof = 1e5;
// Savorić et al. §6: the confidence levels a comparison is reported at, highest first.
constexpr double kReportLevels[] = {0.99, 0.95, 0.90};

// The continued fraction of I_x(a, b) (NR eq. 6.4.5), by the modified Lentz method.
double BetaContinuedFraction(double a, double b, double x) {
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= kMaxContinuedFractionTerms; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < kEpsilon) break;
  }
  return h;
}

// I_x(a, b) with y = 1 - x passed separately, so that callers who know 1 - x exactly (the t
// distribution: x = ν/(ν+t²), y = t²/(ν+t²)) lose nothing to cancellation.
double IncompleteBeta(double a, double b, double x, double y) {
  if (x <= 0.0) return 0.0;
  if (y <= 0.0) return 1.0;
  const double front = DetExp(LogGamma(a + b) - LogGamma(a) - LogGamma(b) + a * DetLog(x) + b * DetLog(y));
  // The fraction converges fast for x < (a+1)/(a+b+2); otherwise use I_x(a,b) = 1 - I_y(b,a).
  if (x < (a + 1.0) / (a + b + 2.0)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1.0 - front * BetaContinuedFraction(b, a, y) / b;
}

// P(T > t) for t >= 0 and Student's t with `dof` degrees of freedom.
double StudentTUpperTail(double t, double dof) {
  const double t2 = t * t;
  const double denominator = dof + t2;
  return 0.5 * IncompleteBeta(0.5 * dof, 0.5, dof / denominator, t2 / denominator);
}

// Q(a, x) = Γ(a, x)/Γ(a), the upper regularized incomplete gamma function (NR §6.2: series for
// x < a + 1, continued fraction by Lentz's method otherwise).
double UpperIncompleteGamma(double a, double x) {
  if (x <= 0.0) return 1.0;
  const double log_front = -x + a * DetLog(x) - LogGamma(a);
  if (x < a + 1.0) {
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n <= kMaxContinuedFractionTerms; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * kEpsilon) break;
    }
    return 1.0 - sum * DetExp(log_front);
  }
  double b = x + 1.0 - a;
  double c = 1.0 / kTiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i <= kMaxContinuedFractionTerms; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < kEpsilon) break;
  }
  return DetExp(log_front) * h;
}

// P(Z > z) for z >= 0: erfc(z/√2)/2 = Q(1/2, z²/2)/2.
double NormalUpperTail(double z) { return 0.5 * UpperIncompleteGamma(0.5, 0.5 * z * z); }

// The x >= 0 at which a decreasing tail function, tail(0) = 1/2, equals q in (0, 1/2]: doubling to
// bracket, then bisection to the last representable digit. Deterministic: the same operations in the
// same order on every build.
template <typename Tail>
double InvertUpperTail(double q, const Tail& tail) {
  double lo = 0.0;
  double hi = 1.0;
  while (tail(hi) > q) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e300) return kInf;
  }
  for (;;) {
    const double mid = lo + 0.5 * (hi - lo);
    if (mid <= lo || mid >= hi || hi - lo <= hi * 2e-16) return mid;
    if (tail(mid) > q) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
}

// Abramowitz & Stegun 26.7.5: t(p; ν) from z = Φ⁻¹(p), four terms in 1/ν.
double CornishFisher(double z, double dof) {
  const double z2 = z * z;
  const double z3 = z2 * z;
  const double z5 = z3 * z2;
  const double z7 = z5 * z2;
  const double z9 = z7 * z2;
  const double g1 = (z3 + z) / 4.0;
  const double g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
  const double g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
  const double g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
  return z + (g1 + (g2 + (g3 + g4 / dof) / dof) / dof) / dof;
}

}  // namespace

SampleSummary Summarize(const std::vector<double>& values) {
  SampleSummary s;
  s.n = values.size();
  if (s.n == 0) return s;
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n < 2) return s;
  // Two passes: the squared deviations from the mean, not sum(x²) - n·mean², which cancels badly.
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(squares / static_cast<double>(s.n - 1));
  return s;
}

double LogGamma(double x) {
  if (!(x > 0.0)) return kNaN;
  if (x == kInf) return kInf;
  // Lanczos' series is used from 1 up; below, ln Γ(x) = ln Γ(x + 1) - ln x.
  if (x < 1.0) return LogGamma(x + 1.0) - DetLog(x);
  static constexpr double kCoefficients[] = {
      0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
      771.32342877765313,   -176.61502916214059,   12.507343278686905,
      -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  constexpr double kG = 7.0;
  constexpr double kHalfLogTwoPi = 0.91893853320467274178;
  const double z = x - 1.0;
  double series = kCoefficients[0];
  for (int i = 1; i < 9; ++i) series += kCoefficients[i] / (z + i);
  const double t = z + kG + 0.5;
  return kHalfLogTwoPi + (z + 0.5) * DetLog(t) - t + DetLog(series);
}

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0)) return kNaN;
  return IncompleteBeta(a, b, x, 1.0 - x);
}

double NormalQuantile(double p) {
  if (!(p > 0.0) || !(p < 1.0)) return kNaN;
  if (p == 0.5) return 0.0;
  const double q = std::min(p, 1.0 - p);
  const double z = InvertUpperTail(q, [](double x) { return NormalUpperTail(x); });
  return p < 0.5 ? -z : z;
}

double StudentTQuantile(double p, double df) {
  if (!(p > 0.0) || !(p < 1.0) || !(df > 0.0)) return kNaN;
  if (df >= kCornishFisherDof) return CornishFisher(NormalQuantile(p), df);
  if (p == 0.5) return 0.0;
  const double q = std::min(p, 1.0 - p);
  const double t = InvertUpperTail(q, [df](double x) { return StudentTUpperTail(x, df); });
  return p < 0.5 ? -t : t;
}

std::optional<double> ConfidenceHalfWidth(const SampleSummary& s, double level) {
  if (s.n < 2) return std::nullopt;
  const double n = static_cast<double>(s.n);
  return StudentTQuantile(1.0 - (1.0 - level) / 2.0, n - 1.0) * s.sd / std::sqrt(n);
}

UnpairedTTest CompareUnpaired(const SampleSummary& a, const SampleSummary& b) {
  UnpairedTTest test;
  test.difference = a.mean - b.mean;
  if (a.n < 2 || b.n < 2) {
    test.status = UnpairedTTest::Status::kTooFewSamples;
    return test;
  }
  // Jain §13.4.2 (unpaired observations), with his effective degrees of freedom.
  const double na = static_cast<double>(a.n);
  const double nb = static_cast<double>(b.n);
  const double va = a.sd * a.sd / na;
  const double vb = b.sd * b.sd / nb;
  if (va + vb == 0.0) {
    test.status = UnpairedTTest::Status::kNoVariance;
    return test;
  }
  test.status = UnpairedTTest::Status::kTested;
  test.sd = std::sqrt(va + vb);
  test.dof = (va + vb) * (va + vb) / (va * va / (na + 1.0) + vb * vb / (nb + 1.0)) - 2.0;
  return test;
}

std::optional<DifferenceInterval> IntervalAt(const UnpairedTTest& test, double level) {
  DifferenceInterval interval;
  interval.level = level;
  switch (test.status) {
    case UnpairedTTest::Status::kTooFewSamples:
      return std::nullopt;
    case UnpairedTTest::Status::kNoVariance:
      interval.low = interval.high = test.difference;
      break;
    case UnpairedTTest::Status::kTested: {
      const double half = StudentTQuantile(1.0 - (1.0 - level) / 2.0, test.dof) * test.sd;
      interval.low = test.difference - half;
      interval.high = test.difference + half;
      break;
    }
  }
  interval.excludes_zero = interval.low > 0.0 || interval.high < 0.0;
  return interval;
}

std::optional<SignificanceReport> ReportSignificance(const SampleSummary& a, const SampleSummary& b) {
  SignificanceReport report;
  report.test = CompareUnpaired(a, b);
  for (double level : kReportLevels) {
    const std::optional<DifferenceInterval> interval = IntervalAt(report.test, level);
    if (!interval) return std::nullopt;
    report.interval = *interval;
    if (interval->excludes_zero) {
      report.significant = true;
      return report;
    }
  }
  return report;  // The last level tried, 0.90, not significant.
}

}  // namespace tcb
