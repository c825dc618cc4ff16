// MHA, GQA and MQA in one layer: project K and V once per K/V head, Q once per query head, run
// the reference trace for each query head on its group's K and V, concatenate, apply W_O.
#include "attention/grouped_attention.h"

#include <string>

#include "attention/seeded_random.h"
#include "layer_tables.h"

namespace attn {

namespace {

// The multi-head layer's streams (multi_head.cpp), so equal shapes give equal tables.
constexpr std::uint64_t w_q_stream = 11;
constexpr std::uint64_t w_k_stream = 12;
constexpr std::uint64_t w_v_stream = 13;
constexpr std::uint64_t w_o_stream = 14;

using layer_tables::multiply;

}  // namespace

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
  input.n_heads = n_heads;
  input.n_kv_heads = n_kv_heads;
  input.x = seeded_token_vectors(tokens.size(), d_model, seed);
  input.tokens = std::move(tokens);
  const std::size_t head_dim = n_heads == 0 ? 0 : d_model / n_heads;
  const double bound = layer_tables::weight_bound(d_model);
  const UniformGrid grid{-bound, bound, 2};
  for (std::size_t h = 0; h < n_heads; ++h)
    input.w_q.push_back(random_grid_matrix(derive_seed(seed, w_q_stream, h), d_model, head_dim, grid));
  for (std::size_t g = 0; g < n_kv_heads; ++g) {
    input.w_k.push_back(random_grid_matrix(derive_seed(seed, w_k_stream, g), d_model, head_dim, grid));
    input.w_v.push_back(random_grid_matrix(derive_seed(seed, w_v_stream, g), d_model, head_dim, grid));
  }
  input.w_o = random_grid_matrix(derive_seed(seed, w_o_stream), d_model, d_model, grid);
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
  if (auto error = layer_tables::check_tokens(input.tokens)) return error;
  const std::size_t T = input.tokens.size();
  if (auto error = layer_tables::check_token_vectors(input.x, T)) return error;
  const std::size_t d_model = input.x.cols;
  if (input.n_heads == 0) return make_input_error("n_heads", "must be at least 1");
  if (d_model % input.n_heads != 0)
    return make_input_error("n_heads", "must divide d_model " + std::to_string(d_model) +
                                           " into heads of equal size (" +
                                           std::to_string(input.n_heads) + " does not)");
  if (auto error = validate_grouping(input.n_heads, input.n_kv_heads)) return error;
  const std::size_t head_dim = d_model / input.n_heads;
  using layer_tables::check_tables;
  if (auto error = check_tables("w_q", input.w_q, input.n_heads, "query head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  if (auto error = check_tables("w_k", input.w_k, input.n_kv_heads, "K/V head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  if (auto error = check_tables("w_v", input.w_v, input.n_kv_heads, "K/V head", d_model, head_dim,
                                "d_model × head_dim"))
    return error;
  return layer_tables::check_table("w_o", input.w_o, d_model, d_model, "d_model × d_model");
}

GroupedAttentionLayer compute_grouped_attention(const GroupedAttentionInput& input) {
  const std::size_t T = input.tokens.size();
  GroupedAttentionLayer layer;
  layer.tokens = input.tokens;
  layer.d_model = input.d_model();
  layer.n_heads = input.n_heads;
  layer.n_kv_heads = input.n_kv_heads;
  layer.head_dim = input.head_dim();
  layer.group_size = input.group_size();
  layer.x = input.x;
  layer.w_o = input.w_o;

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
    layer.kv_heads[g].query_heads.push_back(h);
    AttentionInput head_input;
    head_input.tokens = input.tokens;
    head_input.q = multiply(input.x, input.w_q[h]);  // [T][head_dim]
    head_input.k = layer.kv_heads[g].k;              // [T][head_dim], shared by the group
    head_input.v = layer.kv_heads[g].v;              // [T][head_dim], shared by the group
    head_input.mask = input.mask;
    head_input.mask_fill = input.mask_fill;
    head_input.scale = input.scale;
    layer.heads.push_back(QueryHeadOfLayer{g, input.w_q[h], compute_trace(head_input)});
  }

  // Pass 3: the query heads' outputs side by side, head 0's columns first.
  layer.concat = Matrix(T, layer.d_model);
  for (std::size_t h = 0; h < input.n_heads; ++h)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < layer.head_dim; ++c)
        layer.concat.at(t, h * layer.head_dim + c) = layer.heads[h].trace.out.at(t, c);

  // Pass 4: W_O mixes what the heads found.
  layer.out = multiply(layer.concat, input.w_o);  // [T][d_model]
  return layer;
}

}  // namespace attn
