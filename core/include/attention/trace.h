// The trace of one attention head: every intermediate number the walkthrough prints, filled by
// the plain scalar reference. Nothing here is optimised; it is written to be read against the
// article, one numbered pass per step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attention/attention_input.h"
#include "attention/matrix.h"

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

}  // namespace attn
