// Requests read from a table: one row per member, with its name, what it may hold, its default
// and the member of the request it fills. The rows are read in order and the first refusal is
// returned, with json_request's messages ("layers: must be a whole number from 1 to 1024, got
// 2000"); members a table cannot describe (tokens, tables, seeds) are read by hand around it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <variant>

#include "json/json_request.h"

namespace attn::json_request {

// A whole number in [lowest, highest].
struct WholeIn {
  double lowest = 0, highest = 0;
};

// A finite number above (lowest_open) or from `lowest`, and at most `highest`.
struct NumberIn {
  double lowest = 0;
  bool lowest_open = false;
  double highest = 0;
};

// One of a few numbers, listed in a message as `described` ("1 (8-bit), 2 ... or 4 (float32)").
struct OneOf {
  std::span<const double> values;
  std::string_view described;
};

using FieldRule = std::variant<WholeIn, NumberIn, OneOf>;

// The bytes a stored or moved number takes, as the bill and the traffic count read them.
inline constexpr double kDtypeBytesValues[] = {1, 2, 4};
inline constexpr OneOf kDtypeBytes{kDtypeBytesValues, "1 (8-bit), 2 (float16 or bfloat16) or 4 (float32)"};

// Where the number goes. An optional is emptied by null (when the field allows null).
using FieldTarget =
    std::variant<std::size_t*, double*, int*, std::optional<std::size_t>*>;

struct Field {
  std::string_view name;
  FieldRule rule;
  FieldTarget target;
  // The target's value when the member is absent; nullopt keeps what the target holds (the
  // request struct's default, or a preset's figure).
  std::optional<double> fallback = std::nullopt;
  // When set, null is accepted: the target gets null_means (an optional target is emptied), and
  // a refusal says "or <null_described>" ("null for an unquantised cache").
  std::optional<double> null_means = std::nullopt;
  std::string_view null_described = {};
};

// A count: a whole number from lowest to highest.
inline WholeIn count_in(std::size_t lowest, std::size_t highest) {
  return WholeIn{static_cast<double>(lowest), static_cast<double>(highest)};
}

// Every row of `fields`, in order.
std::optional<InputError> read_fields(const Value& root, std::span<const Field> fields);

}  // namespace attn::json_request
