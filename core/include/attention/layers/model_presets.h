// Published model shapes for the KV-cache bill (kv_bill.h), each with where its figures come
// from and what about it is approximate or assumed.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace attn {

// A published model's shape, from its public config.json, with where the figures come from.
struct ModelPreset {
  std::string_view name;       // "llama-3-8b", as a request names it
  std::string_view label;      // "Llama 3 8B"
  std::string_view attention;  // "MHA", "GQA", "MQA", "MLA"
  std::size_t d_model = 0;     // hidden_size (for reference; the bill does not use it)
  std::size_t layers = 0;
  std::size_t n_heads = 0;
  std::size_t n_kv_heads = 0;  // 0 for MLA
  std::size_t head_dim = 0;    // 0 for MLA
  std::size_t d_latent = 0;    // kv_lora_rank; 0 unless MLA
  std::size_t rope_dim = 0;    // qk_rope_head_dim; 0 unless MLA
  double parameters = 0;
  double weight_dtype_bytes = 2;
  std::size_t dtype_bytes = 2; // the KV cache's
  std::size_t max_context = 0; // the context the model card or config gives
  std::string_view parameters_source;  // where the parameter count comes from
  std::string_view citation;           // the config.json / model card URL
  std::string_view note;               // what is approximate or unverified
  // Sliding-window (local) attention: 0 when every layer attends to the whole context.
  std::size_t sliding_window = 0;
  // How many layers use the window; 0 with a window means every layer (the bill then keeps
  // every layer local whatever `layers` a request sets).
  std::size_t local_layers = 0;
  std::string_view window_source;  // where the window and its layers come from
};

const std::vector<ModelPreset>& model_presets();
const ModelPreset* find_model_preset(std::string_view name);

}  // namespace attn
