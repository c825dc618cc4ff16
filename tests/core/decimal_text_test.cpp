// Decimal text read and written without the C library: the same bits as strtod and strtof, and
// the same text as printf's %.*f, %.*e and %.*g, for every number tried (random bit patterns of
// every exponent, random decimal strings, exact halfway values and their neighbours, the edges
// of the subnormals and of the range, long and odd texts). Natively the C library is glibc's,
// under the wasm preset musl's; both are correctly rounded.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "float_bits.h"
#include "json/decimal_text.h"

namespace {

using attn::json::format_exponent;
using attn::json::format_fixed;
using attn::json::format_general;
using attn::json::read_double;
using attn::json::read_float;

// Fewer numbers under Node, where both sides run several times slower.
#ifdef __EMSCRIPTEN__
constexpr int scale = 2;
#else
constexpr int scale = 4;
#endif

// printf's text of a value with a "%.*X" format.
template <typename Value>
std::string c_text(const char* format, int precision, Value value) {
  char text[2048];
  std::snprintf(text, sizeof text, format, precision, value);
  return text;
}

// Counts what was compared and reports the first differences: a CHECK for every one of millions
// of numbers would take longer than the numbers.
struct Tally {
  long compared = 0;
  long differed = 0;

  void differs(const std::string& what) {
    if (++differed <= 10) FAIL_CHECK(what);
  }
};

// Reads `text` as double and float, against strtod and strtof.
void check_read(const std::string& text, Tally& tally) {
  tally.compared += 2;
  const double expected = std::strtod(text.c_str(), nullptr);
  const double got = read_double(text);
  if (attn::test::bit_cast<std::uint64_t>(got) != attn::test::bit_cast<std::uint64_t>(expected))
    tally.differs("read_double(\"" + text + "\") = " + c_text("%.*g", 17, got) + ", strtod gives " +
                  c_text("%.*g", 17, expected));
  const float expected_float = std::strtof(text.c_str(), nullptr);
  const float got_float = read_float(text);
  if (attn::test::bit_cast<std::uint32_t>(got_float) != attn::test::bit_cast<std::uint32_t>(expected_float))
    tally.differs("read_float(\"" + text + "\") = " + c_text("%.*g", 9, got_float) +
                  ", strtof gives " + c_text("%.*g", 9, expected_float));
}

// Writes `value` in one style at one precision, against printf.
void check_format(double value, char style, int precision, Tally& tally) {
  ++tally.compared;
  const char format[] = {'%', '.', '*', style, '\0'};
  const std::string expected = c_text(format, precision, value);
  const std::string got = style == 'f'   ? format_fixed(value, precision)
                          : style == 'e' ? format_exponent(value, precision)
                                         : format_general(value, precision);
  if (got != expected)
    tally.differs(std::string(format) + " with precision " + std::to_string(precision) + " of " +
                  c_text("%.*a", 13, value) + ": \"" + got + "\", printf gives \"" + expected +
                  "\"");
}

// Every style at every precision from 0 to 17.
void check_all_formats(double value, Tally& tally) {
  for (const char style : {'f', 'e', 'g'})
    for (int precision = 0; precision <= 17; ++precision)
      check_format(value, style, precision, tally);
}

// A non-negative decimal, digits · 10^exponent, for texts no double or float has: the values
// halfway between neighbours. Made from printf's exact text of doubles (exact at any precision
// in glibc and musl; musl's long double printf is not linked in WebAssembly by default).
struct Decimal {
  std::string digits;
  int exponent = 0;
};

Decimal exact_decimal(double value) {
  const std::string text = c_text("%.*e", 800, value);  // d.ddd…e±X, every digit exact
  const std::size_t e = text.find('e');
  return {text.substr(0, 1) + text.substr(2, e - 2), std::atoi(text.c_str() + e + 1) - 800};
}

Decimal sum(Decimal a, Decimal b) {
  if (a.exponent < b.exponent) std::swap(a, b);
  a.digits.append(static_cast<std::size_t>(a.exponent - b.exponent), '0');  // both at b's place
  if (a.digits.size() < b.digits.size()) std::swap(a.digits, b.digits);
  b.digits.insert(0, a.digits.size() - b.digits.size(), '0');
  int carry = 0;
  for (std::size_t n = a.digits.size(); n-- > 0;) {
    const int digit = (a.digits[n] - '0') + (b.digits[n] - '0') + carry;
    a.digits[n] = static_cast<char>('0' + digit % 10);
    carry = digit / 10;
  }
  if (carry) a.digits.insert(0, "1");
  return {a.digits, b.exponent};
}

Decimal half(Decimal a) {  // x / 2 = 5x / 10
  int carry = 0;
  for (std::size_t n = a.digits.size(); n-- > 0;) {
    const int digit = (a.digits[n] - '0') * 5 + carry;
    a.digits[n] = static_cast<char>('0' + digit % 10);
    carry = digit / 10;
  }
  if (carry) a.digits.insert(0, 1, static_cast<char>('0' + carry));
  return {a.digits, a.exponent - 1};
}

// The value halfway between a double and the next one up: the double plus half its last bit.
Decimal halfway_above(double value) {
  const double up = std::nextafter(value, std::numeric_limits<double>::infinity());
  const double unit = std::isinf(up) ? value - std::nextafter(value, 0.0) : up - value;  // exact
  return sum(exact_decimal(value), half(exact_decimal(unit)));
}

// The same for floats: exact in double.
Decimal halfway_above(float value) {
  const float up = std::nextafter(value, std::numeric_limits<float>::infinity());
  const double unit = std::isinf(up) ? static_cast<double>(value - std::nextafter(value, 0.0f))
                                     : static_cast<double>(up - value);
  return exact_decimal(static_cast<double>(value) + unit / 2);
}

// Reads the decimal's text, without the zeros that end it, and the texts just below and just
// above it: the last digit one less and one more, and one more digit 1 at the end.
void check_exact_and_around(Decimal value, Tally& tally) {
  while (value.digits.size() > 1 && value.digits.back() == '0') {
    value.digits.pop_back();
    ++value.exponent;
  }
  const std::string exponent = "e" + std::to_string(value.exponent);
  std::string digits = value.digits;
  check_read(digits + exponent, tally);
  check_read(digits + "1e" + std::to_string(value.exponent - 1), tally);
  if (digits.back() >= '1') {
    --digits.back();
    check_read(digits + exponent, tally);
  }
  if (value.digits.back() <= '8') {
    digits.back() = static_cast<char>(value.digits.back() + 1);
    check_read(digits + exponent, tally);
  }
}

}  // namespace

TEST_CASE("decimal text: read as strtod and strtof read it", "[json][decimal_text]") {
  std::mt19937_64 random(20261204);
  Tally tally;
  SECTION("random bit patterns of every exponent, with all their digits and with fewer") {
    for (int n = 0; n < 60000 * scale; ++n) {
      const double value = attn::test::bit_cast<double>(random());
      if (!std::isfinite(value)) continue;
      check_read(c_text("%.*g", 17, value), tally);
      check_read(c_text("%.*g", 1 + static_cast<int>(random() % 16), value), tally);
      const float single = attn::test::bit_cast<float>(static_cast<std::uint32_t>(random()));
      if (!std::isfinite(single)) continue;
      check_read(c_text("%.*g", 9, single), tally);
      check_read(c_text("%.*g", 1 + static_cast<int>(random() % 8), single), tally);
    }
    CHECK(tally.compared >= 400000 * scale);
  }
  SECTION("random decimal strings of 1 to 40 digits, exponents from -350 to 350") {
    for (int n = 0; n < 60000 * scale; ++n) {
      const int length = 1 + static_cast<int>(random() % 40);
      std::string text = random() % 2 ? "-" : "";
      const std::size_t point = random() % (length + 1);  // at the end: no point
      for (int d = 0; d < length; ++d) {
        if (static_cast<std::size_t>(d) == point && d > 0) text += '.';
        text += static_cast<char>('0' + random() % 10);
      }
      text += "e" + std::to_string(static_cast<int>(random() % 701) - 350);
      check_read(text, tally);
    }
    // Magnitudes the attention input holds, written as JSON.stringify writes a float's double.
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (int n = 0; n < 20000 * scale; ++n) {
      const double value = normal(random) * (n % 4 == 0 ? 1e-7f : 1.0f);
      check_read(c_text("%.*g", 17, value), tally);
      check_read(c_text("%.*e", 16, value), tally);
    }
    CHECK(tally.compared >= 200000 * scale);
  }
  SECTION("exact halfway values between neighbours, and the texts just below and above") {
    for (int n = 0; n < 1500 * scale; ++n) {
      const double value = std::fabs(attn::test::bit_cast<double>(random()));
      if (std::isfinite(value)) check_exact_and_around(halfway_above(value), tally);
      const float single = std::fabs(attn::test::bit_cast<float>(static_cast<std::uint32_t>(random())));
      if (std::isfinite(single)) check_exact_and_around(halfway_above(single), tally);
      // Small subnormals, where half of the last bit is worth the most digits.
      check_exact_and_around(halfway_above(attn::test::bit_cast<double>(random() % 4096)), tally);
    }
    CHECK(tally.compared >= 15000 * scale);
  }
  SECTION("the edges: subnormals, the largest values, zero, signs, long and odd texts") {
    constexpr double double_max = std::numeric_limits<double>::max();
    constexpr double double_min = std::numeric_limits<double>::min();
    constexpr double double_tiny = std::numeric_limits<double>::denorm_min();
    constexpr float float_max = std::numeric_limits<float>::max();
    constexpr float float_min = std::numeric_limits<float>::min();
    constexpr float float_tiny = std::numeric_limits<float>::denorm_min();
    for (const double value : {double_max, double_min, double_tiny, std::nextafter(double_min, 0.0),
                               2 * double_tiny, 3 * double_tiny, double_max / 2, 1.0, 0.1}) {
      check_exact_and_around(exact_decimal(value), tally);
      check_exact_and_around(halfway_above(value), tally);
      check_exact_and_around(half(exact_decimal(value)), tally);
      check_read(c_text("%.*g", 17, value), tally);
    }
    for (const float value : {float_max, float_min, float_tiny, std::nextafter(float_min, 0.0f),
                              2 * float_tiny, 3 * float_tiny, 1.0f, 0.1f}) {
      check_exact_and_around(exact_decimal(value), tally);
      check_exact_and_around(halfway_above(value), tally);
      check_exact_and_around(half(exact_decimal(value)), tally);
      check_read(c_text("%.*g", 9, value), tally);
    }
    // Ties go to the even neighbour, also at the ends of the range, as the standard asks.
    const auto text_of = [](const Decimal& value) {
      return value.digits + "e" + std::to_string(value.exponent);
    };
    CHECK(read_double(text_of(halfway_above(1.0))) == 1.0);
    const double above_one = std::nextafter(1.0, 2.0);
    CHECK(read_double(text_of(halfway_above(above_one))) == std::nextafter(above_one, 2.0));
    CHECK(std::isinf(read_double(text_of(halfway_above(double_max)))));
    CHECK(read_double(text_of(half(exact_decimal(double_tiny)))) == 0.0);
    CHECK(read_double(text_of(halfway_above(double_tiny))) == 2 * double_tiny);
    CHECK(std::isinf(read_float(text_of(halfway_above(float_max)))));
    CHECK(read_float(text_of(half(exact_decimal(float_tiny)))) == 0.0f);
    for (const char* text :
         {"", "-", "+", ".", "-.", "e5", "-e5", "0", "-0", "+0", "0.0", "-0.000e-5", "0e-999", "0e999", "1e999", "-1e999", "1e-999",
          "-1e-999", "1e308", "1e309", "1e-324", "1e-325", "2e-324", "3e-324", "1e38", "1e39",
          "1e-45", "1e-46", "7e-46", "8e-46", "00012", "0000.000123", "-007.50", "1.", ".5", "1e",
          "1e+", "5e-1x", "1e30", "1e+30", "9007199254740993", "9007199254740992e15",
          "123456789012345678901234567890", "0.30000001192092896", "-1.2345678901234567e-7",
          "1e2147483647", "1e-2147483648", "1e99999999999999999999", "1e-99999999999999999999",
          "17976931348623157e292", "22250738585072011e-324", "2.2250738585072011e-308"})
      check_read(text, tally);
    // More than the 800 digits read exactly: halfway texts made longer with zeros, then a 1 (just
    // above) or nothing; a thousand random digits; a long run of nines; many leading zeros.
    for (const double value : {1.0, double_max, double_min, double_tiny, 0.1, 123.456}) {
      const Decimal halfway = halfway_above(value);
      const std::string exponent = "e" + std::to_string(halfway.exponent - 1000);
      check_read(halfway.digits + std::string(1000, '0') + exponent, tally);
      check_read(halfway.digits + std::string(999, '0') + "1" + exponent, tally);
    }
    std::string thousand = "0.";
    for (int d = 0; d < 1200; ++d) thousand += static_cast<char>('0' + random() % 10);
    for (const char* exponent : {"", "e-300", "e-320", "e300", "e-10"})
      check_read(thousand + exponent, tally);
    check_read(std::string(1200, '9'), tally);
    check_read("0." + std::string(1200, '9') + "e-307", tally);
    check_read("0." + std::string(1200, '0') + "1e1200", tally);
    check_read(std::string(1200, '0') + "1", tally);
    CHECK(tally.compared >= 400);
  }
  CHECK(tally.differed == 0);
}

TEST_CASE("decimal text: written as printf's %.*f, %.*e and %.*g", "[json][decimal_text]") {
  std::mt19937_64 random(20261205);
  Tally tally;
  SECTION("random bit patterns of every exponent, every style at precisions 0 to 17") {
    for (int n = 0; n < 3000 * scale; ++n) {
      const double value = attn::test::bit_cast<double>(random());
      if (!std::isfinite(value)) continue;
      check_all_formats(value, tally);
      const float single = attn::test::bit_cast<float>(static_cast<std::uint32_t>(random()));
      if (std::isfinite(single)) check_all_formats(static_cast<double>(single), tally);
    }
    // Magnitudes a trace holds, and longer precisions (digits past the exact ones are zeros).
    std::normal_distribution<double> normal(0.0, 1.0);
    for (int n = 0; n < 3000 * scale; ++n) {
      const double value = normal(random) * std::pow(10.0, static_cast<int>(random() % 9) - 4);
      check_all_formats(value, tally);
      check_all_formats(static_cast<double>(static_cast<float>(value)), tally);
      check_format(value, "feg"[n % 3], 18 + static_cast<int>(random() % 60), tally);
    }
    CHECK(tally.compared >= 600000 * scale);
  }
  SECTION("near ties: decimal halves, their neighbours, and exact binary halves") {
    for (int n = 0; n < 15000 * scale; ++n) {
      const int decimals = static_cast<int>(random() % 18);
      const double digits = static_cast<double>(random() % 10000000);
      // The double nearest (digits + 0.5) · 10^-decimals, and the doubles on either side: %.*f
      // at `decimals` places rounds on the exact binary value, which lies above or below.
      const double half = (digits + 0.5) / std::pow(10.0, decimals);
      for (const double value : {half, std::nextafter(half, 0.0), std::nextafter(half, 1e300)}) {
        check_format(value, 'f', decimals, tally);
        const int significant = static_cast<int>(std::floor(std::log10(digits + 1.0))) + 1;
        check_format(value, 'e', significant - 1, tally);
        check_format(value, 'e', significant, tally);
        check_format(value, 'g', significant, tally);
        check_format(value, 'g', significant + 1, tally);
      }
      // k / 2^j: exact, so a half at its last place is a true tie, broken to the even digit.
      const int places = 1 + static_cast<int>(random() % 20);
      const double tie = std::ldexp(static_cast<double>(random() % 100000), -places);
      for (int precision = 0; precision <= 17; ++precision) {
        check_format(tie, 'f', precision, tally);
        check_format(tie, 'e', precision, tally);
        check_format(tie, 'g', precision, tally);
      }
    }
    CHECK(tally.compared >= 400000 * scale);
  }
  SECTION("whole numbers, powers of ten and their neighbours, subnormals, zero and the rest") {
    for (int n = 0; n < 2000 * scale; ++n) {
      const double whole = static_cast<double>(random() >> (random() % 64));
      check_all_formats(whole, tally);
      check_all_formats(attn::test::bit_cast<double>(random() % (std::uint64_t{1} << 52)), tally);  // subnormal
    }
    for (int e = -323; e <= 308; ++e) {
      const double power = std::strtod(("1e" + std::to_string(e)).c_str(), nullptr);
      const double below = std::nextafter(power, 0.0), above = std::nextafter(power, 1e308);
      for (const double value : {power, -power, below, above}) {
        check_format(value, 'g', 17, tally);
        check_format(value, 'e', 16, tally);
        check_format(value, 'f', static_cast<int>(random() % 18), tally);
        check_format(value, 'g', 1 + static_cast<int>(random() % 17), tally);
      }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double infinity = std::numeric_limits<double>::infinity();
    for (const double value :
         {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 9.5, 99.5, 999999.5, 0.05, 0.0001, 0.00001,
          123456.0, 1234567.0, 1e15, 1e16, 1e17, 9007199254740993.0, 0.1, 1.0 / 3.0,
          std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
          std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
          -std::numeric_limits<double>::denorm_min(), infinity, -infinity, nan,
          std::copysign(nan, -1.0)})
      check_all_formats(value, tally);
    CHECK(tally.compared >= 100000 * scale);
  }
  CHECK(tally.differed == 0);
}
