// Small pieces the sequel's layers share (grouped-query, latent): the plain float matrix
// product, the checks on a weight table and on the token list. Internal to the core.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "attention/attention_input.h"
#include "attention/matrix.h"
#include "attention/multi_head.h"

namespace attn::layer_tables {

// [rows][inner] · [inner][cols] -> [rows][cols], each entry summed left to right in float: the
// same loop, in the same order, as the multi-head layer's projections, so that equal tables
// give bit-for-bit equal products.
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

inline std::string index_path(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

inline std::string shape_text(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

// One entry of a token vector or a weight table: finite and within ±1e6 (MultiHeadLimits).
inline std::optional<InputError> check_table_value(const std::string& path, double value) {
  if (!std::isfinite(value)) return make_input_error(path, "must be a finite number");
  if (std::fabs(value) > MultiHeadLimits::max_abs_value)
    return make_input_error(path, "is outside the allowed range of ±1e6");
  return std::nullopt;
}

// `table` must be rows × cols and hold only allowed values; `shape_meaning` says what the sizes
// are ("d_model × head_dim").
inline std::optional<InputError> check_table(const std::string& table, const Matrix& m,
                                             std::size_t rows, std::size_t cols,
                                             const char* shape_meaning) {
  if (m.rows != rows || m.cols != cols || m.values.size() != rows * cols)
    return make_input_error(table, "is " + shape_text(m.rows, m.cols) + " but must be " +
                                       shape_text(rows, cols) + " (" + shape_meaning + ")");
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (auto error = check_table_value(index_path(index_path(table, r), c), m.at(r, c)))
        return error;
  return std::nullopt;
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
  for (std::size_t n = 0; n < count; ++n)
    if (auto error = check_table(index_path(name, n), tables[n], rows, cols, shape_meaning))
      return error;
  return std::nullopt;
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

// x: one row per token, 1 to max_d_model columns, allowed values.
inline std::optional<InputError> check_token_vectors(const Matrix& x, std::size_t token_count) {
  if (x.rows != token_count)
    return make_input_error("x", "has " + std::to_string(x.rows) + " rows but there are " +
                                     std::to_string(token_count) + " tokens (one row per token)");
  if (x.cols == 0) return make_input_error("x[0]", "is empty; d_model must be at least 1");
  if (x.cols > MultiHeadLimits::max_d_model)
    return make_input_error("x[0]", "has " + std::to_string(x.cols) +
                                        " values; the d_model limit is " +
                                        std::to_string(MultiHeadLimits::max_d_model));
  return check_table("x", x, token_count, x.cols, "tokens × d_model");
}

// Weights uniform on the two-decimal grid in ±√(3 / fan_in): a variance of about 1 / fan_in,
// so a projection's entries keep about the spread of what it projects (as multi_head.h seeds).
inline double weight_bound(std::size_t fan_in) {
  return std::sqrt(3.0 / static_cast<double>(fan_in));
}

}  // namespace attn::layer_tables
