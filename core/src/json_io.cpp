// JSON in and out for the CLI and the wasm module, so both accept the same input and report the
// same errors, named by JSON path.
#include "attention/json_io.h"

#include <cmath>
#include <string>

#include "attention/article_claims.h"
#include "attention/json.h"
#include "attention/kernels.h"

namespace attn {

namespace {

constexpr std::size_t max_input_bytes = 8u << 20;  // far above the largest valid input (~2 MB)

std::string index_path(std::string_view base, std::size_t index) {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

// "got an array", "got null", or a short string quoted: "got \"NaN\"" (the wasm module's JS
// wrapper passes NaN and ±Infinity through as such strings, since JSON has no such numbers).
std::string got(const json::Value& value) {
  if (value.type == json::Value::Type::string) {
    if (value.string.size() > 32) return "got a string";
    std::string text = "got ";
    json::write_string(text, value.string);
    return text;
  }
  return "got " + std::string(json::type_name(value.type));
}

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
    return make_input_error(name, "has " + std::to_string(rows->array.size()) +
                                      " rows but there are " + std::to_string(token_count) +
                                      " tokens (one row per token)");
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
      const std::string cell_path = row_path + "[" + std::to_string(c) + "]";
      if (cell.type != json::Value::Type::number)
        return make_input_error(cell_path, "must be a finite number, " + got(cell));
      if (auto error = check_value(cell_path, cell.number)) return error;
      out.at(r, c) = static_cast<float>(cell.number);
    }
  }
  return std::nullopt;
}

void write_matrix(std::string& out, const Matrix& m) {
  out += '[';
  for (std::size_t r = 0; r < m.rows; ++r) {
    if (r) out += ',';
    out += '[';
    for (std::size_t c = 0; c < m.cols; ++c) {
      if (c) out += ',';
      json::write_number(out, m.at(r, c));
    }
    out += ']';
  }
  out += ']';
}

void write_floats(std::string& out, const float* values, std::size_t count) {
  out += '[';
  for (std::size_t n = 0; n < count; ++n) {
    if (n) out += ',';
    json::write_number(out, values[n]);
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
      write_floats(out, values.data() + (i * inner + j) * depth, depth);
    }
    out += ']';
  }
  out += ']';
}

void write_strings(std::string& out, const std::vector<std::string>& strings) {
  out += '[';
  for (std::size_t n = 0; n < strings.size(); ++n) {
    if (n) out += ',';
    json::write_string(out, strings[n]);
  }
  out += ']';
}

void write_key(std::string& out, std::string_view key) {
  if (out.back() != '{') out += ',';
  json::write_string(out, key);
  out += ':';
}

}  // namespace

std::variant<AttentionInput, InputError> parse_attention_input(std::string_view json_text) {
  if (json_text.size() > max_input_bytes)
    return make_input_error("input", "is " + std::to_string(json_text.size()) +
                                         " bytes; the limit is " + std::to_string(max_input_bytes));
  const json::ParseResult parsed = json::parse(json_text);
  if (!parsed.value) return make_input_error("input", parsed.error);
  const json::Value& root = *parsed.value;
  if (root.type != json::Value::Type::object)
    return make_input_error("input", "must be a JSON object with tokens, q, k, v, mask and scale, " + got(root));

  for (const auto& [key, value] : root.object) {
    (void)value;
    if (key != "tokens" && key != "q" && key != "k" && key != "v" && key != "mask" && key != "scale")
      return make_input_error(json::member_path(key), "is not a known field (expected tokens, q, k, v, mask, scale)");
  }

  AttentionInput input;
  const json::Value* tokens = root.find("tokens");
  if (!tokens) return make_input_error("tokens", "is missing (expected an array of words)");
  if (tokens->type != json::Value::Type::array)
    return make_input_error("tokens", "must be an array of strings, " + got(*tokens));
  if (tokens->array.empty()) return make_input_error("tokens", "needs at least one token");
  if (tokens->array.size() > Limits::max_tokens)
    return make_input_error("tokens", "has " + std::to_string(tokens->array.size()) +
                                          " tokens; the limit is " +
                                          std::to_string(Limits::max_tokens));
  for (std::size_t t = 0; t < tokens->array.size(); ++t) {
    const json::Value& token = tokens->array[t];
    if (token.type != json::Value::Type::string)
      return make_input_error(index_path("tokens", t), "must be a string, " + got(token));
    input.tokens.push_back(token.string);
  }
  const std::size_t token_count = input.tokens.size();

  if (auto error = read_matrix(root, "q", token_count, 0, input.q)) return *error;
  if (auto error = read_matrix(root, "k", token_count, input.q.cols, input.k)) return *error;
  if (auto error = read_matrix(root, "v", token_count, input.q.cols, input.v)) return *error;

  if (const json::Value* mask = root.find("mask")) {
    const char* expected = "must be \"causal\", \"none\" or \"causal_zero\", ";
    if (mask->type != json::Value::Type::string) return make_input_error("mask", expected + got(*mask));
    const std::optional<MaskVariant> variant = parse_mask_variant(mask->string);
    if (!variant) return make_input_error("mask", expected + got(*mask));
    input.mask = variant->mask;
    input.mask_fill = variant->fill;
  }

  if (const json::Value* scale = root.find("scale")) {
    const char* expected = "must be \"sqrt_d\", \"d\" or \"none\", ";
    if (scale->type != json::Value::Type::string) return make_input_error("scale", expected + got(*scale));
    const std::optional<ScaleKind> kind = parse_scale(scale->string);
    if (!kind) return make_input_error("scale", expected + got(*scale));
    input.scale = *kind;
  }

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
  write_key(out, "masked"); write_matrix(out, t.masked);  // -infinity is written as null
  write_key(out, "exponentials"); write_matrix(out, t.exponentials);
  write_key(out, "row_max"); write_floats(out, t.row_max.data(), T);
  write_key(out, "row_shifted");
  out += '[';
  for (std::size_t i = 0; i < T; ++i) {
    if (i) out += ',';
    out += t.row_shifted[i] ? "true" : "false";
  }
  out += ']';
  write_key(out, "row_totals"); write_floats(out, t.row_totals.data(), T);
  write_key(out, "weights"); write_matrix(out, t.weights);
  write_key(out, "weight_sums"); write_floats(out, t.weight_sums.data(), T);
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
  write_key(out, "logits"); write_floats(out, scores.logits.data(), scores.logits.size());
  write_key(out, "exponentials");
  write_floats(out, scores.exponentials.data(), scores.exponentials.size());
  write_key(out, "total"); json::write_number(out, scores.total);
  write_key(out, "shifted"); out += scores.shifted ? "true" : "false";
  write_key(out, "probabilities");
  write_floats(out, scores.probabilities.data(), scores.probabilities.size());
  write_key(out, "probability_sum"); json::write_number(out, scores.probability_sum);
  write_key(out, "most_likely"); json::write_number(out, static_cast<double>(scores.most_likely));
  out += '}';
  return out;
}

std::variant<std::vector<float>, InputError> parse_number_row(std::string_view json_text,
                                                              std::string_view field,
                                                              std::size_t expected_length) {
  const std::string name(field);
  if (json_text.size() > max_input_bytes)
    return make_input_error(name, "is larger than the " + std::to_string(max_input_bytes) + "-byte limit");
  const json::ParseResult parsed = json::parse(json_text);
  if (!parsed.value) return make_input_error(name, parsed.error);
  const json::Value& row = *parsed.value;
  if (row.type != json::Value::Type::array)
    return make_input_error(name, "must be an array of numbers, " + got(row));
  if (row.array.size() != expected_length)
    return make_input_error(name, "has " + std::to_string(row.array.size()) + " values; expected " +
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
  write_key(out, "four_words_worked_rows");
  out += '[';
  const std::vector<std::size_t> rows = article::four_words_worked_rows();
  for (std::size_t n = 0; n < rows.size(); ++n) {
    if (n) out += ',';
    json::write_number(out, static_cast<double>(rows[n]));
  }
  out += ']';
  write_key(out, "vocabulary"); out += vocabulary_to_json(article::vocabulary());
  out += '}';
  return out;
}

std::string claim_checks_to_json() {
  std::string out = "[";
  for (const article::ClaimCheck& claim : article::check_claims()) {
    if (out.size() > 1) out += ',';
    out += '{';
    write_key(out, "what"); json::write_string(out, claim.what);
    write_key(out, "printed"); json::write_string(out, claim.printed);
    write_key(out, "computed"); json::write_string(out, claim.computed);
    write_key(out, "matches"); out += claim.matches ? "true" : "false";
    out += '}';
  }
  out += ']';
  return out;
}

std::string kernel_registry_to_json() {
  std::string out = "[";
  for (const KernelInfo& kernel : kernel_registry()) {
    if (out.size() > 1) out += ',';
    out += '{';
    write_key(out, "name"); json::write_string(out, kernel.name);
    write_key(out, "isa"); json::write_string(out, kernel.isa);
    write_key(out, "vector_width"); json::write_number(out, static_cast<double>(kernel.vector_width));
    out += '}';
  }
  out += ']';
  return out;
}

}  // namespace attn
