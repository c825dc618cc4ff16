// Multi-head latent attention (MLA, DeepSeek-V2): keys and values are rebuilt from one small
// latent vector per token, and only that latent is cached.
//   c_t = x_t · W_DKV                 [d_latent]  the down-projection: all the cache keeps
//   K_h = C · W_UK[h],  V_h = C · W_UV[h]         [T][head_dim]  rebuilt per head from the latents
//   Q_h = X · W_Q[h]                               as in MHA
// then each head runs the walkthrough's one-head attention on Q_h, K_h, V_h; the heads are
// concatenated and mixed by W_O, as in MHA. The cache holds d_latent numbers per token and
// layer instead of MHA's 2 · n_heads · head_dim.
//
// Positional encoding is left out. The published models add a small decoupled RoPE key of
// rope_dim numbers per token (cached next to the latent, shared by all heads) because a
// rotation applied to K would stop W_UK from being folded into the queries; with no positions
// there is nothing to decouple, so this layer has no such part and its cache is the latent
// alone. The KV bill (kv_bill.h) counts rope_dim for the real models. The queries' own
// low-rank compression (q_lora_rank) is left out too: it saves weights, not cache.
//
// With d_latent >= d_model and any W_DKV, MLA is MHA with the composed weights
// W_K[h] = W_DKV · W_UK[h] and W_V[h] = W_DKV · W_UV[h] (a product of matrices is
// associative); a small d_latent is what makes the cache small.
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

struct LatentAttentionLimits {
  static constexpr std::size_t max_d_latent = 256;
  // Two projections in a row (x · W_DKV · W_UK) multiply three bounds: with token vectors and
  // weights within ±1e3 a latent stays within 256 · 1e6 and a key within 256² · 1e9 ≈ 6.6e13,
  // inside the ±1e15 a head's K may hold, and no score can overflow float32.
  static constexpr double max_abs_value = 1e3;
};

struct LatentAttentionInput {
  std::vector<std::string> tokens;  // [T]
  std::size_t n_heads = 4;
  std::size_t d_latent = 8;
  Matrix x;                         // [T][d_model]
  std::vector<Matrix> w_q;          // [n_heads] of [d_model][head_dim]
  Matrix w_dkv;                     // [d_model][d_latent] the shared down-projection
  std::vector<Matrix> w_uk;         // [n_heads] of [d_latent][head_dim]
  std::vector<Matrix> w_uv;         // [n_heads] of [d_latent][head_dim]
  Matrix w_o;                       // [d_model][d_model]
  MaskKind mask = MaskKind::causal;
  MaskFill mask_fill = MaskFill::minus_infinity;
  ScaleKind scale = ScaleKind::sqrt_head_dim;

  std::size_t d_model() const { return x.cols; }
  std::size_t head_dim() const { return n_heads == 0 ? 0 : x.cols / n_heads; }
};

struct LatentHeadOfLayer {
  Matrix w_q;   // [d_model][head_dim]
  Matrix w_uk;  // [d_latent][head_dim]
  Matrix w_uv;  // [d_latent][head_dim]
  Trace trace;  // trace.q = x · w_q, trace.k = latent · w_uk, trace.v = latent · w_uv
};

struct LatentAttentionLayer {
  std::vector<std::string> tokens;  // [T]
  std::size_t d_model = 0;
  std::size_t n_heads = 0;
  std::size_t head_dim = 0;
  std::size_t d_latent = 0;
  Matrix x;                         // [T][d_model]
  Matrix w_dkv;                     // [d_model][d_latent]
  Matrix latent;                    // [T][d_latent] x · w_dkv: the cache, one row per token
  std::vector<LatentHeadOfLayer> heads;  // [n_heads]
  Matrix concat;                    // [T][d_model]
  Matrix w_o;                       // [d_model][d_model]
  Matrix out;                       // [T][d_model] concat · w_o
};

// Seeded tables: x, W_Q and W_O from the multi-head layer's streams (derive_seed(seed, 10),
// (seed, 11, h), (seed, 14); so the queries are MHA's), W_DKV from (seed, 15), W_UK[h] and
// W_UV[h] from (seed, 16, h) and (seed, 17, h). Weights are uniform on the two-decimal grid in
// ±√(3 / fan_in): fan_in d_model for W_Q, W_DKV and W_O, d_latent for W_UK and W_UV.
// Precondition: d_model divisible by n_heads, d_latent >= 1.
LatentAttentionInput seeded_latent_input(std::vector<std::string> tokens, std::size_t d_model,
                                         std::size_t n_heads, std::size_t d_latent,
                                         std::uint64_t seed);

// Shapes, limits (values within ±1e3, d_latent <= 256) and values. Paths: "tokens[0]",
// "x[1][2]", "n_heads", "d_latent", "w_q[0][1][2]", "w_dkv[3][0]", "w_uk[1]", "w_uv[2][0][1]",
// "w_o".
std::optional<InputError> validate_latent_input(const LatentAttentionInput& input);

// Precondition: validate_latent_input(input) returned nothing.
LatentAttentionLayer compute_latent_attention(const LatentAttentionInput& input);

}  // namespace attn
