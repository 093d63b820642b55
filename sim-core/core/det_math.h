// Deterministic log, exp and pow built from IEEE basic operations only, so that native and WASM builds
// (different libm implementations) produce bit-identical results.
#pragma once

#include <cstdint>
#include <cstring>

namespace tcb {

// Natural logarithm, within 1 ulp (almost always correctly rounded). Returns -inf for +-0, NaN for
// negative x and NaN, +inf for +inf; subnormal x is handled.
double DetLog(double x);

// e^x. Relative error under 1 ulp. Overflows to +inf above ~709.78, underflows to 0 below ~-745.13
// (from ~-708.4 down, results are subnormal); DetExp(x) >= 1 for every x >= 0.
double DetExp(double x);

// base^exponent for base >= 0, computed as exp(exponent * log(base)) with the logarithm and product
// carried in double-double, so the result stays within about 1 ulp even when |exponent * log(base)|
// is large.
// pow(x, 0) = pow(1, y) = 1 (even for NaN y); pow(0, y>0) = 0, pow(0, y<0) = +inf; negative or NaN
// base returns NaN (no integer-exponent special case).
double DetPow(double base, double exponent);

// The IEEE-754 bit pattern of a double and back (std::bit_cast is missing from Emscripten 3.1.6's
// libc++). Golden values in tests are written as these bit patterns.
inline uint64_t DoubleToBits(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
inline double BitsToDouble(uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace tcb
