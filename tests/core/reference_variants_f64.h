// Float64 references for the explorable's computations, written from the formulas and not from
// the core's code: one attention head with any divisor and either mask fill, the softmax
// backward pass, and plain matrix products.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "attention/reference/matrix.h"

namespace attn_test {

struct HeadF64 {
  std::size_t token_count = 0;  // T
  std::size_t head_dim = 0;     // d
  std::vector<double> scores;   // [T][T]
  std::vector<double> scaled;   // [T][T]
  std::vector<double> masked;   // [T][T]
  std::vector<double> weights;  // [T][T]
  std::vector<double> out;      // [T][d]

  double at(const std::vector<double>& m, std::size_t i, std::size_t j) const {
    return m[i * token_count + j];
  }
};

// softmax(mask(q kᵀ / divisor)) v. causal: token i sees j <= i; hidden cells hold -infinity, or
// 0 when zero_fill (the FAQ's mistake). q, k, v: [T][d] row-major.
inline HeadF64 reference_head_f64(const std::vector<double>& q, const std::vector<double>& k,
                                  const std::vector<double>& v, std::size_t token_count,
                                  std::size_t head_dim, bool causal, bool zero_fill,
                                  double divisor) {
  const std::size_t T = token_count;
  const std::size_t d = head_dim;
  HeadF64 r;
  r.token_count = T;
  r.head_dim = d;
  r.scores.assign(T * T, 0.0);
  r.scaled.assign(T * T, 0.0);
  r.masked.assign(T * T, 0.0);
  r.weights.assign(T * T, 0.0);
  r.out.assign(T * d, 0.0);
  const double hidden = zero_fill ? 0.0 : -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < d; ++c) dot += q[i * d + c] * k[j * d + c];
      r.scores[i * T + j] = dot;
      r.scaled[i * T + j] = dot / divisor;
      r.masked[i * T + j] = (!causal || j <= i) ? dot / divisor : hidden;
    }
  }
  for (std::size_t i = 0; i < T; ++i) {
    const double* row = &r.masked[i * T];
    const double m = *std::max_element(row, row + T);
    double total = 0.0;
    for (std::size_t j = 0; j < T; ++j) total += std::exp(row[j] - m);
    for (std::size_t j = 0; j < T; ++j) r.weights[i * T + j] = std::exp(row[j] - m) / total;
  }
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j)
      for (std::size_t c = 0; c < d; ++c) r.out[i * d + c] += r.weights[i * T + j] * v[j * d + c];
  return r;
}

inline std::vector<double> values_f64(const attn::Matrix& m) {
  return std::vector<double>(m.values.begin(), m.values.end());
}

// [rows][inner] · [inner][cols] in double.
inline std::vector<double> multiply_f64(const std::vector<double>& a, const std::vector<double>& b,
                                        std::size_t rows, std::size_t inner, std::size_t cols) {
  std::vector<double> product(rows * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t m = 0; m < inner; ++m) product[r * cols + c] += a[r * inner + m] * b[m * cols + c];
  return product;
}

// Softmax of a float64 row whose masked entries are -infinity.
inline std::vector<double> softmax_row_f64(const std::vector<double>& x) {
  const double m = *std::max_element(x.begin(), x.end());
  double total = 0.0;
  for (const double value : x) total += std::exp(value - m);
  std::vector<double> p;
  for (const double value : x) p.push_back(std::exp(value - m) / total);
  return p;
}

// dL/dx of L(x) = Σ_l g_l softmax(x)_l by central differences, (L(x + h e_j) - L(x - h e_j)) / 2h,
// in double. Masked entries (-infinity) stay masked and get 0.
inline std::vector<double> softmax_gradient_by_differences(const std::vector<double>& x,
                                                           const std::vector<double>& g,
                                                           double h = 1e-6) {
  const auto loss = [&](const std::vector<double>& at) {
    const std::vector<double> p = softmax_row_f64(at);
    double sum = 0.0;
    for (std::size_t l = 0; l < p.size(); ++l) sum += g[l] * p[l];
    return sum;
  };
  std::vector<double> gradient(x.size(), 0.0);
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (!std::isfinite(x[j])) continue;
    std::vector<double> up = x, down = x;
    up[j] += h;
    down[j] -= h;
    gradient[j] = (loss(up) - loss(down)) / (2.0 * h);
  }
  return gradient;
}

}  // namespace attn_test
