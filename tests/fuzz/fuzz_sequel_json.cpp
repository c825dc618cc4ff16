// Fuzz target: the sequel's JSON requests (sequel_json.h): grouped-query and latent attention
// layers, FlashAttention's tiles and traffic, the quantised KV cache and the KV-cache bill. The first byte
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

#include "attention/json/json.h"
#include "attention/json/sequel_json.h"
#include "fuzz_json_exchange.h"
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
  if (which >= 4) return false;   // the bills are arithmetic on a few numbers (at most 2^20
                                  // query blocks for the traffic)
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
  static constexpr attn_fuzz::JsonEntryPoint entry_points[] = {
      attn::grouped_attention_json, attn::latent_attention_json, attn::flash_tiles_json,
      attn::quantised_cache_json, attn::kv_bill_json, attn::flash_traffic_json};
  const auto exchange = attn_fuzz::exchange_json(data, size, entry_points, too_much_work);
  if (!exchange) return 0;
  FUZZ_CHECK(exchange->answer.type == Type::object, exchange->answer_text.substr(0, 200));
  return 0;
}
