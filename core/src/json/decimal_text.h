// Decimal text of floating-point numbers, read and written exactly, without the C library.
//
// Reading gives what a correctly rounded strtod or strtof gives; writing gives printf's "%.*f",
// "%.*e" and "%.*g" text, byte for byte. Both are exact: a number is read as the binary value
// nearest the decimal one (ties to even), and written from the exact decimal expansion of its
// binary value, rounded half to even at the last digit asked for, as glibc and musl do.
//
// Why not strtod and snprintf: in WebAssembly the C library brings them with 128-bit floating
// point emulated in software, about a quarter of the embeddable build's download.
// tests/core/decimal_text_test.cpp compares every function with the C library's on millions of
// numbers.
#pragma once

#include <string>
#include <string_view>

namespace attn::json {

// The number at the start of `text`: an optional sign, digits with an optional decimal point,
// and an optional exponent ("e" or "E", an optional sign, digits), as JSON writes numbers (and
// as strtod reads them, leading zeros and a leading '+' included; no hexadecimal, infinity or
// NaN). Reading stops at the first character that does not fit; no digits read as +0.
// Magnitudes beyond the type's range give ±infinity, tiny ones ±0 or a subnormal.
double read_double(std::string_view text);
float read_float(std::string_view text);

// printf's "%.*f", "%.*e" and "%.*g" with this precision (below zero counts as zero). A
// negative value, negative zero included, has a '-'; infinity and NaN are written "inf" and
// "nan", with a '-' when negative, as glibc and musl write them.
std::string format_fixed(double value, int precision);
std::string format_exponent(double value, int precision);
std::string format_general(double value, int precision);

namespace detail {

// 10^0 to 10^22: every one exact in double (10^0 to 10^10 in float too), so one multiplication
// or division by one of them rounds once. The reader's fast path and the JSON writer's use them.
inline constexpr int largest_exact_power = 22;
inline constexpr double exact_powers_of_ten[largest_exact_power + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

}  // namespace detail

}  // namespace attn::json
