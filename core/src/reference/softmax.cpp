#include "attention/reference/softmax.h"

#include <cmath>
#include <limits>

namespace attn {

SoftmaxRowResult softmax_row(float* exponentials, float* weights, const float* x, std::size_t n) {
  SoftmaxRowResult result;

  // Pass 1: the row's largest live input. Masked entries are -infinity and never the max.
  result.max = -std::numeric_limits<float>::infinity();
  for (std::size_t j = 0; j < n; ++j)
    if (std::isfinite(x[j]) && x[j] > result.max) result.max = x[j];

  // Pass 2: e^x as a reader would compute it by hand. It is kept only if every exponential
  // and their total are finite and the total is not zero (all terms underflowed).
  float raw_total = 0.0f;
  for (std::size_t j = 0; j < n; ++j) {
    exponentials[j] = std::isfinite(x[j]) ? std::exp(x[j]) : 0.0f;
    raw_total += exponentials[j];
  }
  result.shifted = !(std::isfinite(raw_total) && raw_total > 0.0f);
  result.total = raw_total;

  // Pass 3: the shifted form e^(x - max), whose terms lie in (0, 1] and whose total lies in
  // [1, n]. The weights always come from it, so they never overflow or divide by zero.
  float shifted_total = 0.0f;
  for (std::size_t j = 0; j < n; ++j) {
    weights[j] = std::isfinite(x[j]) ? std::exp(x[j] - result.max) : 0.0f;
    shifted_total += weights[j];
  }
  if (result.shifted) {
    for (std::size_t j = 0; j < n; ++j) exponentials[j] = weights[j];
    result.total = shifted_total;
  }

  // Pass 4: normalise.
  for (std::size_t j = 0; j < n; ++j) weights[j] /= shifted_total;
  return result;
}

}  // namespace attn
