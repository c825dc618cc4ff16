// The KV-cache bill and the published model shapes it is run on.
#include "attention/layers/kv_bill.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "attention/layers/grouped_attention.h"

namespace attn {

namespace {

constexpr double bytes_per_gib = 1073741824.0;  // 2^30

// 64 bits whatever size_t is (32 in wasm32): sequences reach 2^50 bytes.
std::string whole(std::uint64_t value) { return std::to_string(value); }
std::string whole_bytes(double value) { return whole(static_cast<std::uint64_t>(value)); }

}  // namespace

std::size_t quantised_vector_bytes(std::size_t values, int bits, std::size_t scale_bytes) {
  const std::size_t code_bits = values * static_cast<std::size_t>(bits);
  return (code_bits + 7) / 8 + scale_bytes;
}

std::optional<InputError> validate_model_shape(const ModelShape& shape) {
  const auto count = [](const char* field, std::size_t value, std::size_t lowest,
                        std::size_t highest) -> std::optional<InputError> {
    if (value < lowest || value > highest)
      return make_input_error(field, "must be a whole number from " + std::to_string(lowest) +
                                         " to " + std::to_string(highest) + ", got " +
                                         std::to_string(value));
    return std::nullopt;
  };
  if (auto error = count("layers", shape.layers, 1, KvBillLimits::max_layers)) return error;
  if (auto error = count("d_model", shape.d_model, 1, KvBillLimits::max_d_model)) return error;
  if (auto error = count("n_heads", shape.n_heads, 1, KvBillLimits::max_heads)) return error;
  if (shape.latent) {
    if (auto error = count("d_latent", shape.d_latent, 1, KvBillLimits::max_d_latent)) return error;
    if (auto error = count("rope_dim", shape.rope_dim, 0, KvBillLimits::max_rope_dim)) return error;
  } else {
    if (auto error = count("n_kv_heads", shape.n_kv_heads, 1, KvBillLimits::max_heads)) return error;
    if (auto error = validate_grouping(shape.n_heads, shape.n_kv_heads)) return error;
    if (auto error = count("head_dim", shape.head_dim, 1, KvBillLimits::max_head_dim)) return error;
  }
  if (shape.dtype_bytes != 1 && shape.dtype_bytes != 2 && shape.dtype_bytes != 4)
    return make_input_error("dtype_bytes", "must be 1 (8-bit), 2 (float16 or bfloat16) or 4 "
                                           "(float32), got " + std::to_string(shape.dtype_bytes));
  if (shape.kv_bits != 0 && shape.kv_bits != 2 && shape.kv_bits != 3 && shape.kv_bits != 4 &&
      shape.kv_bits != 8)
    return make_input_error("kv_bits", "must be 2, 3, 4 or 8 (or absent for an unquantised "
                                       "cache), got " + std::to_string(shape.kv_bits));
  if (auto error = count("scale_bytes", shape.scale_bytes, 0, KvBillLimits::max_scale_bytes))
    return error;
  const double w = shape.weight_dtype_bytes;
  if (w != 0.5 && w != 1.0 && w != 2.0 && w != 4.0)
    return make_input_error("weight_dtype_bytes", "must be 0.5 (4-bit), 1, 2 or 4");
  if (!(shape.parameters >= 1.0 && shape.parameters <= KvBillLimits::max_parameters) ||
      std::floor(shape.parameters) != shape.parameters)
    return make_input_error("parameters", "must be a whole number from 1 to 1e15");
  if (auto error = count("context_length", shape.context_length, 1, KvBillLimits::max_context_length))
    return error;
  if (auto error = count("batch", shape.batch, 1, KvBillLimits::max_batch)) return error;
  if (!(shape.gpu_memory_gib > 0.0 && shape.gpu_memory_gib <= KvBillLimits::max_gpu_memory_gib))
    return make_input_error("gpu_memory_gib", "must be a number above 0 and at most 65536");
  if (auto error = count("sliding_window", shape.sliding_window, 0, KvBillLimits::max_sliding_window))
    return error;
  if (shape.local_layers) {
    if (shape.sliding_window == 0)
      return make_input_error("local_layers", "needs a sliding_window: without one every layer "
                                              "caches the whole context");
    if (*shape.local_layers > shape.layers)
      return make_input_error("local_layers", "is " + std::to_string(*shape.local_layers) +
                                                  "; there are only " + std::to_string(shape.layers) +
                                                  " layers");
  }
  return std::nullopt;
}

KvBill compute_kv_bill(const ModelShape& shape) {
  KvBill bill;
  bill.shape = shape;
  const bool quantised = shape.kv_bits != 0;
  const std::string bits = std::to_string(shape.kv_bits);
  const std::string scale = whole(shape.scale_bytes);
  const std::string dtype = whole(shape.dtype_bytes);

  // Step 1: what one token leaves in one layer's cache.
  if (shape.latent) {
    bill.attention = "MLA";
    const std::size_t values = shape.d_latent + shape.rope_dim;
    bill.cached_values_per_token_per_layer = static_cast<double>(values);
    bill.cached_vectors_per_token_per_layer = 1;
    const std::string sum = "(" + whole(shape.d_latent) + " + " + whole(shape.rope_dim) + ")";
    if (quantised) {
      const std::size_t bytes = quantised_vector_bytes(values, shape.kv_bits, shape.scale_bytes);
      bill.bytes_per_token_per_layer = static_cast<double>(bytes);
      bill.formula = "⌈(d_latent + rope_dim) · kv_bits / 8⌉ + scale_bytes";
      bill.working = "⌈" + sum + " · " + bits + " / 8⌉ + " + scale + " = " + whole(bytes);
    } else {
      const std::size_t bytes = values * shape.dtype_bytes;
      bill.bytes_per_token_per_layer = static_cast<double>(bytes);
      bill.formula = "(d_latent + rope_dim) · dtype_bytes";
      bill.working = sum + " · " + dtype + " = " + whole(bytes);
    }
  } else {
    bill.attention = std::string(grouped_variant_name(shape.n_heads, shape.n_kv_heads));
    const std::size_t vectors = 2 * shape.n_kv_heads;
    bill.cached_values_per_token_per_layer = static_cast<double>(vectors * shape.head_dim);
    bill.cached_vectors_per_token_per_layer = static_cast<double>(vectors);
    const std::string kv = whole(shape.n_kv_heads), d = whole(shape.head_dim);
    if (quantised) {
      const std::size_t bytes =
          vectors * quantised_vector_bytes(shape.head_dim, shape.kv_bits, shape.scale_bytes);
      bill.bytes_per_token_per_layer = static_cast<double>(bytes);
      bill.formula = "2 · n_kv_heads · (⌈head_dim · kv_bits / 8⌉ + scale_bytes)";
      bill.working = "2 · " + kv + " · (⌈" + d + " · " + bits + " / 8⌉ + " + scale + ") = " + whole(bytes);
    } else {
      const std::size_t bytes = vectors * shape.head_dim * shape.dtype_bytes;
      bill.bytes_per_token_per_layer = static_cast<double>(bytes);
      bill.formula = "2 · n_kv_heads · head_dim · dtype_bytes";
      bill.working = "2 · " + kv + " · " + d + " · " + dtype + " = " + whole(bytes);
    }
  }

  // Step 2: every layer, every token of a sequence (a local layer only the window's), every
  // sequence of the batch.
  bill.local_layers = shape.sliding_window == 0 ? 0 : shape.local_layers.value_or(shape.layers);
  bill.global_layers = shape.layers - bill.local_layers;
  bill.cached_tokens_per_global_layer = static_cast<double>(shape.context_length);
  bill.cached_tokens_per_local_layer =
      bill.local_layers == 0 ? 0.0
                             : static_cast<double>(std::min(shape.context_length, shape.sliding_window));
  bill.bytes_per_token = bill.bytes_per_token_per_layer * static_cast<double>(shape.layers);
  bill.bytes_per_sequence = kv_sequence_bytes(bill, shape.context_length);
  bill.cache_bytes = bill.bytes_per_sequence * static_cast<double>(shape.batch);
  const std::string sequence = whole_bytes(bill.bytes_per_sequence);
  if (shape.sliding_window == 0) {
    bill.sequence_formula = "bytes_per_token · context_length";
    bill.sequence_working = whole_bytes(bill.bytes_per_token) + " · " +
                            whole(shape.context_length) + " = " + sequence;
  } else {
    bill.sequence_formula = "bytes_per_token_per_layer · (global_layers · context_length + "
                            "local_layers · min(context_length, sliding_window))";
    const std::uint64_t global_tokens = std::uint64_t{bill.global_layers} * shape.context_length;
    const std::uint64_t local_tokens =
        std::uint64_t{bill.local_layers} * std::min(shape.context_length, shape.sliding_window);
    bill.sequence_working = whole_bytes(bill.bytes_per_token_per_layer) + " · (" +
                            whole(bill.global_layers) + " · " + whole(shape.context_length) + " + " +
                            whole(bill.local_layers) + " · min(" + whole(shape.context_length) + ", " +
                            whole(shape.sliding_window) + ")) = " +
                            whole_bytes(bill.bytes_per_token_per_layer) + " · (" +
                            whole(global_tokens) + " + " + whole(local_tokens) + ") = " + sequence;
  }

  // Step 3: the weights and the GPU.
  bill.weight_bytes = shape.parameters * shape.weight_dtype_bytes;
  bill.gpu_bytes = std::floor(shape.gpu_memory_gib * bytes_per_gib);
  bill.fits = bill.weight_bytes + bill.cache_bytes <= bill.gpu_bytes;
  bill.concurrent_sequences =
      bill.weight_bytes >= bill.gpu_bytes
          ? 0.0
          : std::floor((bill.gpu_bytes - bill.weight_bytes) / bill.bytes_per_sequence);
  bill.max_context_tokens = kv_max_context(bill, shape.batch, &bill.max_context_working);
  return bill;
}

double kv_sequence_bytes(const KvBill& bill, std::size_t context) {
  const std::size_t window = bill.shape.sliding_window;
  const double local_tokens = bill.local_layers == 0 ? 0.0 : static_cast<double>(std::min(context, window));
  return bill.bytes_per_token_per_layer *
         (static_cast<double>(bill.global_layers) * static_cast<double>(context) +
          static_cast<double>(bill.local_layers) * local_tokens);
}

// On whole bytes: with P = ⌊(gpu - weights) / (batch · b)⌋ the batch fits at T exactly when
// global · T + local · min(T, window) <= P (the left side is whole), which is solved in the
// window's region (every layer holds T tokens) or beyond it (local layers hold the window).
// Every product stays below 2^63: b < 2^24, batch <= 2^16, layers <= 2^10, window <= 2^24.
std::optional<double> kv_max_context(const KvBill& bill, std::size_t batch, std::string* working) {
  const auto say = [&](const std::string& text) {
    if (working) *working = text;
  };
  const std::uint64_t gpu = static_cast<std::uint64_t>(bill.gpu_bytes);
  const double weights = std::ceil(bill.weight_bytes);  // a half byte of 4-bit weights is a byte
  if (weights > bill.gpu_bytes) {
    say("the weights alone (" + whole_bytes(weights) + " bytes) exceed the GPU (" +
        whole(gpu) + " bytes): 0");
    return 0.0;
  }
  const std::uint64_t left = gpu - static_cast<std::uint64_t>(weights);
  const std::uint64_t per_layer = static_cast<std::uint64_t>(bill.bytes_per_token_per_layer);
  const std::uint64_t step = static_cast<std::uint64_t>(batch) * per_layer;
  const std::uint64_t P = left / step;  // token-layers the batch may cache, per sequence
  const std::uint64_t layers = bill.local_layers + bill.global_layers;
  const std::uint64_t local = bill.local_layers, global = bill.global_layers;
  const std::uint64_t window = bill.shape.sliding_window;
  const std::string head = "P = ⌊(" + whole(gpu) + " − " + whole_bytes(weights) +
                           ") / (" + whole(batch) + " · " + whole(per_layer) + ")⌋ = " + whole(P) + "; ";
  if (local > 0 && global == 0 && local * window <= P) {
    say(head + "every layer is local and " + whole(local) + " · " + whole(window) + " <= P: the "
        "cache stops growing at the window, and fits at any context");
    return std::nullopt;
  }
  if (local == 0 || layers * window > P) {
    const std::uint64_t T = P / layers;
    say(head + "⌊P / " + whole(layers) + " layers⌋ = " + whole(T));
    return static_cast<double>(T);
  }
  const std::uint64_t T = (P - local * window) / global;
  say(head + "⌊(P − " + whole(local) + " · " + whole(window) + ") / " + whole(global) +
      " global layers⌋ = " + whole(T));
  return static_cast<double>(T);
}

KvCurve compute_kv_curve(const KvBill& bill, std::size_t from, std::size_t to) {
  KvCurve curve;
  curve.memory_left_bytes = bill.gpu_bytes - bill.weight_bytes;
  curve.batch = bill.shape.batch;
  curve.memory_left_per_sequence_bytes = curve.memory_left_bytes / static_cast<double>(curve.batch);
  curve.crossing_tokens = kv_max_context(bill, curve.batch);
  std::vector<std::size_t> contexts;
  const double steps = static_cast<double>(KvCurveLimits::points_per_doubling);
  for (std::size_t n = 0;; ++n) {
    const double context = std::round(static_cast<double>(from) * std::exp2(static_cast<double>(n) / steps));
    if (context >= static_cast<double>(to)) break;
    contexts.push_back(static_cast<std::size_t>(context));
  }
  contexts.push_back(to);
  // Where the line bends and where it crosses the memory left, so that a plot shows both.
  const auto inside = [&](double context) { return context > from && context < to; };
  if (bill.local_layers > 0 && inside(static_cast<double>(bill.shape.sliding_window)))
    contexts.push_back(bill.shape.sliding_window);
  if (curve.crossing_tokens && inside(*curve.crossing_tokens))
    contexts.push_back(static_cast<std::size_t>(*curve.crossing_tokens));
  std::sort(contexts.begin(), contexts.end());
  contexts.erase(std::unique(contexts.begin(), contexts.end()), contexts.end());
  for (std::size_t context : contexts)
    curve.points.push_back({static_cast<double>(context), kv_sequence_bytes(bill, context)});
  return curve;
}

ModelShape model_shape_of(const ModelPreset& preset) {
  ModelShape shape;
  shape.preset = std::string(preset.name);
  shape.latent = preset.attention == "MLA";
  shape.layers = preset.layers;
  shape.d_model = preset.d_model;
  shape.n_heads = preset.n_heads;
  shape.n_kv_heads = preset.n_kv_heads;
  shape.head_dim = preset.head_dim;
  shape.d_latent = preset.d_latent;
  shape.rope_dim = preset.rope_dim;
  shape.dtype_bytes = preset.dtype_bytes;
  shape.weight_dtype_bytes = preset.weight_dtype_bytes;
  shape.parameters = preset.parameters;
  shape.context_length = preset.max_context;
  shape.sliding_window = preset.sliding_window;
  if (preset.local_layers != 0) shape.local_layers = preset.local_layers;  // else every layer
  shape.batch = 1;
  shape.gpu_memory_gib = 80;
  return shape;
}

double attention_parameters(const ModelShape& shape) {
  const double d_model = static_cast<double>(shape.d_model);
  const double per_layer =
      shape.latent ? 2.0 * d_model * d_model + 3.0 * d_model * static_cast<double>(shape.d_latent)
                   : d_model * static_cast<double>(shape.head_dim) * 2.0 *
                         static_cast<double>(shape.n_heads + shape.n_kv_heads);
  return per_layer * static_cast<double>(shape.layers);
}

ModelShape toy_grouped_shape(std::size_t d_model, std::size_t n_heads, std::size_t n_kv_heads,
                             std::size_t tokens) {
  ModelShape shape;
  shape.layers = 1;
  shape.d_model = d_model;
  shape.n_heads = n_heads;
  shape.n_kv_heads = n_kv_heads;
  shape.head_dim = d_model / n_heads;
  shape.dtype_bytes = 4;
  shape.weight_dtype_bytes = 4;
  shape.parameters = attention_parameters(shape);
  shape.context_length = tokens;
  return shape;
}

ModelShape toy_latent_shape(std::size_t d_model, std::size_t n_heads, std::size_t d_latent,
                            std::size_t tokens) {
  ModelShape shape;
  shape.latent = true;
  shape.layers = 1;
  shape.d_model = d_model;
  shape.n_heads = n_heads;
  shape.n_kv_heads = 0;
  shape.head_dim = 0;
  shape.d_latent = d_latent;
  shape.rope_dim = 0;  // no positional encoding in the toy
  shape.dtype_bytes = 4;
  shape.weight_dtype_bytes = 4;
  shape.parameters = attention_parameters(shape);
  shape.context_length = tokens;
  return shape;
}

}  // namespace attn
