// The article's inputs, in one place: the CLI, the wasm module (and so the page) and the tests
// all read them from here. Outputs are never stored here; they are computed.
#pragma once

#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn::article {

// The article's walkthrough: one head, head_dim 4, the two words "the cat", causal mask.
AttentionInput two_words();

// Our own example on four words, "the cat sat on" (head_dim 4, causal), chosen so that row 2
// ("cat") splits 0.784 / 0.216 as the article quotes.
AttentionInput four_words();

// The rows of the four-word grid whose softmax the walkthrough works out in full.
std::vector<std::size_t> four_words_worked_rows();

// Our own three-word vocabulary for the step-6 demonstration: out[cat] is scored against each
// word's vector and "sat" takes 55 %. A demonstration only, not how a real model predicts.
struct Vocabulary {
  std::vector<std::string> words;  // [W]
  Matrix vectors;                  // [W][d]
};
Vocabulary vocabulary();

}  // namespace attn::article
