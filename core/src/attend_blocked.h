// The register-blocked attention kernel, written once against the vector vocabulary and
// instantiated per backend in kernel_registry.cpp.
//
// Four query rows at a time, one per vector lane of the score vectors:
//   1. scores of the block's rows against two keys at a time (eight accumulators), reduced to
//      one vector per key: scores[j] = {q_r · k_j / √d for r in 0..3}, stored key-major;
//   2. under the causal mask, keys after the block are never touched, and the few keys inside
//      the block that a row may not see are set to -infinity;
//   3. softmax with a running max and a running total per row (online softmax): when a tile
//      of keys raises the max, the partial total and the partial output are rescaled by
//      e^(old max - new max);
//   4. the block's output rows accumulate probability × value rows, eight columns at a time.
// With tile_keys = 0 the whole visible row is one tile and step 3 is a plain softmax. With a
// tile size (FlashAttention's schedule), 64 query rows share each tile of keys and values while
// it is in cache, and the scratch memory stays 128·d + 128 + 4·tile floats however long the
// sequence is. The query rows are copied first, so `out` may alias `q`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "attention/attention_input.h"
#include "vec_exp.h"

namespace attn::detail {

inline constexpr std::size_t block_rows = 4;

// Tiled kernels walk the keys once per group of query rows rather than once per block of four:
// each tile of keys and values is then read from cache by every block of the group. The group
// holds its query rows, output rows and softmax state in scratch.
inline std::size_t group_rows_for(std::size_t tile_keys) { return tile_keys ? 64 : block_rows; }

inline std::size_t blocked_scratch_floats(std::size_t token_count, std::size_t head_dim,
                                          std::size_t tile_keys) {
  const std::size_t tile = tile_keys ? std::min(tile_keys, token_count) : token_count;
  const std::size_t group = group_rows_for(tile_keys);
  return 2 * group * head_dim + 2 * group + block_rows * tile;
}

inline bool blocked_supports(std::size_t /*token_count*/, std::size_t head_dim) {
  return head_dim % 4 == 0;
}

// scores[0..3] and scores[4..7]: the four block rows against keys k0 and k1.
template <class V>
void score_two_keys(float* scores, const float* query_block, const float* k0, const float* k1,
                    std::size_t head_dim, typename V::Reg inverse_divisor) {
  using Reg = typename V::Reg;
  Reg s00 = V::zero(), s01 = V::zero(), s10 = V::zero(), s11 = V::zero();
  Reg s20 = V::zero(), s21 = V::zero(), s30 = V::zero(), s31 = V::zero();
  const float* q0 = query_block;
  const float* q1 = q0 + head_dim;
  const float* q2 = q1 + head_dim;
  const float* q3 = q2 + head_dim;
  for (std::size_t c = 0; c < head_dim; c += 4) {
    const Reg key0 = V::load(k0 + c), key1 = V::load(k1 + c);
    Reg x = V::load(q0 + c);
    s00 = V::mul_add(s00, x, key0);
    s01 = V::mul_add(s01, x, key1);
    x = V::load(q1 + c);
    s10 = V::mul_add(s10, x, key0);
    s11 = V::mul_add(s11, x, key1);
    x = V::load(q2 + c);
    s20 = V::mul_add(s20, x, key0);
    s21 = V::mul_add(s21, x, key1);
    x = V::load(q3 + c);
    s30 = V::mul_add(s30, x, key0);
    s31 = V::mul_add(s31, x, key1);
  }
  V::store(scores, V::mul(V::reduce_add4(s00, s10, s20, s30), inverse_divisor));
  V::store(scores + block_rows, V::mul(V::reduce_add4(s01, s11, s21, s31), inverse_divisor));
}

template <class V>
void score_one_key(float* scores, const float* query_block, const float* k0,
                   std::size_t head_dim, typename V::Reg inverse_divisor) {
  using Reg = typename V::Reg;
  Reg s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero();
  for (std::size_t c = 0; c < head_dim; c += 4) {
    const Reg key = V::load(k0 + c);
    s0 = V::mul_add(s0, V::load(query_block + c), key);
    s1 = V::mul_add(s1, V::load(query_block + head_dim + c), key);
    s2 = V::mul_add(s2, V::load(query_block + 2 * head_dim + c), key);
    s3 = V::mul_add(s3, V::load(query_block + 3 * head_dim + c), key);
  }
  V::store(scores, V::mul(V::reduce_add4(s0, s1, s2, s3), inverse_divisor));
}

// out_block[r][c..c+8) = out_block[r][c..c+8) · rescale[r] + Σ_j probs[j][r] · v_j[c..c+8)
template <class V>
void mix_eight_columns(float* out_block, const float* probs, const float* v_rows,
                       std::size_t key_count, std::size_t head_dim, std::size_t c,
                       const float* rescale) {
  using Reg = typename V::Reg;
  float* o0 = out_block + c;
  float* o1 = o0 + head_dim;
  float* o2 = o1 + head_dim;
  float* o3 = o2 + head_dim;
  Reg a00 = V::mul(V::load(o0), V::splat(rescale[0])), a01 = V::mul(V::load(o0 + 4), V::splat(rescale[0]));
  Reg a10 = V::mul(V::load(o1), V::splat(rescale[1])), a11 = V::mul(V::load(o1 + 4), V::splat(rescale[1]));
  Reg a20 = V::mul(V::load(o2), V::splat(rescale[2])), a21 = V::mul(V::load(o2 + 4), V::splat(rescale[2]));
  Reg a30 = V::mul(V::load(o3), V::splat(rescale[3])), a31 = V::mul(V::load(o3 + 4), V::splat(rescale[3]));
  for (std::size_t j = 0; j < key_count; ++j) {
    const float* value = v_rows + j * head_dim + c;
    const float* p = probs + j * block_rows;
    const Reg v0 = V::load(value), v1 = V::load(value + 4);
    Reg w = V::splat(p[0]);
    a00 = V::mul_add(a00, w, v0);
    a01 = V::mul_add(a01, w, v1);
    w = V::splat(p[1]);
    a10 = V::mul_add(a10, w, v0);
    a11 = V::mul_add(a11, w, v1);
    w = V::splat(p[2]);
    a20 = V::mul_add(a20, w, v0);
    a21 = V::mul_add(a21, w, v1);
    w = V::splat(p[3]);
    a30 = V::mul_add(a30, w, v0);
    a31 = V::mul_add(a31, w, v1);
  }
  V::store(o0, a00); V::store(o0 + 4, a01);
  V::store(o1, a10); V::store(o1 + 4, a11);
  V::store(o2, a20); V::store(o2 + 4, a21);
  V::store(o3, a30); V::store(o3 + 4, a31);
}

// The same for the last four columns when head_dim is an odd multiple of four.
template <class V>
void mix_four_columns(float* out_block, const float* probs, const float* v_rows,
                      std::size_t key_count, std::size_t head_dim, std::size_t c,
                      const float* rescale) {
  using Reg = typename V::Reg;
  Reg acc[block_rows];
  for (std::size_t r = 0; r < block_rows; ++r)
    acc[r] = V::mul(V::load(out_block + r * head_dim + c), V::splat(rescale[r]));
  for (std::size_t j = 0; j < key_count; ++j) {
    const Reg value = V::load(v_rows + j * head_dim + c);
    for (std::size_t r = 0; r < block_rows; ++r)
      acc[r] = V::mul_add(acc[r], V::splat(probs[j * block_rows + r]), value);
  }
  for (std::size_t r = 0; r < block_rows; ++r) V::store(out_block + r * head_dim + c, acc[r]);
}

// One tile of keys [j0, j0 + n) for one block of four query rows: scores, the causal mask inside
// the diagonal, the online softmax update of the block's running max and total, and the
// rescaled accumulation of the block's output rows.
template <class V>
void attend_block_tile(float* out_block, float* running_max, float* running_total,
                       float* probs, const float* query_block, const float* k, const float* v,
                       std::size_t i0, std::size_t j0, std::size_t n, std::size_t d,
                       MaskKind mask, typename V::Reg inverse_divisor) {
  using Reg = typename V::Reg;
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();
  const float* keys = k + j0 * d;

  // 1. Scores of this tile, key-major.
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2)
    score_two_keys<V>(probs + j * block_rows, query_block, keys + j * d, keys + (j + 1) * d, d,
                      inverse_divisor);
  if (j < n) score_one_key<V>(probs + j * block_rows, query_block, keys + j * d, d, inverse_divisor);

  // 2. Inside the diagonal block, hide from row r the keys after i0 + r.
  const std::size_t first_hidden = std::max(j0, i0 + 1);
  const bool has_hidden = mask == MaskKind::causal && first_hidden < j0 + n;
  if (has_hidden)
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = minus_infinity;

  // 3. Online softmax: the new running max, the rescale of what came before, e^(s - max).
  const Reg old_max = V::load(running_max);
  Reg tile_max = V::splat(minus_infinity);
  for (j = 0; j < n; ++j) tile_max = V::max(tile_max, V::load(probs + j * block_rows));
  const Reg new_max = V::max(old_max, tile_max);
  const Reg rescale = exp_nonpositive<V>(V::sub(old_max, new_max));
  V::store(running_max, new_max);
  for (j = 0; j < n; ++j) {
    float* p = probs + j * block_rows;
    V::store(p, exp_nonpositive<V>(V::sub(V::load(p), new_max)));
  }
  if (has_hidden)  // e^-inf is clamped inside exp_nonpositive; hidden keys get exactly 0
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = 0.0f;
  Reg tile_total = V::zero();
  for (j = 0; j < n; ++j) tile_total = V::add(tile_total, V::load(probs + j * block_rows));
  V::store(running_total, V::mul_add(tile_total, V::load(running_total), rescale));

  // 4. The block's output rows: rescale, then add this tile's probability × value rows.
  float rescale_rows[block_rows];
  V::store(rescale_rows, rescale);
  std::size_t c = 0;
  for (; c + 8 <= d; c += 8) mix_eight_columns<V>(out_block, probs, v + j0 * d, n, d, c, rescale_rows);
  if (c < d) mix_four_columns<V>(out_block, probs, v + j0 * d, n, d, c, rescale_rows);
}

// Precondition: blocked_supports(token_count, head_dim); scratch holds
// blocked_scratch_floats(token_count, head_dim, tile_keys) floats.
template <class V>
void attend_blocked(float* out, const float* q, const float* k, const float* v,
                    std::size_t token_count, std::size_t head_dim, MaskKind mask, float* scratch,
                    std::size_t tile_keys) {
  using Reg = typename V::Reg;
  const std::size_t T = token_count, d = head_dim;
  const std::size_t tile = tile_keys ? std::min(tile_keys, T) : T;
  const std::size_t group = group_rows_for(tile_keys);
  float* query_group = scratch;                    // [group][d] the group's query rows
  float* out_group = query_group + group * d;      // [group][d] unnormalised output rows
  float* running_max = out_group + group * d;      // [group] per row
  float* running_total = running_max + group;      // [group] per row
  float* probs = running_total + group;            // [tile][4] scores, then probabilities
  const Reg inverse_divisor = V::splat(1.0f / std::sqrt(static_cast<float>(d)));

  for (std::size_t g0 = 0; g0 < T; g0 += group) {
    // Rows past the end repeat the last row: computed, never written out.
    for (std::size_t r = 0; r < group; ++r)
      std::memcpy(query_group + r * d, q + std::min(g0 + r, T - 1) * d, d * sizeof(float));
    std::fill(out_group, out_group + group * d, 0.0f);
    std::fill(running_max, running_max + group, -std::numeric_limits<float>::infinity());
    std::fill(running_total, running_total + group, 0.0f);
    const std::size_t group_end = std::min(T, g0 + group);
    const std::size_t group_visible = mask == MaskKind::causal ? group_end : T;

    for (std::size_t j0 = 0; j0 < group_visible; j0 += tile) {
      for (std::size_t i0 = g0; i0 < group_end; i0 += block_rows) {
        // Under the causal mask a block never sees past its own last row.
        const std::size_t visible = mask == MaskKind::causal ? std::min(T, i0 + block_rows) : T;
        if (j0 >= visible) continue;
        const std::size_t b = i0 - g0;
        attend_block_tile<V>(out_group + b * d, running_max + b, running_total + b, probs,
                             query_group + b * d, k, v, i0, j0, std::min(tile, visible - j0), d,
                             mask, inverse_divisor);
      }
    }

    for (std::size_t i = g0; i < group_end; ++i) {
      const std::size_t r = i - g0;
      const Reg inverse_total = V::splat(1.0f / running_total[r]);
      for (std::size_t c = 0; c < d; c += 4)
        V::store(out + i * d + c, V::mul(V::load(out_group + r * d + c), inverse_total));
    }
  }
}

}  // namespace attn::detail
