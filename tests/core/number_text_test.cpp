// The JSON writer's numbers: the same text as printf's "%.9g" for every number tried (random
// doubles and floats of every magnitude, exact decimals, near halves of the ninth digit, powers
// of ten and their neighbours), and the exact formatter left only the numbers the fast path
// cannot decide.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "float_bits.h"
#include "json/number_text.h"

namespace {

std::string printf_text(double value, const char* format = "%.9g") {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// Compares both functions with printf for one value; returns whether the fast path declined.
bool check(double value) {
  char text[32];
  const std::size_t length = attn::json::format_nine_digits(value, text);
  const std::string expected = printf_text(value);
  INFO("value " << printf_text(value, "%.17g"));
  CHECK(std::string(text, length) == expected);
  char fast[32];
  const std::size_t fast_length = attn::json::format_nine_digits_fast(value, fast);
  if (fast_length > 0) CHECK(std::string(fast, fast_length) == expected);
  return fast_length == 0;
}

}  // namespace

TEST_CASE("numbers: the same text as printf's %.9g", "[json][number_text]") {
  std::mt19937_64 random(20261203);
  SECTION("random floats of every magnitude: the fast path declines under one in ten thousand") {
    int declined = 0, tried = 0;
    for (int n = 0; n < 400000; ++n) {
      const float value = attn::test::bit_cast<float>(static_cast<std::uint32_t>(random()));
      if (!std::isfinite(value)) continue;
      // Only magnitudes the fast path serves count towards the share it must take.
      const bool served = std::fabs(value) > 1e-13f && std::fabs(value) < 1e29f;
      const bool declined_here = check(value);
      if (served) {
        ++tried;
        if (declined_here) ++declined;
      }
    }
    CHECK(tried > 100000);
    CHECK(declined * 10000 < tried);
  }
  SECTION("random doubles of every magnitude, and of the magnitudes traces hold") {
    for (int n = 0; n < 200000; ++n) {
      const double value = attn::test::bit_cast<double>(random());
      if (std::isfinite(value)) check(value);
    }
    std::uniform_real_distribution<double> exponent(-14.0, 30.0);
    for (int n = 0; n < 400000; ++n) {
      const double value = std::pow(10.0, exponent(random)) * (n % 2 ? 1.0 : -1.0);
      check(value);
    }
  }
  SECTION("exact decimals, and the doubles next to the halves of a ninth digit") {
    std::uniform_int_distribution<std::uint64_t> nine_digits(100000000, 999999999);
    std::uniform_int_distribution<int> power(-16, 28);
    for (int n = 0; n < 100000; ++n) {
      const double digits = static_cast<double>(nine_digits(random));
      const int shift = power(random);
      // digits · 10^shift (exact decimals) and (digits + 0.5) · 10^shift (a half of the ninth
      // digit), with the doubles on either side.
      for (const double base : {digits, digits + 0.5}) {
        double value = base * std::pow(10.0, shift - 8);
        check(value);
        check(std::nextafter(value, 0.0));
        check(std::nextafter(value, std::numeric_limits<double>::infinity()));
      }
    }
  }
  SECTION("powers of ten, their neighbours, the edges of the notations, zero and the extremes") {
    for (int e = -320; e <= 308; ++e) {
      const double value = std::pow(10.0, e);
      if (value == 0.0 || !std::isfinite(value)) continue;
      check(value);
      check(-value);
      check(std::nextafter(value, 0.0));
      check(std::nextafter(value, std::numeric_limits<double>::infinity()));
      check(value * 0.99999999949);
      check(value * 0.9999999995);
      check(value * 0.99999999951);
    }
    for (const double value : {0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.0001, 0.00001, 123456789.0,
                               1234567890.0, 999999999.0, 999999999.5, 999999999.49, 1e9,
                               0.30000001192092896, 197530862.73, 1.0 / 3.0, 2.0 / 3.0,
                               std::numeric_limits<double>::min(),
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::max(),
                               static_cast<double>(std::numeric_limits<float>::max()),
                               static_cast<double>(std::numeric_limits<float>::min()),
                               static_cast<double>(std::numeric_limits<float>::denorm_min())})
      check(value);
  }
}
