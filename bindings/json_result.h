// What a fallible binding returns to JS: the JSON answer, or the core's one-line error (which
// starts with the JSON path at fault). One definition for every binding file; its Embind
// value_object is registered once, in attention_bindings.cpp.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "attention/reference/attention_input.h"

namespace attn::bindings {

struct JsonResult {
  bool ok = false;
  std::string json;   // when ok
  std::string error;  // when not ok: one line, starting with the JSON path at fault
};

inline JsonResult success(std::string json) { return JsonResult{true, std::move(json), {}}; }
inline JsonResult failure(const InputError& error) { return JsonResult{false, {}, error.message}; }

// A core call's JSON answer or its error.
inline JsonResult from_json_or_error(const std::variant<std::string, InputError>& result) {
  if (const auto* error = std::get_if<InputError>(&result)) return failure(*error);
  return success(std::get<std::string>(result));
}

}  // namespace attn::bindings
