// The JSON reader and writer: strict RFC 8259 grammar, escapes and UTF-8, a depth bound, error
// messages that point at the line and column, and numbers that round-trip a float.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "attention/json/json.h"

namespace {

using attn::json::Value;

Value parse_ok(const std::string& text) {
  const attn::json::ParseResult result = attn::json::parse(text);
  INFO("text: " << text << "\nerror: " << result.error);
  REQUIRE(result.value.has_value());
  CHECK(result.error.empty());
  return *result.value;
}

std::string parse_error(const std::string& text) {
  const attn::json::ParseResult result = attn::json::parse(text);
  INFO("text: " << text);
  REQUIRE_FALSE(result.value.has_value());
  CHECK(result.error.rfind("not valid JSON at line ", 0) == 0);
  CHECK(result.error.find('\n') == std::string::npos);
  return result.error;
}

std::string nested_arrays(std::size_t depth, const std::string& inner) {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

}  // namespace

TEST_CASE("json: literals and numbers", "[json]") {
  CHECK(parse_ok("null").type == Value::Type::null);
  CHECK(parse_ok("true").type == Value::Type::boolean);
  CHECK(parse_ok("true").boolean);
  CHECK_FALSE(parse_ok(" false ").boolean);

  const std::vector<std::pair<std::string, double>> numbers = {
      {"0", 0.0},         {"-0", -0.0},          {"7", 7.0},
      {"-12", -12.0},     {"1.5e3", 1500.0},     {"-12.25E-2", -0.1225},
      {"2E+2", 200.0},    {"0.1", 0.1},          {"123456789012", 123456789012.0},
      {"1e-400", 0.0},    {"4.9e-324", 4.9e-324}};
  for (const auto& [text, expected] : numbers) {
    INFO(text);
    const Value value = parse_ok(text);
    CHECK(value.type == Value::Type::number);
    CHECK(value.number == expected);
    CHECK(std::signbit(value.number) == std::signbit(expected));
  }
}

TEST_CASE("json: numbers beyond double's range become infinity", "[json]") {
  // The reader keeps the sign and leaves the range check to the attention input, which
  // refuses anything beyond ±1e15 and names the element (see the validation tests).
  const Value big = parse_ok("1e400");
  CHECK(big.type == Value::Type::number);
  CHECK(big.number == std::numeric_limits<double>::infinity());
  CHECK(parse_ok("-1e400").number == -std::numeric_limits<double>::infinity());
  CHECK(parse_ok("[1e400]").array[0].number == std::numeric_limits<double>::infinity());
}

TEST_CASE("json: strings and escapes and UTF-8", "[json]") {
  CHECK(parse_ok(R"("")").string.empty());
  CHECK(parse_ok(R"("cat")").string == "cat");
  CHECK(parse_ok(R"("\" \\ \/ \b \f \n \r \t")").string == "\" \\ / \b \f \n \r \t");
  CHECK(parse_ok(R"("caf\u00e9")").string == "caf\xC3\xA9");
  CHECK(parse_ok(R"("\u20AC")").string == "\xE2\x82\xAC");        // € (3 bytes)
  CHECK(parse_ok(R"("\ud83d\ude00")").string == "\xF0\x9F\x98\x80");  // 😀 via a surrogate pair
  CHECK(parse_ok(R"("\uD834\uDD1E")").string == "\xF0\x9D\x84\x9E");  // 𝄞, upper-case hex
  CHECK(parse_ok(R"("a\u0000b")").string == std::string("a\0b", 3));
  CHECK(parse_ok("\"caf\xC3\xA9 \xF0\x9F\x90\x88\"").string == "caf\xC3\xA9 \xF0\x9F\x90\x88");

  CHECK(parse_error(R"("\ud800")").find("surrogate") != std::string::npos);
  CHECK(parse_error(R"("\udc00")").find("surrogate") != std::string::npos);
  CHECK(parse_error(R"("\ud800\u0041")").find("surrogate") != std::string::npos);
  CHECK(parse_error(R"("\ud800x")").find("surrogate") != std::string::npos);
  parse_error(R"("\u12")");
  parse_error(R"("\u12G4")");
  parse_error(R"("\x41")");
  parse_error("\"tab\there\"");         // raw control character
  parse_error("\"line\nbreak\"");
  parse_error("\"\xFF\"");              // not UTF-8
  parse_error("\"\xC0\xAF\"");          // overlong encoding of '/'
  parse_error("\"\xED\xA0\x80\"");      // an encoded surrogate
  parse_error("\"\xC3\"");              // truncated sequence
  parse_error("\"\xF4\x90\x80\x80\"");  // beyond U+10FFFF
}

TEST_CASE("json: arrays and objects", "[json]") {
  const Value v = parse_ok(R"( { "a" : [1, [2, 3], {"b": null}], "c": "x", "": true } )");
  REQUIRE(v.type == Value::Type::object);
  REQUIRE(v.object.size() == 3);
  CHECK(v.object[0].first == "a");  // members keep their order
  CHECK(v.object[1].first == "c");
  CHECK(v.object[2].first.empty());
  const Value* a = v.find("a");
  REQUIRE(a != nullptr);
  REQUIRE(a->array.size() == 3);
  CHECK(a->array[0].number == 1.0);
  CHECK(a->array[1].array[1].number == 3.0);
  CHECK(a->array[2].find("b")->type == Value::Type::null);
  CHECK(v.find("c")->string == "x");
  CHECK(v.find("")->boolean);
  CHECK(v.find("missing") == nullptr);
  CHECK(parse_ok("[]").array.empty());
  CHECK(parse_ok("{}").object.empty());
  CHECK(parse_ok(" \t\r\n[ ]\n").type == Value::Type::array);

  CHECK(attn::json::type_name(Value::Type::number) == "a number");
  CHECK(attn::json::type_name(Value::Type::array) == "an array");
  CHECK(attn::json::type_name(Value::Type::null) == "null");
}

TEST_CASE("json: invalid text is reported at its line and column", "[json]") {
  struct Case {
    std::string text;
    const char* position;
  };
  const std::vector<Case> cases = {
      {"", "line 1, column 1"},
      {"   ", "line 1, column 4"},
      {"[1,]", "line 1, column 4"},
      {R"({"a":1,})", "line 1, column 8"},
      {"01", "line 1, column 2"},
      {"1.", "line 1, column 3"},
      {".5", "line 1, column 1"},
      {"+1", "line 1, column 1"},
      {"-", "line 1, column 2"},
      {"1e", "line 1, column 3"},
      {"1e+", "line 1, column 4"},
      {"nul", "line 1, column 1"},
      {"tRue", "line 1, column 1"},
      {R"("abc)", "line 1, column 5"},
      {"[1 2]", "line 1, column 4"},
      {"{'a':1}", "line 1, column 2"},
      {R"({"a" 1})", "line 1, column 6"},
      {R"({"a":1 "b":2})", "line 1, column 8"},
      {"{1:2}", "line 1, column 2"},
      {"1 2", "line 1, column 3"},
      {"[1]]", "line 1, column 4"},
      {"NaN", "line 1, column 1"},
      {"[Infinity]", "line 1, column 2"},
      {"[-Infinity]", "line 1, column 3"},
      {R"("bad \x escape")", "line 1, column 7"},
      {"{\n  \"a\": tru\n}", "line 2, column 8"},
      {"[\n1,\n2,\n]", "line 4, column 1"},
      {"[1,\r\n 2,\r\n x]", "line 3, column 2"},
  };
  for (const Case& c : cases) {
    INFO("text: " << c.text);
    const std::string error = parse_error(c.text);
    INFO("error: " << error);
    CHECK(error.find(c.position) != std::string::npos);
  }
}

TEST_CASE("json: nesting is bounded at 64 levels", "[json]") {
  CHECK(parse_ok(nested_arrays(64, "")).type == Value::Type::array);
  // 64 levels of containers, the innermost holding a scalar: still 64 levels, not "deeper
  // than 64". An empty object there is a 65th container.
  CHECK(parse_error(nested_arrays(64, "{}")).find("64") != std::string::npos);
  CHECK(parse_ok(nested_arrays(63, "{}")).type == Value::Type::array);
  for (const char* innermost : {"1", "\"x\"", "null"}) {
    const attn::json::ParseResult result = attn::json::parse(nested_arrays(64, innermost));
    INFO("64 arrays around " << innermost << ": " << result.error);
    CHECK(result.value.has_value());
  }
  CHECK(parse_error(nested_arrays(65, "")).find("64") != std::string::npos);
  CHECK(parse_error(nested_arrays(65, "1")).find("64") != std::string::npos);
  std::string objects;
  for (int n = 0; n < 65; ++n) objects += "{\"a\":";
  objects += "1" + std::string(65, '}');
  parse_error(objects);
  // Deep enough to overflow the stack of a reader without a bound: an error, not a crash.
  parse_error(std::string(100000, '['));
}

TEST_CASE("json: write_number round-trips float32 and tags non-finite values (never null)",
          "[json]") {
  const auto written = [](double value) {
    std::string out;
    attn::json::write_number(out, value);
    return out;
  };
  CHECK(written(2.0) == "2");
  CHECK(written(-0.5) == "-0.5");
  CHECK(written(0.0) == "0");
  CHECK(written(std::numeric_limits<double>::infinity()) == R"({"non_finite":"Infinity"})");
  CHECK(written(-std::numeric_limits<double>::infinity()) == R"({"non_finite":"-Infinity"})");
  CHECK(written(std::numeric_limits<double>::quiet_NaN()) == R"({"non_finite":"NaN"})");

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-40, 38);
  std::vector<float> values = {0.1f, 1.0f / 3.0f, 0.2799f, 16777217.0f, 1e15f,
                               std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::denorm_min()};
  for (int n = 0; n < 2000; ++n)
    values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  for (float value : values) {
    const std::string text = written(value);
    INFO(value << " written as " << text);
    const Value back = parse_ok(text);
    CHECK(static_cast<float>(back.number) == value);
  }
}

TEST_CASE("json: write_string escapes what it must and reads back unchanged", "[json]") {
  std::string text = "plain \"quoted\" back\\slash caf\xC3\xA9 \xF0\x9F\x90\x88 /";
  for (char c = 1; c < 0x20; ++c) text += c;
  text += std::string("\0end", 4);
  std::string out;
  attn::json::write_string(out, text);
  INFO(out);
  for (unsigned char c : out) CHECK(c >= 0x20);  // no raw control characters
  CHECK(out.front() == '"');
  CHECK(out.back() == '"');
  CHECK(parse_ok(out).string == text);

  std::string simple;
  attn::json::write_string(simple, "a\"b\\c\nd");
  CHECK(simple == R"("a\"b\\c\nd")");
}

TEST_CASE("json: write_string writes invisible formatting characters as escapes, read back the same",
          "[json]") {
  // A right-to-left override (U+202E) left open, a zero-width space, an isolate, a byte-order mark;
  // letters of any script stay as they are, and so does a byte that starts no character.
  const std::string text = "\xE2\x80\xAE" "evil \xE2\x80\x8B" "x \xE2\x81\xA6" "y \xEF\xBB\xBF"
                           " \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D caf\xC3\xA9";
  std::string out;
  attn::json::write_string(out, text);
  CHECK(out == "\"\\u202eevil \\u200bx \\u2066y \\ufeff \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D caf\xC3\xA9\"");
  CHECK(parse_ok(out).string == text);
  std::string stray;
  attn::json::write_string(stray, "a\xFF" "b");
  CHECK(stray == "\"a\xFF" "b\"");
}

TEST_CASE("json: quoted_excerpt quotes a text for a message, whole characters, nothing invisible",
          "[json]") {
  using attn::json::quoted_excerpt;
  using attn::json::utf8_prefix;
  CHECK(quoted_excerpt("cat", 32) == "\"cat\"");
  CHECK(quoted_excerpt("a \"b\"\n", 32) == R"("a \"b\"\n")");
  CHECK(quoted_excerpt(std::string(40, 'x'), 32) == "\"" + std::string(32, 'x') + "\xE2\x80\xA6\"");
  // "€" is 3 bytes: 32 bytes end inside the eleventh, so ten are shown.
  std::string euros;
  for (int n = 0; n < 20; ++n) euros += "\xE2\x82\xAC";
  CHECK(utf8_prefix(euros, 32) == euros.substr(0, 30));
  CHECK(utf8_prefix(euros, 3) == euros.substr(0, 3));
  CHECK(utf8_prefix(euros, 2).empty());
  CHECK(quoted_excerpt(euros, 32) == "\"" + euros.substr(0, 30) + "\xE2\x80\xA6\"");
  // A right-to-left override, a zero-width space and a byte-order mark as \u escapes; other
  // characters as they are.
  CHECK(quoted_excerpt("a\xE2\x80\xAE" "b\xE2\x80\x8B" "c\xEF\xBB\xBF\xC3\xA9", 32) ==
        R"("a\u202eb\u200bc\ufeff)" "\xC3\xA9\"");
  // A byte that starts no whole character is kept as the writer keeps it, not read past.
  CHECK(quoted_excerpt("\xE2\x80", 32) == "\"\xE2\x80\"");
}

TEST_CASE("json: messages that name a member quote it in part", "[json]") {
  const std::string long_name = std::string(1000, 'k') + "\xE2\x80\xAE";
  const attn::json::ParseResult twice = attn::json::parse("{\"" + long_name + "\":1,\"" + long_name + "\":2}");
  REQUIRE_FALSE(twice.value);
  CHECK(twice.error.find("member \"" + std::string(32, 'k') + "\xE2\x80\xA6\" appears twice") !=
        std::string::npos);
  CHECK(twice.error.size() < 120);
  CHECK(attn::json::member_path("a b\xE2\x80\xAE") == R"("a b\u202e")");
  CHECK(attn::json::member_path("plain_name") == "plain_name");
}
