// A small JSON reader and writer: enough for the CLI's input and the trace output, strict
// (RFC 8259), bounded in depth, with messages that say where the text went wrong.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::json {

struct Value {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0.0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  const Value* find(std::string_view key) const;  // object member, or nullptr

  // Declared here, defined (defaulted) in json.cpp: implicit ones would make clang with
  // libstdc++ instantiate std::pair<std::string, Value> inside its own instantiation.
  Value();
  Value(const Value&);
  Value(Value&&) noexcept;
  Value& operator=(const Value&);
  Value& operator=(Value&&) noexcept;
  ~Value();
};

std::string_view type_name(Value::Type type);  // "null", "a number", "an array", ...

struct ParseResult {
  std::optional<Value> value;
  std::string error;  // set when value is empty: "not valid JSON at line 1, column 7: ..."
};

// At most this many arrays and objects nested inside one another.
inline constexpr std::size_t max_depth = 64;

// Numbers follow JSON's grammar strictly (no NaN, Infinity, leading '+' or hex); a number whose
// magnitude is beyond double's range (1e400) is read as ±infinity, and the caller's range check
// reports it against the field it sits in.
ParseResult parse(std::string_view text);

// A member name as the path that starts an error message: the name itself when it is a plain
// word (letters, digits, '_', at most 64 bytes), otherwise quoted as quoted_excerpt quotes it (at
// most 32 bytes), so that no name can make a message start empty, span lines or grow unbounded.
std::string member_path(std::string_view name);

// The longest start of `text` of at most `max_bytes` bytes that ends where a UTF-8 character
// ends: a message that quotes the start of a long text never cuts a character in two (which a
// reader would see as a replacement character).
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

// `text` as a message quotes it: JSON-quoted and escaped, its first `max_bytes` bytes at most
// (whole characters), with "…" inside the quotes where it was cut, and the invisible formatting
// characters (zero-width ones, bidirectional overrides and isolates) written as \u escapes, so
// that none can hide in the message or turn the rest of it around.
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes);

// Writer helpers. Floats are written with 9 significant digits (they round-trip a float32).
// JSON has no infinity or NaN, and null already means "absent" in the answers, so a non-finite
// value is written as the one tagged object {"non_finite":"-Infinity"} ("Infinity", "NaN"):
// a reader turns it back into the number with one rule (the JS API's JSON.parse reviver), and
// it can never be mistaken for a missing value or for a token spelt "NaN".
void write_number(std::string& out, double value);
void write_non_finite(std::string& out, double value);
// A JSON string: JSON's escapes, and the invisible formatting characters as \u escapes too, so
// that a token's right-to-left override cannot turn around a line of JSON shown as text (a
// terminal, a log); JSON.parse reads back the same string.
void write_string(std::string& out, std::string_view text);

}  // namespace attn::json
