// An independent attention head in float64, written from the formula
//   out = softmax(mask(Q Kᵀ / √d)) V
// and not from the core's code, so the tests compare the core against the mathematics rather
// than against itself. Its softmax subtracts the row maximum, so it stays finite for the
// large scores the tests use to provoke overflow in float32.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn_test {

struct ReferenceF64 {
  std::size_t token_count = 0;  // T
  std::size_t head_dim = 0;     // d
  std::vector<double> scores;   // [T][T] q_i · k_j
  std::vector<double> scaled;   // [T][T] scores / √d
  std::vector<double> masked;   // [T][T] scaled, or -infinity where i may not see j
  std::vector<double> weights;  // [T][T] softmax of each masked row
  std::vector<double> out;      // [T][d] Σ_j weights[i][j] v_j

  double score(std::size_t i, std::size_t j) const { return scores[i * token_count + j]; }
  double scaled_score(std::size_t i, std::size_t j) const { return scaled[i * token_count + j]; }
  double masked_score(std::size_t i, std::size_t j) const { return masked[i * token_count + j]; }
  double weight(std::size_t i, std::size_t j) const { return weights[i * token_count + j]; }
  double output(std::size_t i, std::size_t c) const { return out[i * head_dim + c]; }
};

// q, k, v: [T][d] row-major. `causal`: token i sees only tokens j <= i.
inline ReferenceF64 reference_attention_f64(const std::vector<double>& q,
                                            const std::vector<double>& k,
                                            const std::vector<double>& v,
                                            std::size_t token_count, std::size_t head_dim,
                                            bool causal) {
  const std::size_t T = token_count;
  const std::size_t d = head_dim;
  const double minus_infinity = -std::numeric_limits<double>::infinity();
  ReferenceF64 r;
  r.token_count = T;
  r.head_dim = d;
  r.scores.assign(T * T, 0.0);
  r.scaled.assign(T * T, 0.0);
  r.masked.assign(T * T, 0.0);
  r.weights.assign(T * T, 0.0);
  r.out.assign(T * d, 0.0);

  const double root_d = std::sqrt(static_cast<double>(d));
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < d; ++c) dot += q[i * d + c] * k[j * d + c];
      r.scores[i * T + j] = dot;
      r.scaled[i * T + j] = dot / root_d;
      const bool visible = !causal || j <= i;
      r.masked[i * T + j] = visible ? dot / root_d : minus_infinity;
    }
  }

  // softmax(x)_j = e^(x_j - m) / Σ e^(x_l - m) for any m; m = the row maximum keeps every
  // exponent <= 0, so nothing overflows, and at least one term is exactly 1.
  for (std::size_t i = 0; i < T; ++i) {
    const double* row = &r.masked[i * T];
    const double m = *std::max_element(row, row + T);
    double total = 0.0;
    for (std::size_t j = 0; j < T; ++j) total += std::exp(row[j] - m);  // e^-inf = 0
    for (std::size_t j = 0; j < T; ++j) r.weights[i * T + j] = std::exp(row[j] - m) / total;
  }

  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j)
      for (std::size_t c = 0; c < d; ++c) r.out[i * d + c] += r.weights[i * T + j] * v[j * d + c];
  return r;
}

inline std::vector<double> to_f64(const attn::Matrix& m) {
  return std::vector<double>(m.values.begin(), m.values.end());
}

inline ReferenceF64 reference_attention_f64(const attn::AttentionInput& input) {
  return reference_attention_f64(to_f64(input.q), to_f64(input.k), to_f64(input.v),
                                 input.q.rows, input.q.cols,
                                 input.mask == attn::MaskKind::causal);
}

// Softmax of one float64 row (entries may be -infinity), for the step-4 and step-6 checks.
inline std::vector<double> softmax_f64(const std::vector<double>& x) {
  const double m = *std::max_element(x.begin(), x.end());
  double total = 0.0;
  for (double value : x) total += std::exp(value - m);
  std::vector<double> p;
  for (double value : x) p.push_back(std::exp(value - m) / total);
  return p;
}

}  // namespace attn_test
