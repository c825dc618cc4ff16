// A multi-head attention layer, as the article sketches it: every token is a vector of d_model
// numbers; each of n_heads heads projects those vectors to its own Q, K and V of head_dim =
// d_model / n_heads columns and runs the one-head attention of the walkthrough on them; the
// heads' outputs are laid side by side (the concatenation, d_model columns again) and mixed by
// W_O. Every head keeps its full trace, so each can be shown table by table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"

namespace attn {

struct MultiHeadLimits {
  static constexpr std::size_t max_d_model = 256;
  // Token vectors and weights stay within ±1e6, so every projection (a sum of at most 256
  // products) stays within ±2.6e14, inside the ±1e15 a head's Q, K and V may hold.
  static constexpr double max_abs_value = 1e6;
};

struct MultiHeadInput {
  std::vector<std::string> tokens;  // [T]
  std::size_t n_heads = 4;
  Matrix x;                         // [T][d_model] one vector per token
  std::vector<Matrix> w_q;          // [n_heads] of [d_model][head_dim]
  std::vector<Matrix> w_k;          // [n_heads] of [d_model][head_dim]
  std::vector<Matrix> w_v;          // [n_heads] of [d_model][head_dim]
  Matrix w_o;                       // [d_model][d_model]
  MaskKind mask = MaskKind::causal;
  MaskFill mask_fill = MaskFill::minus_infinity;
  ScaleKind scale = ScaleKind::sqrt_head_dim;

  std::size_t d_model() const { return x.cols; }
  std::size_t head_dim() const { return n_heads == 0 ? 0 : x.cols / n_heads; }
};

struct HeadOfLayer {
  Matrix w_q;   // [d_model][head_dim]
  Matrix w_k;   // [d_model][head_dim]
  Matrix w_v;   // [d_model][head_dim]
  Trace trace;  // the head's attention; trace.q = x · w_q, trace.k = x · w_k, trace.v = x · w_v
};

struct MultiHeadLayer {
  std::vector<std::string> tokens;  // [T]
  std::size_t d_model = 0;
  std::size_t n_heads = 0;
  std::size_t head_dim = 0;
  Matrix x;                         // [T][d_model]
  std::vector<HeadOfLayer> heads;   // [n_heads]
  Matrix concat;                    // [T][d_model] concat[t][h · head_dim + c] = heads[h].trace.out[t][c]
  Matrix w_o;                       // [d_model][d_model]
  Matrix out;                       // [T][d_model] concat · w_o
};

// Seeded token vectors and weights, each table from its own stream of `seed` (derive_seed), so
// that changing the number of tokens leaves the weights alone and the heads do not share numbers:
//   x: uniform on the grid -1.0, -0.9, ..., 1.0 (one decimal, like the article's numbers),
//      from derive_seed(seed, 10);
//   w_q, w_k, w_v of head h: from derive_seed(seed, 11, h), (seed, 12, h), (seed, 13, h);
//   w_o: from derive_seed(seed, 14);
//   every weight uniform on the two-decimal grid in ±√(3 / d_model), a variance of about
//   1 / d_model, so a projection's entries have about the spread of x's entries.
// Each table is filled row by row, so a taller x starts with the same rows.
// Precondition: 1 <= n_heads, d_model divisible by n_heads (validate_multi_head_input checks
// the result).
MultiHeadInput seeded_multi_head_input(std::vector<std::string> tokens, std::size_t d_model,
                                       std::size_t n_heads, std::uint64_t seed);

// Replaces x by seeded token vectors for however many tokens there are (used when the caller
// gives no x).
Matrix seeded_token_vectors(std::size_t token_count, std::size_t d_model, std::uint64_t seed);

// Shapes, limits and values; paths name the table and cell: "x[2][5]", "w_q[1][3][0]",
// "w_o[4][7]", "n_heads", "tokens[0]".
std::optional<InputError> validate_multi_head_input(const MultiHeadInput& input);

// Precondition: validate_multi_head_input(input) returned nothing.
MultiHeadLayer compute_multi_head(const MultiHeadInput& input);

}  // namespace attn
