// The vocabulary as JSON. Every default is read from where the readers take it (the option
// structs' initialisers, LayerDefaults, the article's tokens), never written out again here.
#include "attention/json/vocabulary_json.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/json/json.h"
#include "attention/layers/flash_tiles.h"
#include "attention/layers/head_dim_study.h"
#include "attention/layers/kv_bill.h"
#include "attention/layers/latent_attention.h"
#include "attention/layers/multi_head.h"
#include "attention/layers/quantised_cache.h"
#include "attention/reference/vocabulary.h"
#include "json/json_request.h"

namespace attn {

namespace {

using json_request::write_bool;
using json_request::write_counts;
using json_request::write_key;
using json_request::write_shortest;
using json_request::write_strings;
using json_request::write_text;

void write_count(std::string& out, std::string_view key, double value) {
  write_key(out, key);
  write_shortest(out, value);
}

// The defaults of a request's "mask" and "scale", as the names they are read by.
void write_mask_and_scale(std::string& out, MaskVariant mask, ScaleKind scale) {
  write_text(out, "mask", mask_variant_name(mask.mask, mask.fill));
  write_text(out, "scale", scale_name(scale));
}

void write_layer_sizes(std::string& out) {
  write_count(out, "d_model", LayerDefaults::d_model);
  write_count(out, "n_heads", LayerDefaults::n_heads);
  write_count(out, "seed", static_cast<double>(LayerDefaults::seed));
}

// The head_dims the study compares when the request names none (head_dim_study.h).
std::vector<std::size_t> default_comparison(const std::vector<std::size_t>& head_dims) {
  const auto holds = [&](std::size_t d) {
    return std::find(head_dims.begin(), head_dims.end(), d) != head_dims.end();
  };
  if (holds(4) && holds(128)) return {4, 128};
  const auto [smallest, largest] = std::minmax_element(head_dims.begin(), head_dims.end());
  return {*smallest, *largest};
}

void write_defaults(std::string& out) {
  const AttentionInput input;  // the article's attention: causal, ÷ √d_k
  const MaskVariant input_mask{input.mask, input.mask_fill};
  out += '{';
  write_key(out, "run"); out += '{';
  write_mask_and_scale(out, input_mask, input.scale);
  out += '}';
  write_key(out, "tracer"); out += '{';
  write_mask_and_scale(out, input_mask, input.scale);
  out += '}';
  write_key(out, "attend"); out += '{';
  write_text(out, "mask", mask_name(input.mask));
  out += '}';

  const MultiHeadInput multi_head;
  write_key(out, "multi_head"); out += '{';
  write_layer_sizes(out);
  write_mask_and_scale(out, {multi_head.mask, multi_head.mask_fill}, multi_head.scale);
  out += '}';
  write_key(out, "layer"); out += '{';
  write_key(out, "tokens"); write_strings(out, article::four_words().tokens);
  write_layer_sizes(out);
  write_mask_and_scale(out, {multi_head.mask, multi_head.mask_fill}, multi_head.scale);
  out += '}';
  write_key(out, "grouped_attention"); out += '{';
  write_count(out, "n_kv_heads", default_kv_heads(LayerDefaults::n_heads));
  out += '}';
  write_key(out, "latent_attention"); out += '{';
  write_count(out, "d_latent", LatentAttentionInput{}.d_latent);
  out += '}';

  const FlashTileOptions tiles;
  write_key(out, "flash_tiles"); out += '{';
  write_count(out, "head", 0);
  write_text(out, "mask", mask_name(input.mask));
  write_count(out, "block_rows", tiles.block_rows);
  write_count(out, "block_cols", tiles.block_cols);
  write_count(out, "decimals", tiles.decimals);
  out += '}';

  const QuantisedCacheOptions cache;
  write_key(out, "quantised_cache"); out += '{';
  write_count(out, "head", 0);
  write_key(out, "bits"); json_request::write_numbers(out, cache.bits);
  write_text(out, "rotation", cache.rotate ? "random" : "none");
  out += '}';

  const HeadDimStudyOptions study;
  write_key(out, "head_dim_study"); out += '{';
  write_key(out, "head_dims"); write_counts(out, study.head_dims);
  write_count(out, "tokens", study.token_count);
  write_count(out, "samples", study.samples);
  write_count(out, "seed", static_cast<double>(study.seed));
  write_text(out, "scale", scale_name(study.scale));
  write_text(out, "mask", mask_name(study.mask));
  write_key(out, "compare"); write_counts(out, default_comparison(study.head_dims));
  out += '}';

  const ModelShape bill;
  write_key(out, "kv_bill"); out += '{';
  write_count(out, "layers", bill.layers);
  write_count(out, "d_model", bill.d_model);
  write_count(out, "n_heads", bill.n_heads);
  write_count(out, "n_kv_heads", bill.n_kv_heads);
  write_count(out, "head_dim", bill.head_dim);
  write_count(out, "dtype_bytes", bill.dtype_bytes);
  write_count(out, "scale_bytes", bill.scale_bytes);
  write_count(out, "weight_dtype_bytes", bill.weight_dtype_bytes);
  write_count(out, "context_length", bill.context_length);
  write_count(out, "batch", bill.batch);
  write_count(out, "gpu_memory_gib", bill.gpu_memory_gib);
  out += '}';
  out += '}';
}

}  // namespace

std::string vocabulary_json() {
  std::string out = "{";
  write_key(out, "masks");
  json_request::write_objects(out, mask_variant_terms(), [&](const MaskVariantTerm& term) {
    write_text(out, "name", mask_variant_name(term.variant.mask, term.variant.fill));
    write_text(out, "label", term.label);
    write_text(out, "description", term.description);
    write_key(out, "hides_later_words"); write_bool(out, term.variant.mask == MaskKind::causal);
    write_text(out, "hidden_score", term.variant.fill == MaskFill::zero ? "0" : "-Infinity");
    write_key(out, "kernels"); write_bool(out, kernels_compute(term.variant));
  });
  write_key(out, "scales");
  json_request::write_objects(out, scale_terms(), [&](const ScaleTerm& term) {
    write_text(out, "name", scale_name(term.scale));
    write_text(out, "divisor", term.divisor);
    write_text(out, "label", term.label);
    write_text(out, "description", term.description);
  });
  write_key(out, "defaults"); write_defaults(out);
  write_key(out, "limits"); out += '{';
  write_count(out, "max_tokens", Limits::max_tokens);
  write_count(out, "max_head_dim", Limits::max_head_dim);
  write_count(out, "max_abs_value", Limits::max_abs_value);
  write_count(out, "max_token_bytes", Limits::max_token_length);
  write_count(out, "max_d_model", MultiHeadLimits::max_d_model);
  out += '}';
  out += '}';
  return out;
}

}  // namespace attn
