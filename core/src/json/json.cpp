// A strict recursive-descent JSON reader (RFC 8259) with a depth bound, UTF-8 validation and
// line/column positions in its messages, and the two writer helpers the trace output needs.
#include "attention/json/json.h"

#include "decimal_text.h"
#include "number_text.h"

#include <cmath>
#include <string>
#include <utility>

namespace attn::json {

Value::Value() = default;
Value::Value(const Value&) = default;
Value::Value(Value&&) noexcept = default;
Value& Value::operator=(const Value&) = default;
Value& Value::operator=(Value&&) noexcept = default;
Value::~Value() = default;

const Value* Value::find(std::string_view key) const {
  for (const auto& [name, value] : object)
    if (name == key) return &value;
  return nullptr;
}

std::string_view type_name(Value::Type type) {
  switch (type) {
    case Value::Type::null: return "null";
    case Value::Type::boolean: return "a boolean";
    case Value::Type::number: return "a number";
    case Value::Type::string: return "a string";
    case Value::Type::array: return "an array";
    case Value::Type::object: return "an object";
  }
  return "a value";
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  ParseResult run() {
    ParseResult result;
    Value value;
    skip_space();
    if (!parse_value(value, 0)) {
      result.error = error_;
      return result;
    }
    skip_space();
    if (pos_ != text_.size()) {
      fail("unexpected text after the JSON value");
      result.error = error_;
      return result;
    }
    result.value = std::move(value);
    return result;
  }

 private:
  bool fail(std::string_view what) {
    std::size_t line = 1, column = 1;
    for (std::size_t p = 0; p < pos_ && p < text_.size(); ++p) {
      if (text_[p] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error_ = "not valid JSON at line " + std::to_string(line) + ", column " +
             std::to_string(column) + ": " + std::string(what);
    return false;
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  bool consume_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("unknown word (expected a value)");
    pos_ += word.size();
    return true;
  }

  bool parse_value(Value& out, std::size_t depth) {
    if (at_end()) return fail("unexpected end of input (expected a value)");
    switch (peek()) {
      case '{': return parse_object(out, depth);
      case '[': return parse_array(out, depth);
      case '"': out.type = Value::Type::string; return parse_string(out.string);
      case 't': out.type = Value::Type::boolean; out.boolean = true; return consume_word("true");
      case 'f': out.type = Value::Type::boolean; out.boolean = false; return consume_word("false");
      case 'n': out.type = Value::Type::null; return consume_word("null");
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number(out);
        if (text_.substr(pos_, 3) == "NaN" || text_.substr(pos_, 8) == "Infinity")
          return fail("NaN and Infinity are not JSON numbers");
        return fail("unexpected character (expected a value)");
    }
  }

  // depth counts the containers around this one; the outermost array or object is depth 0.
  bool enter_container(std::size_t depth) {
    return depth < max_depth || fail("nested deeper than 64 levels");
  }

  bool parse_object(Value& out, std::size_t depth) {
    if (!enter_container(depth)) return false;
    out.type = Value::Type::object;
    ++pos_;  // '{'
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      if (peek() != '"') return fail("expected a quoted member name");
      std::string key;
      if (!parse_string(key)) return false;
      if (out.find(key)) return fail("member " + quoted_excerpt(key, 32) + " appears twice");
      skip_space();
      if (peek() != ':') return fail("expected ':' after the member name");
      ++pos_;
      skip_space();
      Value member;
      if (!parse_value(member, depth + 1)) return false;
      out.object.emplace_back(std::move(key), std::move(member));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}' in the object");
    }
  }

  bool parse_array(Value& out, std::size_t depth) {
    if (!enter_container(depth)) return false;
    out.type = Value::Type::array;
    ++pos_;  // '['
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      Value element;
      if (!parse_value(element, depth + 1)) return false;
      out.array.push_back(std::move(element));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']' in the array");
    }
  }

  bool parse_number(Value& out) {
    const std::size_t start = pos_;
    auto digits = [&] {
      const std::size_t first = pos_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
      return pos_ > first;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      return fail("a number needs digits");
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return fail("a number needs digits after the decimal point");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return fail("a number needs digits in its exponent");
    }
    // The grammar above has been checked, so this reads exactly the span, correctly rounded.
    // Magnitudes beyond double's range become ±infinity; the attention input's range check
    // reports them.
    out.type = Value::Type::number;
    out.number = read_double(text_.substr(start, pos_ - start));
    return true;
  }

  static void append_utf8(std::string& out, unsigned code_point) {
    if (code_point < 0x80) {
      out += static_cast<char>(code_point);
    } else if (code_point < 0x800) {
      out += static_cast<char>(0xC0 | (code_point >> 6));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else if (code_point < 0x10000) {
      out += static_cast<char>(0xE0 | (code_point >> 12));
      out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code_point >> 18));
      out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    }
  }

  bool parse_hex4(unsigned& value) {
    value = 0;
    for (int n = 0; n < 4; ++n, ++pos_) {
      const char c = peek();
      value <<= 4;
      if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
      else return fail("\\u needs four hexadecimal digits");
    }
    return true;
  }

  // Copies one UTF-8 encoded character, refusing malformed, overlong and surrogate encodings.
  bool copy_utf8_character(std::string& out) {
    const auto byte = [&](std::size_t offset) {
      return static_cast<unsigned char>(pos_ + offset < text_.size() ? text_[pos_ + offset] : 0);
    };
    const unsigned lead = byte(0);
    std::size_t length = 0;
    unsigned code_point = 0, minimum = 0;
    if (lead >= 0xC2 && lead <= 0xDF) { length = 2; code_point = lead & 0x1F; minimum = 0x80; }
    else if (lead >= 0xE0 && lead <= 0xEF) { length = 3; code_point = lead & 0x0F; minimum = 0x800; }
    else if (lead >= 0xF0 && lead <= 0xF4) { length = 4; code_point = lead & 0x07; minimum = 0x10000; }
    else return fail("text is not valid UTF-8");
    for (std::size_t n = 1; n < length; ++n) {
      const unsigned continuation = byte(n);
      if ((continuation & 0xC0) != 0x80) return fail("text is not valid UTF-8");
      code_point = (code_point << 6) | (continuation & 0x3F);
    }
    if (code_point < minimum || code_point > 0x10FFFF ||
        (code_point >= 0xD800 && code_point <= 0xDFFF))
      return fail("text is not valid UTF-8");
    out.append(text_.substr(pos_, length));
    pos_ += length;
    return true;
  }

  bool parse_string(std::string& out) {
    ++pos_;  // opening quote
    while (true) {
      if (at_end()) return fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return fail("control character inside a string (escape it)");
      if (c >= 0x80) {
        if (!copy_utf8_character(out)) return false;
        continue;
      }
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      ++pos_;  // backslash
      const char escape = peek();
      ++pos_;
      switch (escape) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code_point = 0;
          if (!parse_hex4(code_point)) return false;
          if (code_point >= 0xDC00 && code_point <= 0xDFFF)
            return fail("\\u escape is a lone low surrogate");
          if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") return fail("\\u high surrogate without its pair");
            pos_ += 2;
            unsigned low = 0;
            if (!parse_hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return fail("\\u high surrogate without its pair");
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code_point);
          break;
        }
        default:
          --pos_;
          return fail("unknown escape sequence in a string");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

ParseResult parse(std::string_view text) { return Parser(text).run(); }

void write_non_finite(std::string& out, double value) {
  out += std::isnan(value) ? R"({"non_finite":"NaN"})"
         : value > 0       ? R"({"non_finite":"Infinity"})"
                           : R"({"non_finite":"-Infinity"})";
}

void write_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    write_non_finite(out, value);
    return;
  }
  char buffer[32];
  out.append(buffer, format_nine_digits(value, buffer));
}

std::string member_path(std::string_view name) {
  const auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  bool is_plain = !name.empty() && name.size() <= 64;
  for (const char c : name) is_plain = is_plain && plain(c);
  if (is_plain) return std::string(name);
  return quoted_excerpt(name, 32);
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t length = max_bytes;  // back to the start of a UTF-8 character
  while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) --length;
  return text.substr(0, length);
}

namespace {

// The code point of the UTF-8 character that starts `text`, and its length in bytes; a byte that
// does not start a whole character counts as a character of its own (code point 0xFFFD).
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text) {
  const auto byte = [&](std::size_t n) { return static_cast<unsigned char>(text[n]); };
  const unsigned char lead = byte(0);
  const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || length > text.size()) return {0xFFFD, 1};
  char32_t code = length == 1 ? lead : lead & (0xFF >> (length + 1));
  for (std::size_t n = 1; n < length; ++n) {
    if ((byte(n) & 0xC0) != 0x80) return {0xFFFD, 1};
    code = (code << 6) | (byte(n) & 0x3F);
  }
  return {code, length};
}

// Formatting characters that show as nothing, or that turn the text after them around (the
// bidirectional embeddings, overrides and isolates): a message writes them as \u escapes.
bool invisible(char32_t c) {
  return c == 0x00AD || c == 0x061C || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
         (c >= 0x2066 && c <= 0x206F) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB);
}

}  // namespace

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
  const std::string_view shown = utf8_prefix(text, max_bytes);
  std::string quoted;
  write_string(quoted, shown);
  if (shown.size() < text.size()) quoted.insert(quoted.size() - 1, "…");
  return quoted;
}

// JSON's own escapes, and the invisible formatting characters as \u escapes as well: a
// right-to-left override in a token would otherwise turn around the rest of a line of JSON shown
// in a terminal or a log, numbers included. The text read back is the same.
void write_string(std::string& out, std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  const auto escape = [&](char32_t code) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(code >> shift) & 0xF];
  };
  out += '"';
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c >= 0x80) {
      const auto [code, length] = decode_utf8(text.substr(at));
      if (invisible(code)) escape(code);
      else out.append(text, at, length);
      at += length;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) escape(c);
        else out += static_cast<char>(c);
    }
    ++at;
  }
  out += '"';
}

}  // namespace attn::json
