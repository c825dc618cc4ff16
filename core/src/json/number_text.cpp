// "%.9g" with a fast path. The exact formatter (decimal_text.h) makes the digits of any number
// with arbitrary-precision integers; a trace of 16 tokens of head_dim 16 has about 6 000
// numbers, and almost all of them are decided with one multiplication by an exact power of ten
// and integer digits. Every case the fast path cannot decide exactly is left to the exact
// formatter, so the text is printf's in all cases (tests/core/number_text_test.cpp compares
// with printf on millions of numbers).
#include "number_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "decimal_text.h"

namespace attn::json {

namespace {

using detail::exact_powers_of_ten;
using detail::largest_exact_power;

// |value| · 10^shift, rounded once (the power is exact, so one multiplication or division).
double scaled_by(double magnitude, int shift) {
  return shift >= 0 ? magnitude * exact_powers_of_ten[shift]
                    : magnitude / exact_powers_of_ten[-shift];
}

}  // namespace

std::size_t format_nine_digits(double value, char* out) {
  const std::size_t length = format_nine_digits_fast(value, out);
  if (length > 0) return length;
  const std::string text = format_general(value, 9);  // at most 16 characters: "-1.23456789e-308"
  std::memcpy(out, text.data(), text.size());
  return text.size();
}

std::size_t format_nine_digits_fast(double value, char* out) {
  if (!std::isfinite(value)) return 0;
  if (value == 0.0) {  // a causal mask's hidden weights: half of a long trace's
    std::size_t length = 0;
    if (std::signbit(value)) out[length++] = '-';
    out[length++] = '0';
    return length;
  }
  const double magnitude = std::fabs(value);
  // The decimal exponent X of the first significant digit; log10 may be one off near a power
  // of ten, which the range check on the scaled value corrects.
  int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  int shift = 8 - exponent;  // magnitude · 10^shift has 9 digits before the point
  if (shift < -largest_exact_power || shift > largest_exact_power) return 0;
  double scaled = scaled_by(magnitude, shift);
  if (scaled < 1e8 || scaled >= 1e9) {
    exponent += scaled < 1e8 ? -1 : 1;
    shift = 8 - exponent;
    if (shift < -largest_exact_power || shift > largest_exact_power) return 0;
    scaled = scaled_by(magnitude, shift);
    if (scaled < 1e8 || scaled >= 1e9) return 0;
  }
  // `scaled` is the exact product rounded once: below 2^30, so within 2^-23 (1.2e-7) of it.
  // Only a fraction near one half could round the other way. An exact half is a tie, which
  // printf breaks to the even digit: it is one when no rounding happened, which fma tells
  // (floats between a thousand and ten million often end in such a half: 564905.6875). Any
  // other fraction near a half goes to the exact formatter.
  const double whole = std::floor(scaled);
  const double fraction = scaled - whole;  // exact
  std::uint32_t digits = static_cast<std::uint32_t>(whole);
  if (std::fabs(fraction - 0.5) < 1e-6) {
    const double power = exact_powers_of_ten[shift >= 0 ? shift : -shift];
    const bool exact = shift >= 0 ? std::fma(magnitude, power, -scaled) == 0.0
                                  : std::fma(scaled, power, -magnitude) == 0.0;
    if (fraction != 0.5 || !exact) return 0;
    digits += digits % 2u;  // to the even one
  } else if (fraction > 0.5) {
    digits += 1u;
  }
  if (digits == 1000000000u) {  // 999 999 999.6 rounds up to the next power of ten
    digits = 100000000u;
    exponent += 1;
  }

  char significant[9];  // the nine digits, most significant first
  for (int n = 8; n >= 0; --n) {
    significant[n] = static_cast<char>('0' + digits % 10u);
    digits /= 10u;
  }
  int kept = 9;  // %g drops the trailing zeros of the digits after the point
  while (kept > 1 && significant[kept - 1] == '0') --kept;

  std::size_t length = 0;
  if (value < 0.0) out[length++] = '-';
  if (exponent < -4 || exponent >= 9) {
    // d.dddddddde±XX
    out[length++] = significant[0];
    if (kept > 1) {
      out[length++] = '.';
      for (int n = 1; n < kept; ++n) out[length++] = significant[n];
    }
    out[length++] = 'e';
    out[length++] = exponent < 0 ? '-' : '+';
    const int size = exponent < 0 ? -exponent : exponent;
    if (size >= 100) out[length++] = static_cast<char>('0' + size / 100);
    out[length++] = static_cast<char>('0' + size / 10 % 10);
    out[length++] = static_cast<char>('0' + size % 10);
  } else if (exponent >= 0) {
    // The first exponent + 1 digits before the point, the kept rest after it.
    for (int n = 0; n <= exponent; ++n) out[length++] = significant[n];
    if (kept > exponent + 1) {
      out[length++] = '.';
      for (int n = exponent + 1; n < kept; ++n) out[length++] = significant[n];
    }
  } else {
    // 0.000ddd: -exponent - 1 zeros after the point, then the kept digits.
    out[length++] = '0';
    out[length++] = '.';
    for (int n = 0; n < -exponent - 1; ++n) out[length++] = '0';
    for (int n = 0; n < kept; ++n) out[length++] = significant[n];
  }
  return length;
}

}  // namespace attn::json
