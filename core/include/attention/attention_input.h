// What one attention head is given: token names, Q, K, V and the mask, plus the limits
// every entry point (CLI, wasm module) enforces before any arithmetic happens.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/matrix.h"

namespace attn {

enum class MaskKind {
  causal,  // token i sees tokens 0..i (decoder-only language models)
  none,    // every token sees every token (bidirectional encoders such as BERT)
};

std::string_view mask_name(MaskKind mask);
std::optional<MaskKind> parse_mask(std::string_view name);

// The documented limits. The trace stores T×T×head_dim products (the working of every score
// and every weighted value row), so T and head_dim are bounded to keep it small enough to show.
// Values are bounded so that no dot product can overflow float32:
// head_dim · max_abs_value² = 256 · 1e30 < FLT_MAX ≈ 3.4e38.
struct Limits {
  static constexpr std::size_t max_tokens = 64;
  static constexpr std::size_t max_head_dim = 256;
  static constexpr double max_abs_value = 1e15;
  static constexpr std::size_t max_token_length = 256;  // bytes of UTF-8 per token name
};

struct AttentionInput {
  std::vector<std::string> tokens;  // [T]
  Matrix q;                         // [T][d]
  Matrix k;                         // [T][d]
  Matrix v;                         // [T][d]
  MaskKind mask = MaskKind::causal;
};

// A problem with the input, named by its JSON path (for example "q[1][3]") so a reader can
// find it. `message` is one line and already starts with the path.
struct InputError {
  std::string path;
  std::string message;
};

InputError make_input_error(std::string path, std::string_view what);

// One value of Q, K or V (or of a row handed back to the core): finite and within the limit.
std::optional<InputError> check_value(const std::string& path, double value);

// Checks shapes, limits and values. The arithmetic functions assume this returned nothing.
std::optional<InputError> validate_input(const AttentionInput& input);

}  // namespace attn
