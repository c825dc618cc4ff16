// Grouped-query attention (MHA, GQA, MQA) as JSON: the request's members and the layer's answer
// (sequel_json.h). The arithmetic is grouped_attention.cpp's.
#include <string>

#include "attention/json/json_io.h"
#include "attention/json/sequel_json.h"
#include "attention/layers/multi_head.h"
#include "attention/reference/vocabulary.h"
#include "json/request_fields.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;

std::string grouped_attention_to_json(const GroupedAttentionLayer& layer, std::uint64_t seed) {
  std::string out = "{";
  write_text(out, "variant", grouped_variant_name(layer.n_heads, layer.n_kv_heads));
  write_key(out, "tokens"); write_strings(out, layer.tokens);
  write_count(out, "d_model", layer.d_model);
  write_count(out, "n_heads", layer.n_heads);
  write_count(out, "n_kv_heads", layer.n_kv_heads);
  write_count(out, "head_dim", layer.head_dim);
  write_count(out, "group_size", layer.group_size);
  write_seed(out, seed);
  write_mask_and_scale(out, layer.heads.front().trace);
  write_key(out, "x"); write_matrix(out, layer.x);
  write_key(out, "kv_heads");
  write_objects(out, layer.kv_heads, [&](const KvHeadOfLayer& kv) {
    write_key(out, "w_k"); write_matrix(out, kv.w_k);
    write_key(out, "w_v"); write_matrix(out, kv.w_v);
    write_key(out, "k"); write_matrix(out, kv.k);
    write_key(out, "v"); write_matrix(out, kv.v);
    write_key(out, "query_heads"); write_counts(out, kv.query_heads);
  });
  write_key(out, "heads");
  write_objects(out, layer.heads, [&](const QueryHeadOfLayer& head) {
    write_count(out, "kv_head", head.kv_head);
    write_key(out, "w_q"); write_matrix(out, head.w_q);
    write_key(out, "trace"); out += trace_to_json(head.trace);
  });
  write_output_and_bill(
      out, layer, toy_grouped_shape(layer.d_model, layer.n_heads, layer.n_kv_heads, layer.tokens.size()));
  return out;
}

JsonOrError grouped_attention_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "n_kv_heads", "seed", "x",
                                        "mask", "scale"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  LayerBasics basics = default_basics();
  if (auto error = read_layer_basics(root, MultiHeadLimits::max_abs_value, basics,
                                     mask_variant_names, true))
    return *error;
  std::size_t n_kv_heads = 0;
  const Field fields[] = {
      // Groups of two query heads by default (MHA when n_heads is odd).
      {"n_kv_heads", count_in(1, MultiHeadLimits::max_d_model), &n_kv_heads,
       static_cast<double>(default_kv_heads(basics.n_heads))},
  };
  if (auto error = read_fields(root, fields)) return *error;
  if (auto error = validate_grouping(basics.n_heads, n_kv_heads)) return *error;

  GroupedAttentionInput input =
      seeded_grouped_input(basics.tokens, basics.d_model, basics.n_heads, n_kv_heads, basics.seed);
  apply_basics(basics, input);
  if (auto error = validate_grouped_input(input)) return *error;
  return grouped_attention_to_json(compute_grouped_attention(input), basics.seed);
}

}  // namespace attn
