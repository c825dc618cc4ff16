// Numbers as the JSON writer prints them: printf's "%.9g", with a fast path for the numbers
// that most answers are made of.
#pragma once

#include <cstddef>

namespace attn::json {

// Writes `value` into `out` as std::snprintf(out, 32, "%.9g", value) does, and returns the
// number of characters (out holds at least 32; no terminating zero is promised).
std::size_t format_nine_digits(double value, char* out);

// The fast path: writes the same text and returns its length when every digit is decided with
// one multiplication, 0 otherwise (a non-finite value, a magnitude below about 1e-14 or over
// about 1e30, or a ninth digit that hangs on a near half, about one number in a million), which
// format_nine_digits leaves to the exact formatter (decimal_text.h).
std::size_t format_nine_digits_fast(double value, char* out);

}  // namespace attn::json
