#include "attention/reference/attention_input.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "json/decimal_text.h"

namespace attn {

// The names are the lists' (attention_input.h), so that no name is typed twice.
std::string_view mask_name(MaskKind mask) {
  return mask == MaskKind::causal ? mask_names[0] : mask_names[1];
}

std::optional<MaskKind> parse_mask(std::string_view name) {
  if (name == mask_names[0]) return MaskKind::causal;
  if (name == mask_names[1]) return MaskKind::none;
  return std::nullopt;
}

std::string_view mask_variant_name(MaskKind mask, MaskFill fill) {
  if (mask == MaskKind::none) return mask_name(mask);
  return fill == MaskFill::zero ? mask_variant_names[2] : mask_name(mask);
}

std::optional<MaskVariant> parse_mask_variant(std::string_view name) {
  if (name == mask_variant_names[2]) return MaskVariant{MaskKind::causal, MaskFill::zero};
  if (const std::optional<MaskKind> mask = parse_mask(name))
    return MaskVariant{*mask, MaskFill::minus_infinity};
  return std::nullopt;
}

std::string_view scale_name(ScaleKind scale) {
  switch (scale) {
    case ScaleKind::head_dim: return scale_names[1];
    case ScaleKind::none: return scale_names[2];
    case ScaleKind::sqrt_head_dim: break;
  }
  return scale_names[0];
}

std::optional<ScaleKind> parse_scale(std::string_view name) {
  if (name == scale_names[0]) return ScaleKind::sqrt_head_dim;
  if (name == scale_names[1]) return ScaleKind::head_dim;
  if (name == scale_names[2]) return ScaleKind::none;
  return std::nullopt;
}

float scale_divisor_for(ScaleKind scale, std::size_t head_dim) {
  const float d = static_cast<float>(head_dim);
  switch (scale) {
    case ScaleKind::head_dim: return d;
    case ScaleKind::none: return 1.0f;
    case ScaleKind::sqrt_head_dim: break;
  }
  return std::sqrt(d);
}

InputError make_input_error(std::string path, std::string_view what) {
  std::string message = path;
  message += ": ";
  message += what;
  return InputError{std::move(path), std::move(message)};
}

std::string counted(std::size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + ' ' + std::string(count == 1 ? one : many);
}

InputError rows_per_token_error(std::string path, std::size_t rows, std::size_t tokens) {
  return make_input_error(std::move(path), "has " + counted(rows, "row", "rows") +
                                               (tokens == 1 ? " but there is " : " but there are ") +
                                               counted(tokens, "token", "tokens") +
                                               " (one row per token)");
}

namespace {

// "1e+30" -> "1e30", "1.5e-07" -> "1.5e-7": the exponent as a reader writes it.
std::string plain_exponent(std::string text) {
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  std::string mantissa = text.substr(0, e);
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent[0] == '-';
  if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

}  // namespace

std::string number_text(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
  const bool is_float = static_cast<double>(static_cast<float>(value)) == value;
  std::string text;
  // From 1e15 on (the limits' scale) always the exponent form: %g's choice between the two forms
  // depends on the digit count, so the digits of a large number would decide how it is written.
  const bool exponent_form = std::fabs(value) >= 1e15;
  for (int digits = 1; digits <= 17; ++digits) {
    text = exponent_form ? json::format_exponent(value, digits - 1)
                         : json::format_general(value, digits);
    // A float is read as strtof reads it, rounded once to float (not to double, then to float).
    const bool reads_back = is_float ? json::read_float(text) == static_cast<float>(value)
                                     : json::read_double(text) == value;
    if (reads_back) break;
  }
  return plain_exponent(text);
}

std::string out_of_range(double value, double bound) {
  return "is " + number_text(value) + ", outside the allowed range of ±" + number_text(bound);
}

std::optional<InputError> check_value(const std::string& path, double value) {
  if (!std::isfinite(value)) return make_input_error(path, "must be a finite number");
  if (std::fabs(value) > Limits::max_abs_value)
    return make_input_error(path, out_of_range(value, Limits::max_abs_value));
  return std::nullopt;
}

namespace {

std::string element_path(std::string_view field, std::size_t row, std::size_t col) {
  return std::string(field) + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

static_assert(static_cast<double>(max_abs_float) <= Limits::max_abs_value);

// |x| as its bit pattern: for floats without sign, the patterns order like the values, and
// every NaN's pattern lies above infinity's, so |x| <= limit exactly when
// magnitude_bits(x) <= magnitude_bits(limit), NaN included.
std::uint32_t magnitude_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits & 0x7fffffffu;
}

// The index of the first value in [first, n) that is NaN, infinite or beyond the limit, or n.
// The largest magnitude of a chunk of values (an unsigned max, one vector instruction per four
// values once the compiler vectorises the loop) keeps the common case, every value fine, at a
// fraction of a cycle per value; only a chunk with a bad value is searched. Sixteen running
// maxima, not one: the compiler keeps them as four vectors, so one max need not wait for the
// one before (measured under V8: half the time of a single running max). The outer loop is
// kept scalar, or clang vectorises it across chunks of 16 with lane-by-lane loads.
std::size_t first_out_of_range(const float* values, std::size_t first, std::size_t n) {
  constexpr std::size_t chunk = 1024;
  const std::uint32_t limit_bits = magnitude_bits(max_abs_float);
  for (std::size_t start = first; start < n; start += chunk) {
    const std::size_t end = std::min(n, start + chunk);
    std::uint32_t running[16] = {};
    std::size_t e = start;
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
    for (; e + 16 <= end; e += 16)
      for (std::size_t l = 0; l < 16; ++l)
        running[l] = std::max(running[l], magnitude_bits(values[e + l]));
    for (; e < end; ++e) running[0] = std::max(running[0], magnitude_bits(values[e]));
    const std::uint32_t largest = *std::max_element(running, running + 16);
    if (largest > limit_bits)
      for (std::size_t e = start; e < end; ++e)
        if (magnitude_bits(values[e]) > limit_bits) return e;
  }
  return n;
}

}  // namespace

bool values_within_limit(const float* values, std::size_t n) {
  return first_out_of_range(values, 0, n) == n;
}

std::optional<InputError> check_values(std::string_view field, const float* values,
                                       std::size_t rows, std::size_t cols) {
  const std::size_t n = rows * cols;
  for (std::size_t e = first_out_of_range(values, 0, n); e < n;
       e = first_out_of_range(values, e + 1, n))
    if (auto error = check_value(element_path(field, e / cols, e % cols), values[e])) return error;
  return std::nullopt;
}

namespace {

std::optional<InputError> validate_matrix(std::string_view field, const Matrix& m,
                                          std::size_t token_count, std::size_t head_dim) {
  const std::string name(field);
  if (m.values.size() != m.rows * m.cols)
    return make_input_error(name, "holds " + counted(m.values.size(), "value", "values") + " for " +
                                      std::to_string(m.rows) + "×" + std::to_string(m.cols));
  if (m.rows != token_count)
    return rows_per_token_error(name, m.rows, token_count);
  if (m.cols != head_dim)
    return make_input_error(name + "[0]", "has " + counted(m.cols, "value", "values") +
                                              " but q rows have " +
                                              std::to_string(head_dim) + " (head_dim)");
  return check_values(field, m.values.data(), m.rows, m.cols);
}

}  // namespace

std::optional<InputError> validate_input(const AttentionInput& input) {
  const std::size_t token_count = input.tokens.size();
  if (token_count == 0) return make_input_error("tokens", "needs at least one token");
  if (token_count > Limits::max_tokens)
    return make_input_error("tokens", "has " + std::to_string(token_count) +
                                          " tokens; the limit is " +
                                          std::to_string(Limits::max_tokens));
  for (std::size_t t = 0; t < token_count; ++t) {
    const std::string path = "tokens[" + std::to_string(t) + "]";
    if (input.tokens[t].empty()) return make_input_error(path, "must not be empty");
    if (input.tokens[t].size() > Limits::max_token_length)
      return make_input_error(path, "is " + std::to_string(input.tokens[t].size()) +
                                        " bytes long; the limit is " +
                                        std::to_string(Limits::max_token_length));
  }
  const std::size_t head_dim = input.q.cols;
  if (input.q.rows > 0 && head_dim == 0)
    return make_input_error("q[0]", "is empty; head_dim must be at least 1");
  if (head_dim > Limits::max_head_dim)
    return make_input_error("q[0]", "has " + std::to_string(head_dim) +
                                        " values; the head_dim limit is " +
                                        std::to_string(Limits::max_head_dim));
  if (auto error = validate_matrix("q", input.q, token_count, head_dim)) return error;
  if (auto error = validate_matrix("k", input.k, token_count, head_dim)) return error;
  if (auto error = validate_matrix("v", input.v, token_count, head_dim)) return error;
  return std::nullopt;
}

}  // namespace attn
