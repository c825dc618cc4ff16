// The multi-head layer: projections, one reference trace per head, concatenation, W_O. Plain
// loops in float32, summed left to right like the trace's dot products (layer_tables.h).
#include "attention/layers/multi_head.h"

#include <string>

#include "attention/reference/seeded_random.h"
#include "layers/layer_tables.h"

namespace attn {

using namespace layer_tables;

Matrix seeded_token_vectors(std::size_t token_count, std::size_t d_model, std::uint64_t seed) {
  return random_grid_matrix(derive_seed(seed, token_vectors_stream), token_count, d_model,
                            UniformGrid{-1.0, 1.0, 1});
}

MultiHeadInput seeded_multi_head_input(std::vector<std::string> tokens, std::size_t d_model,
                                       std::size_t n_heads, std::uint64_t seed) {
  MultiHeadInput input;
  const std::size_t head_dim = seed_shared_tables(input, std::move(tokens), d_model, n_heads, seed);
  const UniformGrid grid = weight_grid(d_model);
  input.w_k = seeded_tables(seed, w_k_stream, n_heads, d_model, head_dim, grid);
  input.w_v = seeded_tables(seed, w_v_stream, n_heads, d_model, head_dim, grid);
  return input;
}

std::optional<InputError> validate_multi_head_input(const MultiHeadInput& input) {
  if (auto error = check_tokens(input.tokens)) return error;
  const std::size_t T = input.tokens.size();
  if (auto error = check_token_vector_shape(input.x, T)) return error;
  const std::size_t d_model = input.x.cols;
  if (auto error = check_head_split(d_model, input.n_heads)) return error;
  const std::size_t head_dim = d_model / input.n_heads;

  if (auto error = check_table("x", input.x, T, d_model, "tokens × d_model")) return error;
  const auto check_heads = [&](const char* name, const std::vector<Matrix>& tables) {
    return check_head_tables(name, tables, input.n_heads, d_model, head_dim, "d_model × head_dim");
  };
  if (auto error = check_heads("w_q", input.w_q)) return error;
  if (auto error = check_heads("w_k", input.w_k)) return error;
  if (auto error = check_heads("w_v", input.w_v)) return error;
  return check_table("w_o", input.w_o, d_model, d_model, "d_model × d_model");
}

MultiHeadLayer compute_multi_head(const MultiHeadInput& input) {
  MultiHeadLayer layer;
  copy_shape(layer, input);

  // Pass 1: each head projects the token vectors to its own Q, K, V and attends with them.
  for (std::size_t h = 0; h < input.n_heads; ++h)
    layer.heads.push_back(HeadOfLayer{input.w_q[h], input.w_k[h], input.w_v[h],
                                      head_trace(input, multiply(input.x, input.w_q[h]),
                                                 multiply(input.x, input.w_k[h]),
                                                 multiply(input.x, input.w_v[h]))});

  // Pass 2: the heads' outputs side by side, head 0's columns first; pass 3: W_O mixes what
  // the heads found.
  concat_and_mix(layer, input.w_o);
  return layer;
}

}  // namespace attn
