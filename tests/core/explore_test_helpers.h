// Small helpers the explorable's tests share: JSON answers read back, error messages checked.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "attention/reference/attention_input.h"
#include "attention/json/explore_json.h"
#include "attention/json/json.h"

namespace attn_test {

inline attn::json::Value parse_json_text(const std::string& text) {
  const attn::json::ParseResult parsed = attn::json::parse(text);
  INFO(parsed.error << "\n" << text.substr(0, 300));
  REQUIRE(parsed.value.has_value());
  return *parsed.value;
}

// Whether `value` is the tagged non-finite number the core writes, {"non_finite": spelling}
// (json.h): spelling is "-Infinity", "Infinity" or "NaN".
inline bool is_non_finite(const attn::json::Value& value, const std::string& spelling) {
  if (value.type != attn::json::Value::Type::object || value.object.size() != 1) return false;
  const attn::json::Value* tag = value.find("non_finite");
  return tag != nullptr && tag->type == attn::json::Value::Type::string && tag->string == spelling;
}

// The answer of a JSON call that must succeed, parsed.
inline attn::json::Value answer_of(const attn::JsonOrError& result) {
  const auto* error = std::get_if<attn::InputError>(&result);
  INFO((error ? "error: " + error->message : std::string("answered")));
  REQUIRE(std::holds_alternative<std::string>(result));
  return parse_json_text(std::get<std::string>(result));
}

// The error must name `path`: path == it, message "path: ..." on one line.
inline void check_names(const attn::InputError& error, const std::string& path) {
  INFO("message: " << error.message);
  CHECK(error.path == path);
  CHECK(error.message.rfind(path + ": ", 0) == 0);
  CHECK(error.message.size() > path.size() + 2);
  CHECK(error.message.find('\n') == std::string::npos);
}

inline void check_refused(const attn::JsonOrError& result, const std::string& path,
                          const char* fragment = nullptr) {
  REQUIRE(std::holds_alternative<attn::InputError>(result));
  const attn::InputError& error = std::get<attn::InputError>(result);
  check_names(error, path);
  if (fragment) {
    INFO("message: " << error.message << "; expected to contain " << fragment);
    CHECK(error.message.find(fragment) != std::string::npos);
  }
}

// A JSON array of numbers (or of rows of numbers) as doubles.
inline std::vector<double> numbers_of(const attn::json::Value& array) {
  std::vector<double> numbers;
  for (const attn::json::Value& item : array.array) {
    if (item.type == attn::json::Value::Type::array) {
      for (const attn::json::Value& inner : item.array) numbers.push_back(inner.number);
    } else {
      numbers.push_back(item.number);
    }
  }
  return numbers;
}

}  // namespace attn_test
