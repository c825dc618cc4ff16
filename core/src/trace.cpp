// The scalar reference: one attention head computed the way the article computes it by hand,
// one numbered pass per step, every intermediate kept. Never optimised; the fast kernels are
// tested against it.
#include "attention/trace.h"

#include <cmath>
#include <limits>

#include "attention/softmax.h"

namespace attn {

namespace {

// Added up in double, so the check itself adds no rounding a reader could mistake for drift.
std::vector<float> sum_rows(const Matrix& m) {
  std::vector<float> sums(m.rows, 0.0f);
  for (std::size_t r = 0; r < m.rows; ++r) {
    double sum = 0.0;
    for (std::size_t c = 0; c < m.cols; ++c) sum += m.at(r, c);
    sums[r] = static_cast<float>(sum);
  }
  return sums;
}

}  // namespace

Trace compute_trace(const AttentionInput& input) {
  const std::size_t T = input.tokens.size();
  const std::size_t d = input.q.cols;

  Trace trace;
  trace.tokens = input.tokens;
  trace.mask = input.mask;
  trace.mask_fill = input.mask_fill;
  trace.scale = input.scale;
  trace.token_count = T;
  trace.head_dim = d;
  trace.q = input.q;
  trace.k = input.k;
  trace.v = input.v;

  // Step 1: score every query against every key, keeping each product of the dot product.
  trace.score_terms.assign(T * T * d, 0.0f);
  trace.scores = Matrix(T, T);
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      float sum = 0.0f;
      for (std::size_t c = 0; c < d; ++c) {
        const float term = input.q.at(i, c) * input.k.at(j, c);
        trace.score_terms[(i * T + j) * d + c] = term;
        sum += term;
      }
      trace.scores.at(i, j) = sum;
    }
  }

  // Step 2: divide by √d so the spread of the scores does not grow with head_dim (or by d or
  // by 1, the FAQ's variants).
  trace.scale_divisor = scale_divisor_for(input.scale, d);
  trace.scaled = Matrix(T, T);
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j)
      trace.scaled.at(i, j) = trace.scores.at(i, j) / trace.scale_divisor;

  // Step 3: hide what token i may not see with -infinity, which step 4 turns into exactly 0.
  // (The FAQ's wrong fill writes 0 instead, an ordinary score that step 4 gives weight to.)
  const float hidden = input.mask_fill == MaskFill::zero
                           ? 0.0f
                           : -std::numeric_limits<float>::infinity();
  trace.masked = Matrix(T, T);
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j)
      trace.masked.at(i, j) = is_visible(input.mask, i, j) ? trace.scaled.at(i, j) : hidden;

  // Step 4: softmax of each row: exponentials, their total, and the weights.
  trace.exponentials = Matrix(T, T);
  trace.weights = Matrix(T, T);
  trace.row_max.assign(T, 0.0f);
  trace.row_shifted.assign(T, 0);
  trace.row_totals.assign(T, 0.0f);
  for (std::size_t i = 0; i < T; ++i) {
    const SoftmaxRowResult row =
        softmax_row(trace.exponentials.row(i), trace.weights.row(i), trace.masked.row(i), T);
    trace.row_max[i] = row.max;
    trace.row_shifted[i] = row.shifted ? 1 : 0;
    trace.row_totals[i] = row.total;
  }
  trace.weight_sums = sum_rows(trace.weights);

  // Step 5: each token's output is its weights spent on the value rows.
  trace.weighted_values.assign(T * T * d, 0.0f);
  trace.out = Matrix(T, d);
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      for (std::size_t c = 0; c < d; ++c) {
        const float share = trace.weights.at(i, j) * input.v.at(j, c);
        trace.weighted_values[(i * T + j) * d + c] = share;
        trace.out.at(i, c) += share;
      }
    }
  }
  return trace;
}

}  // namespace attn
