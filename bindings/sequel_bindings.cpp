// Embind glue for the sequel's computations (grouped-query and latent attention, FlashAttention
// tiles and its traffic, the quantised KV cache, the KV-cache bill): JSON strings in and out, errors as values
// (JsonResult, registered in attention_bindings.cpp). Reading, checking and arithmetic all live
// in the core (sequel_json.h).
#include <emscripten/bind.h>

#include <string>

#include "attention/json/sequel_json.h"
#include "json_result.h"

namespace {

using attn::bindings::JsonResult;
using attn::bindings::from_json_or_error;

JsonResult grouped_attention(const std::string& request) {
  return from_json_or_error(attn::grouped_attention_json(request));
}

JsonResult latent_attention(const std::string& request) {
  return from_json_or_error(attn::latent_attention_json(request));
}

JsonResult flash_tiles(const std::string& request) {
  return from_json_or_error(attn::flash_tiles_json(request));
}

JsonResult flash_traffic(const std::string& request) {
  return from_json_or_error(attn::flash_traffic_json(request));
}

JsonResult quantised_cache(const std::string& request) {
  return from_json_or_error(attn::quantised_cache_json(request));
}

JsonResult kv_bill(const std::string& request) {
  return from_json_or_error(attn::kv_bill_json(request));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_sequel) {
  emscripten::function("groupedAttentionJson", &grouped_attention);
  emscripten::function("latentAttentionJson", &latent_attention);
  emscripten::function("flashTilesJson", &flash_tiles);
  emscripten::function("flashTrafficJson", &flash_traffic);
  emscripten::function("quantisedCacheJson", &quantised_cache);
  emscripten::function("kvBillJson", &kv_bill);
  emscripten::function("modelPresetsJson", &attn::model_presets_to_json);
}
