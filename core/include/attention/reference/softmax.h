// Softmax of one row as the walkthrough shows it: exponentials, total, weights. Shared by the
// trace (step 4) and the vocabulary demonstration (step 6).
#pragma once

#include <cstddef>

namespace attn {

struct SoftmaxRowResult {
  float max = 0.0f;      // largest finite input of the row
  bool shifted = false;  // exponentials are e^(x - max) because e^x did not fit a float
  float total = 0.0f;    // sum of the exponentials as stored
};

// x: [n] inputs, -infinity for masked entries (at least one entry must be finite).
// exponentials, weights: [n] outputs; masked entries get exactly 0.
SoftmaxRowResult softmax_row(float* exponentials, float* weights, const float* x, std::size_t n);

// The two parts of softmax_row that its weights come from, for callers that need only the
// weights (the head_dim study, whose thousands of rows would otherwise compute every e^x twice):
// the row's largest finite input, and the weights from e^(x - max), bit for bit softmax_row's.
// softmax_weights_row returns the total of the shifted exponentials.
float softmax_row_max(const float* x, std::size_t n);
float softmax_weights_row(float* weights, const float* x, float max, std::size_t n);

}  // namespace attn
