// The trace of one attention head: every intermediate number the walkthrough prints, filled by
// the plain scalar reference. Nothing here is optimised; it is written to be read against the
// article, one numbered pass per step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn {

struct Trace {
  std::vector<std::string> tokens;  // [T]
  MaskKind mask = MaskKind::causal;
  MaskFill mask_fill = MaskFill::minus_infinity;  // what step 3 wrote into hidden cells
  ScaleKind scale = ScaleKind::sqrt_head_dim;     // what step 2 divided by
  std::size_t token_count = 0;      // T
  std::size_t head_dim = 0;         // d

  Matrix q;  // [T][d]
  Matrix k;  // [T][d]
  Matrix v;  // [T][d]

  // Step 1: scores[i][j] = q_i · k_j, summed left to right over score_terms[i][j][c].
  std::vector<float> score_terms;  // [T][T][d] q[i][c] * k[j][c]
  Matrix scores;                   // [T][T]

  // Step 2: scaled = scores / scale_divisor.
  float scale_divisor = 1.0f;      // √d (the article), or d, or 1 (the FAQ's variants)
  Matrix scaled;                   // [T][T]

  // Step 3: masked = scaled, or -infinity where token i may not see token j (0 there instead
  // under the FAQ's MaskFill::zero, which is why that variant leaks weight onto the future).
  Matrix masked;                   // [T][T]
  // Which cells step 3 hid: 1 where token i may not see token j (j > i under the causal masks,
  // whatever was written there: -infinity, or 0 under MaskFill::zero), 0 elsewhere and
  // everywhere under MaskKind::none. What a reader needs to tell a hidden 0 from a score of 0.
  std::vector<std::uint8_t> hidden;  // [T][T]

  // Step 4: softmax per row. exponentials[i][j] = e^masked[i][j], as the article prints it,
  // unless that overflows (or the row's total does not fit a float): then the row is shifted,
  // exponentials[i][j] = e^(masked[i][j] - row_max[i]), and row_shifted[i] = 1.
  // Weights are always computed from the shifted form, which cannot overflow.
  Matrix exponentials;                   // [T][T], 0 where masked with -infinity
  std::vector<float> row_max;            // [T] largest live masked score of each row
  std::vector<std::uint8_t> row_shifted; // [T] 1 where exponentials are e^(x - row_max)
  std::vector<float> row_totals;         // [T] sum of the row's exponentials
  Matrix weights;                        // [T][T], exactly 0 where masked with -infinity
  std::vector<float> weight_sums;        // [T] each row of weights added up: the check that it is 1

  // Step 5: weighted_values[i][j] = weights[i][j] * v_j; out_i = Σ_j weighted_values[i][j].
  std::vector<float> weighted_values;    // [T][T][d]
  Matrix out;                            // [T][d]

  float score_term(std::size_t i, std::size_t j, std::size_t c) const {
    return score_terms[(i * token_count + j) * head_dim + c];
  }
  float weighted_value(std::size_t i, std::size_t j, std::size_t c) const {
    return weighted_values[(i * token_count + j) * head_dim + c];
  }
};

// True when `mask` lets token i see token j; step 3 hides every other cell.
inline bool is_visible(MaskKind mask, std::size_t i, std::size_t j) {
  return mask == MaskKind::none || j <= i;
}

// Precondition: validate_input(input) returned no error.
Trace compute_trace(const AttentionInput& input);

// The same trace, bit for bit (compute_trace is built on it), for row-major q, k and v of T rows
// of d values, written into `trace` and reusing its buffers: once `trace` has held a trace at
// least this large, nothing is allocated. trace.tokens is left as it is (the numbers do not need
// it). q, k and v must not point into `trace`.
// Precondition: T and d within Limits (check_trace_shape) and every value of q, k and v passes
// check_value (check_values).
void compute_trace_into(const float* q, const float* k, const float* v, std::size_t T,
                        std::size_t d, MaskVariant mask, ScaleKind scale, Trace& trace);

// The pieces both of the above and TraceWorkspace are made of.
// Sizes every buffer of `trace` for T tokens of head_dim d, zero-filled, and sets token_count
// and head_dim. Capacity is kept: only a buffer that grows past its capacity is reallocated.
void resize_trace(Trace& trace, std::size_t T, std::size_t d);
// Steps 1 to 5, the one copy of the arithmetic: every intermediate and the output, from the
// trace's own q, k, v, mask, mask_fill and scale, into its buffers (resize_trace first).
void compute_trace_steps(Trace& trace);

// T and d within Limits, as the arguments of a caller who passes them ("t", "d") rather than
// token names and rows.
std::optional<InputError> check_trace_shape(std::size_t token_count, std::size_t head_dim);

// The trace for callers with their own buffers (the wasm module's tracers): q, k and v are
// written straight into the trace, checked as validate_input checks them, and every intermediate
// is computed in place. Once prepared, runs allocate nothing and no buffer moves.
class TraceWorkspace {
 public:
  // Checks the shape (errors name "t" or "d") and sizes every buffer of the trace for it. The
  // addresses of the trace's buffers stay fixed until the next prepare() of a larger shape.
  std::optional<InputError> prepare(std::size_t token_count, std::size_t head_dim);

  // Where the caller writes q, k and v after prepare(): [T][d] each, row-major.
  float* q() { return trace_.q.values.data(); }
  float* k() { return trace_.k.values.data(); }
  float* v() { return trace_.v.values.data(); }

  // After prepare() and q, k, v written: checks every value (finite, within
  // Limits::max_abs_value; errors name "q[row][col]") before any arithmetic, then computes the
  // trace (compute_trace_steps). On an error the trace's numbers are left unspecified.
  std::optional<InputError> run(MaskVariant mask, ScaleKind scale);

  const Trace& trace() const { return trace_; }

 private:
  Trace trace_;
};

}  // namespace attn
