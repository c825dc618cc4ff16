// Reading a JSON request member by member, with messages that start with the member's path, and
// writing an answer. Internal to the core: the attention input and trace (json_io.cpp), the
// explorable's (explore_json.cpp) and the sequel's JSON calls (sequel_json.cpp) use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/json/json.h"
#include "attention/reference/matrix.h"

namespace attn::json_request {

using json::Value;

// Requests are refused beyond this many bytes.
inline constexpr std::size_t max_request_bytes = 8u << 20;

// How got() names a number: by its value ("got 65") or by its kind alone ("got a number", as
// the attention input's messages say).
enum class NumberInGot { value, kind };

// "got an array", "got 65", "got \"NaN\"" (the JS wrapper passes NaN and ±Infinity as strings;
// longer strings are "got a string").
std::string got(const Value& value, NumberInGot number = NumberInGot::value);

std::string index_path(std::string_view base, std::size_t index);

// The text as JSON, at most max_request_bytes long ("input: ..." otherwise).
std::variant<Value, InputError> parse_within_limit(std::string_view text);

// "colour: is not a known field (expected a, b, c)" for the first member of `object` that is
// not `known`.
std::optional<InputError> check_known_members(const Value& object,
                                              std::initializer_list<std::string_view> known);

// The request as a JSON object holding only the known members: parse_within_limit, then
// "input: must be a JSON object with any of a, b, c, got ..." (`list_intro` leads the list),
// then check_known_members.
std::variant<Value, InputError> parse_request(std::string_view text,
                                              std::initializer_list<std::string_view> known,
                                              std::string_view list_intro = "any of ");
// The list_intro of the explorable's requests, whose refusal lists the members plainly
// ("input: must be a JSON object with weights, upstream, got ...").
inline constexpr std::string_view members_plainly = "";

// A whole number in [lowest, highest].
std::optional<InputError> read_whole_value(const Value& value, const std::string& path,
                                           double lowest, double highest, double& out);

// The member `key` as a count in [lowest, highest]; `out` keeps its default when absent.
std::optional<InputError> read_count(const Value& root, std::string_view key, std::size_t lowest,
                                     std::size_t highest, std::size_t& out);

// A list member (`value` at `key`): a non-empty array of at most `limit` entries. `entries`
// names what it holds, for the message ("whole numbers"); the entries are the caller's to read.
std::optional<InputError> check_list(const Value& value, std::string_view key,
                                     std::string_view entries, std::size_t limit);

// "seed": a whole number from 0 to 2^53 - 1.
std::optional<InputError> read_seed(const Value& root, std::uint64_t& seed);

// A finite number in [lowest, highest] (either bound may be open: `lowest_open`).
std::optional<InputError> read_number_in(const Value& root, std::string_view key, double lowest,
                                         bool lowest_open, double highest, double& out);

// One of `choices`; `out` keeps its default when absent. (`number`: how a refusal names a
// number given instead, as got() does; the same below.)
std::optional<InputError> read_choice(const Value& root, std::string_view key,
                                      std::span<const std::string_view> choices,
                                      std::string& out, NumberInGot number = NumberInGot::value);
inline std::optional<InputError> read_choice(const Value& root, std::string_view key,
                                             std::initializer_list<std::string_view> choices,
                                             std::string& out,
                                             NumberInGot number = NumberInGot::value) {
  return read_choice(root, key, std::span(choices.begin(), choices.size()), out, number);
}

// "mask": one of `choices`, by default every variant (mask_variant_names); a reader that takes
// fewer passes a list of its own (mask_names: the -infinity fill only).
std::optional<InputError> read_mask(const Value& root, std::span<const std::string_view> choices,
                                    MaskVariant& out, NumberInGot number = NumberInGot::value);
inline std::optional<InputError> read_mask(const Value& root, MaskVariant& out,
                                           NumberInGot number = NumberInGot::value) {
  return read_mask(root, mask_variant_names, out, number);
}
inline std::optional<InputError> read_mask(const Value& root,
                                           std::initializer_list<std::string_view> choices,
                                           MaskVariant& out, NumberInGot number = NumberInGot::value) {
  return read_mask(root, std::span(choices.begin(), choices.size()), out, number);
}
// "scale": one of scale_names.
std::optional<InputError> read_scale(const Value& root, ScaleKind& out,
                                     NumberInGot number = NumberInGot::value);

// Whether read_tokens checks each token's text (not empty, at most Limits::max_token_length
// bytes) or leaves that to the validation of the input it goes into.
enum class TokenText { checked, unchecked };

// "tokens": 1 to Limits::max_tokens strings; `out` keeps its default when absent.
std::optional<InputError> read_tokens(const Value& root, std::vector<std::string>& out,
                                      TokenText text = TokenText::checked,
                                      NumberInGot number = NumberInGot::value);

// A table of `rows` rows of `cols` finite numbers within ±max_abs (cols 0: any width from 1 to
// max_cols, the same for every row). Paths: "x", "x[1]", "x[1][2]".
std::optional<InputError> read_table(const Value& table, const std::string& path, std::size_t rows,
                                     std::size_t cols, std::size_t max_cols, double max_abs,
                                     const char* cols_meaning, Matrix& out);

// ---- writing ------------------------------------------------------------------------------

void write_key(std::string& out, std::string_view key);
// "key":"text", the text escaped as JSON strings are.
void write_text(std::string& out, std::string_view key, std::string_view text);
void write_matrix(std::string& out, const Matrix& m);  // non-finite entries tagged (json.h)

// [1,2.5]: each value as json::write_number writes it (9 significant digits, non-finite
// tagged as {"non_finite":...}).
template <typename Number>
void write_numbers(std::string& out, const Number* values, std::size_t count) {
  out += '[';
  for (std::size_t n = 0; n < count; ++n) {
    if (n) out += ',';
    json::write_number(out, static_cast<double>(values[n]));
  }
  out += ']';
}

template <typename Number>
void write_numbers(std::string& out, const std::vector<Number>& values) {
  write_numbers(out, values.data(), values.size());
}

void write_strings(std::string& out, const std::vector<std::string>& strings);
void write_counts(std::string& out, const std::vector<std::size_t>& values);
// Whole numbers below 2^53 in full ("671000000000"), others as the shortest decimal text that
// reads back as exactly `value`; non-finite values tagged as json::write_number does.
void write_shortest(std::string& out, double value);
void write_bool(std::string& out, bool value);

// [{...},{...}]: one object per item of `items`, its members written by write_members(item).
template <typename Items, typename WriteMembers>
void write_objects(std::string& out, const Items& items, WriteMembers write_members) {
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    out += first ? "{" : ",{";
    first = false;
    write_members(item);
    out += '}';
  }
  out += ']';
}

}  // namespace attn::json_request
