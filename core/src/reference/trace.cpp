// The scalar reference: one attention head computed the way the article computes it by hand,
// one numbered pass per step, every intermediate kept. Never optimised; the fast kernels are
// tested against it.
#include "attention/reference/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attention/reference/softmax.h"

namespace attn {

namespace {

// Added up in double, so the check itself adds no rounding a reader could mistake for drift.
void sum_rows(const Matrix& m, std::vector<float>& sums) {
  for (std::size_t r = 0; r < m.rows; ++r) {
    double sum = 0.0;
    for (std::size_t c = 0; c < m.cols; ++c) sum += m.at(r, c);
    sums[r] = static_cast<float>(sum);
  }
}

// assign keeps the capacity, so a buffer is only reallocated when it grows past it.
void reshape(Matrix& m, std::size_t rows, std::size_t cols) {
  m.rows = rows;
  m.cols = cols;
  m.values.assign(rows * cols, 0.0f);
}

void copy_rows(const float* from, Matrix& to) {
  std::copy(from, from + to.values.size(), to.values.begin());
}

}  // namespace

void resize_trace(Trace& trace, std::size_t T, std::size_t d) {
  trace.token_count = T;
  trace.head_dim = d;
  reshape(trace.q, T, d);
  reshape(trace.k, T, d);
  reshape(trace.v, T, d);
  trace.score_terms.assign(T * T * d, 0.0f);
  reshape(trace.scores, T, T);
  reshape(trace.scaled, T, T);
  reshape(trace.masked, T, T);
  trace.hidden.assign(T * T, 0);
  reshape(trace.exponentials, T, T);
  reshape(trace.weights, T, T);
  trace.row_max.assign(T, 0.0f);
  trace.row_shifted.assign(T, 0);
  trace.row_totals.assign(T, 0.0f);
  trace.weight_sums.assign(T, 0.0f);
  trace.weighted_values.assign(T * T * d, 0.0f);
  reshape(trace.out, T, d);
}

Trace compute_trace(const AttentionInput& input) {
  Trace trace;
  trace.tokens = input.tokens;
  compute_trace_into(input.q.values.data(), input.k.values.data(), input.v.values.data(),
                     input.tokens.size(), input.q.cols, MaskVariant{input.mask, input.mask_fill},
                     input.scale, trace);
  return trace;
}

void compute_trace_into(const float* q, const float* k, const float* v, std::size_t T,
                        std::size_t d, MaskVariant mask, ScaleKind scale, Trace& trace) {
  trace.mask = mask.mask;
  trace.mask_fill = mask.fill;
  trace.scale = scale;
  resize_trace(trace, T, d);
  copy_rows(q, trace.q);
  copy_rows(k, trace.k);
  copy_rows(v, trace.v);
  compute_trace_steps(trace);
}

void compute_trace_steps(Trace& trace) {
  const std::size_t T = trace.token_count;
  const std::size_t d = trace.head_dim;
  const Matrix& q = trace.q;
  const Matrix& k = trace.k;
  const Matrix& v = trace.v;

  // Step 1: score every query against every key, keeping each product of the dot product.
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      float sum = 0.0f;
      for (std::size_t c = 0; c < d; ++c) {
        const float term = q.at(i, c) * k.at(j, c);
        trace.score_terms[(i * T + j) * d + c] = term;
        sum += term;
      }
      trace.scores.at(i, j) = sum;
    }
  }

  // Step 2: divide by √d so the spread of the scores does not grow with head_dim (or by d or
  // by 1, the FAQ's variants).
  trace.scale_divisor = scale_divisor_for(trace.scale, d);
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j)
      trace.scaled.at(i, j) = trace.scores.at(i, j) / trace.scale_divisor;

  // Step 3: hide what token i may not see with -infinity, which step 4 turns into exactly 0.
  // (The FAQ's wrong fill writes 0 instead, an ordinary score that step 4 gives weight to.)
  const float hidden = trace.mask_fill == MaskFill::zero
                           ? 0.0f
                           : -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j) {
      const bool visible = is_visible(trace.mask, i, j);
      trace.masked.at(i, j) = visible ? trace.scaled.at(i, j) : hidden;
      trace.hidden[i * T + j] = visible ? 0 : 1;
    }

  // Step 4: softmax of each row: exponentials, their total, and the weights.
  for (std::size_t i = 0; i < T; ++i) {
    const SoftmaxRowResult row =
        softmax_row(trace.exponentials.row(i), trace.weights.row(i), trace.masked.row(i), T);
    trace.row_max[i] = row.max;
    trace.row_shifted[i] = row.shifted ? 1 : 0;
    trace.row_totals[i] = row.total;
  }
  sum_rows(trace.weights, trace.weight_sums);

  // Step 5: each token's output is its weights spent on the value rows.
  std::fill(trace.out.values.begin(), trace.out.values.end(), 0.0f);
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      for (std::size_t c = 0; c < d; ++c) {
        const float share = trace.weights.at(i, j) * v.at(j, c);
        trace.weighted_values[(i * T + j) * d + c] = share;
        trace.out.at(i, c) += share;
      }
    }
  }
}

std::optional<InputError> check_trace_shape(std::size_t token_count, std::size_t head_dim) {
  if (token_count == 0) return make_input_error("t", "must be at least 1");
  if (token_count > Limits::max_tokens)
    return make_input_error("t", "is " + std::to_string(token_count) + "; the limit is " +
                                     std::to_string(Limits::max_tokens) +
                                     " (the trace keeps T×T×d products)");
  if (head_dim == 0) return make_input_error("d", "must be at least 1");
  if (head_dim > Limits::max_head_dim)
    return make_input_error("d", "is " + std::to_string(head_dim) + "; the limit is " +
                                     std::to_string(Limits::max_head_dim) +
                                     " (the trace keeps T×T×d products)");
  return std::nullopt;
}

std::optional<InputError> TraceWorkspace::prepare(std::size_t token_count, std::size_t head_dim) {
  if (auto error = check_trace_shape(token_count, head_dim)) return error;
  resize_trace(trace_, token_count, head_dim);
  return std::nullopt;
}

std::optional<InputError> TraceWorkspace::run(MaskVariant mask, ScaleKind scale) {
  const std::size_t T = trace_.token_count;
  const std::size_t d = trace_.head_dim;
  if (T == 0) return make_input_error("t", "call prepare() first");
  if (auto error = check_values("q", q(), T, d)) return error;
  if (auto error = check_values("k", k(), T, d)) return error;
  if (auto error = check_values("v", v(), T, d)) return error;
  trace_.mask = mask.mask;
  trace_.mask_fill = mask.fill;
  trace_.scale = scale;
  compute_trace_steps(trace_);
  return std::nullopt;
}

}  // namespace attn
