// The table-driven request reader.
#include "json/request_fields.h"

#include <cmath>
#include <string>
#include <type_traits>

#include "json/decimal_text.h"

namespace attn::json_request {

namespace {

using Type = Value::Type;

// ", or null for ..." when the field takes null, then ", got ...".
std::string refusal_tail(const Field& field, const Value& value) {
  std::string tail;
  if (field.null_means) tail += ", or " + std::string(field.null_described);
  return tail + ", " + got(value);
}

// The rule's check of one value; the message when it is refused.
std::optional<std::string> refusal(const Field& field, const Value& value) {
  const bool number = value.type == Type::number && std::isfinite(value.number);
  if (const auto* whole = std::get_if<WholeIn>(&field.rule)) {
    const bool inside = number && std::floor(value.number) == value.number &&
                        value.number >= whole->lowest && value.number <= whole->highest;
    if (inside) return std::nullopt;
    return "must be a whole number from " + json::format_general(whole->lowest, 17) + " to " +
           json::format_general(whole->highest, 17) + refusal_tail(field, value);
  }
  if (const auto* range = std::get_if<NumberIn>(&field.rule)) {
    const bool inside = number &&
                        (range->lowest_open ? value.number > range->lowest
                                            : value.number >= range->lowest) &&
                        value.number <= range->highest;
    if (inside) return std::nullopt;
    return std::string("must be a number ") + (range->lowest_open ? "above " : "from ") +
           json::format_general(range->lowest, 17) + " and at most " +
           json::format_general(range->highest, 17) + refusal_tail(field, value);
  }
  const OneOf& one_of = std::get<OneOf>(field.rule);
  if (number)
    for (double allowed : one_of.values)
      if (value.number == allowed) return std::nullopt;
  return "must be " + std::string(one_of.described) + refusal_tail(field, value);
}

void store(const FieldTarget& target, double value) {
  std::visit([value](auto* out) {
    using Out = std::remove_pointer_t<decltype(out)>;
    if constexpr (std::is_same_v<Out, std::optional<std::size_t>>)
      *out = static_cast<std::size_t>(value);
    else
      *out = static_cast<Out>(value);
  }, target);
}

void store_null(const Field& field) {
  // An optional target is emptied whatever null_means says.
  if (auto* optional = std::get_if<std::optional<std::size_t>*>(&field.target))
    (*optional)->reset();
  else
    store(field.target, *field.null_means);
}

}  // namespace

std::optional<InputError> read_fields(const Value& root, std::span<const Field> fields) {
  for (const Field& field : fields) {
    const Value* member = root.find(field.name);
    if (!member) {
      if (field.fallback) store(field.target, *field.fallback);
      continue;
    }
    if (member->type == Type::null && field.null_means) {
      store_null(field);
      continue;
    }
    if (auto message = refusal(field, *member))
      return make_input_error(std::string(field.name), *message);
    store(field.target, member->number);
  }
  return std::nullopt;
}

}  // namespace attn::json_request
