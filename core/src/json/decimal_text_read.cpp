// Decimal text read exactly (decimal_text.h says why not with the C library).
//
// A decimal number is W · 10^E with W the integer of its significant digits. When W and 10^E
// are both exact in the type (Clinger's fast path), one multiplication or division rounds
// correctly. Otherwise the exact binary value is made with BigUnsigned: W · 5^E when E >= 0
// (the 2^E is only an exponent), and when E < 0 the quotient of W, shifted left until the
// quotient has more bits than the type keeps, by 5^-E, whose remainder says whether anything
// lies below the quotient's last bit. Those bits are rounded once, half to even: there is no
// approximation to correct and no loop. A float as JSON.stringify writes it
// ("0.30000001192092896") takes two divisions of a three-limb integer by 5^13.
#include "decimal_text.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "big_unsigned.h"

namespace attn::json {

namespace {

using detail::BigUnsigned;

using detail::exact_powers_of_ten;
using detail::largest_exact_power;

// What the text holds: the significant digits, from the first non-zero one to the last, and
// where they stand.
struct DecimalNumber {
  bool negative = false;
  const char* first = nullptr;  // the first non-zero digit; null when there is none (zero)
  std::int64_t count = 0;       // digits from it to the last non-zero one (a point is no digit)
  std::int64_t leading = 0;     // the first one's decimal exponent: the value is d.dd · 10^leading
};

DecimalNumber scan(std::string_view text) {
  DecimalNumber number;
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p != end && (*p == '-' || *p == '+')) number.negative = *p++ == '-';
  std::int64_t digits = 0, before_point = -1, first = -1, last = -1;
  for (; p != end; ++p) {
    if (*p >= '0' && *p <= '9') {
      if (*p != '0') {
        if (first < 0) {
          first = digits;
          number.first = p;
        }
        last = digits;
      }
      ++digits;
    } else if (*p == '.' && before_point < 0) {
      before_point = digits;
    } else {
      break;
    }
  }
  if (before_point < 0) before_point = digits;
  if (digits == 0) number.negative = false;  // no number at all reads as 0, as strtod's
  std::int64_t exponent = 0;
  if (digits > 0 && p != end && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    const bool negative = q != end && *q == '-';
    if (q != end && (*q == '-' || *q == '+')) ++q;
    // Capped far beyond any exponent that can matter, so the sums below cannot overflow.
    for (; q != end && *q >= '0' && *q <= '9'; ++q)
      exponent = std::min<std::int64_t>(exponent * 10 + (*q - '0'), 1000000000);
    if (negative) exponent = -exponent;
  }
  if (first >= 0) {
    number.count = last - first + 1;
    number.leading = before_point - 1 - first + exponent;
  }
  return number;
}

// A binary format: bits of significand (with the implicit one); the weight of the subnormals'
// last bit and the largest weight of a leading bit, as powers of two; infinity's bits; and the
// decimal exponents of a first digit from which the value is surely infinite, or surely rounds
// to zero (below half the smallest subnormal: 2.5e-324 and 7.0e-46).
struct BinaryFormat {
  int precision;
  int lowest_unit;
  int highest_leading;
  std::uint64_t infinity;
  int overflow_leading;
  int underflow_leading;
};
constexpr BinaryFormat double_format{53, -1074, 1023, 0x7FF0000000000000u, 309, -325};
constexpr BinaryFormat float_format{24, -149, 127, 0x7F800000u, 39, -47};

// Why 800 digits are read and the rest only count as "more": a value halfway between two
// adjacent doubles has at most 768 significant digits (767 and 112 for floats), so none lies
// strictly between the number cut after 800 digits and the number itself. One more digit 1
// after the 800 puts the cut number on the same side of every halfway value as the full one.
constexpr std::int64_t max_read_digits = 800;

// The bits of value · 2^scale rounded to the format, half to even, where `below` says whether
// anything non-zero lies under value's last bit.
std::uint64_t rounded_bits(const BigUnsigned& value, int scale, bool below,
                           const BinaryFormat& format) {
  const int top = value.bit_length() - 1 + scale;  // the leading bit's weight
  if (top > format.highest_leading) return format.infinity;
  // The weight of the last bit kept: `precision` bits from the top, or fewer for a subnormal.
  const int unit = std::max(top - (format.precision - 1), format.lowest_unit);
  const int dropped = unit - scale;
  std::uint64_t significand = 0;
  if (dropped <= 0) {
    significand = value.bits(0, 64) << -dropped;  // exact: the value has at most that many bits
  } else {
    significand = value.bits(dropped, format.precision);
    const bool half = value.bits(dropped - 1, 1) != 0;
    const bool more = below || value.any_below(dropped - 1);
    if (half && (more || (significand & 1u) != 0)) ++significand;
  }
  // The implicit bit carries into the exponent field, and so does a rounding up to the next
  // power of two (up to infinity's bits from the largest finite value).
  const std::uint64_t bits =
      (static_cast<std::uint64_t>(unit - format.lowest_unit) << (format.precision - 1)) +
      significand;
  return std::min(bits, format.infinity);
}

// The bits of the nearest value of `number`'s magnitude, given W (the first digits, as read).
std::uint64_t nearest_bits(BigUnsigned& whole, std::int64_t exponent, const BinaryFormat& format) {
  const int power = static_cast<int>(exponent);  // -1 124 to 308 after read_decimal's checks
  if (power >= 0) {
    whole.multiply_by_power_of_five(power);
    return rounded_bits(whole, power, false, format);
  }
  // W / 5^k as W · 5^r / 5^(k + r), with k + r a multiple of 13: every division is then by the
  // constant 5^13, which the compiler turns into multiplications.
  const int divisions = (12 - power) / 13;
  whole.multiply_add(BigUnsigned::power_of_five(13 * divisions + power), 0);
  // 2378/1024 is just above log2(5): 5^n has at most n · 2378 / 1024 + 1 bits. Two bits more
  // than the format keeps leave the rounding bit and one below it in the quotient.
  const int wanted = 13 * divisions * 2378 / 1024 + 1 + format.precision + 2;
  const int shift = std::max(0, wanted - whole.bit_length());
  whole.shift_left(shift);
  bool remainder = false;
  for (int n = 0; n < divisions; ++n)
    remainder |= whole.divide(BigUnsigned::power_of_five(13)) != 0;
  return rounded_bits(whole, power - shift, remainder, format);
}

// Clinger's fast path: W and 10^E both exact, so one operation rounds correctly.
bool read_exactly(std::uint64_t whole, std::int64_t exponent, double& out) {
  if (whole > (std::uint64_t{1} << 53) || exponent < -largest_exact_power ||
      exponent > largest_exact_power + 15)
    return false;
  if (exponent < 0) {
    out = static_cast<double>(whole) / exact_powers_of_ten[-exponent];
    return true;
  }
  // 1e30 is 10^8 · 10^22, both exact: digits move into W while it stays exact.
  for (; exponent > largest_exact_power; --exponent) {
    if (whole > (std::uint64_t{1} << 53) / 10) return false;
    whole *= 10;
  }
  out = static_cast<double>(whole) * exact_powers_of_ten[exponent];
  return true;
}

bool read_exactly(std::uint64_t whole, std::int64_t exponent, float& out) {
  if (whole > (std::uint64_t{1} << 24) || exponent < -10 || exponent > 10) return false;
  const float power = static_cast<float>(exact_powers_of_ten[exponent < 0 ? -exponent : exponent]);
  out = exponent < 0 ? static_cast<float>(whole) / power : static_cast<float>(whole) * power;
  return true;
}

template <typename Number>
Number read_decimal(std::string_view text, const BinaryFormat& format) {
  const DecimalNumber number = scan(text);
  if (number.first == nullptr || number.leading <= format.underflow_leading)
    return number.negative ? -Number{0} : Number{0};
  if (number.leading >= format.overflow_leading)
    return (number.negative ? -1 : 1) * std::numeric_limits<Number>::infinity();
  const std::int64_t kept = std::min(number.count, max_read_digits);
  std::int64_t exponent = number.leading - (kept - 1);
  const char* p = number.first;
  const auto next_digit = [&p] {
    if (*p == '.') ++p;
    return static_cast<std::uint32_t>(*p++ - '0');
  };
  Number magnitude = 0;
  std::uint64_t head = 0;  // up to 19 digits fit in 64 bits, for the fast path
  if (kept <= 19) {
    for (std::int64_t n = 0; n < kept; ++n) head = head * 10 + next_digit();
    if (read_exactly(head, exponent, magnitude)) return number.negative ? -magnitude : magnitude;
  }
  BigUnsigned whole(head);
  if (kept > 19) {
    for (std::int64_t n = 0; n < kept; n += 9) {  // nine digits at a time
      const int size = static_cast<int>(std::min<std::int64_t>(9, kept - n));
      std::uint32_t chunk = 0;
      for (int d = 0; d < size; ++d) chunk = chunk * 10 + next_digit();
      whole.multiply_add(BigUnsigned::power_of_ten(size), chunk);
    }
  }
  if (kept < number.count) {  // digits cut off: not all zeros, since the last one is not
    whole.multiply_add(10, 1);
    --exponent;
  }
  const std::uint64_t bits = nearest_bits(whole, exponent, format);
  if constexpr (sizeof(Number) == sizeof(std::uint64_t)) {
    std::memcpy(&magnitude, &bits, sizeof magnitude);
  } else {
    const auto narrow = static_cast<std::uint32_t>(bits);
    std::memcpy(&magnitude, &narrow, sizeof magnitude);
  }
  return number.negative ? -magnitude : magnitude;
}

}  // namespace

double read_double(std::string_view text) { return read_decimal<double>(text, double_format); }

float read_float(std::string_view text) { return read_decimal<float>(text, float_format); }

}  // namespace attn::json
