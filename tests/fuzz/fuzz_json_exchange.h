// What the JSON fuzz targets (explore, sequel) share. A fuzz input is a request to one of several
// JSON entry points: its first byte picks the entry point, the rest is the request's text.
// exchange_json runs it (unless the request asks for more work than one fuzz input should take),
// checks a refusal (one line, starting with the path at fault) and that whatever was answered
// was a request json::parse accepts, and hands back the parsed request and answer for the
// target's own checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "attention/json/explore_json.h"
#include "attention/json/json.h"
#include "fuzz_support.h"

namespace attn_fuzz {

using JsonEntryPoint = attn::JsonOrError (*)(std::string_view request);

struct JsonExchange {
  std::size_t which;            // the entry point's index
  attn::json::Value request;    // as json::parse reads it
  std::string answer_text;
  attn::json::Value answer;     // the answer, parsed
};

// nullopt when the input is empty, too much work, or refused (the refusal checked).
template <std::size_t N>
std::optional<JsonExchange> exchange_json(const std::uint8_t* data, std::size_t size,
                                          const JsonEntryPoint (&entry_points)[N],
                                          bool (*too_much_work)(int which,
                                                                const attn::json::Value& root)) {
  if (size < 1) return std::nullopt;
  const std::size_t which = data[0] % N;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  const attn::json::ParseResult request = attn::json::parse(text);
  if (request.value && request.value->type == attn::json::Value::Type::object &&
      too_much_work(static_cast<int>(which), *request.value))
    return std::nullopt;

  attn::JsonOrError result = entry_points[which](text);
  if (const auto* error = std::get_if<attn::InputError>(&result)) {
    FUZZ_CHECK(!error->path.empty(), error->message);
    FUZZ_CHECK(error->message.rfind(error->path + ": ", 0) == 0, error->message);
    FUZZ_CHECK(error->message.find('\n') == std::string::npos, error->message);
    return std::nullopt;
  }
  FUZZ_CHECK(request.value.has_value(), "a request json::parse refuses was answered");
  std::string answer_text = std::move(std::get<std::string>(result));
  attn::json::ParseResult answer = attn::json::parse(answer_text);
  FUZZ_CHECK(answer.value.has_value(), answer.error + " in " + answer_text.substr(0, 200));
  return JsonExchange{which, std::move(*request.value), std::move(answer_text),
                      std::move(*answer.value)};
}

}  // namespace attn_fuzz
