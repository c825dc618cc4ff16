// The training model's loss in float64, written from the formula in tiny_lm.h and not from the
// core's code: the tests compare the core's loss with it and its gradients with central finite
// differences of it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "attention/training/tiny_lm.h"

namespace attn_test {

// Every parameter in float64, as flat row-major tables in tiny_lm.h's for_each_table order.
struct ParametersF64 {
  std::vector<std::vector<double>> tables;
};

inline ParametersF64 to_f64(const attn::training::Parameters& parameters) {
  ParametersF64 out;
  attn::training::for_each_table(parameters, [&](const float* values, std::size_t count) {
    out.tables.emplace_back(values, values + count);
  });
  return out;
}

// Σ over the sentences of Σ_{t<T−1} −ln softmax(logits_t)[w_{t+1}], divided by the number of
// predicted words.
inline double mean_loss_f64(const ParametersF64& p, const attn::training::ModelShape& shape,
                            const std::vector<attn::training::Sentence>& sentences) {
  const std::size_t d = shape.d_model, H = shape.n_heads, hd = d / H, V = shape.vocabulary;
  const auto& E = p.tables[0];
  const auto& P = p.tables[1];
  const auto w_q = [&](std::size_t h) -> const std::vector<double>& { return p.tables[2 + h]; };
  const auto w_k = [&](std::size_t h) -> const std::vector<double>& { return p.tables[2 + H + h]; };
  const auto w_v = [&](std::size_t h) -> const std::vector<double>& { return p.tables[2 + 2 * H + h]; };
  const auto& W_O = p.tables[2 + 3 * H];
  const auto& U = p.tables[3 + 3 * H];
  const auto& b = p.tables[4 + 3 * H];

  double total = 0.0;
  std::size_t predicted = 0;
  for (const auto& w : sentences) {
    const std::size_t T = w.size();
    std::vector<double> x(T * d), concat(T * d, 0.0);
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < d; ++c) x[t * d + c] = E[w[t] * d + c] + P[t * d + c];
    for (std::size_t h = 0; h < H; ++h) {
      std::vector<double> q(T * hd, 0.0), k(T * hd, 0.0), v(T * hd, 0.0);
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t c = 0; c < hd; ++c)
          for (std::size_t a = 0; a < d; ++a) {
            q[t * hd + c] += x[t * d + a] * w_q(h)[a * hd + c];
            k[t * hd + c] += x[t * d + a] * w_k(h)[a * hd + c];
            v[t * hd + c] += x[t * d + a] * w_v(h)[a * hd + c];
          }
      for (std::size_t i = 0; i < T; ++i) {
        // Causal: row i sees 0..i; the hidden cells' e^−∞ = 0 are simply left out.
        std::vector<double> s(i + 1);
        for (std::size_t j = 0; j <= i; ++j) {
          double dot = 0.0;
          for (std::size_t c = 0; c < hd; ++c) dot += q[i * hd + c] * k[j * hd + c];
          s[j] = dot / std::sqrt(static_cast<double>(hd));
        }
        const double top = *std::max_element(s.begin(), s.end());
        double sum = 0.0;
        for (double& value : s) sum += (value = std::exp(value - top));
        for (std::size_t j = 0; j <= i; ++j)
          for (std::size_t c = 0; c < hd; ++c) concat[i * d + h * hd + c] += s[j] / sum * v[j * hd + c];
      }
    }
    for (std::size_t t = 0; t + 1 < T; ++t) {
      std::vector<double> residual(x.begin() + t * d, x.begin() + (t + 1) * d);
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t a = 0; a < d; ++a) residual[c] += concat[t * d + a] * W_O[a * d + c];
      std::vector<double> logits(b.begin(), b.end());
      for (std::size_t v = 0; v < V; ++v)
        for (std::size_t c = 0; c < d; ++c) logits[v] += residual[c] * U[c * V + v];
      const double top = *std::max_element(logits.begin(), logits.end());
      double sum = 0.0;
      for (double logit : logits) sum += std::exp(logit - top);
      total += std::log(sum) + top - logits[w[t + 1]];
      ++predicted;
    }
  }
  return total / static_cast<double>(predicted);
}

}  // namespace attn_test
