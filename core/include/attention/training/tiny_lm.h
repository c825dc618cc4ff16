// The one-layer, attention-only, causal language model the trainer fits, pinned so that every
// number can be re-derived by hand. For a sentence w_0 … w_{T−1}:
//   x_t      = E[w_t] + P[t]                         token and position embeddings, d_model wide
//   head h   = part one's attention on Q = x·W_Q^h, K = x·W_K^h, V = x·W_V^h (head_dim =
//              d_model / n_heads columns each): ÷ √head_dim, causal mask with −∞, softmax,
//              weighted sum of V
//   h_t      = x_t + concat(heads)_t · W_O           the residual
//   logits_t = h_t · U + b
//   loss     = mean over every position t < T−1 of every sentence of −ln softmax(logits_t)[w_{t+1}]
// No LayerNorm and no MLP. Parameters are float32 and every sum runs left to right, so the
// same parameters give the same numbers bit for bit wherever the core runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"
#include "attention/training/training_corpus.h"

namespace attn::training {

struct ModelShape {
  std::size_t vocabulary = 0;                                      // V
  std::size_t d_model = 16;
  std::size_t n_heads = 1;
  std::size_t positions = CorpusLimits::max_sentence_words;        // rows of P

  std::size_t head_dim() const { return d_model / n_heads; }
};

struct ModelLimits {
  static constexpr std::size_t max_d_model = 64;
  static constexpr std::size_t max_heads = 4;
};

// Every trainable number. Gradients and Adam's moments have the same shape.
struct Parameters {
  Matrix embedding;          // E [V][d_model]
  Matrix position;           // P [positions][d_model]
  std::vector<Matrix> w_q;   // [n_heads] of [d_model][head_dim]
  std::vector<Matrix> w_k;   // [n_heads] of [d_model][head_dim]
  std::vector<Matrix> w_v;   // [n_heads] of [d_model][head_dim]
  Matrix w_o;                // [d_model][d_model]
  Matrix unembedding;        // U [d_model][V]
  std::vector<float> bias;   // b [V]
};

// Zeros in the shape of `shape`.
Parameters zero_parameters(const ModelShape& shape);

// Small seeded weights: each table from its own stream of `seed` (derive_seed, streams 20 to 26,
// a head's index picking its own), uniform on the three-decimal grid in ±bound, filled row by
// row: E and P with bound 0.1, W_Q, W_K, W_V, W_O and U with bound 1/√d_model. b starts at 0.
Parameters seeded_parameters(const ModelShape& shape, std::uint64_t seed);

// Visits every table of `parameters` in a fixed order (E, P, W_Q of each head, W_K, W_V, W_O,
// U, b) as visit(values, count): Adam, the digest and the checks walk them with it.
template <typename Params, typename Visit>
void for_each_table(Params& parameters, Visit visit) {
  visit(parameters.embedding.values.data(), parameters.embedding.values.size());
  visit(parameters.position.values.data(), parameters.position.values.size());
  for (auto* heads : {&parameters.w_q, &parameters.w_k, &parameters.w_v})
    for (auto& table : *heads) visit(table.values.data(), table.values.size());
  visit(parameters.w_o.values.data(), parameters.w_o.values.size());
  visit(parameters.unembedding.values.data(), parameters.unembedding.values.size());
  visit(parameters.bias.data(), parameters.bias.size());
}

// A 64-bit FNV-1a digest of every parameter's bits, in for_each_table order: equal digests
// mean bit-identical parameters.
std::uint64_t parameter_digest(const Parameters& parameters);

// What the forward pass keeps of one sentence for the backward pass.
struct SentenceActivations {
  std::size_t token_count = 0;  // T
  Matrix x;                     // [T][d_model]
  std::vector<Trace> heads;     // [n_heads] part one's trace of each head (q, k, v, weights, out)
  Matrix concat;                // [T][d_model]
  Matrix residual;              // h [T][d_model]
  Matrix probabilities;         // [T][V] softmax(logits_t); the last row predicts past the end
};

// The forward pass of one sentence. Returns Σ_t −ln p_t(w_{t+1}) over t < T−1 (in double, the
// sum of float terms), or NaN when an activation left the range part one's attention accepts
// (what a diverging run produces). Precondition: 1 <= T <= shape.positions, every word < V.
double forward_sentence(const Parameters& parameters, const ModelShape& shape,
                        const Sentence& sentence, SentenceActivations& activations);

// The backward pass of one sentence after its forward pass: adds ∂(loss_sum · loss_scale)/∂θ
// into `gradients` for every parameter θ (loss_scale = 1 / the number of predicted words of the
// batch gives the gradient of the mean).
void backward_sentence(const Parameters& parameters, const ModelShape& shape,
                       const Sentence& sentence, const SentenceActivations& activations,
                       float loss_scale, Parameters& gradients);

}  // namespace attn::training
