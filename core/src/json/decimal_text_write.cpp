// Decimal text written exactly (decimal_text.h says why not with the C library).
//
// The digits are floor(|value| / 10^q) for the place q just under the last digit asked for,
// made exactly with BigUnsigned, and whether anything lies below that place (m · 2^e / 10^q is
// m · 5^-q shifted by e - q bits, or m · 2^(e - q) divided by 5^q); they are rounded half to
// even, then laid out as printf lays out %f, %e and %g. Only the digits needed are made: a
// subnormal at %.17g is not 767 digits' work.
#include "decimal_text.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "big_unsigned.h"

namespace attn::json {

namespace {

using detail::BigUnsigned;

// The decimal digits of a magnitude down to a chosen place: at(0) is the first non-zero one,
// worth 10^exponent, at(count - 1) the last non-zero one made, and `below` tells whether
// anything non-zero lies under the chosen place; count 0 is a value under that place. At most
// 767 digits are made (m · 5^1074 with m below 2^53, a double's longest exact expansion), nine at
// a time into 792 places.
struct Digits {
  char text[792];
  int first = 0;  // where at(0) is in text
  int count = 0;
  int exponent = 0;
  bool below = false;

  char at(int index) const { return index >= 0 && index < count ? text[first + index] : '0'; }
};

// A finite double's magnitude as significand · 2^exponent, the significand odd: its trailing
// zero bits go into the exponent, which leaves fewer factors of five to multiply by.
struct Binary {
  std::uint64_t significand;
  int exponent;
};

Binary binary_of(double magnitude) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &magnitude, sizeof bits);
  const int biased = static_cast<int>(bits >> 52);
  Binary binary{bits & ((std::uint64_t{1} << 52) - 1), biased == 0 ? -1074 : biased - 1075};
  if (biased != 0) binary.significand |= std::uint64_t{1} << 52;
  const int zeros = std::countr_zero(binary.significand);
  binary.significand >>= zeros;
  binary.exponent += zeros;
  return binary;
}

// The decimal exponent of the first digit, or up to three less: 2^top <= value, and
// 1233 / 4096 is within 5e-6 of log10(2).
int first_digit_at_least(const Binary& binary) {
  const int top = binary.exponent + std::bit_width(binary.significand) - 1;
  return ((top * 1233) >> 12) - 1;
}

// The digits of floor(value / 10^lowest), the value being m · 2^e: that is m · 5^-lowest
// · 2^(e - lowest) for lowest <= 0, and m · 2^(e - lowest) / 5^lowest above, where a dropped
// bit or a remainder says something lies below. No place is made under the last digit of the
// exact expansion (10^e for e < 0; the units for a whole number).
void make_digits(const Binary& binary, int lowest, Digits& digits) {
  lowest = std::max(lowest, std::min(binary.exponent, 0));
  BigUnsigned number(binary.significand);
  const int twos = binary.exponent - lowest;
  if (lowest <= 0) number.multiply_by_power_of_five(-lowest);
  bool below = false;
  if (twos < 0) below = number.shift_right(-twos);
  else number.shift_left(twos);
  int fives = std::max(lowest, 0);
  for (; fives >= 13; fives -= 13) below |= number.divide(BigUnsigned::power_of_five(13)) != 0;
  if (fives > 0) below |= number.divide(BigUnsigned::power_of_five(fives)) != 0;
  digits.below = below;
  int start = static_cast<int>(sizeof digits.text);
  while (!number.is_zero()) {  // the last nine digits first
    std::uint32_t chunk = number.divide(BigUnsigned::power_of_ten(9));
    for (int n = 0; n < 9; ++n, chunk /= 10)
      digits.text[--start] = static_cast<char>('0' + chunk % 10);
  }
  const int end = static_cast<int>(sizeof digits.text);
  while (start < end && digits.text[start] == '0') ++start;
  digits.first = start;
  digits.count = end - start;
  digits.exponent = digits.count - 1 + lowest;
  while (digits.count > 0 && digits.at(digits.count - 1) == '0') --digits.count;
}

// Keeps the first `wanted` digits (none when it is 0 or less), rounding half to even on the
// exact value; a carry out of the first digit moves the exponent up. The digit after the kept
// ones must have been made.
void round_digits(Digits& digits, std::int64_t wanted) {
  if (wanted >= digits.count) return;
  const int kept = static_cast<int>(wanted);
  if (kept < 0) {
    digits.count = 0;
    return;
  }
  const char next = digits.at(kept);
  const bool more = digits.count > kept + 1 || digits.below;
  const bool odd = kept > 0 && (digits.at(kept - 1) - '0') % 2 != 0;
  const bool up = next > '5' || (next == '5' && (more || odd));
  digits.count = kept;
  if (up) {
    int n = kept - 1;
    while (n >= 0 && digits.at(n) == '9') --n;
    if (n < 0) {  // 9.99 to 10.0
      digits.text[digits.first] = '1';
      digits.count = 1;
      ++digits.exponent;
    } else {
      ++digits.text[digits.first + n];
      digits.count = n + 1;
    }
  }
  while (digits.count > 0 && digits.at(digits.count - 1) == '0') --digits.count;
}

// The text is made in a string of zeros of its final length, so that only the digits made are
// copied in: a character at a time costs a call each in the size-optimised build.

// Copies the digits index to index + n - 1 to `to`, which holds zeros already: only those in
// [0, count) are not.
void copy_digits(const Digits& digits, int index, int n, char* to) {
  const int begin = std::max(index, 0);
  const auto end = std::min<std::int64_t>(std::int64_t{index} + n, digits.count);
  if (begin < end)
    std::memcpy(to + (begin - index), digits.text + digits.first + begin, end - begin);
}

// The integer part, and a point and `decimals` digits after it when there are any.
struct Fixed {
  const Digits& digits;
  int decimals;

  std::size_t length() const {
    const int whole = digits.count == 0 || digits.exponent < 0 ? 1 : digits.exponent + 1;
    return whole + (decimals > 0 ? std::size_t{1} + decimals : 0);
  }
  void write(char* to) const {
    if (digits.count > 0 && digits.exponent >= 0) {
      copy_digits(digits, 0, digits.exponent + 1, to);
      to += digits.exponent + 1;
    } else {
      ++to;  // the units' zero
    }
    if (decimals == 0) return;
    *to++ = '.';
    copy_digits(digits, digits.exponent + 1, decimals, to);
  }
};

// d.ddd and the exponent, with its sign and at least two digits.
struct Exponent {
  const Digits& digits;
  int decimals;

  int power() const { return digits.count == 0 ? 0 : digits.exponent; }
  std::size_t length() const {
    const int size = power() < 0 ? -power() : power();  // at most 324
    return (decimals > 0 ? std::size_t{2} + decimals : 1) + (size >= 100 ? 5 : 4);
  }
  void write(char* to) const {
    copy_digits(digits, 0, 1, to++);
    if (decimals > 0) {
      *to++ = '.';
      copy_digits(digits, 1, decimals, to);
      to += decimals;
    }
    *to++ = 'e';
    *to++ = power() < 0 ? '-' : '+';
    const int size = power() < 0 ? -power() : power();
    if (size >= 100) *to++ = static_cast<char>('0' + size / 100);
    *to++ = static_cast<char>('0' + size / 10 % 10);
    *to = static_cast<char>('0' + size % 10);
  }
};

template <typename Layout>
std::string laid_out(bool negative, const Layout& layout) {
  std::string out(negative + layout.length(), '0');
  if (negative) out[0] = '-';
  layout.write(out.data() + negative);
  return out;
}

std::string write_decimal(double value, char style, int precision) {
  const bool negative = std::signbit(value);
  if (!std::isfinite(value))
    return (negative ? "-" : "") + std::string(std::isnan(value) ? "nan" : "inf");
  precision = std::max(precision, 0);
  // Past 1 100 digits every place is below a double's last digit (or zero, above 10^308).
  const int needed = std::min(precision, 1100);
  const int significant = style == 'e' ? needed + 1 : std::max(precision, 1);  // %g: at least 1
  Digits digits;
  if (value != 0.0) {
    // Made down to the digit that decides the rounding: at 10^-(precision + 1) for %f, and
    // for %e and %g below the last significant digit, from where the first one may be.
    const Binary binary = binary_of(std::fabs(value));
    const int lowest = style == 'f' ? -needed - 1
                                    : first_digit_at_least(binary) - std::min(significant, 1101);
    make_digits(binary, lowest, digits);
  }
  if (style == 'f') {
    round_digits(digits, std::int64_t{digits.exponent} + 1 + precision);
    return laid_out(negative, Fixed{digits, precision});
  }
  if (style == 'e') {
    round_digits(digits, std::int64_t{precision} + 1);
    return laid_out(negative, Exponent{digits, precision});
  }
  // %g: P significant digits, laid out as %f when %e would give them an exponent X in [-4, P),
  // as %e otherwise; without the zeros that end the fraction (the digits have none) and without
  // a point that nothing follows.
  round_digits(digits, significant);
  const int exponent = digits.count == 0 ? 0 : digits.exponent;
  if (exponent >= -4 && exponent < significant)
    return laid_out(negative, Fixed{digits, std::max(digits.count - 1 - exponent, 0)});
  return laid_out(negative, Exponent{digits, std::max(digits.count - 1, 0)});
}

}  // namespace

std::string format_fixed(double value, int precision) {
  return write_decimal(value, 'f', precision);
}

std::string format_exponent(double value, int precision) {
  return write_decimal(value, 'e', precision);
}

std::string format_general(double value, int precision) {
  return write_decimal(value, 'g', precision);
}

}  // namespace attn::json
