// What the attention layers share (multi-head, grouped-query, latent): the seeded weight tables,
// the plain float matrix product, the checks on the token list, the head split and each table,
// and the per-head attention, the concatenation and W_O. Internal to the core.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"
#include "attention/layers/multi_head.h"
#include "attention/reference/seeded_random.h"
#include "attention/reference/trace.h"

namespace attn::layer_tables {

// ---- seeded tables -------------------------------------------------------------------------

// Streams of the user's seed (derive_seed), one per table; a head's index picks its own. The
// layers share them, so that equal shapes give equal tables.
inline constexpr std::uint64_t token_vectors_stream = 10;
inline constexpr std::uint64_t w_q_stream = 11;
inline constexpr std::uint64_t w_k_stream = 12;
inline constexpr std::uint64_t w_v_stream = 13;
inline constexpr std::uint64_t w_o_stream = 14;

// Weights uniform on the two-decimal grid in ±√(3 / fan_in): a variance of about 1 / fan_in,
// so a projection's entries keep about the spread of what it projects (as multi_head.h seeds).
inline UniformGrid weight_grid(std::size_t fan_in) {
  const double bound = std::sqrt(3.0 / static_cast<double>(fan_in));
  return UniformGrid{-bound, bound, 2};
}

// `count` tables of rows × cols on `grid`, table n from derive_seed(seed, stream, n).
inline std::vector<Matrix> seeded_tables(std::uint64_t seed, std::uint64_t stream,
                                         std::size_t count, std::size_t rows, std::size_t cols,
                                         const UniformGrid& grid) {
  std::vector<Matrix> tables;
  for (std::size_t n = 0; n < count; ++n)
    tables.push_back(random_grid_matrix(derive_seed(seed, stream, n), rows, cols, grid));
  return tables;
}

// What every seeded layer shares with the multi-head layer (multi_head.h): n_heads, x from
// the token vectors' stream, the tokens, and W_Q of each head and W_O on weight_grid(d_model).
// Returns head_dim.
template <typename LayerInput>
std::size_t seed_shared_tables(LayerInput& input, std::vector<std::string> tokens,
                               std::size_t d_model, std::size_t n_heads, std::uint64_t seed) {
  input.n_heads = n_heads;
  input.x = seeded_token_vectors(tokens.size(), d_model, seed);
  input.tokens = std::move(tokens);
  const std::size_t head_dim = n_heads == 0 ? 0 : d_model / n_heads;
  const UniformGrid grid = weight_grid(d_model);
  input.w_q = seeded_tables(seed, w_q_stream, n_heads, d_model, head_dim, grid);
  input.w_o = random_grid_matrix(derive_seed(seed, w_o_stream), d_model, d_model, grid);
  return head_dim;
}

// ---- arithmetic ----------------------------------------------------------------------------

// [rows][inner] · [inner][cols] -> [rows][cols], each entry summed left to right in float: the
// same loop, in the same order, in every layer, so that equal tables give bit-for-bit equal
// products.
inline Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix product(a.rows, b.cols);
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (std::size_t c = 0; c < b.cols; ++c) {
      float sum = 0.0f;
      for (std::size_t m = 0; m < a.cols; ++m) sum += a.at(r, m) * b.at(m, c);
      product.at(r, c) = sum;
    }
  }
  return product;
}

// The tokens, sizes, x and W_O of a layer, as its input has them.
template <typename Layer, typename LayerInput>
void copy_shape(Layer& layer, const LayerInput& input) {
  layer.tokens = input.tokens;
  layer.d_model = input.d_model();
  layer.n_heads = input.n_heads;
  layer.head_dim = input.head_dim();
  layer.x = input.x;
  layer.w_o = input.w_o;
}

// One head's attention (the walkthrough's trace) on its own Q, K and V, with the layer's mask
// and scale.
template <typename LayerInput>
Trace head_trace(const LayerInput& input, Matrix q, Matrix k, Matrix v) {
  AttentionInput head;
  head.tokens = input.tokens;
  head.q = std::move(q);
  head.k = std::move(k);
  head.v = std::move(v);
  head.mask = input.mask;
  head.mask_fill = input.mask_fill;
  head.scale = input.scale;
  return compute_trace(head);
}

// The heads' outputs side by side, head 0's columns first (concat[t][h · head_dim + c] =
// heads[h].trace.out[t][c]); then W_O mixes what the heads found: out = concat · w_o.
template <typename Layer>
void concat_and_mix(Layer& layer, const Matrix& w_o) {
  const std::size_t T = layer.tokens.size();
  layer.concat = Matrix(T, layer.d_model);
  for (std::size_t h = 0; h < layer.heads.size(); ++h)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < layer.head_dim; ++c)
        layer.concat.at(t, h * layer.head_dim + c) = layer.heads[h].trace.out.at(t, c);
  layer.out = multiply(layer.concat, w_o);  // [T][d_model]
}

// ---- checks --------------------------------------------------------------------------------

inline std::string index_path(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

inline std::string shape_text(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

// How far the entries of a layer's tables may reach, and what a refusal says beyond that.
struct ValueBound {
  double max_abs;
  const char* why;  // appended to the refusal: why this bound ("" when it is the usual one)
};

// Token vectors and weights of the multi-head and grouped-query layers (MultiHeadLimits).
inline constexpr ValueBound layer_bound{MultiHeadLimits::max_abs_value, ""};

// One entry of a token vector or a weight table: finite and within the bound.
inline std::optional<InputError> check_table_value(const std::string& path, double value,
                                                   const ValueBound& bound = layer_bound) {
  if (!std::isfinite(value)) return make_input_error(path, "must be a finite number");
  if (std::fabs(value) > bound.max_abs)
    return make_input_error(path, out_of_range(value, bound.max_abs) + bound.why);
  return std::nullopt;
}

// `table` must be rows × cols and hold only allowed values; `shape_meaning` says what the sizes
// are ("d_model × head_dim").
inline std::optional<InputError> check_table(const std::string& table, const Matrix& m,
                                             std::size_t rows, std::size_t cols,
                                             const char* shape_meaning,
                                             const ValueBound& bound = layer_bound) {
  if (m.rows != rows || m.cols != cols || m.values.size() != rows * cols)
    return make_input_error(table, "is " + shape_text(m.rows, m.cols) + " but must be " +
                                       shape_text(rows, cols) + " (" + shape_meaning + ")");
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (auto error = check_table_value(index_path(index_path(table, r), c), m.at(r, c), bound))
        return error;
  return std::nullopt;
}

// Every one of `tables` as check_table checks it, named "w_q[1]", "w_q[1][3][0]", ...
inline std::optional<InputError> check_each_table(const std::string& name,
                                                  const std::vector<Matrix>& tables,
                                                  std::size_t rows, std::size_t cols,
                                                  const char* shape_meaning,
                                                  const ValueBound& bound) {
  for (std::size_t n = 0; n < tables.size(); ++n)
    if (auto error = check_table(index_path(name, n), tables[n], rows, cols, shape_meaning, bound))
      return error;
  return std::nullopt;
}

// One table per head, each rows × cols.
inline std::optional<InputError> check_head_tables(const std::string& name,
                                                   const std::vector<Matrix>& tables,
                                                   std::size_t n_heads, std::size_t rows,
                                                   std::size_t cols, const char* shape_meaning,
                                                   const ValueBound& bound = layer_bound) {
  if (tables.size() != n_heads)
    return make_input_error(name, "has " + std::to_string(tables.size()) +
                                      " tables but there are " + std::to_string(n_heads) +
                                      " heads (one per head)");
  return check_each_table(name, tables, rows, cols, shape_meaning, bound);
}

// `count` tables, each rows × cols; `per_what` says what each one belongs to ("query head").
inline std::optional<InputError> check_tables(const std::string& name,
                                              const std::vector<Matrix>& tables,
                                              std::size_t count, const char* per_what,
                                              std::size_t rows, std::size_t cols,
                                              const char* shape_meaning) {
  if (tables.size() != count)
    return make_input_error(name, "has " + std::to_string(tables.size()) + " tables but needs " +
                                      std::to_string(count) + " (one per " + per_what + ")");
  return check_each_table(name, tables, rows, cols, shape_meaning, layer_bound);
}

// 1 to Limits::max_tokens tokens, each a non-empty name of at most max_token_length bytes.
inline std::optional<InputError> check_tokens(const std::vector<std::string>& tokens) {
  if (tokens.empty()) return make_input_error("tokens", "needs at least one token");
  if (tokens.size() > Limits::max_tokens)
    return make_input_error("tokens", "has " + std::to_string(tokens.size()) +
                                          " tokens; the limit is " +
                                          std::to_string(Limits::max_tokens));
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const std::string path = index_path("tokens", t);
    if (tokens[t].empty()) return make_input_error(path, "must not be empty");
    if (tokens[t].size() > Limits::max_token_length)
      return make_input_error(path, "is " + std::to_string(tokens[t].size()) +
                                        " bytes long; the limit is " +
                                        std::to_string(Limits::max_token_length));
  }
  return std::nullopt;
}

// x: one row per token, 1 to max_d_model columns.
inline std::optional<InputError> check_token_vector_shape(const Matrix& x, std::size_t token_count) {
  if (x.rows != token_count)
    return make_input_error("x", "has " + std::to_string(x.rows) + " rows but there are " +
                                     std::to_string(token_count) + " tokens (one row per token)");
  if (x.cols == 0) return make_input_error("x[0]", "is empty; d_model must be at least 1");
  if (x.cols > MultiHeadLimits::max_d_model)
    return make_input_error("x[0]", "has " + std::to_string(x.cols) +
                                        " values; the d_model limit is " +
                                        std::to_string(MultiHeadLimits::max_d_model));
  return std::nullopt;
}

// x: that shape, and allowed values.
inline std::optional<InputError> check_token_vectors(const Matrix& x, std::size_t token_count) {
  if (auto error = check_token_vector_shape(x, token_count)) return error;
  return check_table("x", x, token_count, x.cols, "tokens × d_model");
}

// n_heads: at least 1, and dividing d_model into heads of equal size.
inline std::optional<InputError> check_head_split(std::size_t d_model, std::size_t n_heads) {
  if (n_heads == 0) return make_input_error("n_heads", "must be at least 1");
  if (d_model % n_heads != 0)
    return make_input_error("n_heads", "must divide d_model " + std::to_string(d_model) +
                                           " into heads of equal size (" +
                                           std::to_string(n_heads) + " does not)");
  return std::nullopt;
}

}  // namespace attn::layer_tables
