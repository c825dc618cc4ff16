// The softmax backward pass: how a change wanted in the weights of one row flows back to the
// scores that row was computed from. The FAQ's head_dim demonstration uses it to show that a
// saturated softmax (one weight near 1) passes almost no gradient back.
#pragma once

#include <cstddef>

namespace attn {

// For one row p = softmax(x) and an upstream gradient g = dL/dp, the gradient with respect to
// the row's inputs is
//   dL/dx_j = Σ_l g_l · dp_l/dx_j = p_j · (g_j - g·p),   with g·p = Σ_l g_l p_l,
// since dp_l/dx_j = p_l (δ_lj - p_j). A masked entry has p_j = 0, so its gradient is exactly 0.
//
// input_gradient: [n] output dL/dx.  weights: [n] p (a softmax row: entries in [0, 1] adding
// up to 1).  upstream: [n] g.  Returns g·p, the term every entry subtracts (summed in double).
float softmax_backward_row(float* input_gradient, const float* weights, const float* upstream,
                           std::size_t n);

}  // namespace attn
