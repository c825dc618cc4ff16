// The core's vocabulary (reference/vocabulary.h) as one JSON object, for the wasm module's
// vocabulary(): what a front end needs to name the variants and fill in the defaults without
// retyping them.
#pragma once

#include <string>

namespace attn {

// {"masks": [{"name", "description", "hides_later_words", "hidden_score" ("-Infinity" or "0"),
//             "kernels" (whether attend() computes it)}],
//  "scales": [{"name", "divisor", "description"}],
//  "defaults": {
//    "run":               {"mask", "scale"},
//    "tracer":            {"mask", "scale"},
//    "attend":            {"mask"},
//    "multi_head":        {"d_model", "n_heads", "seed", "mask", "scale"},
//    "layer":             {"tokens", "d_model", "n_heads", "seed", "mask", "scale"}  (the sequel),
//    "grouped_attention": {"n_kv_heads"}   (for the default n_heads),
//    "latent_attention":  {"d_latent"},
//    "flash_tiles":       {"head", "mask", "block_rows", "block_cols", "decimals"},
//    "quantised_cache":   {"head", "bits", "rotation"},
//    "head_dim_study":    {"head_dims", "tokens", "samples", "seed", "scale", "mask", "compare"},
//    "kv_bill":           {"layers", "d_model", "n_heads", "n_kv_heads", "head_dim",
//                          "dtype_bytes", "scale_bytes", "weight_dtype_bytes", "context_length",
//                          "batch", "gpu_memory_gib"}},
//  "limits": {"max_tokens", "max_head_dim", "max_abs_value", "max_token_bytes", "max_d_model"}}
// Masks and scales are listed in the order of mask_variant_terms() and scale_terms().
std::string vocabulary_json();

}  // namespace attn
