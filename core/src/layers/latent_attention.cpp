// Multi-head latent attention: one down-projection to the cached latent, per-head
// up-projections to K and V, then the reference trace per head, the concatenation and W_O.
#include "attention/layers/latent_attention.h"

#include <string>

#include "attention/layers/multi_head.h"
#include "attention/reference/seeded_random.h"
#include "layers/layer_tables.h"

namespace attn {

using namespace layer_tables;

namespace {

constexpr std::uint64_t w_dkv_stream = 15;
constexpr std::uint64_t w_uk_stream = 16;
constexpr std::uint64_t w_uv_stream = 17;

// MLA's tighter value bound (two projections in a row).
constexpr ValueBound latent_bound{LatentAttentionLimits::max_abs_value,
                                  " (latent attention multiplies two projections)"};

}  // namespace

LatentAttentionInput seeded_latent_input(std::vector<std::string> tokens, std::size_t d_model,
                                         std::size_t n_heads, std::size_t d_latent,
                                         std::uint64_t seed) {
  LatentAttentionInput input;
  const std::size_t head_dim = seed_shared_tables(input, std::move(tokens), d_model, n_heads, seed);
  input.d_latent = d_latent;
  const UniformGrid latent_grid = weight_grid(d_latent);
  input.w_dkv = random_grid_matrix(derive_seed(seed, w_dkv_stream), d_model, d_latent,
                                   weight_grid(d_model));
  input.w_uk = seeded_tables(seed, w_uk_stream, n_heads, d_latent, head_dim, latent_grid);
  input.w_uv = seeded_tables(seed, w_uv_stream, n_heads, d_latent, head_dim, latent_grid);
  return input;
}

std::optional<InputError> validate_latent_input(const LatentAttentionInput& input) {
  if (auto error = check_tokens(input.tokens)) return error;
  const std::size_t T = input.tokens.size();
  if (auto error = check_token_vectors(input.x, T)) return error;
  const std::size_t d_model = input.x.cols;
  if (auto error = check_head_split(d_model, input.n_heads)) return error;
  if (input.d_latent == 0) return make_input_error("d_latent", "must be at least 1");
  if (input.d_latent > LatentAttentionLimits::max_d_latent)
    return make_input_error("d_latent", "is " + std::to_string(input.d_latent) +
                                            "; the limit is " +
                                            std::to_string(LatentAttentionLimits::max_d_latent));
  const std::size_t head_dim = d_model / input.n_heads;
  const std::size_t n_heads = input.n_heads;
  const std::size_t d_latent = input.d_latent;
  if (auto error = check_table("x", input.x, T, d_model, "tokens × d_model", latent_bound))
    return error;
  if (auto error = check_head_tables("w_q", input.w_q, n_heads, d_model, head_dim,
                                     "d_model × head_dim", latent_bound))
    return error;
  if (auto error = check_table("w_dkv", input.w_dkv, d_model, d_latent, "d_model × d_latent",
                               latent_bound))
    return error;
  if (auto error = check_head_tables("w_uk", input.w_uk, n_heads, d_latent, head_dim,
                                     "d_latent × head_dim", latent_bound))
    return error;
  if (auto error = check_head_tables("w_uv", input.w_uv, n_heads, d_latent, head_dim,
                                     "d_latent × head_dim", latent_bound))
    return error;
  return check_table("w_o", input.w_o, d_model, d_model, "d_model × d_model", latent_bound);
}

LatentAttentionLayer compute_latent_attention(const LatentAttentionInput& input) {
  LatentAttentionLayer layer;
  copy_shape(layer, input);
  layer.d_latent = input.d_latent;
  layer.w_dkv = input.w_dkv;

  // Pass 1: the down-projection, once per token and shared by every head. This is the cache.
  layer.latent = multiply(input.x, input.w_dkv);  // [T][d_latent]

  // Pass 2: each head rebuilds its K and V from the latents and attends with its own Q.
  for (std::size_t h = 0; h < input.n_heads; ++h)
    layer.heads.push_back(LatentHeadOfLayer{input.w_q[h], input.w_uk[h], input.w_uv[h],
                                            head_trace(input, multiply(input.x, input.w_q[h]),
                                                       multiply(layer.latent, input.w_uk[h]),
                                                       multiply(layer.latent, input.w_uv[h]))});

  // Pass 3: the heads' outputs side by side, then W_O.
  concat_and_mix(layer, input.w_o);
  return layer;
}

}  // namespace attn
