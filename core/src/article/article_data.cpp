// The one data file of the article's inputs. Outputs are never written here: the core computes
// them and article_claims.cpp checks them against what the article prints.
#include "attention/article/article_data.h"

namespace attn::article {

AttentionInput two_words() {
  AttentionInput input;
  input.tokens = {"the", "cat"};
  input.q = matrix_from_rows({
      {0.3f, -0.2f, 0.5f, 0.1f},   // the
      {1.1f, -0.8f, 0.2f, 0.3f},   // cat
  });
  input.k = matrix_from_rows({
      {-0.4f, -0.3f, 0.2f, 1.2f},  // the
      {1.6f, -0.7f, -0.4f, -0.5f}, // cat
  });
  input.v = matrix_from_rows({
      {-0.5f, -0.4f, 0.1f, 1.1f},  // the
      {1.2f, -0.3f, -0.2f, -0.6f}, // cat
  });
  input.mask = MaskKind::causal;
  return input;
}

// Our own numbers, picked on a one-decimal grid so that the "cat" row splits 0.784 / 0.216 and
// no row of the grid is dominated by a single token.
AttentionInput four_words() {
  AttentionInput input;
  input.tokens = {"the", "cat", "sat", "on"};
  input.q = matrix_from_rows({
      {-1.1f, -1.1f, -1.1f, -0.8f},  // the
      {-0.7f, 0.8f, 0.7f, -0.3f},    // cat
      {-0.9f, 0.8f, -0.2f, 1.0f},    // sat
      {0.0f, -0.5f, -0.2f, -1.1f},   // on
  });
  input.k = matrix_from_rows({
      {-0.7f, 0.3f, -0.1f, -0.8f},   // the
      {1.1f, -0.7f, -0.2f, 0.7f},    // cat
      {-0.4f, -0.1f, -0.3f, 1.0f},   // sat
      {0.2f, 0.0f, 1.1f, -0.8f},     // on
  });
  input.v = matrix_from_rows({
      {0.4f, -0.6f, 0.9f, 0.1f},     // the
      {-0.3f, 1.0f, 0.2f, -0.8f},    // cat
      {0.7f, 0.2f, -0.5f, 0.6f},     // sat
      {-0.9f, 0.3f, 0.4f, 0.5f},     // on
  });
  input.mask = MaskKind::causal;
  return input;
}

// "cat" (two live cells, the 0.784 / 0.216 split) and "on" (all four live).
std::vector<std::size_t> four_words_worked_rows() { return {1, 3}; }

Vocabulary vocabulary() {
  Vocabulary vocab;
  vocab.words = {"sat", "ran", "is"};
  vocab.vectors = matrix_from_rows({
      {1.5f, -0.5f, 0.0f, 0.5f},   // sat
      {0.5f, 0.5f, -0.5f, 0.0f},   // ran
      {0.5f, 0.0f, -0.8f, 1.0f},   // is
  });
  return vocab;
}

}  // namespace attn::article
