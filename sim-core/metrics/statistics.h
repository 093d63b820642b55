// Statistics over replications: mean, sample standard deviation, Student-t quantiles and
// confidence intervals, and the t-test for unpaired observations that Savorić et al. §6 use
// (R. Jain, The Art of Computer Systems Performance Analysis, 1991, §13.4.2). Special functions are
// built on det_math only, so native and WASM builds agree bit for bit.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace tcb {

// What a set of observations says about its mean.
struct SampleSummary {
  size_t n = 0;
  double mean = 0;  // 0 when n == 0.
  double sd = 0;    // Sample standard deviation (divisor n - 1); 0 when n < 2.
};

// Sums in the order given, so the result depends only on the sequence of values.
SampleSummary Summarize(const std::vector<double>& values);

// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error about 1e-15). NaN for x <= 0.
double LogGamma(double x);

// The regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1, by its continued
// fraction evaluated with the modified Lentz method (Numerical Recipes, 2nd ed., §6.4).
double RegularizedIncompleteBeta(double a, double b, double x);

// The quantile of the standard normal distribution, for 0 < p < 1.
double NormalQuantile(double p);

// t(p; df): the p-quantile of Student's t distribution with df > 0 (real) degrees of freedom, for
// 0 < p < 1; df = +inf gives the normal quantile. Accurate to about 1e-12 relative. NaN outside the
// domain.
double StudentTQuantile(double p, double df);

// Half-width of the two-sided Student-t confidence interval of the mean at `level` (e.g. 0.95):
// t(1 - (1 - level)/2; n - 1) * sd / sqrt(n). nullopt when n < 2 (no estimate of the spread).
std::optional<double> ConfidenceHalfWidth(const SampleSummary& s, double level);

// An interval for mean(a) - mean(b) at one confidence level.
struct DifferenceInterval {
  double level = 0;
  double low = 0;
  double high = 0;
  bool excludes_zero = false;
};

// Jain §13.4.2, "comparing two alternatives", unpaired observations:
//   d = mean_a - mean_b,  s = sqrt(sd_a²/n_a + sd_b²/n_b),
//   ν = (sd_a²/n_a + sd_b²/n_b)² / ((sd_a²/n_a)²/(n_a+1) + (sd_b²/n_b)²/(n_b+1)) - 2,
//   interval d ∓ t(1 - α/2; ν) · s.
// With n_a, n_b >= 2, ν >= min(n_a, n_b) - 1 >= 1.
struct UnpairedTTest {
  enum class Status {
    kTested,        // The formula above applies.
    kNoVariance,    // Both sides have zero variance: d is known exactly, the interval is [d, d] at
                    // every level, and it excludes zero exactly when d != 0.
    kTooFewSamples  // n_a < 2 or n_b < 2: no spread to estimate, nothing decided.
  };
  Status status = Status::kTooFewSamples;
  double difference = 0;  // mean_a - mean_b.
  double sd = 0;          // s above (0 for kNoVariance).
  double dof = 0;         // ν above (0 unless kTested).
};

UnpairedTTest CompareUnpaired(const SampleSummary& a, const SampleSummary& b);

// The interval of a comparison at `level`; nullopt for kTooFewSamples.
std::optional<DifferenceInterval> IntervalAt(const UnpairedTTest& test, double level);

// Savorić et al. §6 report a comparison as the highest of the confidence levels 0.99, 0.95, 0.90
// whose interval excludes zero, with that interval; when none does, the 0.90 interval, marked not
// significant. nullopt for kTooFewSamples.
struct SignificanceReport {
  UnpairedTTest test;
  DifferenceInterval interval;
  bool significant = false;
};
std::optional<SignificanceReport> ReportSignificance(const SampleSummary& a, const SampleSummary& b);

}  // namespace tcb
