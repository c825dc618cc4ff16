// Member-by-member reading of JSON requests and the writer helpers of the answers.
#include "json/json_request.h"

#include <cmath>

#include "attention/reference/seeded_random.h"
#include "json/decimal_text.h"

namespace attn::json_request {

using Type = Value::Type;

namespace {

// "a, b, c"
std::string listed(std::initializer_list<std::string_view> names) {
  std::string text;
  for (std::string_view name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

}  // namespace

std::string got(const Value& value, NumberInGot number) {
  std::string text = "got ";
  if (value.type == Type::number && number == NumberInGot::value) {
    json::write_number(text, value.number);
  } else if (value.type == Type::string && value.string.size() <= 32) {
    text += json::quoted_excerpt(value.string, 32);
  } else {
    text += json::type_name(value.type);
  }
  return text;
}

std::string index_path(std::string_view base, std::size_t index) {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

std::variant<Value, InputError> parse_within_limit(std::string_view text) {
  if (text.size() > max_request_bytes)
    return make_input_error("input", "is " + std::to_string(text.size()) +
                                         " bytes; the limit is " + std::to_string(max_request_bytes));
  json::ParseResult parsed = json::parse(text);
  if (!parsed.value) return make_input_error("input", parsed.error);
  return std::move(*parsed.value);
}

std::optional<InputError> check_known_members(const Value& object,
                                              std::initializer_list<std::string_view> known) {
  for (const auto& [key, member] : object.object) {
    (void)member;
    bool is_known = false;
    for (std::string_view name : known) is_known = is_known || key == name;
    if (!is_known)
      return make_input_error(json::member_path(key), "is not a known field (expected " +
                                                          listed(known) + ")");
  }
  return std::nullopt;
}

std::variant<Value, InputError> parse_request(std::string_view text,
                                              std::initializer_list<std::string_view> known,
                                              std::string_view list_intro) {
  auto parsed = parse_within_limit(text);
  if (std::holds_alternative<InputError>(parsed)) return parsed;
  const Value& root = std::get<Value>(parsed);
  if (root.type != Type::object)
    return make_input_error("input", "must be a JSON object with " + std::string(list_intro) +
                                         listed(known) + ", " + got(root));
  if (auto error = check_known_members(root, known)) return *error;
  return parsed;
}

std::optional<InputError> read_whole_value(const Value& value, const std::string& path,
                                           double lowest, double highest, double& out) {
  const bool whole = value.type == Type::number && std::isfinite(value.number) &&
                     std::floor(value.number) == value.number;
  if (!whole || value.number < lowest || value.number > highest)
    return make_input_error(path, "must be a whole number from " +
                                      json::format_general(lowest, 17) + " to " +
                                      json::format_general(highest, 17) + ", " + got(value));
  out = value.number;
  return std::nullopt;
}

std::optional<InputError> read_count(const Value& root, std::string_view key, std::size_t lowest,
                                     std::size_t highest, std::size_t& out) {
  const Value* member = root.find(key);
  if (!member) return std::nullopt;
  double value = 0.0;
  if (auto error = read_whole_value(*member, std::string(key), static_cast<double>(lowest),
                                    static_cast<double>(highest), value))
    return error;
  out = static_cast<std::size_t>(value);
  return std::nullopt;
}

std::optional<InputError> check_list(const Value& value, std::string_view key,
                                     std::string_view entries, std::size_t limit) {
  const std::string path(key);
  if (value.type != Type::array || value.array.empty())
    return make_input_error(path, "must be a non-empty array of " + std::string(entries) + ", " +
                                      got(value));
  if (value.array.size() > limit)
    return make_input_error(path, "has " + std::to_string(value.array.size()) +
                                      " entries; the limit is " + std::to_string(limit));
  return std::nullopt;
}

std::optional<InputError> read_seed(const Value& root, std::uint64_t& seed) {
  const Value* member = root.find("seed");
  if (!member) return std::nullopt;
  double value = 0.0;
  if (auto error = read_whole_value(*member, "seed", 0.0, static_cast<double>(max_seed), value))
    return error;
  seed = static_cast<std::uint64_t>(value);
  return std::nullopt;
}

std::optional<InputError> read_number_in(const Value& root, std::string_view key, double lowest,
                                         bool lowest_open, double highest, double& out) {
  const Value* member = root.find(key);
  if (!member) return std::nullopt;
  const bool number = member->type == Type::number && std::isfinite(member->number);
  const bool inside = number && (lowest_open ? member->number > lowest : member->number >= lowest) &&
                      member->number <= highest;
  if (!inside) {
    const std::string range = std::string(lowest_open ? "above " : "from ") +
                              json::format_general(lowest, 17) + " and at most " +
                              json::format_general(highest, 17);
    return make_input_error(std::string(key), "must be a number " + range + ", " + got(*member));
  }
  out = member->number;
  return std::nullopt;
}

std::optional<InputError> read_choice(const Value& root, std::string_view key,
                                      std::span<const std::string_view> choices,
                                      std::string& out, NumberInGot number) {
  const Value* member = root.find(key);
  if (!member) return std::nullopt;
  std::string expected;
  std::size_t n = 0;
  for (std::string_view choice : choices) {
    expected += n == 0 ? "" : (n + 1 == choices.size() ? " or " : ", ");
    expected += "\"" + std::string(choice) + "\"";
    ++n;
  }
  if (member->type == Type::string)
    for (std::string_view choice : choices)
      if (member->string == choice) {
        out = member->string;
        return std::nullopt;
      }
  return make_input_error(std::string(key), "must be " + expected + ", " + got(*member, number));
}

std::optional<InputError> read_mask(const Value& root, std::span<const std::string_view> choices,
                                    MaskVariant& out, NumberInGot number) {
  std::string name(mask_variant_name(out.mask, out.fill));
  if (auto error = read_choice(root, "mask", choices, name, number)) return error;
  out = *parse_mask_variant(name);
  return std::nullopt;
}

std::optional<InputError> read_scale(const Value& root, ScaleKind& out, NumberInGot number) {
  std::string name(scale_name(out));
  if (auto error = read_choice(root, "scale", scale_names, name, number)) return error;
  out = *parse_scale(name);
  return std::nullopt;
}

std::optional<InputError> read_tokens(const Value& root, std::vector<std::string>& out,
                                      TokenText text, NumberInGot number) {
  const Value* list = root.find("tokens");
  if (!list) return std::nullopt;
  if (list->type != Type::array)
    return make_input_error("tokens", "must be an array of strings, " + got(*list, number));
  if (list->array.empty()) return make_input_error("tokens", "needs at least one token");
  if (list->array.size() > Limits::max_tokens)
    return make_input_error("tokens", "has " + std::to_string(list->array.size()) +
                                          " tokens; the limit is " + std::to_string(Limits::max_tokens));
  std::vector<std::string> tokens;
  for (std::size_t t = 0; t < list->array.size(); ++t) {
    const Value& token = list->array[t];
    const std::string path = index_path("tokens", t);
    if (token.type != Type::string)
      return make_input_error(path, "must be a string, " + got(token, number));
    if (text == TokenText::checked) {
      if (token.string.empty()) return make_input_error(path, "must not be empty");
      if (token.string.size() > Limits::max_token_length)
        return make_input_error(path, "is " + std::to_string(token.string.size()) +
                                          " bytes long; the limit is " +
                                          std::to_string(Limits::max_token_length));
    }
    tokens.push_back(token.string);
  }
  out = std::move(tokens);
  return std::nullopt;
}

std::optional<InputError> read_table(const Value& table, const std::string& path, std::size_t rows,
                                     std::size_t cols, std::size_t max_cols, double max_abs,
                                     const char* cols_meaning, Matrix& out) {
  if (table.type != Type::array)
    return make_input_error(path, "must be an array of rows, one per token, " + got(table));
  if (table.array.size() != rows)
    return rows_per_token_error(path, table.array.size(), rows);
  std::size_t width = cols;
  if (width != 0) out = Matrix(rows, width);
  for (std::size_t r = 0; r < rows; ++r) {
    const Value& row = table.array[r];
    const std::string row_path = index_path(path, r);
    if (row.type != Type::array)
      return make_input_error(row_path, "must be an array of numbers, " + got(row));
    if (row.array.empty()) return make_input_error(row_path, "is empty");
    if (width == 0) {
      if (row.array.size() > max_cols)
        return make_input_error(row_path, "has " + std::to_string(row.array.size()) +
                                              " values; the " + cols_meaning + " limit is " +
                                              std::to_string(max_cols));
      width = row.array.size();
      out = Matrix(rows, width);
    }
    if (row.array.size() != width)
      return make_input_error(row_path, "has " + std::to_string(row.array.size()) +
                                            " values; expected " + std::to_string(width) + " (" +
                                            cols_meaning + ")");
    for (std::size_t c = 0; c < width; ++c) {
      const Value& cell = row.array[c];
      const std::string cell_path = index_path(row_path, c);
      if (cell.type != Type::number || !std::isfinite(cell.number))
        return make_input_error(cell_path, "must be a finite number, " + got(cell));
      if (std::fabs(cell.number) > max_abs)
        return make_input_error(cell_path, out_of_range(cell.number, max_abs));
      out.at(r, c) = static_cast<float>(cell.number);
    }
  }
  if (rows == 0) out = Matrix(0, width);
  return std::nullopt;
}

void write_key(std::string& out, std::string_view key) {
  if (out.back() != '{') out += ',';
  json::write_string(out, key);
  out += ':';
}

void write_text(std::string& out, std::string_view key, std::string_view text) {
  write_key(out, key);
  json::write_string(out, text);
}

void write_matrix(std::string& out, const Matrix& m) {
  out += '[';
  for (std::size_t r = 0; r < m.rows; ++r) {
    out += r ? ",[" : "[";
    for (std::size_t c = 0; c < m.cols; ++c) {
      if (c) out += ',';
      json::write_number(out, m.at(r, c));
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

void write_counts(std::string& out, const std::vector<std::size_t>& values) {
  out += '[';
  for (std::size_t n = 0; n < values.size(); ++n) {
    if (n) out += ',';
    out += std::to_string(values[n]);
  }
  out += ']';
}

void write_shortest(std::string& out, double value) {
  if (!std::isfinite(value)) {
    json::write_non_finite(out, value);
    return;
  }
  if (std::floor(value) == value && std::fabs(value) < 9007199254740992.0) {
    // Whole numbers (byte and parameter counts) in full: 671000000000, not 6.71e+11.
    out += json::format_fixed(value, 0);
    return;
  }
  std::string text;
  for (int digits = 1; digits <= 17; ++digits) {
    text = json::format_general(value, digits);
    if (json::read_double(text) == value) break;
  }
  out += text;
}

void write_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

}  // namespace attn::json_request
