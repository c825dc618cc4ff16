// The register-blocked attention kernel, written once against the vector vocabulary and
// instantiated per backend in kernel_registry.cpp.
//
// Query rows are taken 64 at a time (a group) and, inside a group, 4 at a time (a block: one
// row per lane of a score vector). For each tile of keys:
//   1. the tile's keys are packed into panels of 8 keys, component-major ([c][8]), so that a
//      block's scores against 8 keys are an outer product: per component, two key vectors
//      times four broadcast query components into eight accumulators, with no horizontal sums.
//      The block's query rows are packed the same way ([c][4]) and pre-divided by √d. A 4×4
//      transpose then stores the scores key-major: scores[j] = {row 0..3 against key j};
//   2. under the causal mask, keys after the block are never touched, and the few keys inside
//      the block that a row may not see are set to -infinity;
//   3. softmax with a running max and a running total per row (online softmax): when a tile
//      of keys raises the max, the partial total and the partial output are rescaled by
//      e^(old max - new max);
//   4. the block's output rows accumulate probability × value rows, eight columns at a time.
// Both inner loops hold 8 accumulators and load 6 registers per 16 multiplies and adds, and
// walk their operands by pointer increments, so the engine spends few instructions on
// addresses (WebAssembly has no fused multiply-add; the loops are bound by issue width).
//
// With tile_keys = 0 the whole visible row is one tile, the keys are packed once for the whole
// call, and step 3 is a plain softmax. With a tile size (FlashAttention's schedule) every group
// packs each tile of keys once and all its blocks share it while it is in cache; the scratch
// memory then stays about 2·64·d + 72·d floats however long the sequence is. The query rows are
// packed first, so `out` may alias `q`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "attention/attention_input.h"
#include "vec_exp.h"

namespace attn::detail {

inline constexpr std::size_t block_rows = 4;   // query rows per block: the lanes of a score vector
inline constexpr std::size_t panel_keys = 8;   // keys per score panel: two vectors
inline constexpr std::size_t group_rows = 64;  // query rows sharing each packed tile of keys

inline std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

inline std::size_t blocked_scratch_floats(std::size_t token_count, std::size_t head_dim,
                                          std::size_t tile_keys) {
  const std::size_t tile = round_up(tile_keys ? std::min(tile_keys, token_count) : token_count,
                                    panel_keys);
  const std::size_t group = std::min(group_rows, round_up(token_count, block_rows));
  // query panels + output rows, running max + total, key panels, key-major scores
  return 2 * group * head_dim + 2 * group + tile * head_dim + tile * block_rows;
}

inline bool blocked_supports(std::size_t /*token_count*/, std::size_t head_dim) {
  return head_dim % 4 == 0;
}

// Keys [first, end) of `k` into their panels (key j goes to panel j / 8, lane j % 8), and zeros
// for the keys from `end` up to the next multiple of 8. `first` is a multiple of 8.
inline void pack_key_panels(float* panels, const float* k, std::size_t first, std::size_t end,
                            std::size_t head_dim) {
  for (std::size_t j = first; j < round_up(end, panel_keys); ++j) {
    float* lane = panels + (j / panel_keys) * panel_keys * head_dim + j % panel_keys;
    const float* key = k + j * head_dim;
    for (std::size_t c = 0; c < head_dim; ++c) lane[c * panel_keys] = j < end ? key[c] : 0.0f;
  }
}

// Query rows [first, first + 4) of `q` as one panel ([c][4]) divided by √d; rows past the
// last token are zeros (computed like the others, never written out).
inline void pack_query_panel(float* panel, const float* q, std::size_t first,
                             std::size_t token_count, std::size_t head_dim, float inverse_divisor) {
  for (std::size_t r = 0; r < block_rows; ++r) {
    const float* row = q + (first + r) * head_dim;
    for (std::size_t c = 0; c < head_dim; ++c)
      panel[c * block_rows + r] = first + r < token_count ? row[c] * inverse_divisor : 0.0f;
  }
}

// scores[j][0..3] = the block's four (pre-scaled) query rows against key j, for the key_count
// keys of `key_panels`, rounded up to whole panels (padding keys score 0).
template <class V>
void score_panels(float* scores, const float* query_panel, const float* key_panels,
                  std::size_t key_count, std::size_t head_dim) {
  using Reg = typename V::Reg;
  for (std::size_t j = 0; j < key_count; j += panel_keys) {
    Reg lo0 = V::zero(), lo1 = V::zero(), lo2 = V::zero(), lo3 = V::zero();  // keys j..j+3
    Reg hi0 = V::zero(), hi1 = V::zero(), hi2 = V::zero(), hi3 = V::zero();  // keys j+4..j+7
    const float* key = key_panels + j * head_dim;  // panel j / 8 starts 8·d floats per panel in
    const float* query = query_panel;
    for (std::size_t c = 0; c < head_dim; ++c, key += panel_keys, query += block_rows) {
      const Reg key_lo = V::load(key), key_hi = V::load(key + 4);
      Reg x = V::splat(query[0]);
      lo0 = V::mul_add(lo0, x, key_lo);
      hi0 = V::mul_add(hi0, x, key_hi);
      x = V::splat(query[1]);
      lo1 = V::mul_add(lo1, x, key_lo);
      hi1 = V::mul_add(hi1, x, key_hi);
      x = V::splat(query[2]);
      lo2 = V::mul_add(lo2, x, key_lo);
      hi2 = V::mul_add(hi2, x, key_hi);
      x = V::splat(query[3]);
      lo3 = V::mul_add(lo3, x, key_lo);
      hi3 = V::mul_add(hi3, x, key_hi);
    }
    // Row-major (one register per row) to key-major (one register per key).
    V::transpose4(lo0, lo1, lo2, lo3);
    V::transpose4(hi0, hi1, hi2, hi3);
    float* out = scores + j * block_rows;
    V::store(out, lo0);
    V::store(out + 4, lo1);
    V::store(out + 8, lo2);
    V::store(out + 12, lo3);
    V::store(out + 16, hi0);
    V::store(out + 20, hi1);
    V::store(out + 24, hi2);
    V::store(out + 28, hi3);
  }
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
  const float* value = v_rows + c;
  const float* p = probs;
  for (std::size_t j = 0; j < key_count; ++j, value += head_dim, p += block_rows) {
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
  const float* value = v_rows + c;
  const float* p = probs;
  for (std::size_t j = 0; j < key_count; ++j, value += head_dim, p += block_rows) {
    const Reg v0 = V::load(value);
    for (std::size_t r = 0; r < block_rows; ++r) acc[r] = V::mul_add(acc[r], V::splat(p[r]), v0);
  }
  for (std::size_t r = 0; r < block_rows; ++r) V::store(out_block + r * head_dim + c, acc[r]);
}

// One tile of keys [j0, j0 + n) for one block of four query rows starting at i0: scores from
// the packed panels, the causal mask inside the diagonal, the online softmax update of the
// block's running max and total, and the rescaled accumulation of the block's output rows.
template <class V>
void attend_block_tile(float* out_block, float* running_max, float* running_total,
                       float* probs, const float* query_panel, const float* key_panels,
                       const float* v, std::size_t i0, std::size_t j0, std::size_t n,
                       std::size_t d, MaskKind mask) {
  using Reg = typename V::Reg;
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

  // 1. Scores of this tile, key-major.
  score_panels<V>(probs, query_panel, key_panels, n, d);

  // 2. Inside the diagonal block, hide from row r the keys after i0 + r.
  const std::size_t first_hidden = std::max(j0, i0 + 1);
  const bool has_hidden = mask == MaskKind::causal && first_hidden < j0 + n;
  if (has_hidden)
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = minus_infinity;

  // 3. Online softmax: the new running max, the rescale of what came before, e^(s - max) and
  //    the tile's total.
  const Reg old_max = V::load(running_max);
  Reg tile_max = V::splat(minus_infinity);
  for (std::size_t j = 0; j < n; ++j) tile_max = V::max(tile_max, V::load(probs + j * block_rows));
  const Reg new_max = V::max(old_max, tile_max);
  const Reg rescale = exp_nonpositive<V>(V::sub(old_max, new_max));
  V::store(running_max, new_max);
  for (std::size_t j = 0; j < n; ++j) {
    float* p = probs + j * block_rows;
    V::store(p, exp_nonpositive<V>(V::sub(V::load(p), new_max)));
  }
  if (has_hidden)  // e^-inf is clamped inside exp_nonpositive; hidden keys get exactly 0
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = 0.0f;
  Reg tile_total = V::zero();
  for (std::size_t j = 0; j < n; ++j) tile_total = V::add(tile_total, V::load(probs + j * block_rows));
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
  const bool causal = mask == MaskKind::causal;
  const std::size_t tile = tile_keys ? std::min(tile_keys, T) : T;
  const std::size_t group = std::min(group_rows, round_up(T, block_rows));
  float* query_panels = scratch;                   // [group / 4][d][4] the group's query rows
  float* out_group = query_panels + group * d;     // [group][d] unnormalised output rows
  float* running_max = out_group + group * d;      // [group] per row
  float* running_total = running_max + group;      // [group] per row
  float* key_panels = running_total + group;       // [tile / 8][d][8] the keys being visited
  float* probs = key_panels + round_up(tile, panel_keys) * d;  // [tile][4] scores, probabilities
  const float inverse_divisor = 1.0f / std::sqrt(static_cast<float>(d));
  std::size_t keys_packed = 0;  // untiled: keys [0, keys_packed) are in key_panels for good

  for (std::size_t g0 = 0; g0 < T; g0 += group) {
    const std::size_t group_end = std::min(T, g0 + group);
    const std::size_t group_visible = causal ? group_end : T;
    for (std::size_t i0 = g0; i0 < group_end; i0 += block_rows)
      pack_query_panel(query_panels + (i0 - g0) * d, q, i0, T, d, inverse_divisor);
    std::fill(out_group, out_group + group * d, 0.0f);
    std::fill(running_max, running_max + group, -std::numeric_limits<float>::infinity());
    std::fill(running_total, running_total + group, 0.0f);

    for (std::size_t j0 = 0; j0 < group_visible; j0 += tile) {
      const std::size_t tile_end = std::min(group_visible, j0 + tile);
      if (tile_keys) {
        pack_key_panels(key_panels, k + j0 * d, 0, tile_end - j0, d);
      } else if (keys_packed < tile_end) {  // j0 = 0: the panels accumulate across groups
        pack_key_panels(key_panels, k, keys_packed, tile_end, d);
        keys_packed = tile_end;
      }
      for (std::size_t i0 = g0; i0 < group_end; i0 += block_rows) {
        // Under the causal mask a block never sees past its own last row.
        const std::size_t visible = causal ? std::min(T, i0 + block_rows) : T;
        if (j0 >= visible) continue;
        const std::size_t b = i0 - g0;
        attend_block_tile<V>(out_group + b * d, running_max + b, running_total + b, probs,
                             query_panels + b * d, key_panels, v, i0, j0,
                             std::min(tile_end, visible) - j0, d, mask);
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
