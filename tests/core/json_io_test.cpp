// The JSON shapes the CLI and the wasm module share: an input survives input -> JSON -> input
// exactly, the trace and the article data serialise every field, and the step-6 row parser
// names the element at fault.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "attention/article/article_claims.h"
#include "attention/article/article_data.h"
#include "attention/reference/attention_input.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/kernels/kernels.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"
#include "test_inputs.h"
#include "explore_test_helpers.h"

namespace {

using attn::json::Value;

using attn_test::error_of;

Value parse_json(const std::string& text) {
  const attn::json::ParseResult parsed = attn::json::parse(text);
  INFO(parsed.error << "\n" << text.substr(0, 300));
  REQUIRE(parsed.value.has_value());
  return *parsed.value;
}

// A JSON array of rows read back as float32 must be the matrix itself.
void check_matrix(const Value& rows, const attn::Matrix& m, const std::string& what) {
  INFO(what);
  REQUIRE(rows.type == Value::Type::array);
  REQUIRE(rows.array.size() == m.rows);
  for (std::size_t r = 0; r < m.rows; ++r) {
    REQUIRE(rows.array[r].array.size() == m.cols);
    for (std::size_t c = 0; c < m.cols; ++c)
      CHECK(static_cast<float>(rows.array[r].array[c].number) == m.at(r, c));
  }
}

void check_input(const Value& object, const attn::AttentionInput& input, const std::string& what) {
  INFO(what);
  REQUIRE(object.type == Value::Type::object);
  const Value* tokens = object.find("tokens");
  REQUIRE(tokens != nullptr);
  REQUIRE(tokens->array.size() == input.tokens.size());
  for (std::size_t t = 0; t < input.tokens.size(); ++t)
    CHECK(tokens->array[t].string == input.tokens[t]);
  check_matrix(*object.find("q"), input.q, what + ".q");
  check_matrix(*object.find("k"), input.k, what + ".k");
  check_matrix(*object.find("v"), input.v, what + ".v");
  CHECK(object.find("mask")->string == attn::mask_name(input.mask));
}

}  // namespace

TEST_CASE("JSON round trip: input -> JSON -> input is exact", "[json_io]") {
  std::vector<attn::AttentionInput> inputs = {
      attn::article::two_words(), attn::article::four_words(),
      attn_test::random_input(9, 7, attn::MaskKind::none, 31),
      attn_test::random_input(3, 2, attn::MaskKind::causal, 32)};
  inputs.back().tokens = {"quote\"d", "back\\slash", "new\nline"};
  inputs.back().q.at(0, 0) = 1e15f;
  inputs.back().k.at(1, 1) = -1.17549435e-38f;  // smallest normal float
  inputs.back().v.at(2, 0) = 1.40129846e-45f;   // smallest subnormal float
  for (const attn::AttentionInput& input : inputs) {
    const std::string json = attn::attention_input_to_json(input);
    INFO(json.substr(0, 300));
    const auto result = attn::parse_attention_input(json);
    INFO(error_of(result));
    REQUIRE(std::holds_alternative<attn::AttentionInput>(result));
    const attn::AttentionInput& back = std::get<attn::AttentionInput>(result);
    CHECK(back.tokens == input.tokens);
    CHECK(back.mask == input.mask);
    using MatrixPair = std::pair<const attn::Matrix*, const attn::Matrix*>;
    for (const auto& [a, b] : {MatrixPair{&back.q, &input.q}, MatrixPair{&back.k, &input.k},
                               MatrixPair{&back.v, &input.v}}) {
      CHECK(a->rows == b->rows);
      CHECK(a->cols == b->cols);
      CHECK(a->values == b->values);  // 9 significant digits round-trip every float
    }
  }
}

TEST_CASE("trace_to_json: every key and masked cells tagged -Infinity and numbers that read back exactly",
          "[json_io]") {
  const attn::Trace trace = attn::compute_trace(attn::article::two_words());
  const attn::json::ParseResult parsed = attn::json::parse(attn::trace_to_json(trace));
  INFO(parsed.error);
  REQUIRE(parsed.value.has_value());
  const attn::json::Value& root = *parsed.value;
  REQUIRE(root.type == attn::json::Value::Type::object);
  const std::vector<std::string> keys = {
      "tokens", "mask", "scale", "token_count", "head_dim", "q", "k", "v", "score_terms", "scores",
      "scale_divisor", "scaled", "masked", "hidden", "exponentials", "row_max", "row_shifted",
      "row_totals", "weights", "weight_sums", "weighted_values", "out"};
  REQUIRE(root.object.size() == keys.size());
  for (const std::string& key : keys) {
    INFO("key " << key);
    CHECK(root.find(key) != nullptr);
  }
  CHECK(root.find("mask")->string == "causal");
  CHECK(root.find("token_count")->number == 2);
  CHECK(root.find("head_dim")->number == 4);
  CHECK(root.find("scale_divisor")->number == 2);
  for (const auto& shifted : root.find("row_shifted")->array) {
    CHECK(shifted.type == attn::json::Value::Type::boolean);
    CHECK_FALSE(shifted.boolean);
  }

  const auto& masked = root.find("masked")->array;
  REQUIRE(masked.size() == 2);
  CHECK(attn_test::is_non_finite(masked[0].array[1], "-Infinity"));
  CHECK(masked[0].array[0].type == attn::json::Value::Type::number);
  CHECK(masked[1].array[0].type == attn::json::Value::Type::number);
  CHECK(masked[1].array[1].type == attn::json::Value::Type::number);

  const auto matrix_reads_back = [&](const char* key, const attn::Matrix& m) {
    const auto& rows = root.find(key)->array;
    REQUIRE(rows.size() == m.rows);
    for (std::size_t r = 0; r < m.rows; ++r) {
      REQUIRE(rows[r].array.size() == m.cols);
      for (std::size_t c = 0; c < m.cols; ++c) {
        INFO(key << "[" << r << "][" << c << "]");
        const float value = m.at(r, c);
        if (std::isfinite(value))
          CHECK(static_cast<float>(rows[r].array[c].number) == value);
      }
    }
  };
  matrix_reads_back("scores", trace.scores);
  matrix_reads_back("scaled", trace.scaled);
  matrix_reads_back("masked", trace.masked);
  matrix_reads_back("exponentials", trace.exponentials);
  matrix_reads_back("weights", trace.weights);
  matrix_reads_back("out", trace.out);

  const auto& terms = root.find("score_terms")->array;
  REQUIRE(terms.size() == 2);
  REQUIRE(terms[1].array.size() == 2);
  REQUIRE(terms[1].array[0].array.size() == 4);
  CHECK(static_cast<float>(terms[1].array[0].array[3].number) == trace.score_term(1, 0, 3));
  const auto& shares = root.find("weighted_values")->array;
  CHECK(static_cast<float>(shares[1].array[1].array[2].number) == trace.weighted_value(1, 1, 2));
}

TEST_CASE("parse_number_row: a row of numbers or an error naming the element", "[json_io]") {
  const auto good = attn::parse_number_row("[1, -2.5, 0, 3e2]", "row", 4);
  REQUIRE(std::holds_alternative<std::vector<float>>(good));
  CHECK(std::get<std::vector<float>>(good) == std::vector<float>{1.0f, -2.5f, 0.0f, 300.0f});

  struct Case {
    const char* json;
    std::string path;
    const char* also;
  };
  const std::vector<Case> cases = {
      {"not json", "row", "line 1, column 1"},
      {"", "row", "line 1"},
      {"{}", "row", nullptr},
      {"[1,2,3]", "row", "4"},
      {"[1,2,3,4,5]", "row", "4"},
      {"[1,2,\"3\",4]", "row[2]", nullptr},
      {"[1,null,3,4]", "row[1]", nullptr},
      {"[1e16,2,3,4]", "row[0]", nullptr},
      {"[1,2,3,-1e400]", "row[3]", nullptr},
      {"[1,[2],3,4]", "row[1]", nullptr},
  };
  for (const Case& c : cases) {
    INFO("row " << c.json);
    const auto result = attn::parse_number_row(c.json, "row", 4);
    REQUIRE(std::holds_alternative<attn::InputError>(result));
    const attn::InputError& error = std::get<attn::InputError>(result);
    INFO("message: " << error.message);
    CHECK(error.path == c.path);
    CHECK(error.message.rfind(c.path + ": ", 0) == 0);
    CHECK(error.message.find('\n') == std::string::npos);
    if (c.also) CHECK(error.message.find(c.also) != std::string::npos);
  }
}

TEST_CASE("parse_number_row: values of exactly 1e15 are inside the limit", "[json_io]") {
  const auto result = attn::parse_number_row("[1e15, -1e15, 0, 1]", "row", 4);
  const auto* error = std::get_if<attn::InputError>(&result);
  INFO((error ? error->message : std::string("accepted")));
  REQUIRE(std::holds_alternative<std::vector<float>>(result));
  CHECK(std::get<std::vector<float>>(result)[0] == 1e15f);
}

TEST_CASE("article_data_to_json: the article's inputs and vocabulary, exactly", "[json_io]") {
  const Value root = parse_json(attn::article_data_to_json());
  REQUIRE(root.type == Value::Type::object);
  check_input(*root.find("two_words"), attn::article::two_words(), "two_words");
  check_input(*root.find("four_words"), attn::article::four_words(), "four_words");
  const std::vector<std::size_t> worked = attn::article::four_words_worked_rows();
  const Value& rows = *root.find("four_words_worked_rows");
  REQUIRE(rows.array.size() == worked.size());
  for (std::size_t n = 0; n < worked.size(); ++n)
    CHECK(rows.array[n].number == static_cast<double>(worked[n]));
  const attn::article::Vocabulary vocabulary = attn::article::vocabulary();
  const Value& vocab = *root.find("vocabulary");
  REQUIRE(vocab.find("words")->array.size() == vocabulary.words.size());
  for (std::size_t w = 0; w < vocabulary.words.size(); ++w)
    CHECK(vocab.find("words")->array[w].string == vocabulary.words[w]);
  check_matrix(*vocab.find("vectors"), vocabulary.vectors, "vocabulary.vectors");
}

TEST_CASE("claim_checks_to_json and kernel_registry_to_json list what the core lists",
          "[json_io]") {
  const auto claims = attn::article::check_claims();
  const Value checks = parse_json(attn::claim_checks_to_json());
  REQUIRE(checks.array.size() == claims.size());
  for (std::size_t n = 0; n < claims.size(); ++n) {
    INFO(claims[n].what);
    CHECK(checks.array[n].find("what")->string == claims[n].what);
    CHECK(checks.array[n].find("printed")->string == claims[n].printed);
    CHECK(checks.array[n].find("computed")->string == claims[n].computed);
    CHECK(checks.array[n].find("matches")->type == Value::Type::boolean);
    CHECK(checks.array[n].find("matches")->boolean == claims[n].matches);
  }

  const auto& registry = attn::kernel_registry();
  const Value kernels = parse_json(attn::kernel_registry_to_json());
  REQUIRE(kernels.array.size() == registry.size());
  for (std::size_t n = 0; n < registry.size(); ++n) {
    CHECK(kernels.array[n].find("name")->string == registry[n].name);
    CHECK(kernels.array[n].find("isa")->string == registry[n].isa);
    CHECK(kernels.array[n].find("vector_width")->number ==
          static_cast<double>(registry[n].vector_width));
    CHECK(kernels.array[n].find("query_rows")->number ==
          static_cast<double>(registry[n].query_rows));
    CHECK(kernels.array[n].find("output_columns")->number ==
          static_cast<double>(registry[n].output_columns));
    CHECK(kernels.array[n].find("tile_keys")->number == static_cast<double>(registry[n].tile_keys));
  }
}

TEST_CASE("next_word_to_json: the step-6 numbers of out cat", "[json_io]") {
  const attn::Trace trace = attn::compute_trace(attn::article::two_words());
  const attn::NextWordScores scores =
      attn::score_next_word(trace.out.row(1), attn::article::vocabulary());
  const Value root = parse_json(attn::next_word_to_json(scores));
  for (const char* key : {"logits", "exponentials", "probabilities"}) {
    INFO(key);
    REQUIRE(root.find(key) != nullptr);
    CHECK(root.find(key)->array.size() == 3);
  }
  CHECK(static_cast<float>(root.find("total")->number) == scores.total);
  CHECK(static_cast<float>(root.find("probability_sum")->number) == scores.probability_sum);
  CHECK(root.find("most_likely")->number == static_cast<double>(scores.most_likely));
  CHECK(root.find("shifted")->type == Value::Type::boolean);
  for (std::size_t w = 0; w < 3; ++w) {
    CHECK(static_cast<float>(root.find("logits")->array[w].number) == scores.logits[w]);
    CHECK(static_cast<float>(root.find("probabilities")->array[w].number) ==
          scores.probabilities[w]);
  }
}

TEST_CASE("json_io: counts in messages agree with their nouns", "[json]") {
  const auto message_of = [](const std::string& text) {
    const auto parsed = attn::parse_attention_input(text);
    REQUIRE(std::holds_alternative<attn::InputError>(parsed));
    return std::get<attn::InputError>(parsed).message;
  };
  CHECK(message_of(R"({"tokens":["a","b"],"q":[[1]],"k":[[1],[2]],"v":[[1],[2]]})") ==
        "q: has 1 row but there are 2 tokens (one row per token)");
  CHECK(message_of(R"({"tokens":["a"],"q":[[1],[2]],"k":[[1]],"v":[[1]]})") ==
        "q: has 2 rows but there is 1 token (one row per token)");
  CHECK(message_of(R"({"tokens":["a","b"],"q":[[1,2],[3,4]],"k":[[1],[2]],"v":[[1,2],[3,4]]})")
            .find("has 1 value") != std::string::npos);
}
