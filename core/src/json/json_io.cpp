// JSON in and out for the CLI and the wasm module, so both accept the same input and report the
// same errors, named by JSON path.
#include "attention/json/json_io.h"

#include <cstdint>
#include <string>

#include "attention/article/article_claims.h"
#include "attention/json/json.h"
#include "attention/kernels/kernels.h"
#include "json/json_request.h"

namespace attn {

namespace {

using json_request::index_path;
using json_request::write_key;
using json_request::write_matrix;
using json_request::write_numbers;
using json_request::write_strings;

using json_request::TokenText;

// The attention input's messages name a number given where none belongs by its kind alone:
// "got a number" (and "got an array", "got null", or a short string quoted: "got \"NaN\"", as
// the wasm module's JS wrapper passes NaN and ±Infinity through as such strings).
constexpr json_request::NumberInGot numbers = json_request::NumberInGot::kind;

std::string got(const json::Value& value) { return json_request::got(value, numbers); }

// Reads one matrix field, checking its shape against the tokens and (for k and v) q's head_dim.
// expected_cols == 0 means "take head_dim from row 0" (q).
std::optional<InputError> read_matrix(const json::Value& root, std::string_view field,
                                      std::size_t token_count, std::size_t expected_cols,
                                      Matrix& out) {
  const std::string name(field);
  const json::Value* rows = root.find(field);
  if (!rows) return make_input_error(name, "is missing (expected an array with one row per token)");
  if (rows->type != json::Value::Type::array)
    return make_input_error(name, "must be an array of rows, " + got(*rows));
  if (rows->array.size() != token_count)
    return rows_per_token_error(name, rows->array.size(), token_count);
  std::size_t cols = expected_cols;
  if (cols != 0) out = Matrix(token_count, cols);
  for (std::size_t r = 0; r < rows->array.size(); ++r) {
    const json::Value& row = rows->array[r];
    const std::string row_path = index_path(field, r);
    if (row.type != json::Value::Type::array)
      return make_input_error(row_path, "must be an array of numbers, " + got(row));
    if (cols == 0) {
      if (row.array.empty()) return make_input_error(row_path, "is empty; head_dim must be at least 1");
      if (row.array.size() > Limits::max_head_dim)
        return make_input_error(row_path, "has " + std::to_string(row.array.size()) +
                                              " values; the head_dim limit is " +
                                              std::to_string(Limits::max_head_dim));
      cols = row.array.size();
      out = Matrix(token_count, cols);
    }
    if (row.array.size() != cols) {
      const std::string reference = (expected_cols == 0) ? name + "[0]" : std::string("q rows");
      return make_input_error(row_path, "has " + std::to_string(row.array.size()) +
                                            " values but " + reference + " " +
                                            (expected_cols == 0 ? "has " : "have ") +
                                            std::to_string(cols) + " (head_dim)");
    }
    for (std::size_t c = 0; c < cols; ++c) {
      const json::Value& cell = row.array[c];
      const std::string cell_path = index_path(row_path, c);
      if (cell.type != json::Value::Type::number)
        return make_input_error(cell_path, "must be a finite number, " + got(cell));
      if (auto error = check_value(cell_path, cell.number)) return error;
      out.at(r, c) = static_cast<float>(cell.number);
    }
  }
  return std::nullopt;
}

// [true,false,...]: `count` flags (0 or 1) as JSON booleans.
void write_flags(std::string& out, const std::uint8_t* flags, std::size_t count) {
  out += '[';
  for (std::size_t n = 0; n < count; ++n) {
    if (n) out += ',';
    json_request::write_bool(out, flags[n] != 0);
  }
  out += ']';
}

// [[true,false],...]: rows × cols flags from a flat row-major buffer.
void write_flag_rows(std::string& out, const std::vector<std::uint8_t>& flags, std::size_t rows,
                     std::size_t cols) {
  out += '[';
  for (std::size_t r = 0; r < rows; ++r) {
    if (r) out += ',';
    write_flags(out, flags.data() + r * cols, cols);
  }
  out += ']';
}

// [outer][inner][depth] from a flat row-major buffer.
void write_cube(std::string& out, const std::vector<float>& values, std::size_t outer,
                std::size_t inner, std::size_t depth) {
  out += '[';
  for (std::size_t i = 0; i < outer; ++i) {
    if (i) out += ',';
    out += '[';
    for (std::size_t j = 0; j < inner; ++j) {
      if (j) out += ',';
      write_numbers(out, values.data() + (i * inner + j) * depth, depth);
    }
    out += ']';
  }
  out += ']';
}

}  // namespace

std::variant<AttentionInput, InputError> parse_attention_input(std::string_view json_text) {
  auto parsed = json_request::parse_within_limit(json_text);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const json::Value& root = std::get<json::Value>(parsed);
  if (root.type != json::Value::Type::object)
    return make_input_error("input", "must be a JSON object with tokens, q, k, v, mask and scale, " + got(root));
  if (auto error = json_request::check_known_members(root, {"tokens", "q", "k", "v", "mask", "scale"}))
    return *error;

  // Token text is checked with the rest of the input (validate_input, below).
  AttentionInput input;
  if (!root.find("tokens")) return make_input_error("tokens", "is missing (expected an array of words)");
  if (auto error = json_request::read_tokens(root, input.tokens, TokenText::unchecked, numbers))
    return *error;
  const std::size_t token_count = input.tokens.size();

  if (auto error = read_matrix(root, "q", token_count, 0, input.q)) return *error;
  if (auto error = read_matrix(root, "k", token_count, input.q.cols, input.k)) return *error;
  if (auto error = read_matrix(root, "v", token_count, input.q.cols, input.v)) return *error;

  MaskVariant mask{input.mask, input.mask_fill};
  if (auto error = json_request::read_mask(root, mask, numbers))
    return *error;
  input.mask = mask.mask;
  input.mask_fill = mask.fill;
  if (auto error = json_request::read_scale(root, input.scale, numbers)) return *error;

  // The same checks a C++ caller gets (token text, limits), so no path skips them.
  if (auto error = validate_input(input)) return *error;
  return input;
}

std::string trace_to_json(const Trace& t) {
  const std::size_t T = t.token_count;
  const std::size_t d = t.head_dim;
  std::string out = "{";
  write_key(out, "tokens"); write_strings(out, t.tokens);
  write_key(out, "mask"); json::write_string(out, mask_variant_name(t.mask, t.mask_fill));
  write_key(out, "scale"); json::write_string(out, scale_name(t.scale));
  write_key(out, "token_count"); json::write_number(out, static_cast<double>(T));
  write_key(out, "head_dim"); json::write_number(out, static_cast<double>(d));
  write_key(out, "q"); write_matrix(out, t.q);
  write_key(out, "k"); write_matrix(out, t.k);
  write_key(out, "v"); write_matrix(out, t.v);
  write_key(out, "score_terms"); write_cube(out, t.score_terms, T, T, d);
  write_key(out, "scores"); write_matrix(out, t.scores);
  write_key(out, "scale_divisor"); json::write_number(out, t.scale_divisor);
  write_key(out, "scaled"); write_matrix(out, t.scaled);
  write_key(out, "masked"); write_matrix(out, t.masked);  // -infinity as {"non_finite":"-Infinity"}
  write_key(out, "hidden"); write_flag_rows(out, t.hidden, T, T);
  write_key(out, "exponentials"); write_matrix(out, t.exponentials);
  write_key(out, "row_max"); write_numbers(out, t.row_max.data(), T);
  write_key(out, "row_shifted"); write_flags(out, t.row_shifted.data(), T);
  write_key(out, "row_totals"); write_numbers(out, t.row_totals.data(), T);
  write_key(out, "weights"); write_matrix(out, t.weights);
  write_key(out, "weight_sums"); write_numbers(out, t.weight_sums.data(), T);
  write_key(out, "weighted_values"); write_cube(out, t.weighted_values, T, T, d);
  write_key(out, "out"); write_matrix(out, t.out);
  out += '}';
  return out;
}

std::string attention_input_to_json(const AttentionInput& input) {
  std::string out = "{";
  write_key(out, "tokens"); write_strings(out, input.tokens);
  write_key(out, "q"); write_matrix(out, input.q);
  write_key(out, "k"); write_matrix(out, input.k);
  write_key(out, "v"); write_matrix(out, input.v);
  write_key(out, "mask"); json::write_string(out, mask_variant_name(input.mask, input.mask_fill));
  write_key(out, "scale"); json::write_string(out, scale_name(input.scale));
  out += '}';
  return out;
}

std::string vocabulary_to_json(const article::Vocabulary& vocabulary) {
  std::string out = "{";
  write_key(out, "words"); write_strings(out, vocabulary.words);
  write_key(out, "vectors"); write_matrix(out, vocabulary.vectors);
  out += '}';
  return out;
}

std::string next_word_to_json(const NextWordScores& scores) {
  std::string out = "{";
  write_key(out, "logits"); write_numbers(out, scores.logits);
  write_key(out, "exponentials"); write_numbers(out, scores.exponentials);
  write_key(out, "total"); json::write_number(out, scores.total);
  write_key(out, "shifted"); json_request::write_bool(out, scores.shifted);
  write_key(out, "probabilities"); write_numbers(out, scores.probabilities);
  write_key(out, "probability_sum"); json::write_number(out, scores.probability_sum);
  write_key(out, "most_likely"); json::write_number(out, static_cast<double>(scores.most_likely));
  out += '}';
  return out;
}

std::variant<std::vector<float>, InputError> parse_number_row(std::string_view json_text,
                                                              std::string_view field,
                                                              std::size_t expected_length) {
  const std::string name(field);
  if (json_text.size() > json_request::max_request_bytes)
    return make_input_error(name, "is larger than the " +
                                      std::to_string(json_request::max_request_bytes) + "-byte limit");
  const json::ParseResult parsed = json::parse(json_text);
  if (!parsed.value) return make_input_error(name, parsed.error);
  const json::Value& row = *parsed.value;
  if (row.type != json::Value::Type::array)
    return make_input_error(name, "must be an array of numbers, " + got(row));
  if (row.array.size() != expected_length)
    return make_input_error(name, "has " + counted(row.array.size(), "value", "values") + "; expected " +
                                      std::to_string(expected_length));
  std::vector<float> values;
  for (std::size_t c = 0; c < row.array.size(); ++c) {
    const json::Value& cell = row.array[c];
    const std::string cell_path = index_path(field, c);
    if (cell.type != json::Value::Type::number)
      return make_input_error(cell_path, "must be a finite number, " + got(cell));
    if (auto error = check_value(cell_path, cell.number)) return *error;
    values.push_back(static_cast<float>(cell.number));
  }
  return values;
}

std::string article_data_to_json() {
  std::string out = "{";
  write_key(out, "two_words"); out += attention_input_to_json(article::two_words());
  write_key(out, "four_words"); out += attention_input_to_json(article::four_words());
  write_key(out, "four_words_worked_rows"); write_numbers(out, article::four_words_worked_rows());
  write_key(out, "vocabulary"); out += vocabulary_to_json(article::vocabulary());
  out += '}';
  return out;
}

std::string claim_checks_to_json() {
  std::string out;
  json_request::write_objects(out, article::check_claims(), [&](const article::ClaimCheck& claim) {
    write_key(out, "what"); json::write_string(out, claim.what);
    write_key(out, "printed"); json::write_string(out, claim.printed);
    write_key(out, "computed"); json::write_string(out, claim.computed);
    write_key(out, "matches"); json_request::write_bool(out, claim.matches);
  });
  return out;
}

std::string kernel_registry_to_json() {
  std::string out;
  json_request::write_objects(out, kernel_registry(), [&](const KernelInfo& kernel) {
    write_key(out, "name"); json::write_string(out, kernel.name);
    write_key(out, "isa"); json::write_string(out, kernel.isa);
    write_key(out, "vector_width"); json::write_number(out, static_cast<double>(kernel.vector_width));
    write_key(out, "query_rows"); json::write_number(out, static_cast<double>(kernel.query_rows));
    write_key(out, "output_columns"); json::write_number(out, static_cast<double>(kernel.output_columns));
    write_key(out, "tile_keys"); json::write_number(out, static_cast<double>(kernel.tile_keys));
  });
  return out;
}

}  // namespace attn
