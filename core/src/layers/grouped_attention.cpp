// MHA, GQA and MQA in one layer: project K and V once per K/V head, Q once per query head, run
// the reference trace for each query head on its group's K and V, concatenate, apply W_O.
#include "attention/layers/grouped_attention.h"

#include <string>

#include "attention/reference/seeded_random.h"
#include "layers/layer_tables.h"

namespace attn {

// The multi-head layer's streams and tables (layer_tables.h), so equal shapes give equal tables.
using namespace layer_tables;

std::string_view grouped_variant_name(std::size_t n_heads, std::size_t n_kv_heads) {
  if (n_kv_heads == n_heads) return "MHA";
  if (n_kv_heads == 1) return "MQA";
  return "GQA";
}

std::size_t kv_head_of(std::size_t query_head, std::size_t n_heads, std::size_t n_kv_heads) {
  return query_head / (n_heads / n_kv_heads);
}

GroupedAttentionInput seeded_grouped_input(std::vector<std::string> tokens, std::size_t d_model,
                                           std::size_t n_heads, std::size_t n_kv_heads,
                                           std::uint64_t seed) {
  GroupedAttentionInput input;
  const std::size_t head_dim = seed_shared_tables(input, std::move(tokens), d_model, n_heads, seed);
  input.n_kv_heads = n_kv_heads;
  const UniformGrid grid = weight_grid(d_model);
  input.w_k = seeded_tables(seed, w_k_stream, n_kv_heads, d_model, head_dim, grid);
  input.w_v = seeded_tables(seed, w_v_stream, n_kv_heads, d_model, head_dim, grid);
  return input;
}

std::optional<InputError> validate_grouping(std::size_t n_heads, std::size_t n_kv_heads) {
  if (n_heads == 0) return make_input_error("n_heads", "must be at least 1");
  if (n_kv_heads == 0) return make_input_error("n_kv_heads", "must be at least 1");
  if (n_kv_heads > n_heads || n_heads % n_kv_heads != 0)
    return make_input_error("n_kv_heads", "must divide n_heads (" + std::to_string(n_heads) +
                                              ") into groups of equal size; " +
                                              std::to_string(n_kv_heads) + " does not");
  return std::nullopt;
}

std::optional<InputError> validate_grouped_input(const GroupedAttentionInput& input) {
  if (auto error = check_tokens(input.tokens)) return error;
  const std::size_t T = input.tokens.size();
  if (auto error = check_token_vectors(input.x, T)) return error;
  const std::size_t d_model = input.x.cols;
  if (auto error = check_head_split(d_model, input.n_heads)) return error;
  if (auto error = validate_grouping(input.n_heads, input.n_kv_heads)) return error;
  const std::size_t head_dim = d_model / input.n_heads;
  if (auto error = check_tables("w_q", input.w_q, input.n_heads, "query head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  if (auto error = check_tables("w_k", input.w_k, input.n_kv_heads, "K/V head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  if (auto error = check_tables("w_v", input.w_v, input.n_kv_heads, "K/V head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  return check_table("w_o", input.w_o, d_model, d_model, "d_model × d_model");
}

GroupedAttentionLayer compute_grouped_attention(const GroupedAttentionInput& input) {
  GroupedAttentionLayer layer;
  copy_shape(layer, input);
  layer.n_kv_heads = input.n_kv_heads;
  layer.group_size = input.group_size();

  // Pass 1: each K/V head projects the tokens once; this K and V are all the cache keeps.
  for (std::size_t g = 0; g < input.n_kv_heads; ++g) {
    KvHeadOfLayer kv;
    kv.w_k = input.w_k[g];
    kv.w_v = input.w_v[g];
    kv.k = multiply(input.x, input.w_k[g]);  // [T][head_dim]
    kv.v = multiply(input.x, input.w_v[g]);  // [T][head_dim]
    layer.kv_heads.push_back(std::move(kv));
  }

  // Pass 2: each query head projects its own Q and attends with its group's K and V.
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    const std::size_t g = kv_head_of(h, input.n_heads, input.n_kv_heads);
    KvHeadOfLayer& kv = layer.kv_heads[g];
    kv.query_heads.push_back(h);
    // Q: [T][head_dim]; K and V: [T][head_dim], shared by the group.
    Trace trace = head_trace(input, multiply(input.x, input.w_q[h]), kv.k, kv.v);
    layer.heads.push_back(QueryHeadOfLayer{g, input.w_q[h], std::move(trace)});
  }

  // Pass 3: the query heads' outputs side by side, head 0's columns first; pass 4: W_O mixes
  // what the heads found.
  concat_and_mix(layer, input.w_o);
  return layer;
}

}  // namespace attn
