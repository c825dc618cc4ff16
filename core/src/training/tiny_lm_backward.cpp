// The backward pass of the model (tiny_lm.h): the forward's passes undone in reverse order, each
// adding its parameters' gradients. For a loss L, d_y below is ∂L/∂y.
#include <vector>

#include "attention/reference/softmax_backward.h"
#include "attention/training/tiny_lm.h"

namespace attn::training {

namespace {

// Buffers reused from sentence to sentence, so a training step allocates nothing once warm.
struct BackwardScratch {
  std::vector<float> d_logits;    // [V]
  std::vector<float> d_residual;  // [T][d_model]
  std::vector<float> d_concat;    // [T][d_model]
  std::vector<float> d_x;         // [T][d_model]
  std::vector<float> d_q, d_k, d_v;  // [T][head_dim] of one head
  std::vector<float> d_weights;   // [T] one row
  std::vector<float> d_scaled;    // [T] one row
};

// For out [T][cols] = x [T][inner] · w [inner][cols] and d_out: d_w += xᵀ · d_out and
// d_x += d_out · wᵀ.
void project_backward(const Matrix& x, const Matrix& w, const float* d_out, Matrix& d_w,
                      float* d_x) {
  const std::size_t inner = x.cols, cols = w.cols;
  for (std::size_t t = 0; t < x.rows; ++t) {
    const float* d_out_t = d_out + t * cols;
    for (std::size_t a = 0; a < inner; ++a) {
      const float x_ta = x.at(t, a);
      float* d_w_a = d_w.row(a);
      const float* w_a = w.row(a);
      // Two loops: the first vectorises; the second is a sum, kept in order.
      for (std::size_t c = 0; c < cols; ++c) d_w_a[c] += x_ta * d_out_t[c];
      float sum = 0.0f;
      for (std::size_t c = 0; c < cols; ++c) sum += w_a[c] * d_out_t[c];
      d_x[t * inner + a] += sum;
    }
  }
}

// One head of part one's attention: from d_out [T][head_dim] (a column block of d_concat, row
// stride `stride`) to d_q, d_k, d_v [T][head_dim].
void attention_backward(const Trace& trace, const float* d_out, std::size_t stride,
                        BackwardScratch& scratch) {
  const std::size_t T = trace.token_count, hd = trace.head_dim;
  scratch.d_q.assign(T * hd, 0.0f);
  scratch.d_k.assign(T * hd, 0.0f);
  scratch.d_v.assign(T * hd, 0.0f);
  scratch.d_weights.assign(T, 0.0f);
  scratch.d_scaled.assign(T, 0.0f);
  for (std::size_t i = 0; i < T; ++i) {
    const float* d_out_i = d_out + i * stride;
    // Step 5 backward: out_i = Σ_j p_ij v_j, so d_v_j += p_ij d_out_i and d_p_ij = d_out_i · v_j.
    // Hidden cells (j > i) have p_ij = 0 and pass nothing back.
    for (std::size_t j = 0; j < T; ++j) {
      scratch.d_weights[j] = 0.0f;
      if (!is_visible(trace.mask, i, j)) continue;
      const float p_ij = trace.weights.at(i, j);
      float dot = 0.0f;
      for (std::size_t c = 0; c < hd; ++c) {
        scratch.d_v[j * hd + c] += p_ij * d_out_i[c];
        dot += d_out_i[c] * trace.v.at(j, c);
      }
      scratch.d_weights[j] = dot;
    }
    // Step 4 backward: the softmax's own backward pass, p_j (g_j − g·p).
    softmax_backward_row(scratch.d_scaled.data(), trace.weights.row(i), scratch.d_weights.data(), T);
    // Steps 3 and 2 backward: the mask passes nothing to hidden cells (their d_scaled is 0), and
    // scaled = scores / divisor. Step 1 backward: scores_ij = q_i · k_j.
    for (std::size_t j = 0; j <= i && j < T; ++j) {
      const float d_score = scratch.d_scaled[j] / trace.scale_divisor;
      for (std::size_t c = 0; c < hd; ++c) {
        scratch.d_q[i * hd + c] += d_score * trace.k.at(j, c);
        scratch.d_k[j * hd + c] += d_score * trace.q.at(i, c);
      }
    }
  }
}

}  // namespace

void backward_sentence(const Parameters& parameters, const ModelShape& shape,
                       const Sentence& sentence, const SentenceActivations& activations,
                       float loss_scale, Parameters& gradients) {
  thread_local BackwardScratch scratch;
  const std::size_t T = sentence.size(), d = shape.d_model, hd = shape.head_dim();
  const std::size_t V = shape.vocabulary;
  scratch.d_logits.assign(V, 0.0f);
  scratch.d_residual.assign(T * d, 0.0f);
  scratch.d_concat.assign(T * d, 0.0f);
  scratch.d_x.assign(T * d, 0.0f);

  // Pass 5 backward: the mean cross-entropy's gradient at the logits is (p_t − onehot(w_{t+1}))
  // times loss_scale; the last position predicts nothing. logits_t = h_t · U + b gives d_b,
  // d_U and d_h_t = U · d_logits_t.
  for (std::size_t t = 0; t + 1 < T; ++t) {
    const float* p_t = activations.probabilities.row(t);
    const float* h_t = activations.residual.row(t);
    for (std::size_t v = 0; v < V; ++v)
      scratch.d_logits[v] = (p_t[v] - (v == sentence[t + 1] ? 1.0f : 0.0f)) * loss_scale;
    for (std::size_t v = 0; v < V; ++v) gradients.bias[v] += scratch.d_logits[v];
    for (std::size_t c = 0; c < d; ++c) {
      float* d_u_c = gradients.unembedding.row(c);
      const float* u_c = parameters.unembedding.row(c);
      for (std::size_t v = 0; v < V; ++v) d_u_c[v] += h_t[c] * scratch.d_logits[v];
      float sum = 0.0f;
      for (std::size_t v = 0; v < V; ++v) sum += u_c[v] * scratch.d_logits[v];
      scratch.d_residual[t * d + c] = sum;
    }
  }

  // Pass 4 backward: h = x + concat · W_O. The residual hands d_h to x unchanged; the product
  // gives d_W_O and d_concat.
  scratch.d_x = scratch.d_residual;
  project_backward(activations.concat, parameters.w_o, scratch.d_residual.data(), gradients.w_o,
                   scratch.d_concat.data());

  // Passes 3 and 2 backward: each head's columns of d_concat through its attention, then
  // through its projections Q = x·W_Q, K = x·W_K, V = x·W_V into d_W and d_x.
  for (std::size_t h = 0; h < shape.n_heads; ++h) {
    const Trace& trace = activations.heads[h];
    attention_backward(trace, scratch.d_concat.data() + h * hd, d, scratch);
    project_backward(activations.x, parameters.w_q[h], scratch.d_q.data(), gradients.w_q[h], scratch.d_x.data());
    project_backward(activations.x, parameters.w_k[h], scratch.d_k.data(), gradients.w_k[h], scratch.d_x.data());
    project_backward(activations.x, parameters.w_v[h], scratch.d_v.data(), gradients.w_v[h], scratch.d_x.data());
  }

  // Pass 1 backward: x_t = E[w_t] + P[t] hands d_x_t to both rows.
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t c = 0; c < d; ++c) {
      gradients.embedding.at(sentence[t], c) += scratch.d_x[t * d + c];
      gradients.position.at(t, c) += scratch.d_x[t * d + c];
    }
}

}  // namespace attn::training
