#include "attention/reference/softmax.h"

#include <cmath>
#include <limits>

namespace attn {

float softmax_row_max(const float* x, std::size_t n) {
  // The row's largest live input. Masked entries are -infinity and never the max.
  float max = -std::numeric_limits<float>::infinity();
  for (std::size_t j = 0; j < n; ++j)
    if (std::isfinite(x[j]) && x[j] > max) max = x[j];
  return max;
}

float softmax_weights_row(float* weights, const float* x, float max, std::size_t n) {
  // The shifted form e^(x - max), whose terms lie in (0, 1] and whose total lies in [1, n]. The
  // weights always come from it, so they never overflow or divide by zero.
  float shifted_total = 0.0f;
  for (std::size_t j = 0; j < n; ++j) {
    weights[j] = std::isfinite(x[j]) ? std::exp(x[j] - max) : 0.0f;
    shifted_total += weights[j];
  }
  const float shifted_exponentials_total = shifted_total;
  for (std::size_t j = 0; j < n; ++j) weights[j] /= shifted_total;
  return shifted_exponentials_total;
}

SoftmaxRowResult softmax_row(float* exponentials, float* weights, const float* x, std::size_t n) {
  SoftmaxRowResult result;
  result.max = softmax_row_max(x, n);

  // e^x as a reader would compute it by hand. It is kept only if every exponential and their
  // total are finite and the total is not zero (all terms underflowed).
  float raw_total = 0.0f;
  for (std::size_t j = 0; j < n; ++j) {
    exponentials[j] = std::isfinite(x[j]) ? std::exp(x[j]) : 0.0f;
    raw_total += exponentials[j];
  }
  result.shifted = !(std::isfinite(raw_total) && raw_total > 0.0f);
  result.total = raw_total;

  const float shifted_total = softmax_weights_row(weights, x, result.max, n);
  if (result.shifted) {
    // The shifted exponentials are the weights times their total, but recomputing them that
    // way would round; they are taken again from their definition.
    for (std::size_t j = 0; j < n; ++j)
      exponentials[j] = std::isfinite(x[j]) ? std::exp(x[j] - result.max) : 0.0f;
    result.total = shifted_total;
  }
  return result;
}

}  // namespace attn
