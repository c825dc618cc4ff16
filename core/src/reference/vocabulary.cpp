#include "attention/reference/vocabulary.h"

namespace attn {

const std::array<MaskVariantTerm, 3>& mask_variant_terms() {
  static constexpr std::array<MaskVariantTerm, 3> terms = {{
      {{MaskKind::causal, MaskFill::minus_infinity}, "causal (−∞)",
       "each word sees itself and the words before it; later words get the score -infinity, "
       "so exactly no weight (decoder-only language models)"},
      {{MaskKind::none, MaskFill::minus_infinity}, "none, as in BERT",
       "every word sees every word, before and after it (bidirectional encoders such as BERT)"},
      {{MaskKind::causal, MaskFill::zero}, "causal with 0 instead of −∞",
       "the FAQ's mistake: causal, but hidden cells get the score 0 instead of -infinity; e^0 "
       "is 1, so weight leaks onto the later words"},
  }};
  return terms;
}

const std::array<ScaleTerm, 3>& scale_terms() {
  static constexpr std::array<ScaleTerm, 3> terms = {{
      {ScaleKind::sqrt_head_dim, "√d_k", "÷ √dₖ",
       "divide by √d_k: keeps the spread of the scores near 1 whatever head_dim is"},
      {ScaleKind::head_dim, "d_k", "÷ dₖ",
       "divide by d_k: over-corrects; the spread shrinks as 1/√d_k and the weights go flat"},
      {ScaleKind::none, "1", "none",
       "no scaling: the spread grows as √d_k and the softmax saturates onto one word"},
  }};
  return terms;
}

}  // namespace attn
