// The published shapes the bill is run on. Each figure is from the model's public config.json
// (field names in comments) unless its comment says otherwise.
#include "attention/layers/model_presets.h"

namespace attn {

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
          "type gives the same 2 bytes",
          0, 0, ""},  // no sliding window
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
          "",
          0, 0, ""},  // no sliding window
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
          "checked against a second source",
          0, 0, ""},  // no sliding window
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
          "parameter count rounded as published; context is the model card's 32k",
          0, 0, ""},  // no sliding window
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
          "tables ship in higher precision",
          0, 0, ""},  // no sliding window
      ModelPreset{
          .name = "mistral-7b-v0.1", .label = "Mistral 7B v0.1", .attention = "GQA",
          .d_model = 4096,      // hidden_size
          .layers = 32,         // num_hidden_layers
          .n_heads = 32,        // num_attention_heads
          .n_kv_heads = 8,      // num_key_value_heads: groups of 4 query heads
          .head_dim = 128,      // hidden_size / num_attention_heads
          // From the config's shapes: 2 · 32,000 · 4096 (embeddings and output, untied)
          // + 32 · 218,112,000 (per layer: attention 2 · 4096² + 2 · 4096 · 1024, MLP
          // 3 · 4096 · 14,336, two norms 2 · 4096) + 4096 (final norm).
          .parameters = 7241732096.0,
          .weight_dtype_bytes = 2, .dtype_bytes = 2,  // bfloat16 (torch_dtype)
          .max_context = 32768,  // max_position_embeddings
          .parameters_source = "computed from the config's shapes (7,241,732,096; the model "
                               "card says 7.3B)",
          .citation = "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
          .note = "figures read from a mirror of the config (mlc-llm's model presets); the "
                  "window caches exactly 4096 tokens here, where engines may allocate a little "
                  "more",
          .sliding_window = 4096,  // sliding_window, on every layer
          .local_layers = 0,       // every layer
          .window_source = "the config's sliding_window, applied by every layer"},
      ModelPreset{
          .name = "qwen2.5-7b", .label = "Qwen2.5-7B", .attention = "GQA",
          .d_model = 3584,      // hidden_size
          .layers = 28,         // num_hidden_layers
          .n_heads = 28,        // num_attention_heads
          .n_kv_heads = 4,      // num_key_value_heads: groups of 7
          .head_dim = 128,      // 3584 / 28
          // From the config's shapes: 2 · 152,064 · 3584 (untied) + 28 · 233,057,792 (per layer:
          // attention 2 · 3584² + 2 · 3584 · 512 + the Q, K, V biases 3584 + 2 · 512, MLP
          // 3 · 3584 · 18,944, two norms) + 3584 (final norm); the model card says 7.61B.
          .parameters = 7615616512.0,
          .weight_dtype_bytes = 2, .dtype_bytes = 2,  // bfloat16
          .max_context = 131072,  // max_position_embeddings (the model card's 131,072)
          .parameters_source = "computed from the config's shapes (the model card says 7.61B)",
          .citation = "https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json",
          .note = "the config names a sliding_window but disables it (use_sliding_window false): "
                  "every layer is global; figures read from mirrors (mlc-llm, LMCache)",
          .sliding_window = 0, .local_layers = 0, .window_source = ""},
      ModelPreset{
          .name = "qwen3-8b", .label = "Qwen3-8B", .attention = "GQA",
          .d_model = 4096,      // hidden_size
          .layers = 36,         // num_hidden_layers
          .n_heads = 32,        // num_attention_heads
          .n_kv_heads = 8,      // num_key_value_heads
          .head_dim = 128,      // head_dim, given explicitly (not hidden_size / heads)
          // From the config's shapes: 2 · 151,936 · 4096 (untied) + 36 · 192,946,432 (per layer:
          // attention 2 · 4096² + 2 · 4096 · 1024, MLP 3 · 4096 · 12,288, two norms 2 · 4096,
          // the query and key norms 2 · 128) + 4096; the model card says 8.2B.
          .parameters = 8190735360.0,
          .weight_dtype_bytes = 2, .dtype_bytes = 2,  // bfloat16
          .max_context = 32768,  // the model card's native context (131,072 with YaRN)
          .parameters_source = "computed from the config's shapes (the model card says 8.2B)",
          .citation = "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
          .note = "head_dim must be read from the config: estimators that divide hidden_size by "
                  "the heads get it right here by coincidence only; figures read from a mirror "
                  "(LMCache's model configs)",
          .sliding_window = 0, .local_layers = 0, .window_source = ""},
      ModelPreset{
          .name = "gemma-2-9b", .label = "Gemma 2 9B", .attention = "GQA",
          .d_model = 3584,      // hidden_size
          .layers = 42,         // num_hidden_layers
          .n_heads = 16,        // num_attention_heads
          .n_kv_heads = 8,      // num_key_value_heads
          .head_dim = 256,      // head_dim (16 · 256 = 4096, not hidden_size)
          // From the config's shapes: 256,000 · 3584 (tied embeddings) + 42 · 198,195,200 (per
          // layer: attention 2 · 3584 · 4096 + 2 · 3584 · 2048, MLP 3 · 3584 · 14,336, four
          // norms 4 · 3584) + 3584 (final norm).
          .parameters = 9241705984.0,
          .weight_dtype_bytes = 2, .dtype_bytes = 2,  // bfloat16 (float32 in the config; served in 16 bits)
          .max_context = 8192,  // max_position_embeddings
          .parameters_source = "computed from the config's shapes (9,241,705,984; the model "
                               "card says 9B)",
          .citation = "https://huggingface.co/google/gemma-2-9b/blob/main/config.json",
          .note = "weights and cache counted at 2 bytes (the checkpoint is stored in float32); "
                  "figures read from a mirror (mlc-llm's model presets)",
          .sliding_window = 4096,  // sliding_window
          .local_layers = 21,      // every other layer of 42
          .window_source = "the config's sliding_window; Gemma 2 alternates local and global "
                           "layers (the paper's design), so 21 of the 42 are local"},
      ModelPreset{
          .name = "gemma-3-27b", .label = "Gemma 3 27B", .attention = "GQA",
          .d_model = 5376,      // embed_dim
          .layers = 62,         // num_layers
          .n_heads = 32,        // num_heads
          .n_kv_heads = 16,     // num_kv_heads
          .head_dim = 128,      // head_dim
          // From the shapes: 262,144 · 5376 (tied embeddings) + 62 · 412,898,560 (per layer:
          // attention 2 · 5376 · 4096 + 2 · 5376 · 2048, MLP 3 · 5376 · 21,504, four norms
          // 4 · 5376, query and key norms 2 · 128) + 5376 (final norm): the language model alone.
          .parameters = 27009002240.0,
          .weight_dtype_bytes = 2, .dtype_bytes = 2,  // bfloat16
          .max_context = 131072,  // the model card's 128K
          .parameters_source = "computed from the shapes, language model only (the model card "
                               "says 27B; the vision encoder, about 0.4B, is left out)",
          .citation = "https://huggingface.co/google/gemma-3-27b-pt/blob/main/config.json",
          .note = "shapes read from google-deepmind/gemma's TransformerConfig.gemma3_27b, not "
                  "from the config.json cited; the parameter count is an estimate to about 2 %",
          .sliding_window = 1024,  // sliding_window_size
          .local_layers = 52,      // five local layers to one global: 62 - ⌊62 / 6⌋ = 52
          .window_source = "TransformerConfig.gemma3_27b: a 1024-token window, five local "
                           "layers to one global (52 local, 10 global)"},
      ModelPreset{
          .name = "kimi-k2", .label = "Kimi K2", .attention = "MLA",
          .d_model = 7168,      // hidden_size
          .layers = 61,         // num_hidden_layers
          .n_heads = 64,        // num_attention_heads
          .d_latent = 512,      // kv_lora_rank
          .rope_dim = 64,       // qk_rope_head_dim
          .parameters = 1e12,   // the README's "1 trillion total parameters", rounded
          .weight_dtype_bytes = 1, .dtype_bytes = 2,  // FP8 weights as released, a bfloat16 cache
          .max_context = 131072,  // the README's 128K
          .parameters_source = "the README's total, 1T, rounded (32B activated per token)",
          .citation = "https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/config.json",
          .note = "61 layers, 64 heads and MLA from the README; kv_lora_rank 512 and "
                  "qk_rope_head_dim 64 from mirrored config excerpts, not the config itself; "
                  "parameter count rounded",
          .sliding_window = 0, .local_layers = 0, .window_source = ""},
  };
  return presets;
}

const ModelPreset* find_model_preset(std::string_view name) {
  for (const ModelPreset& preset : model_presets())
    if (preset.name == name) return &preset;
  return nullptr;
}


}  // namespace attn
