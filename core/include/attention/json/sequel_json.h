// JSON in and out for the sequel's computations: grouped-query (MHA, GQA, MQA) and latent (MLA)
// attention layers, FlashAttention's tiles and its bill in bytes moved, the quantised KV cache,
// and the KV-cache bill with its model presets. One source file per request in core/src/json
// (grouped_json.cpp, latent_json.cpp, flash_json.cpp, flash_traffic_json.cpp,
// quantised_json.cpp, kv_bill_json.cpp). Shared by the wasm module and the tests, so every caller gets the same
// checks and messages, each starting with the JSON path at fault ("n_kv_heads: must divide
// n_heads (4) into groups of equal size; 3 does not").
//
// Every request is a JSON object whose members are all optional; members not listed are
// refused. The defaults are the article's four tokens "the cat sat on" with d_model 16 and
// seed 1. Seeds are whole numbers from 0 to 2^53 - 1. Matrices are arrays of rows. Numbers are
// written with 9 significant digits (byte counts and parameter counts exactly); -infinity
// (masked scores, a running max before the first tile) is written as null.
//
// The layer requests share these members:
//   "tokens": ["the", "cat", "sat", "on"]   1 to 64 non-empty strings
//   "d_model": 16                           1 to 256 (x's width when x is given without it)
//   "n_heads": 4                            divides d_model
//   "seed": 1                               seeds x (when absent) and every weight table
//   "x": [[...], ...]                       T × d_model token vectors (optional)
//   "mask": "causal" | "none" | "causal_zero",  "scale": "sqrt_d" | "d" | "none"
// A trace is written as trace_to_json writes it (json_io.h). A "bill" is kv_bill_to_json's
// object for the toy layer (one layer, float32, context = the tokens, batch 1, 80 GiB).
#pragma once

#include <string>
#include <string_view>

#include "attention/json/explore_json.h"
#include "attention/layers/flash_tiles.h"
#include "attention/layers/flash_traffic.h"
#include "attention/layers/grouped_attention.h"
#include "attention/layers/kv_bill.h"
#include "attention/layers/latent_attention.h"
#include "attention/layers/quantised_cache.h"

namespace attn {

// Request: the layer members plus "n_kv_heads" (divides n_heads; n_heads for MHA, 1 for MQA;
// by default n_heads / 2, groups of two, or n_heads when n_heads is odd).
// Answer: {"variant": "MHA" | "GQA" | "MQA", "tokens", "d_model", "n_heads", "n_kv_heads",
//   "head_dim", "group_size", "seed", "mask", "scale", "x",
//   "kv_heads": [{"w_k", "w_v", "k", "v", "query_heads": [h, ...]}]   (k, v: what is cached),
//   "heads": [{"kv_head", "w_q", "trace"}], "concat", "w_o", "out", "bill"}.
JsonOrError grouped_attention_json(std::string_view request);
std::string grouped_attention_to_json(const GroupedAttentionLayer& layer, std::uint64_t seed);

// Request: the layer members plus "d_latent": 8 (1 to 256); values of x within ±1e3.
// Answer: {"variant": "MLA", "tokens", "d_model", "n_heads", "head_dim", "d_latent", "seed",
//   "mask", "scale", "positional_encoding": a sentence saying it is left out,
//   "x", "w_dkv", "latent" (T × d_latent: the cache),
//   "heads": [{"w_q", "w_uk", "w_uv", "trace"}]   (trace.k = latent · w_uk, trace.v = latent · w_uv),
//   "concat", "w_o", "out", "bill"}.
JsonOrError latent_attention_json(std::string_view request);
std::string latent_attention_to_json(const LatentAttentionLayer& layer, std::uint64_t seed);

// One head's q, k, v for the next two calls: either given,
//   "q", "k", "v": T × d tables (d <= 256, values within ±1e15; then d_model, n_heads, x and
//                  head are refused),
// or head "head" (0 by default) of the seeded multi-head layer (multi_head.h) made from the
// layer members: q = x · W_Q[head], k = x · W_K[head], v = x · W_V[head].
// The answer's "source" says which: {"kind": "seeded_head", "d_model", "n_heads", "head",
// "seed"} or {"kind": "given"}.

// Request: the head's members, "mask": "causal" | "none", "block_rows": 2, "block_cols": 2
// (1 to T), "decimals": 4 (0 to 8).
// Answer: {"tokens", "mask", "token_count", "head_dim", "block_rows", "block_cols",
//   "query_tiles", "key_tiles", "scale_divisor", "source", "q", "k", "v",
//   "steps": [{"query_tile", "key_tile", "row_begin", "row_end", "col_begin", "col_end"
//              (end exclusive), "skipped", "partly_masked", and, null when skipped:
//              "scores", "tile_max", "max_before", "max_after", "rescale", "exponentials",
//              "sum_before", "sum_after", "partial_out"}],
//   "computed_tiles", "skipped_tiles", "row_max", "row_sum", "out", "untiled_out",
//   "max_abs_difference", "decimals", "agrees_to_decimals"}.
JsonOrError flash_tiles_json(std::string_view request);

// FlashAttention's bill in bytes moved, a request of its own (it takes a shape, not tables, and
// runs to T = 2^20 where flash_tiles_json traces every number of a toy): flash_traffic.h.
// Request (every member optional; the defaults are the toy's: 4 tokens, head_dim 4, float32,
// tiles of 2 × 2, causal):
//   {"token_count": 1 to 2^20, "head_dim": 1 to 256, "dtype_bytes": 1 | 2 | 4,
//    "mask": "causal" | "none", "block_rows", "block_cols": 1 to token_count,
//    "sram_kib": on-chip memory per streaming multiprocessor, in KiB (above 0, at most 65536):
//    without block_rows and block_cols the largest square tiles that fit it are used; with
//    them they must fit it}.
// Answer: {"token_count", "head_dim", "dtype_bytes", "mask", "block_rows", "block_cols",
//   "tiles_chosen": "given" | "largest_square_that_fits", "sram_bytes" (null when not given),
//   "footprint_bytes", "footprint_formula", "footprint_working", "query_tiles", "key_tiles",
//   "computed_tiles", "skipped_tiles", "key_rows_loaded",
//   "naive" and "tiled": {"moves": [{"what", "direction": "read" | "write", "values", "bytes"}],
//                         "read_bytes", "written_bytes", "total_bytes", "formula", "working"},
//   "ratio": naive total / tiled total}.
JsonOrError flash_traffic_json(std::string_view request);

// Request: the head's members, "mask", "scale", "bits": [8, 4, 3, 2] (each 2, 3, 4 or 8; at most
// 8), "rotation": "random" | "none"; "seed" also seeds the rotation.
// Answer: {"tokens", "head_dim", "source", "rotation": "random" | "none", "seed",
//   "scheme": a sentence describing the quantiser, "rotation_matrix" (d × d),
//   "k_rotated", "v_rotated", "reference": the unquantised trace,
//   "unquantised_bytes_per_token" (this head's key and value in float32),
//   "levels": [{"bits", "levels_each_side",
//               "k": {"scales", "codes", "dequantised", "restored"}, "v": {...},
//               "trace", "k_error", "v_error", "weights_error", "out_error"
//               (each {"max_abs", "relative"}), "bytes_per_token"}]}.
JsonOrError quantised_cache_json(std::string_view request);

// Request (every member optional; the defaults are the toy GQA layer's: d_model 16, 4 heads,
// 2 K/V heads of 4, one layer, float32, 4 tokens, batch 1):
//   {"preset": "llama-3-8b" (a model_presets() name: its figures become the defaults),
//    "layers", "d_model", "n_heads", "n_kv_heads", "head_dim"     (MHA, GQA, MQA),
//    "d_latent", "rope_dim"                                        (MLA; d_latent selects it),
//    "dtype_bytes": 1 | 2 | 4, "kv_bits": 2 | 3 | 4 | 8 (absent: unquantised), "scale_bytes": 4,
//    "weight_dtype_bytes": 0.5 | 1 | 2 | 4, "parameters" (without a preset: the attention
//    tables' count, attention_parameters), "context_length", "batch", "gpu_memory_gib": 80,
//    "sliding_window": tokens a local layer keeps (null: none; given alone, every layer is
//    local), "local_layers": how many layers use it (null: every layer),
//    "curve_from_tokens": 16, "curve_to_tokens": 1048576 (the plotted contexts, from < to)}.
// Answer: kv_bill_to_json's members, then "curve": {"context_tokens": [...] (four per doubling
//   from curve_from_tokens to curve_to_tokens, plus the window and the crossing when inside),
//   "bytes_per_sequence": [...] (one sequence's cache at each), "memory_left_bytes" (gpu_bytes
//   - weight_bytes), "batch", "memory_left_per_sequence_bytes" (memory_left_bytes / batch: the
//   line a plot draws across), "crossing_tokens" (the longest context at which each of the
//   batch's sequences fits, the bill's max_context_tokens; null when the cache stops growing
//   below the line)}.
JsonOrError kv_bill_json(std::string_view request);

// {"preset": name | null, "label": | null, "citation": URL | null, "attention": "MHA" | "GQA" |
//  "MQA" | "MLA", "layers", "d_model", "n_heads", "n_kv_heads" (null for MLA), "head_dim" (null
//  for MLA), "d_latent" (null unless MLA), "rope_dim" (null unless MLA), "dtype_bytes",
//  "kv_bits" (null when unquantised), "scale_bytes", "weight_dtype_bytes", "parameters",
//  "context_length", "batch", "gpu_memory_gib", "sliding_window" (null without a window),
//  "local_layers", "global_layers", "cached_values_per_token_per_layer",
//  "cached_vectors_per_token_per_layer", "bytes_per_token_per_layer", "formula", "working",
//  "bytes_per_token", "cached_tokens_per_global_layer", "cached_tokens_per_local_layer" (0
//  without local layers), "bytes_per_sequence", "sequence_formula", "sequence_working",
//  "cache_bytes", "weight_bytes", "gpu_bytes", "fits", "concurrent_sequences",
//  "max_context_tokens" (null when every layer is local and the windowed cache fits),
//  "max_context_working"}
std::string kv_bill_to_json(const KvBill& bill);

// [{"name", "label", "attention", "d_model", "layers", "n_heads", "n_kv_heads", "head_dim",
//   "d_latent", "rope_dim" (null where they do not apply), "parameters", "weight_dtype_bytes",
//   "dtype_bytes", "max_context", "sliding_window", "local_layers" (null without a window),
//   "parameters_source", "citation", "note", "window_source" (null without a window)}]
std::string model_presets_to_json();

}  // namespace attn
