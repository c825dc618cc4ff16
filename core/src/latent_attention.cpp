// Multi-head latent attention: one down-projection to the cached latent, per-head
// up-projections to K and V, then the reference trace per head, the concatenation and W_O.
#include "attention/latent_attention.h"

#include <cmath>
#include <string>

#include "attention/multi_head.h"
#include "attention/seeded_random.h"
#include "layer_tables.h"

namespace attn {

namespace {

constexpr std::uint64_t w_q_stream = 11;   // the multi-head layer's W_Q
constexpr std::uint64_t w_o_stream = 14;   // the multi-head layer's W_O
constexpr std::uint64_t w_dkv_stream = 15;
constexpr std::uint64_t w_uk_stream = 16;
constexpr std::uint64_t w_uv_stream = 17;

using layer_tables::multiply;

UniformGrid weight_grid(std::size_t fan_in) {
  const double bound = layer_tables::weight_bound(fan_in);
  return UniformGrid{-bound, bound, 2};
}

// Like layer_tables::check_table, with MLA's tighter value bound.
std::optional<InputError> check_latent_table(const std::string& table, const Matrix& m,
                                             std::size_t rows, std::size_t cols,
                                             const char* shape_meaning) {
  if (m.rows != rows || m.cols != cols || m.values.size() != rows * cols)
    return make_input_error(table, "is " + layer_tables::shape_text(m.rows, m.cols) +
                                       " but must be " + layer_tables::shape_text(rows, cols) +
                                       " (" + shape_meaning + ")");
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const std::string path = layer_tables::index_path(layer_tables::index_path(table, r), c);
      const double value = m.at(r, c);
      if (!std::isfinite(value)) return make_input_error(path, "must be a finite number");
      if (std::fabs(value) > LatentAttentionLimits::max_abs_value)
        return make_input_error(path, "is outside the allowed range of ±1e3 (latent attention "
                                      "multiplies two projections)");
    }
  }
  return std::nullopt;
}

std::optional<InputError> check_latent_tables(const char* name, const std::vector<Matrix>& tables,
                                              std::size_t n_heads, std::size_t rows,
                                              std::size_t cols, const char* shape_meaning) {
  if (tables.size() != n_heads)
    return make_input_error(name, "has " + std::to_string(tables.size()) +
                                      " tables but there are " + std::to_string(n_heads) +
                                      " heads (one per head)");
  for (std::size_t h = 0; h < n_heads; ++h)
    if (auto error = check_latent_table(layer_tables::index_path(name, h), tables[h], rows, cols,
                                        shape_meaning))
      return error;
  return std::nullopt;
}

}  // namespace

LatentAttentionInput seeded_latent_input(std::vector<std::string> tokens, std::size_t d_model,
                                         std::size_t n_heads, std::size_t d_latent,
                                         std::uint64_t seed) {
  LatentAttentionInput input;
  input.n_heads = n_heads;
  input.d_latent = d_latent;
  input.x = seeded_token_vectors(tokens.size(), d_model, seed);
  input.tokens = std::move(tokens);
  const std::size_t head_dim = n_heads == 0 ? 0 : d_model / n_heads;
  const UniformGrid model_grid = weight_grid(d_model);
  const UniformGrid latent_grid = weight_grid(d_latent);
  input.w_dkv = random_grid_matrix(derive_seed(seed, w_dkv_stream), d_model, d_latent, model_grid);
  for (std::size_t h = 0; h < n_heads; ++h) {
    input.w_q.push_back(random_grid_matrix(derive_seed(seed, w_q_stream, h), d_model, head_dim, model_grid));
    input.w_uk.push_back(random_grid_matrix(derive_seed(seed, w_uk_stream, h), d_latent, head_dim, latent_grid));
    input.w_uv.push_back(random_grid_matrix(derive_seed(seed, w_uv_stream, h), d_latent, head_dim, latent_grid));
  }
  input.w_o = random_grid_matrix(derive_seed(seed, w_o_stream), d_model, d_model, model_grid);
  return input;
}

std::optional<InputError> validate_latent_input(const LatentAttentionInput& input) {
  if (auto error = layer_tables::check_tokens(input.tokens)) return error;
  const std::size_t T = input.tokens.size();
  if (auto error = layer_tables::check_token_vectors(input.x, T)) return error;
  const std::size_t d_model = input.x.cols;
  if (input.n_heads == 0) return make_input_error("n_heads", "must be at least 1");
  if (d_model % input.n_heads != 0)
    return make_input_error("n_heads", "must divide d_model " + std::to_string(d_model) +
                                           " into heads of equal size (" +
                                           std::to_string(input.n_heads) + " does not)");
  if (input.d_latent == 0) return make_input_error("d_latent", "must be at least 1");
  if (input.d_latent > LatentAttentionLimits::max_d_latent)
    return make_input_error("d_latent", "is " + std::to_string(input.d_latent) +
                                            "; the limit is " +
                                            std::to_string(LatentAttentionLimits::max_d_latent));
  const std::size_t head_dim = d_model / input.n_heads;
  if (auto error = check_latent_table("x", input.x, T, d_model, "tokens × d_model")) return error;
  if (auto error = check_latent_tables("w_q", input.w_q, input.n_heads, d_model, head_dim,
                                       "d_model × head_dim"))
    return error;
  if (auto error = check_latent_table("w_dkv", input.w_dkv, d_model, input.d_latent,
                                      "d_model × d_latent"))
    return error;
  if (auto error = check_latent_tables("w_uk", input.w_uk, input.n_heads, input.d_latent, head_dim,
                                       "d_latent × head_dim"))
    return error;
  if (auto error = check_latent_tables("w_uv", input.w_uv, input.n_heads, input.d_latent, head_dim,
                                       "d_latent × head_dim"))
    return error;
  return check_latent_table("w_o", input.w_o, d_model, d_model, "d_model × d_model");
}

LatentAttentionLayer compute_latent_attention(const LatentAttentionInput& input) {
  const std::size_t T = input.tokens.size();
  LatentAttentionLayer layer;
  layer.tokens = input.tokens;
  layer.d_model = input.d_model();
  layer.n_heads = input.n_heads;
  layer.head_dim = input.head_dim();
  layer.d_latent = input.d_latent;
  layer.x = input.x;
  layer.w_dkv = input.w_dkv;
  layer.w_o = input.w_o;

  // Pass 1: the down-projection, once per token and shared by every head. This is the cache.
  layer.latent = multiply(input.x, input.w_dkv);  // [T][d_latent]

  // Pass 2: each head rebuilds its K and V from the latents and attends with its own Q.
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    AttentionInput head_input;
    head_input.tokens = input.tokens;
    head_input.q = multiply(input.x, input.w_q[h]);        // [T][head_dim]
    head_input.k = multiply(layer.latent, input.w_uk[h]);  // [T][head_dim]
    head_input.v = multiply(layer.latent, input.w_uv[h]);  // [T][head_dim]
    head_input.mask = input.mask;
    head_input.mask_fill = input.mask_fill;
    head_input.scale = input.scale;
    layer.heads.push_back(LatentHeadOfLayer{input.w_q[h], input.w_uk[h], input.w_uv[h],
                                            compute_trace(head_input)});
  }

  // Pass 3: the heads' outputs side by side, then W_O.
  layer.concat = Matrix(T, layer.d_model);
  for (std::size_t h = 0; h < input.n_heads; ++h)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < layer.head_dim; ++c)
        layer.concat.at(t, h * layer.head_dim + c) = layer.heads[h].trace.out.at(t, c);
  layer.out = multiply(layer.concat, input.w_o);  // [T][d_model]
  return layer;
}

}  // namespace attn
