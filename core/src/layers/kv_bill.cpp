// The KV-cache bill and the published model shapes it is run on.
#include "attention/layers/kv_bill.h"

#include <cmath>
#include <string>

#include "attention/layers/grouped_attention.h"

namespace attn {

namespace {

constexpr double bytes_per_gib = 1073741824.0;  // 2^30

std::string whole(std::size_t value) { return std::to_string(value); }

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

  // Step 2: every layer, every token of a sequence, every sequence of the batch.
  bill.bytes_per_token = bill.bytes_per_token_per_layer * static_cast<double>(shape.layers);
  bill.bytes_per_sequence = bill.bytes_per_token * static_cast<double>(shape.context_length);
  bill.cache_bytes = bill.bytes_per_sequence * static_cast<double>(shape.batch);

  // Step 3: the weights and the GPU.
  bill.weight_bytes = shape.parameters * shape.weight_dtype_bytes;
  bill.gpu_bytes = std::floor(shape.gpu_memory_gib * bytes_per_gib);
  bill.fits = bill.weight_bytes + bill.cache_bytes <= bill.gpu_bytes;
  bill.concurrent_sequences =
      bill.weight_bytes >= bill.gpu_bytes
          ? 0.0
          : std::floor((bill.gpu_bytes - bill.weight_bytes) / bill.bytes_per_sequence);
  return bill;
}

// The published shapes. Each figure is from the model's public config.json (field names in
// brackets) unless its comment says otherwise.
const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> presets = {
      ModelPreset{
          "llama-2-7b", "Llama 2 7B", "MHA",
          4096,   // hidden_size
          32,     // num_hidden_layers
          32,     // num_attention_heads
          32,     // num_key_value_heads: one K/V head per query head
          128,    // head_dim = hidden_size / num_attention_heads
          0, 0,
          6738415616.0,  // the published parameter count (model metadata and checkpoints)
          2, 2,          // float16 weights and cache (torch_dtype float16; not checked here)
          4096,          // max_position_embeddings
          "the published count, 6,738,415,616 (which the config's shapes also give)",
          "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
          "torch_dtype taken as float16 from the config without a second source; any 16-bit "
          "type gives the same 2 bytes"},
      ModelPreset{
          "llama-3-8b", "Llama 3 8B", "GQA",
          4096,   // hidden_size
          32,     // num_hidden_layers
          32,     // num_attention_heads
          8,      // num_key_value_heads: groups of 4 query heads
          128,    // head_dim = hidden_size / num_attention_heads
          0, 0,
          8030261248.0,  // the published parameter count
          2, 2,          // bfloat16 (torch_dtype)
          8192,          // max_position_embeddings
          "the published count, 8,030,261,248 (which the config's shapes also give)",
          "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json",
          ""},
      ModelPreset{
          "falcon-7b", "Falcon 7B", "MQA",
          4544,   // hidden_size
          32,     // num_hidden_layers
          71,     // num_attention_heads
          1,      // multi_query: true, one K/V head
          64,     // head_dim = 4544 / 71
          0, 0,
          // Not found as a published exact figure (the model card says "7B"): computed from
          // the config's shapes, embeddings tied to the output layer:
          // 65024 · 4544 (embeddings) + 32 · 207,070,080 (per layer: fused QKV 4544 · 4672,
          // dense 4544², MLP 2 · 4544 · 18176, layer norm 2 · 4544) + 2 · 4544 (final norm).
          6921720704.0,
          2, 2,          // bfloat16 (torch_dtype; not checked here)
          2048,          // the model card's context length
          "computed from the config's shapes (the model card says 7B)",
          "https://huggingface.co/tiiuae/falcon-7b/blob/main/config.json",
          "parameter count computed, not a published exact figure; torch_dtype bfloat16 not "
          "checked against a second source"},
      ModelPreset{
          "deepseek-v2-lite", "DeepSeek-V2-Lite", "MLA",
          2048,   // hidden_size
          27,     // num_hidden_layers
          16,     // num_attention_heads
          0, 0,
          512,    // kv_lora_rank: the cached latent
          64,     // qk_rope_head_dim: the decoupled RoPE key, cached too
          15.7e9,  // the paper's rounded total (the model card says 16B)
          2, 2,    // bfloat16
          32768,   // the model card's context length (32k)
          "the published total, 15.7B, rounded",
          "https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite/blob/main/config.json",
          "parameter count rounded as published; context is the model card's 32k"},
      ModelPreset{
          "deepseek-v3", "DeepSeek-V3", "MLA",
          7168,   // hidden_size
          61,     // num_hidden_layers
          128,    // num_attention_heads
          0, 0,
          512,    // kv_lora_rank
          64,     // qk_rope_head_dim
          671e9,  // the published main-model total, rounded (685B with the MTP module)
          1, 2,   // FP8 weights as released (quantization_config), a bfloat16 cache
          163840, // max_position_embeddings (the model card advertises 128K)
          "the published total, 671B, rounded (the main model, without the 14B MTP module)",
          "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json",
          "parameter count rounded as published; weights counted at 1 byte (FP8), though a few "
          "tables ship in higher precision"},
  };
  return presets;
}

const ModelPreset* find_model_preset(std::string_view name) {
  for (const ModelPreset& preset : model_presets())
    if (preset.name == name) return &preset;
  return nullptr;
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
