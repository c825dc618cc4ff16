// Every number the article prints, as the article prints it, and the check that the core still
// reproduces each one at the article's precision.
#pragma once

#include <string>
#include <vector>

namespace attn::article {

struct ClaimCheck {
  std::string what;      // where the article prints it, e.g. "step 4: weight of cat -> the"
  std::string printed;   // as printed: "0.2799", "-0.44", "72%", "-inf"
  std::string computed;  // the core's value formatted the same way
  bool matches = false;
};

// Recomputes the article's traces and compares every printed number.
std::vector<ClaimCheck> check_claims();

// Formats `value` with as many decimals as `printed` has (and a % sign if it has one,
// multiplying by 100), so that "-inf" and "-0.00" compare the way a reader would read them.
std::string format_like(double value, const std::string& printed);

}  // namespace attn::article
