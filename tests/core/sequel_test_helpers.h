// Helpers the sequel's tests share: words, tolerant and exact comparisons, and a float64
// recomputation of a layer of heads from its tables (written from the formulas, not from the
// core's code).
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"
#include "reference_variants_f64.h"

namespace sequel_test {

inline std::vector<std::string> words(std::size_t count) {
  const std::vector<std::string> sentence = {"the", "cat", "sat", "on", "the", "mat", "and", "slept"};
  std::vector<std::string> tokens;
  for (std::size_t t = 0; t < count; ++t) tokens.push_back(sentence[t % sentence.size()]);
  return tokens;
}

// |core - ref| <= budget · (1 + |ref|) entry by entry.
inline void check_close(const attn::Matrix& core, const std::vector<double>& ref, double budget,
                        const std::string& what) {
  REQUIRE(core.values.size() == ref.size());
  for (std::size_t n = 0; n < ref.size(); ++n) {
    INFO(what << " entry " << n / (core.cols ? core.cols : 1) << "," << n % (core.cols ? core.cols : 1)
              << ": core " << core.values[n] << ", float64 " << ref[n]);
    CHECK(std::fabs(core.values[n] - ref[n]) <= budget * (1.0 + std::fabs(ref[n])));
  }
}

// Bit for bit (NaN never appears; -infinity equals -infinity).
inline void check_identical(const attn::Matrix& a, const attn::Matrix& b, const std::string& what) {
  INFO(what);
  CHECK(a.rows == b.rows);
  CHECK(a.cols == b.cols);
  CHECK(a.values == b.values);
}

inline void check_identical_traces(const attn::Trace& a, const attn::Trace& b, const std::string& what) {
  check_identical(a.q, b.q, what + " q");
  check_identical(a.k, b.k, what + " k");
  check_identical(a.v, b.v, what + " v");
  check_identical(a.scores, b.scores, what + " scores");
  check_identical(a.masked, b.masked, what + " masked");
  check_identical(a.exponentials, b.exponentials, what + " exponentials");
  check_identical(a.weights, b.weights, what + " weights");
  CHECK(a.weighted_values == b.weighted_values);
  check_identical(a.out, b.out, what + " out");
}

inline double divisor_f64(attn::ScaleKind scale, std::size_t head_dim) {
  if (scale == attn::ScaleKind::sqrt_head_dim) return std::sqrt(static_cast<double>(head_dim));
  if (scale == attn::ScaleKind::head_dim) return static_cast<double>(head_dim);
  return 1.0;
}

// The float64 layer: per head q_h, k_h, v_h given, attention, concatenation, · W_O.
struct LayerF64 {
  std::vector<attn_test::HeadF64> heads;
  std::vector<double> concat;  // [T][n_heads · head_dim]
  std::vector<double> out;     // [T][d_model]
};

inline LayerF64 layer_f64(const std::vector<std::vector<double>>& q, const std::vector<std::vector<double>>& k,
                          const std::vector<std::vector<double>>& v, const std::vector<double>& w_o,
                          std::size_t T, std::size_t head_dim, std::size_t d_model, bool causal,
                          bool zero_fill, double divisor) {
  const std::size_t n_heads = q.size();
  LayerF64 layer;
  layer.concat.assign(T * n_heads * head_dim, 0.0);
  for (std::size_t h = 0; h < n_heads; ++h) {
    layer.heads.push_back(
        attn_test::reference_head_f64(q[h], k[h], v[h], T, head_dim, causal, zero_fill, divisor));
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < head_dim; ++c)
        layer.concat[t * n_heads * head_dim + h * head_dim + c] = layer.heads[h].out[t * head_dim + c];
  }
  layer.out = attn_test::multiply_f64(layer.concat, w_o, T, n_heads * head_dim, d_model);
  return layer;
}

}  // namespace sequel_test
