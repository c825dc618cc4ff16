// The KV-cache bill: how many bytes each attention variant caches per token, what that comes to
// for a model serving long contexts, and how many sequences fit next to the weights on one GPU.
//
// Per token and per layer the cache holds:
//   MHA, GQA, MQA:  2 · n_kv_heads · head_dim values (a key and a value row per K/V head);
//   MLA:            d_latent + rope_dim values (the latent, plus the decoupled RoPE key the
//                   published models cache next to it; rope_dim is 0 for the toy, which has
//                   no positional encoding);
// at dtype_bytes each, or, quantised to kv_bits per value (quantised_cache.h):
//   each cached vector (a K or V row of head_dim values; MLA's one row of d_latent + rope_dim)
//   takes ⌈values · kv_bits / 8⌉ bytes of packed codes plus scale_bytes for its scale.
// Local and global layers: with a sliding window of W tokens, each of the local_layers layers
// attends to (and caches) only the last W tokens, exactly min(context, W) of them (engines that
// round the window up to whole pages allocate a little more; that is left out); the other,
// global layers cache the whole context. Then, with b = bytes_per_token_per_layer,
//   bytes_per_token    = b · layers             (a token held by every layer: what each token
//                                                adds while the context is within the window)
//   bytes_per_sequence = b · (global_layers · context_length
//                             + local_layers · min(context_length, sliding_window))
//   cache_bytes        = bytes_per_sequence · batch
//   weight_bytes       = parameters · weight_dtype_bytes
//   gpu_bytes          = gpu_memory_gib · 2^30
//   concurrent_sequences = ⌊(gpu_bytes - weight_bytes) / bytes_per_sequence⌋, 0 when the
//                          weights alone do not fit;
//   max_context_tokens = the largest T with batch · bytes_per_sequence(T) <= gpu_bytes -
//                        weight_bytes, in closed form on whole bytes (kv_max_context); none
//                        when every layer is local and the windowed cache fits (it stops
//                        growing at the window), 0 when not one token fits.
// Only weights and cache are counted: activations, the framework's own memory and
// fragmentation are left out, so real servers fit somewhat fewer sequences.
// Figures are doubles: whole numbers of bytes are exact up to 2^53 (about 9 · 10^15).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/layers/model_presets.h"
#include "attention/reference/attention_input.h"

namespace attn {

struct KvBillLimits {
  static constexpr std::size_t max_layers = 1024;
  static constexpr std::size_t max_d_model = 65536;
  static constexpr std::size_t max_heads = 1024;
  static constexpr std::size_t max_head_dim = 1024;
  static constexpr std::size_t max_d_latent = 65536;
  static constexpr std::size_t max_rope_dim = 4096;
  static constexpr std::size_t max_scale_bytes = 8;
  static constexpr double max_parameters = 1e15;
  static constexpr std::size_t max_context_length = 16777216;  // 2^24 tokens
  static constexpr std::size_t max_batch = 65536;
  static constexpr double max_gpu_memory_gib = 65536;
  static constexpr std::size_t max_sliding_window = max_context_length;
};

struct ModelShape {
  std::string preset;                // the preset it started from, or empty
  bool latent = false;               // MLA (d_latent, rope_dim) rather than K/V heads
  std::size_t layers = 1;
  std::size_t d_model = 16;          // only for the default parameter count (see below)
  std::size_t n_heads = 4;           // query heads
  std::size_t n_kv_heads = 2;        // K/V heads (MHA, GQA, MQA); divides n_heads
  std::size_t head_dim = 4;          // (MHA, GQA, MQA)
  std::size_t d_latent = 0;          // (MLA)
  std::size_t rope_dim = 0;          // (MLA)
  std::size_t dtype_bytes = 4;       // per cached value when not quantised: 1, 2 or 4
  int kv_bits = 0;                   // 0: not quantised; otherwise 2, 3, 4 or 8
  std::size_t scale_bytes = 4;       // per quantised vector: its scale
  double weight_dtype_bytes = 4;     // per parameter: 0.5, 1, 2 or 4
  double parameters = 768;           // the weights' count (attention_parameters for the toy)
  std::size_t context_length = 4;    // tokens per sequence
  std::size_t batch = 1;             // sequences served at once
  double gpu_memory_gib = 80;        // one GPU's memory, in GiB (2^30 bytes)
  std::size_t sliding_window = 0;    // tokens a local layer keeps; 0: no window, every layer global
  std::optional<std::size_t> local_layers;  // layers using the window; empty: every layer
};

struct KvBill {
  ModelShape shape;
  std::string attention;                   // "MHA", "GQA", "MQA" or "MLA"
  double cached_values_per_token_per_layer = 0;
  double cached_vectors_per_token_per_layer = 0;  // what each gets a scale when quantised
  double bytes_per_token_per_layer = 0;
  std::string formula;                     // "2 · n_kv_heads · head_dim · dtype_bytes"
  std::string working;                     // "2 · 8 · 128 · 2 = 4096"
  double bytes_per_token = 0;              // all layers
  double bytes_per_sequence = 0;           // one sequence of context_length tokens
  double cache_bytes = 0;                  // the batch
  double weight_bytes = 0;
  double gpu_bytes = 0;
  bool fits = false;                       // weight_bytes + cache_bytes <= gpu_bytes
  double concurrent_sequences = 0;         // of context_length, next to the weights
  std::size_t local_layers = 0;            // layers caching min(context, window) tokens
  std::size_t global_layers = 0;           // layers caching the whole context
  double cached_tokens_per_local_layer = 0;   // min(context_length, sliding_window); 0 if none
  double cached_tokens_per_global_layer = 0;  // context_length
  std::string sequence_formula;            // "bytes_per_token · context_length", or with the window
  std::string sequence_working;            // "131072 · 8192 = 1073741824"
  std::optional<double> max_context_tokens;  // empty: the cache stops growing and fits
  std::string max_context_working;         // the closed form with the figures
};

// ⌈values · bits / 8⌉ + scale_bytes: one quantised vector, codes packed, plus its scale.
std::size_t quantised_vector_bytes(std::size_t values, int bits, std::size_t scale_bytes);

// Every field within its limits and consistent (paths name the field: "n_kv_heads: must divide
// n_heads (32) ...", "dtype_bytes", "kv_bits", "gpu_memory_gib").
std::optional<InputError> validate_model_shape(const ModelShape& shape);

// Precondition: validate_model_shape(shape) returned nothing.
KvBill compute_kv_bill(const ModelShape& shape);

// bytes_per_sequence at another context: b · (global · T + local · min(T, window)).
double kv_sequence_bytes(const KvBill& bill, std::size_t context);

// The longest context at which `batch` sequences fit next to the weights (the bill's
// max_context_tokens at another batch): empty when every layer is local and the windowed cache
// fits, 0 when not one token fits. `working` (optional) gets the closed form with the figures.
std::optional<double> kv_max_context(const KvBill& bill, std::size_t batch,
                                     std::string* working = nullptr);

// The cache of one sequence against the context, for a plot on a log scale: four points per
// doubling from `from` to `to` tokens, plus the window and the crossing when they fall inside.
// The bill's batch shares the memory left: each of its sequences may fill memory_left / batch,
// so a line crosses that level at the bill's max_context_tokens.
struct KvCurvePoint {
  double context_tokens = 0;
  double bytes_per_sequence = 0;
};
struct KvCurve {
  std::vector<KvCurvePoint> points;  // context increasing
  double memory_left_bytes = 0;      // gpu_bytes - weight_bytes (negative: the weights do not fit)
  std::size_t batch = 1;             // the bill's batch
  double memory_left_per_sequence_bytes = 0;  // memory_left_bytes / batch: the level a line meets
  std::optional<double> crossing_tokens;  // the longest context at which each of the batch's
                                          // sequences fits (kv_max_context at the bill's
                                          // batch); empty: never crosses
};
struct KvCurveLimits {
  static constexpr std::size_t default_from = 16;
  static constexpr std::size_t default_to = 1048576;  // 2^20
  static constexpr std::size_t points_per_doubling = 4;
};
// Precondition: 1 <= from < to <= KvBillLimits::max_context_length.
KvCurve compute_kv_curve(const KvBill& bill, std::size_t from, std::size_t to);

// The preset's shape for the bill: its context, batch 1, an 80 GiB GPU, unquantised cache.
ModelShape model_shape_of(const ModelPreset& preset);

// The attention tables of `layers` layers of this shape, with n_heads · head_dim = d_model: the
// weights of the toy layers, and the default count when a request names no preset.
//   MHA, GQA, MQA: W_Q and W_O (d_model · n_heads · head_dim each), W_K and W_V
//                  (d_model · n_kv_heads · head_dim each): d_model · head_dim · 2 (n_heads + n_kv_heads);
//   MLA:           W_Q and W_O (d_model² each), W_DKV (d_model · d_latent), W_UK and W_UV
//                  (n_heads · d_latent · head_dim = d_latent · d_model each): 2 d_model² + 3 d_model d_latent.
double attention_parameters(const ModelShape& shape);

// The toy layers' bills (one layer, float32 values and weights, context = tokens, batch 1, an
// 80 GiB GPU): the weights counted are the layer's tables (attention_parameters).
ModelShape toy_grouped_shape(std::size_t d_model, std::size_t n_heads, std::size_t n_kv_heads,
                             std::size_t tokens);
ModelShape toy_latent_shape(std::size_t d_model, std::size_t n_heads, std::size_t d_latent,
                            std::size_t tokens);

}  // namespace attn
