// The one-query-row attention kernel, written once against the vector vocabulary (vec/f32x4_*.h) and
// instantiated per backend in kernel_registry.cpp. Per query row: scaled scores and their max,
// then e^(s - max) and the total, then the weighted sum of value rows, four floats at a time.
// Under the causal mask only the visible keys are touched at all.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "attention/reference/attention_input.h"

namespace attn::detail {

template <class V>
float dot_f32x4(const float* a, const float* b, std::size_t n) {
  const std::size_t vector_end = n - n % V::width;
  typename V::Reg acc = V::zero();
  for (std::size_t c = 0; c < vector_end; c += V::width)
    acc = V::mul_add(acc, V::load(a + c), V::load(b + c));
  float sum = V::reduce_add(acc);
  for (std::size_t c = vector_end; c < n; ++c) sum += a[c] * b[c];
  return sum;
}

// out[0..n) += weight * row[0..n)
template <class V>
void accumulate_scaled_f32x4(float* out, const float* row, float weight, std::size_t n) {
  const std::size_t vector_end = n - n % V::width;
  const typename V::Reg w = V::splat(weight);
  for (std::size_t c = 0; c < vector_end; c += V::width)
    V::store(out + c, V::mul_add(V::load(out + c), w, V::load(row + c)));
  for (std::size_t c = vector_end; c < n; ++c) out[c] += weight * row[c];
}

template <class V>
bool attend_f32x4(float* out, const float* q, const float* k, const float* v,
                  std::size_t token_count, std::size_t head_dim, MaskKind mask, float* scratch) {
  if (!qkv_within_limit(q, k, v, token_count * head_dim)) return false;
  const float inverse_divisor = 1.0f / std::sqrt(static_cast<float>(head_dim));
  for (std::size_t i = 0; i < token_count; ++i) {
    const float* query_i = q + i * head_dim;
    const std::size_t visible = mask == MaskKind::causal ? i + 1 : token_count;
    float* scaled_scores = scratch;  // [visible]

    // Pass 1: scaled scores of the visible keys and their max.
    float row_max = -std::numeric_limits<float>::infinity();
    for (std::size_t j = 0; j < visible; ++j) {
      scaled_scores[j] = dot_f32x4<V>(query_i, k + j * head_dim, head_dim) * inverse_divisor;
      if (scaled_scores[j] > row_max) row_max = scaled_scores[j];
    }

    // Pass 2: shifted exponentials (each in (0, 1], so the total cannot overflow).
    float total = 0.0f;
    for (std::size_t j = 0; j < visible; ++j) {
      scaled_scores[j] = std::exp(scaled_scores[j] - row_max);
      total += scaled_scores[j];
    }

    // Pass 3: out_i = Σ_j (e_j / total) · v_j.
    float* out_i = out + i * head_dim;
    for (std::size_t c = 0; c < head_dim; ++c) out_i[c] = 0.0f;
    const float inverse_total = 1.0f / total;
    for (std::size_t j = 0; j < visible; ++j)
      accumulate_scaled_f32x4<V>(out_i, v + j * head_dim, scaled_scores[j] * inverse_total,
                                 head_dim);
  }
  return true;
}

}  // namespace attn::detail
