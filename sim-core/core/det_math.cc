// Range reduction plus fixed polynomials for log (atanh series) and exp (fdlibm e_exp.c), with
// double-double arithmetic where pow needs the extra bits. Only IEEE + - * /, comparisons and bit
// manipulation are used, never libm.
#include "core/det_math.h"

#include <limits>

namespace tcb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ln 2 = kLn2Hi + kLn2Lo; kLn2Hi has 32 significant bits, so k * kLn2Hi is exact for |k| < 2^21.
constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000
constexpr double kLn2Lo = 1.90821492927058770002e-10;  // 0x3dea39ef35793c76
constexpr double kInvLn2 = 1.44269504088896338700e+00;  // 0x3ff71547652b82fe
constexpr double kSqrt2 = 1.41421356237309514547e+00;   // 0x3ff6a09e667f3bcd

// fdlibm e_exp.c: ln(DBL_MAX) and ln(2^-1075), the limits beyond which exp is inf or 0.
constexpr double kExpOverflow = 7.09782712893383973096e+02;
constexpr double kExpUnderflow = -7.45133219101941108420e+02;
// fdlibm e_exp.c: Remez fit of r*(e^r+1)/(e^r-1) = 2 + P1 r^2 + ... + P5 r^10 on |r| <= ln2/2,
// error below 2^-59.
constexpr double kP1 = 1.66666666666666019037e-01;
constexpr double kP2 = -2.77777777770155933842e-03;
constexpr double kP3 = 6.61375632143793436117e-05;
constexpr double kP4 = -1.65339022054652515390e-06;
constexpr double kP5 = 4.13813679705723846039e-08;

constexpr uint64_t kMantissaMask = 0x000fffffffffffff;
constexpr uint64_t kExponentOfOne = 0x3ff0000000000000;

// An unevaluated sum hi + lo with |lo| <= ulp(hi) / 2: about 106 bits of precision.
struct DoubleDouble {
  double hi;
  double lo;
};

// Knuth's TwoSum: a + b exactly, for any magnitudes.
DoubleDouble TwoSum(double a, double b) {
  const double s = a + b;
  const double b_virtual = s - a;
  const double a_virtual = s - b_virtual;
  return {s, (a - a_virtual) + (b - b_virtual)};
}

// a + b exactly when |a| >= |b| (or a == 0).
DoubleDouble FastTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// Veltkamp's split into two 26-bit halves; |a| must stay below ~2^996 so 2^27 * a cannot overflow.
DoubleDouble Split(double a) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  const double hi = c - (c - a);
  return {hi, a - hi};
}

// Dekker's TwoProduct: a * b exactly, without relying on FMA (the build forbids contraction).
DoubleDouble TwoProduct(double a, double b) {
  const double p = a * b;
  const DoubleDouble as = Split(a);
  const DoubleDouble bs = Split(b);
  const double err = as.lo * bs.lo - (((p - as.hi * bs.hi) - as.lo * bs.hi) - as.hi * bs.lo);
  return {p, err};
}

// 2^k for the normal exponents -1022 <= k <= 1023, built from its bit pattern.
double PowerOfTwo(int k) { return BitsToDouble(static_cast<uint64_t>(k + 1023) << 52); }

// y * 2^k with a single rounding, for y near 1 and -1075 <= k <= 1024.
double ScaleByPowerOfTwo(double y, int k) {
  if (k > 1023) return y * 2.0 * PowerOfTwo(1023);
  if (k >= -1022) return y * PowerOfTwo(k);
  // The first product is exact; the second rounds once into the subnormal range.
  return y * PowerOfTwo(k + 1000) * PowerOfTwo(-1000);
}

// log(x) for finite x > 0 as a double-double with relative error below 1e-18 (about 2^-62).
DoubleDouble LogDD(double x) {
  int e = 0;
  uint64_t bits = DoubleToBits(x);
  if ((bits >> 52) == 0) {  // Subnormal: scale into the normal range first.
    x = x * 0x1.0p54;
    e = -54;
    bits = DoubleToBits(x);
  }
  e += static_cast<int>(bits >> 52) - 1023;
  double m = BitsToDouble((bits & kMantissaMask) | kExponentOfOne);  // x = m * 2^e, m in [1, 2).
  if (m > kSqrt2) {
    m = m * 0.5;
    e += 1;
  }
  // Now m is in [sqrt(2)/2, sqrt(2)] and log(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172.
  const double f = m - 1.0;  // Exact (Sterbenz).
  const DoubleDouble denom = TwoSum(m, 1.0);
  const double s_hi = f / denom.hi;
  const DoubleDouble q = TwoProduct(s_hi, denom.hi);
  const double s_lo = (((f - q.hi) - q.lo) - s_hi * denom.lo) / denom.hi;

  // 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ... + s^25/25); the first omitted term is below 2^-70 of
  // the result. s and s^3/3 are carried in double-double: their rounding would otherwise cost pow
  // up to ~15 ulp when |exponent * log(base)| is large.
  const DoubleDouble s2 = TwoProduct(s_hi, s_hi);
  const double s2_lo = s2.lo + (2.0 * s_hi) * s_lo;
  const DoubleDouble s3 = TwoProduct(s2.hi, s_hi);
  const double s3_lo = s3.lo + (s2_lo * s_hi + s2.hi * s_lo);
  const double third_hi = s3.hi / 3.0;
  const DoubleDouble third_check = TwoProduct(third_hi, 3.0);
  const double third_lo = (((s3.hi - third_check.hi) - third_check.lo) + s3_lo) / 3.0;

  const double z = s2.hi;
  constexpr double kC5 = 1.0 / 5.0, kC7 = 1.0 / 7.0, kC9 = 1.0 / 9.0, kC11 = 1.0 / 11.0;
  constexpr double kC13 = 1.0 / 13.0, kC15 = 1.0 / 15.0, kC17 = 1.0 / 17.0, kC19 = 1.0 / 19.0;
  constexpr double kC21 = 1.0 / 21.0, kC23 = 1.0 / 23.0, kC25 = 1.0 / 25.0;
  const double poly = kC5 + z * (kC7 + z * (kC9 + z * (kC11 + z * (kC13 + z * (kC15 + z * (kC17 +
                      z * (kC19 + z * (kC21 + z * (kC23 + z * kC25)))))))));
  const double rest = (s3.hi * z) * poly;  // s^5/5 + ..., at most 3e-5.

  const DoubleDouble atanh = TwoSum(s_hi, third_hi);
  const double atanh_lo = atanh.lo + ((s_lo + third_lo) + rest);
  const double dk = static_cast<double>(e);
  const DoubleDouble head = TwoSum(dk * kLn2Hi, 2.0 * atanh.hi);
  const double lo = head.lo + (dk * kLn2Lo + 2.0 * atanh_lo);
  return FastTwoSum(head.hi, lo);
}

// e^(x + xl) for |xl| much smaller than ulp(x).
double ExpDD(double x, double xl) {
  if (x != x) return x;
  if (x > kExpOverflow) return kInf;
  if (x < kExpUnderflow) return 0.0;
  // x + xl = k ln2 + r with |r| <= ln2/2; k * kLn2Hi is exact and so is x - k * kLn2Hi.
  const int k = static_cast<int>(x * kInvLn2 + (x < 0 ? -0.5 : 0.5));
  const double dk = static_cast<double>(k);
  const double hi = x - dk * kLn2Hi;
  const double lo = dk * kLn2Lo - xl;
  const double r = hi - lo;
  const double t = r * r;
  const double c = r - t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))));
  // e^r = 1 + r + r c / (2 - c), arranged (as in fdlibm) so that hi and lo enter separately.
  const double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  return ScaleByPowerOfTwo(y, k);
}

}  // namespace

double DetLog(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -kInf : kNaN;
  if (x == kInf) return kInf;
  return LogDD(x).hi;
}

double DetExp(double x) { return ExpDD(x, 0.0); }

double DetPow(double base, double exponent) {
  if (exponent == 0.0 || base == 1.0) return 1.0;
  if (base != base || exponent != exponent || base < 0.0) return kNaN;
  if (base == 0.0) return exponent > 0.0 ? 0.0 : kInf;
  if (base == kInf) return exponent > 0.0 ? kInf : 0.0;
  const DoubleDouble log_base = LogDD(base);
  const double p = exponent * log_base.hi;
  // Far outside exp's range (this also keeps TwoProduct's split from overflowing).
  if (p > 2048.0) return kInf;
  if (p < -2048.0) return 0.0;
  const DoubleDouble product = TwoProduct(exponent, log_base.hi);
  return ExpDD(product.hi, product.lo + exponent * log_base.lo);
}

}  // namespace tcb
