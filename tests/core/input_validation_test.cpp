// Bad input is refused before any arithmetic, with a one-line message that starts with the JSON
// path of the problem, whether it arrives as a C++ struct or as JSON text; input at the
// documented limits is accepted.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/reference/attention_input.h"
#include "attention/json/json_io.h"
#include "test_inputs.h"

namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

void check_error(const attn::InputError& error, const std::string& path) {
  INFO("message: " << error.message);
  CHECK(error.path == path);
  CHECK(starts_with(error.message, path + ": "));
  CHECK(error.message.size() > path.size() + 2);
  CHECK(error.message.find('\n') == std::string::npos);
}

// The article's two words as a JSON object, with `replace` substituted for one member.
std::string article_json_with(const std::string& member, const std::string& value) {
  std::string json = "{";
  const std::vector<std::pair<std::string, std::string>> members = {
      {"tokens", R"(["the","cat"])"},
      {"q", "[[0.3,-0.2,0.5,0.1],[1.1,-0.8,0.2,0.3]]"},
      {"k", "[[-0.4,-0.3,0.2,1.2],[1.6,-0.7,-0.4,-0.5]]"},
      {"v", "[[-0.5,-0.4,0.1,1.1],[1.2,-0.3,-0.2,-0.6]]"},
      {"mask", R"("causal")"},
  };
  bool first = true;
  for (const auto& [name, text] : members) {
    const std::string chosen = name == member ? value : text;
    if (chosen.empty()) continue;  // "" drops the member
    if (!first) json += ",";
    first = false;
    json += "\"" + name + "\":" + chosen;
  }
  return json + "}";
}

using attn_test::error_of;

std::string rows_of(std::size_t rows, std::size_t cols, const std::string& value = "0.5") {
  std::string json = "[";
  for (std::size_t r = 0; r < rows; ++r) {
    json += r ? ",[" : "[";
    for (std::size_t c = 0; c < cols; ++c) json += (c ? "," : "") + value;
    json += "]";
  }
  return json + "]";
}

std::string tokens_of(std::size_t count) {
  std::string json = "[";
  for (std::size_t t = 0; t < count; ++t) json += (t ? ",\"w" : "\"w") + std::to_string(t) + "\"";
  return json + "]";
}

std::string head_json(std::size_t T, std::size_t d) {
  return "{\"tokens\":" + tokens_of(T) + ",\"q\":" + rows_of(T, d) + ",\"k\":" + rows_of(T, d) +
         ",\"v\":" + rows_of(T, d) + "}";
}

}  // namespace

TEST_CASE("validate_input: the article inputs and the limits themselves are valid",
          "[validation]") {
  CHECK(attn_test::validation_error(attn::article::two_words()) == "");
  CHECK(attn_test::validation_error(attn::article::four_words()) == "");
  CHECK(attn_test::validation_error(attn_test::random_input(64, 256, attn::MaskKind::none, 1)) ==
        "");
  attn::AttentionInput edge = attn_test::random_input(2, 3, attn::MaskKind::causal, 2);
  edge.q.at(0, 0) = 1e15f;
  edge.v.at(1, 2) = -1e15f;
  edge.tokens[1] = std::string(256, 'x');
  CHECK(attn_test::validation_error(edge) == "");
}

TEST_CASE("validate_input: each problem is named by its path", "[validation]") {
  const attn::AttentionInput good = attn_test::random_input(3, 4, attn::MaskKind::causal, 4);
  struct Case {
    const char* what;
    std::string path;
    attn::AttentionInput input;
  };
  std::vector<Case> cases;
  auto with = [&](const char* what, std::string path, auto change) {
    attn::AttentionInput input = good;
    change(input);
    cases.push_back({what, std::move(path), std::move(input)});
  };
  with("NaN", "q[1][3]",
       [](auto& in) { in.q.at(1, 3) = std::numeric_limits<float>::quiet_NaN(); });
  with("+infinity", "v[0][0]",
       [](auto& in) { in.v.at(0, 0) = std::numeric_limits<float>::infinity(); });
  with("-infinity", "k[2][1]",
       [](auto& in) { in.k.at(2, 1) = -std::numeric_limits<float>::infinity(); });
  with("above the value limit", "k[0][1]", [](auto& in) { in.k.at(0, 1) = 2e15f; });
  with("below the value limit", "v[2][3]", [](auto& in) { in.v.at(2, 3) = -1e16f; });
  with("k has an extra row", "k", [](auto& in) { in.k = attn::Matrix(4, 4); });
  with("v has a missing row", "v", [](auto& in) { in.v = attn::Matrix(2, 4); });
  with("q rows but fewer tokens", "q", [](auto& in) { in.tokens.pop_back(); in.k = attn::Matrix(2, 4); in.v = attn::Matrix(2, 4); });
  with("v rows are wider than q rows", "v[0]", [](auto& in) { in.v = attn::Matrix(3, 5); });
  with("k rows are narrower than q rows", "k[0]", [](auto& in) { in.k = attn::Matrix(3, 3); });
  with("values do not fill the matrix", "q", [](auto& in) { in.q.values.pop_back(); });
  with("zero tokens", "tokens", [](auto& in) {
    in.tokens.clear();
    in.q = in.k = in.v = attn::Matrix();
  });
  with("head_dim 0", "q[0]", [](auto& in) { in.q = in.k = in.v = attn::Matrix(3, 0); });
  with("65 tokens", "tokens", [](auto& in) {
    in = attn_test::random_input(65, 2, attn::MaskKind::causal, 1);
  });
  with("head_dim 257", "q[0]", [](auto& in) {
    in = attn_test::random_input(2, 257, attn::MaskKind::causal, 1);
  });
  with("empty token name", "tokens[0]", [](auto& in) { in.tokens[0] = ""; });
  with("257-byte token name", "tokens[2]", [](auto& in) { in.tokens[2] = std::string(257, 'x'); });

  for (const Case& c : cases) {
    INFO(c.what);
    const std::optional<attn::InputError> error = attn::validate_input(c.input);
    REQUIRE(error.has_value());
    check_error(*error, c.path);
  }
}


// check_values scans 16 values at a time in chunks of 1024: a bad value is found in every lane,
// in the tail after the last 16, in a later chunk, and the first of two is the one named.
TEST_CASE("check_values: a bad value is named wherever it lies", "[validation]") {
  constexpr std::size_t rows = 41, cols = 27;  // 1107 values: past one chunk, not a multiple of 16
  std::vector<float> values(rows * cols, 0.5f);
  REQUIRE_FALSE(attn::check_values("k", values.data(), rows, cols).has_value());
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(),
                       -std::numeric_limits<float>::infinity(), 1.01e15f, -2e15f};
  for (std::size_t e = 0; e < values.size(); ++e) {
    const float was = values[e];
    values[e] = bad[e % 4];
    if (e + 40 < values.size()) values[e + 40] = bad[(e + 1) % 4];  // a later one is not named
    const std::optional<attn::InputError> error =
        attn::check_values("k", values.data(), rows, cols);
    const std::string path = "k[" + std::to_string(e / cols) + "][" + std::to_string(e % cols) + "]";
    INFO("bad value at " << e);
    REQUIRE(error.has_value());
    CHECK(error->path == path);
    values[e] = was;
    if (e + 40 < values.size()) values[e + 40] = was;
  }
  values[5] = 1e15f;  // the limit itself is fine
  values[values.size() - 1] = -1e15f;
  CHECK_FALSE(attn::check_values("k", values.data(), rows, cols).has_value());
}
TEST_CASE("make_input_error: the message starts with the path", "[validation]") {
  const attn::InputError error = attn::make_input_error("q[1][3]", "must be a finite number");
  CHECK(error.path == "q[1][3]");
  CHECK(error.message == "q[1][3]: must be a finite number");
}

TEST_CASE("mask names parse and print", "[validation]") {
  CHECK(attn::parse_mask("causal") == attn::MaskKind::causal);
  CHECK(attn::parse_mask("none") == attn::MaskKind::none);
  CHECK_FALSE(attn::parse_mask("diagonal").has_value());
  CHECK_FALSE(attn::parse_mask("Causal").has_value());
  CHECK_FALSE(attn::parse_mask("").has_value());
  CHECK(attn::mask_name(attn::MaskKind::causal) == "causal");
  CHECK(attn::mask_name(attn::MaskKind::none) == "none");
}

TEST_CASE("parse_attention_input: bad JSON inputs name the field", "[validation]") {
  struct Case {
    const char* what;
    std::string json;
    std::string path;
    const char* also;  // a fragment the message must contain, or nullptr
  };
  const std::vector<Case> cases = {
      {"not JSON", "the cat", "input", "line 1, column 1"},
      {"truncated JSON", "{\"tokens\": [\"the\",\n \"cat\"", "input", "line 2"},
      {"NaN is not JSON", article_json_with("q", "[[NaN,1,1,1],[1,1,1,1]]"), "input", "NaN"},
      {"Infinity is not JSON", article_json_with("v", "[[1,1,1,1],[1,1,1,-Infinity]]"), "input",
       "line 1"},
      {"an array, not an object", "[1,2]", "input", "object"},
      {"a duplicated member", R"({"tokens":["a"],"tokens":["b"]})", "input", "twice"},
      {"an unknown member", article_json_with("mask", R"("causal","scale":2)"), "scale", nullptr},
      {"missing tokens", article_json_with("tokens", ""), "tokens", "missing"},
      {"tokens not an array", article_json_with("tokens", R"("the cat")"), "tokens", nullptr},
      {"a token that is a number", article_json_with("tokens", R"(["the",2])"), "tokens[1]",
       nullptr},
      {"an empty token", article_json_with("tokens", R"(["the",""])"), "tokens[1]", nullptr},
      {"missing q", article_json_with("q", ""), "q", "missing"},
      {"q not an array", article_json_with("q", "5"), "q", nullptr},
      {"a q row not an array", article_json_with("q", "[[0.3,-0.2,0.5,0.1],7]"), "q[1]",
       nullptr},
      {"ragged q rows", article_json_with("q", "[[0.3,-0.2,0.5,0.1],[1.1,-0.8,0.2]]"), "q[1]",
       nullptr},
      {"k with three rows", article_json_with("k", rows_of(3, 4)), "k", "3 rows"},
      {"v rows wider than q rows", article_json_with("v", rows_of(2, 5)), "v[0]", nullptr},
      {"k rows narrower than q rows", article_json_with("k", rows_of(2, 3)), "k[0]", nullptr},
      {"more tokens than rows", article_json_with("tokens", R"(["the","cat","sat"])"), "q",
       nullptr},
      {"zero tokens", R"({"tokens":[],"q":[],"k":[],"v":[]})", "tokens", nullptr},
      {"head_dim 0", R"({"tokens":["a","b"],"q":[[],[]],"k":[[],[]],"v":[[],[]]})", "q[0]",
       nullptr},
      {"no rows for two tokens", R"({"tokens":["a","b"],"q":[],"k":[],"v":[]})", "q", nullptr},
      {"a string value", article_json_with("q", R"([[0.3,"1",0.5,0.1],[1.1,-0.8,0.2,0.3]])"),
       "q[0][1]", "\"1\""},
      {"a null value", article_json_with("k", "[[-0.4,-0.3,0.2,1.2],[1.6,-0.7,null,-0.5]]"),
       "k[1][2]", nullptr},
      {"a boolean value", article_json_with("v", "[[true,-0.4,0.1,1.1],[1.2,-0.3,-0.2,-0.6]]"),
       "v[0][0]", nullptr},
      {"a value of 1e300", article_json_with("v", "[[-0.5,-0.4,0.1,1.1],[1.2,-0.3,1e300,-0.6]]"),
       "v[1][2]", "1e15"},
      {"a value of 1e16", article_json_with("q", "[[1e16,-0.2,0.5,0.1],[1.1,-0.8,0.2,0.3]]"),
       "q[0][0]", nullptr},
      {"a value of -1e400 (beyond double)",
       article_json_with("k", "[[-0.4,-0.3,0.2,1.2],[1.6,-1e400,-0.4,-0.5]]"), "k[1][1]",
       nullptr},
      {"an unknown mask", article_json_with("mask", R"("diagonal")"), "mask", "diagonal"},
      {"a mask that is not a string", article_json_with("mask", "1"), "mask", nullptr},
      {"65 tokens", head_json(65, 2), "tokens", "64"},
      {"head_dim 257", head_json(2, 257), "q[0]", "256"},
      {"a 257-byte token", article_json_with("tokens", "[\"the\",\"" + std::string(257, 'x') + "\"]"),
       "tokens[1]", "256"},
  };
  for (const Case& c : cases) {
    INFO(c.what << ": " << c.json.substr(0, 200));
    const auto result = attn::parse_attention_input(c.json);
    REQUIRE(std::holds_alternative<attn::InputError>(result));
    const attn::InputError& error = std::get<attn::InputError>(result);
    check_error(error, c.path);
    INFO("message: " << error.message);
    if (c.also) CHECK(error.message.find(c.also) != std::string::npos);
  }
}

TEST_CASE("a value beyond the limit is named in its refusal", "[validation]") {
  // The reader sees which number was refused, written as typed, beside the bound.
  const struct {
    std::string json;
    std::string message;
  } cases[] = {
      {article_json_with("q", "[[1e30,-0.2,0.5,0.1],[1.1,-0.8,0.2,0.3]]"),
       "q[0][0]: is 1e30, outside the allowed range of ±1e15"},
      {article_json_with("v", "[[-0.5,-0.4,0.1,1.1],[1.2,-0.3,-2.5e300,-0.6]]"),
       "v[1][2]: is -2.5e300, outside the allowed range of ±1e15"},
      {article_json_with("k", "[[-0.4,-0.3,0.2,1.2],[1.6,1000000000000000.5,-0.4,-0.5]]"),
       "k[1][1]: is 1.0000000000000005e15, outside the allowed range of ±1e15"},
  };
  for (const auto& c : cases) {
    const auto result = attn::parse_attention_input(c.json);
    REQUIRE(std::holds_alternative<attn::InputError>(result));
    CHECK(std::get<attn::InputError>(result).message == c.message);
  }
  // Floats are written as the float's shortest text, not the double it widens to.
  CHECK(attn::number_text(3e38f) == "3e38");
  CHECK(attn::number_text(-1.0000001e15f) == "-1.0000001e15");
  CHECK(attn::number_text(1e-7) == "1e-7");
  CHECK(attn::number_text(1e15) == "1e15");
}

TEST_CASE("parse_attention_input: the limits themselves are accepted", "[validation]") {
  for (const auto& [T, d] : std::vector<std::pair<std::size_t, std::size_t>>{{64, 2}, {2, 256}, {1, 1}}) {
    INFO("T " << T << ", d " << d);
    const auto result = attn::parse_attention_input(head_json(T, d));
    INFO(error_of(result));
    REQUIRE(std::holds_alternative<attn::AttentionInput>(result));
    const attn::AttentionInput& input = std::get<attn::AttentionInput>(result);
    CHECK(input.tokens.size() == T);
    CHECK(input.q.rows == T);
    CHECK(input.q.cols == d);
    CHECK(input.mask == attn::MaskKind::causal);  // the default when mask is absent
  }
  // ±1e15 exactly is inside the documented range (|value| <= 1e15).
  const auto edge = attn::parse_attention_input(
      article_json_with("q", "[[1e15,-1e15,0.5,0.1],[1.1,-0.8,0.2,1E-300]]"));
  INFO(error_of(edge));
  REQUIRE(std::holds_alternative<attn::AttentionInput>(edge));
  CHECK(std::get<attn::AttentionInput>(edge).q.at(0, 0) == 1e15f);
  CHECK(std::get<attn::AttentionInput>(edge).q.at(1, 3) == 0.0f);
}

TEST_CASE("parse_attention_input: the article's JSON reads as the article's input",
          "[validation]") {
  const auto result = attn::parse_attention_input(article_json_with("mask", R"("causal")"));
  REQUIRE(std::holds_alternative<attn::AttentionInput>(result));
  const attn::AttentionInput& parsed = std::get<attn::AttentionInput>(result);
  const attn::AttentionInput article = attn::article::two_words();
  CHECK(parsed.tokens == article.tokens);
  CHECK(parsed.q.values == article.q.values);
  CHECK(parsed.k.values == article.k.values);
  CHECK(parsed.v.values == article.v.values);
  CHECK(parsed.mask == article.mask);

  const auto none = attn::parse_attention_input(article_json_with("mask", R"("none")"));
  REQUIRE(std::holds_alternative<attn::AttentionInput>(none));
  CHECK(std::get<attn::AttentionInput>(none).mask == attn::MaskKind::none);

  // Whitespace, a UTF-8 token and escapes are all fine.
  const auto spaced = attn::parse_attention_input(
      " {\n\t\"tokens\" : [\"caf\\u00e9\", \"\xF0\x9F\x90\x88\"],\r\n \"q\":[[1],[2]], \"k\":[[3],[4]], "
      "\"v\":[[5],[6]] }\n");
  REQUIRE(std::holds_alternative<attn::AttentionInput>(spaced));
  CHECK(std::get<attn::AttentionInput>(spaced).tokens ==
        std::vector<std::string>{"caf\xC3\xA9", "\xF0\x9F\x90\x88"});
}
