#include "attention/article/next_word.h"

#include "attention/reference/softmax.h"

namespace attn {

NextWordScores score_next_word(const float* row, const article::Vocabulary& vocabulary) {
  const std::size_t word_count = vocabulary.words.size();
  const std::size_t d = vocabulary.vectors.cols;
  NextWordScores result;
  result.logits.assign(word_count, 0.0f);
  for (std::size_t w = 0; w < word_count; ++w)
    for (std::size_t c = 0; c < d; ++c) result.logits[w] += row[c] * vocabulary.vectors.at(w, c);

  result.exponentials.assign(word_count, 0.0f);
  result.probabilities.assign(word_count, 0.0f);
  const SoftmaxRowResult softmax = softmax_row(result.exponentials.data(),
                                               result.probabilities.data(),
                                               result.logits.data(), word_count);
  result.total = softmax.total;
  result.shifted = softmax.shifted;
  double sum = 0.0;
  for (std::size_t w = 0; w < word_count; ++w) {
    sum += result.probabilities[w];
    if (result.probabilities[w] > result.probabilities[result.most_likely]) result.most_likely = w;
  }
  result.probability_sum = static_cast<float>(sum);
  return result;
}

}  // namespace attn
