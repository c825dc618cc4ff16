// Step 6 of the walkthrough, a demonstration: score one output row against a vocabulary and
// turn the scores into probabilities with the same softmax as step 4.
#pragma once

#include <cstddef>
#include <vector>

#include "attention/article/article_data.h"

namespace attn {

struct NextWordScores {
  std::vector<float> logits;         // [W] row · vocabulary.vectors[w]
  std::vector<float> exponentials;   // [W]
  float total = 0.0f;
  bool shifted = false;
  std::vector<float> probabilities;  // [W]
  float probability_sum = 0.0f;      // the probabilities added up: the check that they make 1
  std::size_t most_likely = 0;       // index of the largest probability (the first, on a tie)
};

// row: [d], d == vocabulary.vectors.cols.
NextWordScores score_next_word(const float* row, const article::Vocabulary& vocabulary);

}  // namespace attn
