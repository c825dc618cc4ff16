// Multi-head latent attention (MLA) as JSON: the request's members and the layer's answer
// (sequel_json.h). The arithmetic is latent_attention.cpp's.
#include <string>

#include "attention/json/json_io.h"
#include "attention/json/sequel_json.h"
#include "json/request_fields.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;

namespace {

constexpr const char* latent_positional_note =
    "left out: the toy has no positional encoding, so its cache is the latent alone; the "
    "published models also cache a small decoupled RoPE key per token (rope_dim, counted in "
    "the bill)";

}  // namespace

std::string latent_attention_to_json(const LatentAttentionLayer& layer, std::uint64_t seed) {
  std::string out = "{";
  write_text(out, "variant", "MLA");
  write_key(out, "tokens"); write_strings(out, layer.tokens);
  write_count(out, "d_model", layer.d_model);
  write_count(out, "n_heads", layer.n_heads);
  write_count(out, "head_dim", layer.head_dim);
  write_count(out, "d_latent", layer.d_latent);
  write_seed(out, seed);
  write_mask_and_scale(out, layer.heads.front().trace);
  write_text(out, "positional_encoding", latent_positional_note);
  write_key(out, "x"); write_matrix(out, layer.x);
  write_key(out, "w_dkv"); write_matrix(out, layer.w_dkv);
  write_key(out, "latent"); write_matrix(out, layer.latent);
  write_key(out, "heads");
  write_objects(out, layer.heads, [&](const LatentHeadOfLayer& head) {
    write_key(out, "w_q"); write_matrix(out, head.w_q);
    write_key(out, "w_uk"); write_matrix(out, head.w_uk);
    write_key(out, "w_uv"); write_matrix(out, head.w_uv);
    write_key(out, "trace"); out += trace_to_json(head.trace);
  });
  write_output_and_bill(
      out, layer, toy_latent_shape(layer.d_model, layer.n_heads, layer.d_latent, layer.tokens.size()));
  return out;
}

JsonOrError latent_attention_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "d_latent", "seed", "x",
                                        "mask", "scale"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  LayerBasics basics = default_basics();
  if (auto error = read_layer_basics(root, LatentAttentionLimits::max_abs_value, basics,
                                     mask_variant_names, true))
    return *error;
  std::size_t d_latent = 0;
  const Field fields[] = {
      {"d_latent", count_in(1, LatentAttentionLimits::max_d_latent), &d_latent, 8.0},
  };
  if (auto error = read_fields(root, fields)) return *error;

  LatentAttentionInput input =
      seeded_latent_input(basics.tokens, basics.d_model, basics.n_heads, d_latent, basics.seed);
  apply_basics(basics, input);
  if (auto error = validate_latent_input(input)) return *error;
  return latent_attention_to_json(compute_latent_attention(input), basics.seed);
}

}  // namespace attn
