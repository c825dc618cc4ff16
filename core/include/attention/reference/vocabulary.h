// The words every layer of the project uses for one concept, defined once here: the mask and
// scale variants with a line a reader can understand, and the default shapes a request takes
// when it leaves a member out. The names themselves are attention_input.h's (mask_variant_name,
// scale_name); the JSON readers apply these defaults, and vocabulary_json.h writes all of it
// for the wasm module's vocabulary(), so no layer above the core retypes any of it.
// (Not the article's next-word vocabulary, article_data.h, nor the kernels' vector vocabulary.)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "attention/reference/attention_input.h"

namespace attn {

struct MaskVariantTerm {
  MaskVariant variant;
  std::string_view label;        // a few words for a control or a caption
  std::string_view description;  // one sentence for a reader
};

// causal, none, causal_zero: the order of the trace's mask names and the tracer's indices.
const std::array<MaskVariantTerm, 3>& mask_variant_terms();

struct ScaleTerm {
  ScaleKind scale;
  std::string_view divisor;      // "√d_k", "d_k" or "1", as the page prints it
  std::string_view label;        // a few words for a control or a caption
  std::string_view description;  // one sentence for a reader
};

// sqrt_d, d, none.
const std::array<ScaleTerm, 3>& scale_terms();

// Whether the fast kernels (kernels.h) compute this variant; the others are the reference
// trace's alone.
inline bool kernels_compute(MaskVariant mask) { return mask.fill == MaskFill::minus_infinity; }

// What every layer request (multi-head, and the sequel's grouped, latent, tiles and quantised
// cache) takes when it leaves the member out. The sequel's tokens are the article's four words
// (article::four_words().tokens); a multi-head request must name its tokens.
struct LayerDefaults {
  static constexpr std::size_t d_model = 16;
  static constexpr std::size_t n_heads = 4;
  static constexpr std::uint64_t seed = 1;
};

// n_kv_heads when a grouped-attention request leaves it out: groups of two query heads, or
// every head its own K/V head (MHA) when n_heads is odd.
inline std::size_t default_kv_heads(std::size_t n_heads) {
  return n_heads % 2 == 0 ? n_heads / 2 : n_heads;
}

}  // namespace attn
