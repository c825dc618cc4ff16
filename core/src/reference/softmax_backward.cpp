#include "attention/reference/softmax_backward.h"

namespace attn {

float softmax_backward_row(float* input_gradient, const float* weights, const float* upstream,
                           std::size_t n) {
  // Pass 1: g·p, the weighted average of the upstream gradient, in double so the difference
  // g_j - g·p in pass 2 loses nothing to the rounding of the sum.
  double upstream_dot_weights = 0.0;
  for (std::size_t l = 0; l < n; ++l)
    upstream_dot_weights += static_cast<double>(upstream[l]) * static_cast<double>(weights[l]);

  // Pass 2: dL/dx_j = p_j (g_j - g·p). A weight of exactly 0 (a masked word) passes nothing
  // back; it is written as +0 rather than the -0 a negative difference would give.
  for (std::size_t j = 0; j < n; ++j) {
    const double p = weights[j];
    input_gradient[j] =
        p == 0.0 ? 0.0f
                 : static_cast<float>(p * (static_cast<double>(upstream[j]) - upstream_dot_weights));
  }
  return static_cast<float>(upstream_dot_weights);
}

}  // namespace attn
