// The multi-head layer: projections, one reference trace per head, concatenation, W_O. Plain
// loops in float32, summed left to right like the trace's dot products.
#include "attention/multi_head.h"

#include <cmath>
#include <string>

#include "attention/seeded_random.h"

namespace attn {

namespace {

// Streams of the user's seed (derive_seed), one per table; a head's index picks its own.
constexpr std::uint64_t token_vectors_stream = 10;
constexpr std::uint64_t w_q_stream = 11;
constexpr std::uint64_t w_k_stream = 12;
constexpr std::uint64_t w_v_stream = 13;
constexpr std::uint64_t w_o_stream = 14;

std::string cell_path(const std::string& table, std::size_t row, std::size_t col) {
  return table + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

std::string shape_text(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

std::optional<InputError> check_table_value(const std::string& path, double value) {
  if (!std::isfinite(value)) return make_input_error(path, "must be a finite number");
  if (std::fabs(value) > MultiHeadLimits::max_abs_value)
    return make_input_error(path, "is outside the allowed range of ±1e6");
  return std::nullopt;
}

// `table` must be rows × cols (its name and what the sizes mean go into the message) and hold
// only allowed values.
std::optional<InputError> check_table(const std::string& table, const Matrix& m,
                                      std::size_t rows, std::size_t cols,
                                      const char* shape_meaning) {
  if (m.rows != rows || m.cols != cols || m.values.size() != rows * cols)
    return make_input_error(table, "is " + shape_text(m.rows, m.cols) + " but must be " +
                                       shape_text(rows, cols) + " (" + shape_meaning + ")");
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (auto error = check_table_value(cell_path(table, r, c), m.at(r, c))) return error;
  return std::nullopt;
}

std::optional<InputError> check_head_tables(const char* name, const std::vector<Matrix>& tables,
                                            std::size_t n_heads, std::size_t d_model,
                                            std::size_t head_dim) {
  if (tables.size() != n_heads)
    return make_input_error(name, "has " + std::to_string(tables.size()) +
                                      " tables but there are " + std::to_string(n_heads) +
                                      " heads (one per head)");
  for (std::size_t h = 0; h < n_heads; ++h) {
    const std::string table = std::string(name) + "[" + std::to_string(h) + "]";
    if (auto error = check_table(table, tables[h], d_model, head_dim, "d_model × head_dim"))
      return error;
  }
  return std::nullopt;
}

// [rows][inner] · [inner][cols] -> [rows][cols], each entry summed left to right in float.
Matrix multiply(const Matrix& a, const Matrix& b) {
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

UniformGrid weight_grid(std::size_t d_model) {
  const double bound = std::sqrt(3.0 / static_cast<double>(d_model));
  return UniformGrid{-bound, bound, 2};
}

}  // namespace

Matrix seeded_token_vectors(std::size_t token_count, std::size_t d_model, std::uint64_t seed) {
  return random_grid_matrix(derive_seed(seed, token_vectors_stream), token_count, d_model,
                            UniformGrid{-1.0, 1.0, 1});
}

MultiHeadInput seeded_multi_head_input(std::vector<std::string> tokens, std::size_t d_model,
                                       std::size_t n_heads, std::uint64_t seed) {
  MultiHeadInput input;
  input.n_heads = n_heads;
  input.x = seeded_token_vectors(tokens.size(), d_model, seed);
  input.tokens = std::move(tokens);
  const std::size_t head_dim = n_heads == 0 ? 0 : d_model / n_heads;
  const UniformGrid grid = weight_grid(d_model);
  for (std::size_t h = 0; h < n_heads; ++h) {
    input.w_q.push_back(random_grid_matrix(derive_seed(seed, w_q_stream, h), d_model, head_dim, grid));
    input.w_k.push_back(random_grid_matrix(derive_seed(seed, w_k_stream, h), d_model, head_dim, grid));
    input.w_v.push_back(random_grid_matrix(derive_seed(seed, w_v_stream, h), d_model, head_dim, grid));
  }
  input.w_o = random_grid_matrix(derive_seed(seed, w_o_stream), d_model, d_model, grid);
  return input;
}

std::optional<InputError> validate_multi_head_input(const MultiHeadInput& input) {
  const std::size_t T = input.tokens.size();
  if (T == 0) return make_input_error("tokens", "needs at least one token");
  if (T > Limits::max_tokens)
    return make_input_error("tokens", "has " + std::to_string(T) + " tokens; the limit is " +
                                          std::to_string(Limits::max_tokens));
  for (std::size_t t = 0; t < T; ++t) {
    const std::string path = "tokens[" + std::to_string(t) + "]";
    if (input.tokens[t].empty()) return make_input_error(path, "must not be empty");
    if (input.tokens[t].size() > Limits::max_token_length)
      return make_input_error(path, "is " + std::to_string(input.tokens[t].size()) +
                                        " bytes long; the limit is " +
                                        std::to_string(Limits::max_token_length));
  }

  const std::size_t d_model = input.x.cols;
  if (input.x.rows != T)
    return make_input_error("x", "has " + std::to_string(input.x.rows) + " rows but there are " +
                                     std::to_string(T) + " tokens (one row per token)");
  if (d_model == 0) return make_input_error("x[0]", "is empty; d_model must be at least 1");
  if (d_model > MultiHeadLimits::max_d_model)
    return make_input_error("x[0]", "has " + std::to_string(d_model) +
                                        " values; the d_model limit is " +
                                        std::to_string(MultiHeadLimits::max_d_model));
  if (input.n_heads == 0) return make_input_error("n_heads", "must be at least 1");
  if (d_model % input.n_heads != 0)
    return make_input_error("n_heads", "must divide d_model " + std::to_string(d_model) +
                                           " into heads of equal size (" +
                                           std::to_string(input.n_heads) + " does not)");
  const std::size_t head_dim = d_model / input.n_heads;

  if (auto error = check_table("x", input.x, T, d_model, "tokens × d_model")) return error;
  if (auto error = check_head_tables("w_q", input.w_q, input.n_heads, d_model, head_dim)) return error;
  if (auto error = check_head_tables("w_k", input.w_k, input.n_heads, d_model, head_dim)) return error;
  if (auto error = check_head_tables("w_v", input.w_v, input.n_heads, d_model, head_dim)) return error;
  if (auto error = check_table("w_o", input.w_o, d_model, d_model, "d_model × d_model")) return error;
  return std::nullopt;
}

MultiHeadLayer compute_multi_head(const MultiHeadInput& input) {
  const std::size_t T = input.tokens.size();
  MultiHeadLayer layer;
  layer.tokens = input.tokens;
  layer.d_model = input.d_model();
  layer.n_heads = input.n_heads;
  layer.head_dim = input.head_dim();
  layer.x = input.x;
  layer.w_o = input.w_o;

  // Pass 1: each head projects the token vectors to its own Q, K, V and attends with them.
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    AttentionInput head_input;
    head_input.tokens = input.tokens;
    head_input.q = multiply(input.x, input.w_q[h]);  // [T][head_dim]
    head_input.k = multiply(input.x, input.w_k[h]);  // [T][head_dim]
    head_input.v = multiply(input.x, input.w_v[h]);  // [T][head_dim]
    head_input.mask = input.mask;
    head_input.mask_fill = input.mask_fill;
    head_input.scale = input.scale;
    layer.heads.push_back(HeadOfLayer{input.w_q[h], input.w_k[h], input.w_v[h],
                                      compute_trace(head_input)});
  }

  // Pass 2: the heads' outputs side by side, head 0's columns first.
  layer.concat = Matrix(T, layer.d_model);
  for (std::size_t h = 0; h < input.n_heads; ++h)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < layer.head_dim; ++c)
        layer.concat.at(t, h * layer.head_dim + c) = layer.heads[h].trace.out.at(t, c);

  // Pass 3: W_O mixes what the heads found.
  layer.out = multiply(layer.concat, input.w_o);  // [T][d_model]
  return layer;
}

}  // namespace attn
