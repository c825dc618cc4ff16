// The model's seeded parameters and its forward pass, in numbered passes like the reference
// trace. Each head's attention is part one's trace itself (compute_trace_steps), run on
// projections written straight into the trace's q, k and v.
#include "attention/training/tiny_lm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention/reference/seeded_random.h"

namespace attn::training {

namespace {

// Streams of the model's seed, one per table (a head's index picks its own), away from the
// streams the explorable's layers use (10 to 14), so a seed's tables are the trainer's alone.
constexpr std::uint64_t embedding_stream = 20;
constexpr std::uint64_t position_stream = 21;
constexpr std::uint64_t w_q_stream = 22;
constexpr std::uint64_t w_k_stream = 23;
constexpr std::uint64_t w_v_stream = 24;
constexpr std::uint64_t w_o_stream = 25;
constexpr std::uint64_t unembedding_stream = 26;

constexpr double embedding_bound = 0.1;

Matrix seeded_table(std::uint64_t seed, std::uint64_t stream, std::uint64_t index,
                    std::size_t rows, std::size_t cols, double bound) {
  return random_grid_matrix(derive_seed(seed, stream, index), rows, cols,
                            UniformGrid{-bound, bound, 3});
}

// out [T][cols] = x [T][inner] · w [inner][cols], each entry summed left to right in float from
// 0: the multi-head layer's sums term for term, so attend() reproduces the training forward bit
// for bit. The loop runs along a row of w, which compilers vectorise without reordering a sum.
void project(float* out, const Matrix& x, const Matrix& w) {
  const std::size_t cols = w.cols;
  for (std::size_t t = 0; t < x.rows; ++t) {
    float* out_t = out + t * cols;
    std::fill(out_t, out_t + cols, 0.0f);
    for (std::size_t a = 0; a < x.cols; ++a) {
      const float x_ta = x.at(t, a);
      const float* w_a = w.row(a);
      for (std::size_t c = 0; c < cols; ++c) out_t[c] += x_ta * w_a[c];
    }
  }
}

void reshape(Matrix& m, std::size_t rows, std::size_t cols) {
  m.rows = rows;
  m.cols = cols;
  m.values.resize(rows * cols);
}

}  // namespace

Parameters zero_parameters(const ModelShape& shape) {
  const std::size_t d = shape.d_model, hd = shape.head_dim(), V = shape.vocabulary;
  Parameters zero;
  zero.embedding = Matrix(V, d);
  zero.position = Matrix(shape.positions, d);
  zero.w_q.assign(shape.n_heads, Matrix(d, hd));
  zero.w_k.assign(shape.n_heads, Matrix(d, hd));
  zero.w_v.assign(shape.n_heads, Matrix(d, hd));
  zero.w_o = Matrix(d, d);
  zero.unembedding = Matrix(d, V);
  zero.bias.assign(V, 0.0f);
  return zero;
}

Parameters seeded_parameters(const ModelShape& shape, std::uint64_t seed) {
  const std::size_t d = shape.d_model, hd = shape.head_dim(), V = shape.vocabulary;
  // About 1/√fan_in: a projection keeps roughly the spread of what it projects.
  const double weight_bound = 1.0 / std::sqrt(static_cast<double>(d));
  Parameters parameters = zero_parameters(shape);
  parameters.embedding = seeded_table(seed, embedding_stream, 0, V, d, embedding_bound);
  parameters.position = seeded_table(seed, position_stream, 0, shape.positions, d, embedding_bound);
  for (std::size_t h = 0; h < shape.n_heads; ++h) {
    parameters.w_q[h] = seeded_table(seed, w_q_stream, h, d, hd, weight_bound);
    parameters.w_k[h] = seeded_table(seed, w_k_stream, h, d, hd, weight_bound);
    parameters.w_v[h] = seeded_table(seed, w_v_stream, h, d, hd, weight_bound);
  }
  parameters.w_o = seeded_table(seed, w_o_stream, 0, d, d, weight_bound);
  parameters.unembedding = seeded_table(seed, unembedding_stream, 0, d, V, weight_bound);
  return parameters;
}

std::uint64_t parameter_digest(const Parameters& parameters) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  for_each_table(parameters, [&](const float* values, std::size_t count) {
    for (std::size_t n = 0; n < count; ++n) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &values[n], sizeof bits);
      for (int byte = 0; byte < 4; ++byte) {  // little-endian byte order on every platform
        hash ^= (bits >> (8 * byte)) & 0xffu;
        hash *= 0x100000001b3ull;              // FNV prime
      }
    }
  });
  return hash;
}

double forward_sentence(const Parameters& parameters, const ModelShape& shape,
                        const Sentence& sentence, SentenceActivations& activations) {
  const std::size_t T = sentence.size(), d = shape.d_model, hd = shape.head_dim();
  const std::size_t V = shape.vocabulary;
  activations.token_count = T;
  reshape(activations.x, T, d);
  reshape(activations.concat, T, d);
  reshape(activations.residual, T, d);
  reshape(activations.probabilities, T, V);
  activations.heads.resize(shape.n_heads);

  // Pass 1: x_t = E[w_t] + P[t].
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t c = 0; c < d; ++c)
      activations.x.at(t, c) = parameters.embedding.at(sentence[t], c) + parameters.position.at(t, c);

  // Pass 2: each head projects x to its Q, K and V and runs part one's attention on them.
  for (std::size_t h = 0; h < shape.n_heads; ++h) {
    Trace& trace = activations.heads[h];
    trace.mask = MaskKind::causal;
    trace.mask_fill = MaskFill::minus_infinity;
    trace.scale = ScaleKind::sqrt_head_dim;
    resize_trace(trace, T, hd);
    project(trace.q.values.data(), activations.x, parameters.w_q[h]);
    project(trace.k.values.data(), activations.x, parameters.w_k[h]);
    project(trace.v.values.data(), activations.x, parameters.w_v[h]);
    // The trace's arithmetic assumes values part one accepts; a diverging run leaves them.
    if (!qkv_within_limit(trace.q.values.data(), trace.k.values.data(), trace.v.values.data(), T * hd))
      return std::numeric_limits<double>::quiet_NaN();
    compute_trace_steps(trace);
  }

  // Pass 3: the heads' outputs side by side, head 0's columns first.
  for (std::size_t h = 0; h < shape.n_heads; ++h)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < hd; ++c)
        activations.concat.at(t, h * hd + c) = activations.heads[h].out.at(t, c);

  // Pass 4: h_t = x_t + concat_t · W_O (the product summed first, then the residual added).
  project(activations.residual.values.data(), activations.concat, parameters.w_o);
  for (std::size_t n = 0; n < T * d; ++n) activations.residual.values[n] += activations.x.values[n];

  // Pass 5: logits_t = h_t · U + b, their softmax, and −ln p of the next word:
  // −ln p = ln Σ_v e^(logit_v − max) − (logit_next − max), which neither overflows nor takes
  // the log of an underflowed probability.
  double loss_sum = 0.0;
  for (std::size_t t = 0; t < T; ++t) {
    float* row = activations.probabilities.row(t);
    const float* h_t = activations.residual.row(t);
    std::fill(row, row + V, 0.0f);
    for (std::size_t c = 0; c < d; ++c) {
      const float* u_c = parameters.unembedding.row(c);
      for (std::size_t v = 0; v < V; ++v) row[v] += h_t[c] * u_c[v];
    }
    float max = -std::numeric_limits<float>::infinity();
    for (std::size_t v = 0; v < V; ++v) {
      row[v] += parameters.bias[v];
      if (row[v] > max) max = row[v];
    }
    const float next_logit = t + 1 < T ? row[sentence[t + 1]] : 0.0f;
    float total = 0.0f;
    for (std::size_t v = 0; v < V; ++v) {
      row[v] = std::exp(row[v] - max);
      total += row[v];
    }
    for (std::size_t v = 0; v < V; ++v) row[v] /= total;
    if (t + 1 < T) loss_sum += static_cast<double>(std::log(total) - (next_logit - max));
  }
  return loss_sum;
}

}  // namespace attn::training
