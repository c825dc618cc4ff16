// Numbers as the JSON writer prints them: printf's "%.9g", without printf for the numbers that
// most answers are made of.
#pragma once

#include <cstddef>

namespace attn::json {

// Writes `value` into `out` as std::snprintf(out, 32, "%.9g", value) does, and returns the
// number of characters (out holds at least 32; no terminating zero is promised).
std::size_t format_nine_digits(double value, char* out);

// The part without printf: writes the same text and returns its length when every digit is
// decided exactly, 0 otherwise (zero, a non-finite value, a magnitude below about 1e-14 or over
// about 1e30, or a ninth digit that hangs on a near half, about one number in a million).
std::size_t format_nine_digits_without_printf(double value, char* out);

}  // namespace attn::json
