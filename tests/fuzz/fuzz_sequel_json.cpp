// Fuzz target: the sequel's JSON requests (sequel_json.h): grouped-query and latent attention
// layers, FlashAttention's tiles, the quantised KV cache and the KV-cache bill. The first byte
// picks the request, the rest is its JSON text.
//   - No crash, leak or undefined behaviour on any bytes.
//   - A refusal is one line that starts with the JSON path at fault and ": ".
//   - An answer is valid JSON (an object).
// As in fuzz_explore_json, requests whose work is beyond a small budget are read by the JSON
// reader here but not computed: the layers are legitimately slow at d_model 256 and 64 tokens,
// and the request readers are the same code at any size.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "attention/json.h"
#include "attention/sequel_json.h"
#include "fuzz_support.h"

namespace {

using attn::json::Value;
using Type = Value::Type;

// The member `key` as a number when it is one, else `otherwise` (absent: the default; another
// type: the request is refused before any work).
double number_or(const Value& root, std::string_view key, double otherwise) {
  const Value* member = root.find(key);
  if (!member) return otherwise;
  if (member->type != Type::number || !std::isfinite(member->number)) return 1.0;
  return std::fabs(member->number);
}

std::size_t rows_of(const Value* table, std::size_t otherwise) {
  return table && table->type == Type::array ? table->array.size() : otherwise;
}

std::size_t width_of(const Value* table, std::size_t otherwise) {
  if (!table || table->type != Type::array || table->array.empty() ||
      table->array[0].type != Type::array)
    return otherwise;
  return table->array[0].array.size();
}

bool too_much_work(int which, const Value& root) {
  constexpr double budget = 4e5;  // multiplications, roughly
  if (which == 4) return false;   // the bill is arithmetic on a few numbers
  const double T = static_cast<double>(std::min<std::size_t>(
      rows_of(root.find("tokens"), rows_of(root.find("q"), 4)), 64));
  double d_model = number_or(root, "d_model", static_cast<double>(width_of(root.find("x"), 16)));
  d_model = std::min(d_model, 256.0);
  if (which == 2 || which == 3) {  // one head: given q, k, v, or a seeded layer's head
    const double d = static_cast<double>(std::min<std::size_t>(width_of(root.find("q"), 16), 256));
    double bits = 4.0;
    if (const Value* list = root.find("bits"); list && list->type == Type::array)
      bits = static_cast<double>(std::min<std::size_t>(list->array.size(), 8));
    const double heads = which == 3 ? bits + 1.0 : 2.0;
    return T * d_model * d_model * 4.0 + T * T * d * heads * 4.0 + d * d * T * 4.0 > budget;
  }
  double d_latent = std::min(number_or(root, "d_latent", 8.0), 256.0);
  return T * d_model * d_model * 8.0 + T * d_model * d_latent * 4.0 + T * T * d_model * 4.0 > budget;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int which = data[0] % 5;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  const attn::json::ParseResult request = attn::json::parse(text);
  if (request.value && request.value->type == Type::object && too_much_work(which, *request.value))
    return 0;

  attn::JsonOrError result;
  switch (which) {
    case 0: result = attn::grouped_attention_json(text); break;
    case 1: result = attn::latent_attention_json(text); break;
    case 2: result = attn::flash_tiles_json(text); break;
    case 3: result = attn::quantised_cache_json(text); break;
    default: result = attn::kv_bill_json(text); break;
  }
  if (auto* error = std::get_if<attn::InputError>(&result)) {
    FUZZ_CHECK(!error->path.empty(), error->message);
    FUZZ_CHECK(error->message.rfind(error->path + ": ", 0) == 0, error->message);
    FUZZ_CHECK(error->message.find('\n') == std::string::npos, error->message);
    return 0;
  }
  FUZZ_CHECK(request.value.has_value(), "a request json::parse refuses was answered");
  const std::string& answer_text = std::get<std::string>(result);
  const attn::json::ParseResult answer = attn::json::parse(answer_text);
  FUZZ_CHECK(answer.value && answer.value->type == Type::object,
             answer.error + " in " + answer_text.substr(0, 200));
  return 0;
}
