// Multi-head attention with fewer key/value heads than query heads, the family that shrinks
// the KV cache by sharing:
//   MHA (multi-head):    n_kv_heads = n_heads, every query head has its own K and V;
//   GQA (grouped-query): n_kv_heads divides n_heads, and each group of
//                        group_size = n_heads / n_kv_heads consecutive query heads shares one
//                        K/V head (query head h uses K/V head h / group_size);
//   MQA (multi-query):   n_kv_heads = 1, all query heads share one K and one V.
// Only K and V are cached while generating, so the cache holds 2 · n_kv_heads · head_dim
// numbers per token and layer; the queries, and so the attention each head computes, are
// as many as in MHA. Each query head runs the walkthrough's one-head attention (compute_trace)
// on its own Q and its group's K and V, and keeps its full trace.
//
// Positional encoding (RoPE in the models the presets describe) is left out, as everywhere in
// this core: it changes the numbers of Q and K, not the bookkeeping shown here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"

namespace attn {

struct GroupedAttentionInput {
  std::vector<std::string> tokens;  // [T]
  std::size_t n_heads = 4;          // query heads
  std::size_t n_kv_heads = 2;       // key/value heads; divides n_heads
  Matrix x;                         // [T][d_model] one vector per token
  std::vector<Matrix> w_q;          // [n_heads] of [d_model][head_dim]
  std::vector<Matrix> w_k;          // [n_kv_heads] of [d_model][head_dim]
  std::vector<Matrix> w_v;          // [n_kv_heads] of [d_model][head_dim]
  Matrix w_o;                       // [d_model][d_model] (n_heads · head_dim = d_model rows)
  MaskKind mask = MaskKind::causal;
  MaskFill mask_fill = MaskFill::minus_infinity;
  ScaleKind scale = ScaleKind::sqrt_head_dim;

  std::size_t d_model() const { return x.cols; }
  std::size_t head_dim() const { return n_heads == 0 ? 0 : x.cols / n_heads; }
  std::size_t group_size() const { return n_kv_heads == 0 ? 0 : n_heads / n_kv_heads; }
};

// "MHA" when n_kv_heads = n_heads, "MQA" when n_kv_heads = 1 (and n_heads > 1), else "GQA".
std::string_view grouped_variant_name(std::size_t n_heads, std::size_t n_kv_heads);

// The K/V head that query head `query_head` reads: query_head / (n_heads / n_kv_heads).
std::size_t kv_head_of(std::size_t query_head, std::size_t n_heads, std::size_t n_kv_heads);

struct KvHeadOfLayer {
  Matrix w_k;                            // [d_model][head_dim]
  Matrix w_v;                            // [d_model][head_dim]
  Matrix k;                              // [T][head_dim] x · w_k: what the cache keeps
  Matrix v;                              // [T][head_dim] x · w_v: what the cache keeps
  std::vector<std::size_t> query_heads;  // the query heads that read this K and V
};

struct QueryHeadOfLayer {
  std::size_t kv_head = 0;  // index into GroupedAttentionLayer::kv_heads
  Matrix w_q;               // [d_model][head_dim]
  Trace trace;              // trace.q = x · w_q; trace.k, trace.v = its K/V head's k, v
};

struct GroupedAttentionLayer {
  std::vector<std::string> tokens;  // [T]
  std::size_t d_model = 0;
  std::size_t n_heads = 0;
  std::size_t n_kv_heads = 0;
  std::size_t head_dim = 0;
  std::size_t group_size = 0;       // query heads per K/V head
  Matrix x;                         // [T][d_model]
  std::vector<KvHeadOfLayer> kv_heads;     // [n_kv_heads]
  std::vector<QueryHeadOfLayer> heads;     // [n_heads]
  Matrix concat;                    // [T][d_model] concat[t][h · head_dim + c] = heads[h].trace.out[t][c]
  Matrix w_o;                       // [d_model][d_model]
  Matrix out;                       // [T][d_model] concat · w_o
};

// Seeded token vectors and weights with the very streams of seeded_multi_head_input
// (multi_head.h): x from derive_seed(seed, 10), W_Q of query head h from (seed, 11, h), W_K and
// W_V of K/V head g from (seed, 12, g) and (seed, 13, g), W_O from (seed, 14). So with
// n_kv_heads = n_heads the tables are exactly the multi-head layer's, and MQA's one K/V head is
// MHA's head 0.
// Precondition: 1 <= n_kv_heads <= n_heads, d_model divisible by n_heads.
GroupedAttentionInput seeded_grouped_input(std::vector<std::string> tokens, std::size_t d_model,
                                           std::size_t n_heads, std::size_t n_kv_heads,
                                           std::uint64_t seed);

// n_kv_heads divides n_heads: "n_kv_heads: must divide n_heads (4) into groups of equal size;
// 3 does not" (or "n_heads: must be at least 1", "n_kv_heads: must be at least 1").
std::optional<InputError> validate_grouping(std::size_t n_heads, std::size_t n_kv_heads);

// Shapes, limits and values. Paths: "tokens[1]", "x[2][5]", "n_heads", "n_kv_heads" (for
// example "n_kv_heads: must divide n_heads (4) ..."), "w_q[1][3][0]", "w_k[0]", "w_o[4][7]".
std::optional<InputError> validate_grouped_input(const GroupedAttentionInput& input);

// Precondition: validate_grouped_input(input) returned nothing.
GroupedAttentionLayer compute_grouped_attention(const GroupedAttentionInput& input);

}  // namespace attn
