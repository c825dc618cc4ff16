// What one attention head is given: token names, Q, K, V and the mask, plus the limits
// every entry point (CLI, wasm module) enforces before any arithmetic happens.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/reference/matrix.h"

namespace attn {

enum class MaskKind {
  causal,  // token i sees tokens 0..i (decoder-only language models)
  none,    // every token sees every token (bidirectional encoders such as BERT)
};

// "causal", "none": every MaskKind's name, in that order (what a request may name when only the
// -infinity fill applies, as FlashAttention's tiles).
inline constexpr std::array<std::string_view, 2> mask_names = {"causal", "none"};
std::string_view mask_name(MaskKind mask);
std::optional<MaskKind> parse_mask(std::string_view name);

// What step 3 writes into a cell the mask hides. The FAQ's variant `zero` is the mistake it
// warns about: a hidden score of 0 is an ordinary score, e^0 = 1, so the softmax still spends
// weight on the future words. It changes nothing under MaskKind::none (no cell is hidden).
enum class MaskFill {
  minus_infinity,  // e^-∞ = 0: hidden words get exactly no weight (the correct mask)
  zero,            // hidden scores become 0 and leak weight onto the words they should hide
};

// The mask as JSON and the trace name it, one name for the pair: "causal", "none", or
// "causal_zero" (causal, hidden cells filled with 0 instead of -infinity).
struct MaskVariant {
  MaskKind mask = MaskKind::causal;
  MaskFill fill = MaskFill::minus_infinity;
};
// Every mask variant's name, the one list every request reader offers (mask_names, then
// "causal_zero").
inline constexpr std::array<std::string_view, 3> mask_variant_names = {mask_names[0], mask_names[1],
                                                                      "causal_zero"};
std::string_view mask_variant_name(MaskKind mask, MaskFill fill);
std::optional<MaskVariant> parse_mask_variant(std::string_view name);

// What step 2 divides the scores by. The FAQ compares the three.
enum class ScaleKind {
  sqrt_head_dim,  // ÷ √d_k: keeps the spread of the scores near 1 whatever head_dim is
  head_dim,       // ÷ d_k: over-corrects, the spread shrinks as 1/√d_k and the weights go flat
  none,           // ÷ 1: the spread grows as √d_k and the softmax saturates
};

// "sqrt_d", "d", "none", as JSON and the trace name them: the one list of the scale's names.
inline constexpr std::array<std::string_view, 3> scale_names = {"sqrt_d", "d", "none"};
std::string_view scale_name(ScaleKind scale);
std::optional<ScaleKind> parse_scale(std::string_view name);

// √d, d or 1, in float32 (for sqrt_head_dim exactly std::sqrt(float(d)), as the trace has
// always used).
float scale_divisor_for(ScaleKind scale, std::size_t head_dim);

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
  // The FAQ's variants. The defaults are the article's attention; the fast kernels
  // (kernels.h) compute only that, so these two are the reference trace's alone.
  MaskFill mask_fill = MaskFill::minus_infinity;
  ScaleKind scale = ScaleKind::sqrt_head_dim;
};

// A problem with the input, named by its JSON path (for example "q[1][3]") so a reader can
// find it. `message` is one line and already starts with the path.
struct InputError {
  std::string path;
  std::string message;
};

InputError make_input_error(std::string path, std::string_view what);

// A count and its noun as a message writes them: "1 row", "2 rows", "0 rows".
std::string counted(std::size_t count, std::string_view one, std::string_view many);

// The refusal of a table that does not hold one row per token: "has 1 row but there are
// 4 tokens (one row per token)", "has 2 rows but there is 1 token (…)". Every reader of q, k,
// v, x and the like says it so.
InputError rows_per_token_error(std::string path, std::size_t rows, std::size_t tokens);

// The shortest text that reads back as `value` ("1e30", "-2.5", "3e38"); a value a float holds
// exactly is written as that float's shortest text, so a float input reads as it was typed.
std::string number_text(double value);

// The refusal of a value beyond ±bound, naming the value so the reader sees which entry and by
// how much ("is 1e30, outside the allowed range of ±1e15"); `bound` is a power of ten.
std::string out_of_range(double value, double bound);

// One value of Q, K or V (or of a row handed back to the core): finite and within the limit.
std::optional<InputError> check_value(const std::string& path, double value);

// Every value of a row-major rows×cols block of `field` (check_value; the first failing one is
// named "field[row][col]"). The common case, every value fine, builds no strings.
std::optional<InputError> check_values(std::string_view field, const float* values,
                                       std::size_t rows, std::size_t cols);

// The largest float within Limits::max_abs_value (rounding to nearest went down; asserted in
// attention_input.cpp): for a float x, |x| <= the limit exactly when |x| <= max_abs_float.
inline constexpr float max_abs_float = static_cast<float>(Limits::max_abs_value);

// Whether all n values are finite and within ±max_abs_float: check_values without the message,
// for the kernels that check what they are given.
bool values_within_limit(const float* values, std::size_t n);

// The same for the n values each of q, k and v: what a kernel checks before it starts.
inline bool qkv_within_limit(const float* q, const float* k, const float* v, std::size_t n) {
  return values_within_limit(q, n) && values_within_limit(k, n) && values_within_limit(v, n);
}

// Checks shapes, limits and values. The arithmetic functions assume this returned nothing.
std::optional<InputError> validate_input(const AttentionInput& input);

}  // namespace attn
