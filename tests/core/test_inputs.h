// Inputs the property and kernel tests share: seeded random heads and heads whose scores are
// large enough that a naive float32 e^x overflows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <variant>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn_test {

// A head's shape, for the tests that sweep several.
struct Shape {
  std::size_t token_count;
  std::size_t head_dim;
};

// An input reader's message prefixed with "error: ", or "no error": reads well in a failed
// CHECK. (Each test source is compiled on its own or in a unity batch with others, so helpers
// they share live here rather than once per file.)
inline std::string error_of(const std::variant<attn::AttentionInput, attn::InputError>& result) {
  const auto* error = std::get_if<attn::InputError>(&result);
  return error ? "error: " + error->message : std::string("no error");
}

// The validation message, or "" when the input is valid: reads well in a failed REQUIRE.
inline std::string validation_error(const attn::AttentionInput& input) {
  const std::optional<attn::InputError> error = attn::validate_input(input);
  return error ? error->message : std::string();
}

// Values uniform in [lo, hi], from a fixed seed so a failure reproduces.
inline attn::Matrix random_matrix(std::mt19937& rng, std::size_t rows, std::size_t cols,
                                  float lo = -2.0f, float hi = 2.0f) {
  std::uniform_real_distribution<float> value(lo, hi);
  attn::Matrix m(rows, cols);
  for (float& x : m.values) x = value(rng);
  return m;
}

inline attn::AttentionInput random_input(std::size_t token_count, std::size_t head_dim,
                                         attn::MaskKind mask, std::uint32_t seed) {
  std::mt19937 rng(seed);
  attn::AttentionInput input;
  for (std::size_t t = 0; t < token_count; ++t) input.tokens.push_back("w" + std::to_string(t));
  input.q = random_matrix(rng, token_count, head_dim);
  input.k = random_matrix(rng, token_count, head_dim);
  input.v = random_matrix(rng, token_count, head_dim);
  input.mask = mask;
  return input;
}

// Scores near 1.2e4, where float32 e^x overflows (e^89 already does). Only component 0 of q
// and k is non-zero: q_i[0] = 128 + 2i and k_j[0] = 96 + j/128, so
//   q_i · k_j = 12288 + 192 i + j (1 + i/64),
// dyadic rationals that float32 holds exactly, as it does their division by √d for d = 1 or 4.
// Neighbouring scores of a row differ by about 1 (d = 1) or 0.5 (d = 4), so the exact weights
// are well-conditioned numbers like 1 / (1 + e^-1), not 0 and 1.
inline attn::AttentionInput large_score_input(std::size_t head_dim, attn::MaskKind mask) {
  const std::size_t T = 3;
  attn::AttentionInput input;
  input.tokens = {"big", "bigger", "biggest"};
  input.mask = mask;
  input.q = attn::Matrix(T, head_dim);
  input.k = attn::Matrix(T, head_dim);
  input.v = attn::Matrix(T, head_dim);
  for (std::size_t i = 0; i < T; ++i) {
    input.q.at(i, 0) = 128.0f + 2.0f * static_cast<float>(i);
    input.k.at(i, 0) = 96.0f + static_cast<float>(i) / 128.0f;
    for (std::size_t c = 0; c < head_dim; ++c)
      input.v.at(i, c) = static_cast<float>(i + 1) * 0.5f - static_cast<float>(c) * 0.25f;
  }
  return input;
}

}  // namespace attn_test
