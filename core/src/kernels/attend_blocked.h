// The register-blocked attention kernel, written once against the vector vocabulary and
// instantiated per backend in kernel_registry.cpp.
//
// Query rows are taken a group at a time (256 rows in the registered kernels) and, inside a
// group, 4 at a time (a block: one row per lane of a score vector). For each tile of keys:
//   1. the tile's keys are packed into panels of 8 keys, component-major ([c][8]), so that a
//      block's scores against 8 keys are an outer product: per component, two key vectors
//      times four broadcast query components into eight accumulators, with no horizontal sums.
//      The block's query rows are packed the same way ([c][4]) and pre-divided by √d. A 4×4
//      transpose then stores the scores key-major: scores[j] = {row 0..3 against key j}. The
//      tile's values are packed too, eight columns of all its keys at a time, so that the mix
//      of step 4 reads them one after the other;
//   2. under the causal mask, keys after the block are never touched, and the few keys inside
//      the block that a row may not see are set to -infinity;
//   3. softmax with a running max and a running total per row (online softmax): when a tile
//      of keys raises the max, the partial total and the partial output are rescaled by
//      e^(old max - new max). The max of the keys every row sees is taken while their scores
//      are still in registers, the total inside the e^x pass;
//   4. the block's output rows accumulate probability × value rows, eight columns at a time.
// Both inner loops hold 8 accumulators, load 6 registers per 16 multiplies and adds, read
// their operands contiguously and walk them by pointer up to an end pointer, so the engine
// spends few instructions on addresses. WebAssembly has no fused multiply-add: measured under
// V8, the loops then run at about nine tenths of the machine's multiply-and-add peak, and 4×8
// is the largest block that fits the 16 vector registers.
//
// With tile_keys = 0 the whole visible row is one tile, the keys and values are packed once
// for the whole call, and step 3 is a plain softmax. With a tile size (FlashAttention's
// schedule) every group packs each tile of keys and values once and all its blocks share them
// while they are in cache; the scratch memory then stays about 2·(group + tile)·d floats
// however long the sequence is. The larger the group, the fewer times each key is packed: at
// T = 32 768, d = 64, 256-row groups over 256-key tiles run 12 % faster than 64 over 64. The
// query rows are packed first, so `out` may alias `q`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "attention/reference/attention_input.h"
#include "kernels/vec_exp.h"

namespace attn::detail {

inline constexpr std::size_t block_rows = 4;   // query rows per block: the lanes of a score vector
inline constexpr std::size_t panel_keys = 8;   // keys per score panel: two vectors

// How the query rows and the keys are taken: group_rows (a multiple of 8) query rows share each
// packed tile of tile_keys keys; tile_keys = 0: the whole visible row is one tile.
struct BlockedSchedule {
  std::size_t group_rows;
  std::size_t tile_keys;
};

inline std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

inline std::size_t blocked_scratch_floats(std::size_t token_count, std::size_t head_dim,
                                          BlockedSchedule schedule) {
  const std::size_t tile = round_up(
      schedule.tile_keys ? std::min(schedule.tile_keys, token_count) : token_count, panel_keys);
  const std::size_t group = std::min(schedule.group_rows, round_up(token_count, block_rows));
  // query panels + output rows, running max + total, key and value panels, key-major scores
  return 2 * group * head_dim + 2 * group + 2 * tile * head_dim + tile * block_rows;
}

inline bool blocked_supports(std::size_t /*token_count*/, std::size_t head_dim) {
  return head_dim % 4 == 0;
}

// The range check of the untiled kernel, made while it packs its operands (the values are in
// registers then): `seen` takes every vector packed, the rows packed one float at a time are
// checked as they are. ok() tells whether every value was finite and within ±max_abs_float.
template <class V>
struct PackCheck {
  typename V::Reg seen = V::zero();
  typename V::Reg limit = V::range_limit(max_abs_float);
  bool rows_ok = true;

  void note(typename V::Reg x) { seen = V::range_note(seen, x, limit); }
  void note_rows(const float* values, std::size_t n) {
    rows_ok = values_within_limit(values, n) && rows_ok;
  }
  bool ok() const { return rows_ok && V::range_within(seen, limit); }
};

// Components [c, c + 4) of four rows `stride` floats apart (rows + c the first), turned by a
// 4×4 transpose into four vectors of one component each: column[i] = component c + i of the
// four rows. The range check notes the rows first when Check.
template <class V, bool Check>
void load_transposed4(const float* rows, std::size_t stride, typename V::Reg (&column)[4],
                      PackCheck<V>& check) {
  for (std::size_t r = 0; r < 4; ++r) column[r] = V::load(rows + r * stride);
  if constexpr (Check)
    for (const typename V::Reg& row : column) check.note(row);
  V::transpose4(column[0], column[1], column[2], column[3]);
}

// Keys [0, end) of `k` into their panels (key j goes to panel j / 8, lane j % 8), and zeros
// for the keys from `end` up to the next multiple of 8. Four keys at a time: a 4×4 transpose
// turns four components of four key rows into four panel rows.
template <class V, bool Check>
void pack_key_panels(float* panels, const float* k, std::size_t end, std::size_t head_dim,
                     PackCheck<V>& check) {
  using Reg = typename V::Reg;
  for (std::size_t j = 0; j < round_up(end, panel_keys); j += 4) {
    float* lanes = panels + (j / panel_keys) * panel_keys * head_dim + j % panel_keys;
    if (j + 4 <= end) {
      const float* key = k + j * head_dim;
      for (std::size_t c = 0; c < head_dim; c += 4) {
        Reg column[4];
        load_transposed4<V, Check>(key + c, head_dim, column, check);
        for (std::size_t i = 0; i < 4; ++i) V::store(lanes + (c + i) * panel_keys, column[i]);
      }
    } else {  // the last few keys, and the zero padding
      if constexpr (Check)
        if (j < end) check.note_rows(k + j * head_dim, (end - j) * head_dim);
      for (std::size_t l = 0; l < 4; ++l)
        for (std::size_t c = 0; c < head_dim; ++c)
          lanes[c * panel_keys + l] = j + l < end ? k[(j + l) * head_dim + c] : 0.0f;
    }
  }
}

// Value rows [0, end) of `v` into column panels: columns [c, c + 8) of every key as one
// contiguous run of 8-float rows, at panels + c · key_capacity (the last four columns, when d
// is an odd multiple of four, as 4-float rows). The mix then reads its values one after the
// other instead of one row of d apart: measured under V8, 15 % faster.
template <class V, bool Check>
void pack_value_panels(float* panels, const float* v, std::size_t end, std::size_t head_dim,
                       std::size_t key_capacity, PackCheck<V>& check) {
  using Reg = typename V::Reg;
  std::size_t c = 0;
  for (; c + 8 <= head_dim; c += 8) {
    float* panel = panels + c * key_capacity;
    for (std::size_t j = 0; j < end; ++j) {
      const Reg low = V::load(v + j * head_dim + c), high = V::load(v + j * head_dim + c + 4);
      if constexpr (Check) check.note(low), check.note(high);
      V::store(panel + j * 8, low);
      V::store(panel + j * 8 + 4, high);
    }
  }
  if (c < head_dim) {
    float* panel = panels + c * key_capacity;
    for (std::size_t j = 0; j < end; ++j) {
      const Reg four = V::load(v + j * head_dim + c);
      if constexpr (Check) check.note(four);
      V::store(panel + j * 4, four);
    }
  }
}

// Query rows [first, first + 4) of `q` as one panel ([c][4]) divided by √d; rows past the
// last token are zeros (computed like the others, never written out). Four components at a
// time through a 4×4 transpose, as the keys.
template <class V, bool Check>
void pack_query_panel(float* panel, const float* q, std::size_t first, std::size_t token_count,
                      std::size_t head_dim, float inverse_divisor, PackCheck<V>& check) {
  using Reg = typename V::Reg;
  const float* row = q + first * head_dim;
  if (first + block_rows <= token_count) {
    const Reg scale = V::splat(inverse_divisor);
    for (std::size_t c = 0; c < head_dim; c += 4) {
      Reg column[4];
      load_transposed4<V, Check>(row + c, head_dim, column, check);
      for (std::size_t i = 0; i < 4; ++i)
        V::store(panel + (c + i) * block_rows, V::mul(column[i], scale));
    }
    return;
  }
  if constexpr (Check) check.note_rows(row, (token_count - first) * head_dim);
  for (std::size_t r = 0; r < block_rows; ++r)
    for (std::size_t c = 0; c < head_dim; ++c)
      panel[c * block_rows + r] =
          first + r < token_count ? row[r * head_dim + c] * inverse_divisor : 0.0f;
}

// A 4×8 block of accumulators in registers: four rows, each as two vectors of four columns.
template <class V>
struct RegisterBlock {
  typename V::Reg low[block_rows];   // columns 0..3
  typename V::Reg high[block_rows];  // columns 4..7
};

// block[r] += column[r] · (low, high) for the four rows: one rank-1 update of the block, the
// step both inner loops are made of (8 multiplies and 8 adds per 2 loads and 4 broadcasts).
template <class V>
inline void add_outer_product(RegisterBlock<V>& block, const float* column,
                              typename V::Reg low, typename V::Reg high) {
  for (std::size_t r = 0; r < block_rows; ++r) {
    const typename V::Reg x = V::splat(column[r]);
    block.low[r] = V::mul_add(block.low[r], x, low);
    block.high[r] = V::mul_add(block.high[r], x, high);
  }
}

// scores[j][0..3] = the block's four (pre-scaled) query rows against key j, for the key_count
// keys of `key_panels`, rounded up to whole panels (padding keys score 0). Returns the running
// max `max_so_far` raised by the scores of the whole panels among keys [0, max_keys): taken
// while the scores are still in registers, it spares the softmax a pass over them.
template <class V>
typename V::Reg score_panels(float* scores, const float* query_panel, const float* key_panels,
                             std::size_t key_count, std::size_t head_dim, std::size_t max_keys,
                             typename V::Reg max_so_far) {
  for (std::size_t j = 0; j < key_count; j += panel_keys) {
    // Row r, key j + l: low[r] lane l for l < 4, high[r] lane l - 4 above.
    RegisterBlock<V> block;
    for (std::size_t r = 0; r < block_rows; ++r) block.low[r] = block.high[r] = V::zero();
    const float* key = key_panels + j * head_dim;  // panel j / 8 starts at (j / 8) · 8 · d
    // Walking by pointer to an end pointer: the loop costs the engine two additions and a
    // compare, not a counter besides.
    const float* const query_end = query_panel + head_dim * block_rows;
    for (const float* query = query_panel; query != query_end;
         query += block_rows, key += panel_keys)
      add_outer_product<V>(block, query, V::load(key), V::load(key + 4));
    // Row-major (one register per row) to key-major (one register per key).
    V::transpose4(block.low[0], block.low[1], block.low[2], block.low[3]);
    V::transpose4(block.high[0], block.high[1], block.high[2], block.high[3]);
    float* out = scores + j * block_rows;
    for (std::size_t l = 0; l < 4; ++l) {
      V::store(out + l * block_rows, block.low[l]);
      V::store(out + (4 + l) * block_rows, block.high[l]);
    }
    if (j + panel_keys <= max_keys)
      max_so_far = V::max(max_so_far, V::max(V::max(V::max(block.low[0], block.low[1]),
                                                    V::max(block.low[2], block.low[3])),
                                             V::max(V::max(block.high[0], block.high[1]),
                                                    V::max(block.high[2], block.high[3]))));
  }
  return max_so_far;
}

// out_block[r][c..c+8) = out_block[r][c..c+8) · rescale[r] + Σ_j probs[j][r] · values[j][0..8),
// for the column panel `values` of columns [c, c + 8) (8 floats per key).
template <class V>
void mix_eight_columns(float* out_block, const float* probs, const float* values,
                       std::size_t key_count, std::size_t head_dim, std::size_t c,
                       const float* rescale) {
  RegisterBlock<V> block;
  for (std::size_t r = 0; r < block_rows; ++r) {
    const float* row = out_block + r * head_dim + c;
    block.low[r] = V::mul(V::load(row), V::splat(rescale[r]));
    block.high[r] = V::mul(V::load(row + 4), V::splat(rescale[r]));
  }
  const float* value = values;
  const float* const probs_end = probs + key_count * block_rows;
  for (const float* p = probs; p != probs_end; p += block_rows, value += 8)
    add_outer_product<V>(block, p, V::load(value), V::load(value + 4));
  for (std::size_t r = 0; r < block_rows; ++r) {
    float* row = out_block + r * head_dim + c;
    V::store(row, block.low[r]);
    V::store(row + 4, block.high[r]);
  }
}

// The same for the last four columns when head_dim is an odd multiple of four (4 floats per key).
template <class V>
void mix_four_columns(float* out_block, const float* probs, const float* values,
                      std::size_t key_count, std::size_t head_dim, std::size_t c,
                      const float* rescale) {
  using Reg = typename V::Reg;
  Reg acc[block_rows];
  for (std::size_t r = 0; r < block_rows; ++r)
    acc[r] = V::mul(V::load(out_block + r * head_dim + c), V::splat(rescale[r]));
  const float* value = values;
  const float* p = probs;
  for (std::size_t j = 0; j < key_count; ++j, value += 4, p += block_rows) {
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
                       const float* value_panels, std::size_t key_capacity, std::size_t i0,
                       std::size_t j0, std::size_t n, std::size_t d, MaskKind mask) {
  using Reg = typename V::Reg;
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

  // 1. Scores of this tile, key-major, and the max of those every row of the block may see
  //    (under the causal mask, keys up to the block's first row; never the padding).
  const std::size_t keys_up_to_first_row = i0 + 1 > j0 ? i0 + 1 - j0 : 0;
  const std::size_t seen_by_all =
      mask == MaskKind::causal ? std::min(n, keys_up_to_first_row) : n;
  const Reg old_max = V::load(running_max);
  Reg new_max = score_panels<V>(probs, query_panel, key_panels, n, d, seen_by_all, old_max);

  // 2. Inside the diagonal block, hide from row r the keys after i0 + r.
  const std::size_t first_hidden = std::max(j0, i0 + 1);
  const bool has_hidden = mask == MaskKind::causal && first_hidden < j0 + n;
  if (has_hidden)
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = minus_infinity;

  // 3. Online softmax: the new running max (the keys the panels left out), the rescale of
  //    what came before, e^(s - max) and the tile's total.
  for (std::size_t j = seen_by_all / panel_keys * panel_keys; j < n; ++j)
    new_max = V::max(new_max, V::load(probs + j * block_rows));
  const Reg rescale = exp_nonpositive<V>(V::sub(old_max, new_max));
  V::store(running_max, new_max);
  Reg tile_total = V::zero();
  for (float *p = probs, *const probs_end = probs + n * block_rows; p != probs_end;
       p += block_rows) {
    const Reg e = exp_nonpositive<V>(V::sub(V::load(p), new_max));
    V::store(p, e);
    tile_total = V::add(tile_total, e);
  }
  // e^-inf is clamped inside exp_nonpositive to about 2e-38: hidden keys get exactly 0 here.
  // The total keeps their few 2e-38s, which vanish next to it (it ends at least 1: the key
  // that holds the row's max adds e^0).
  if (has_hidden)
    for (std::size_t key = first_hidden; key < j0 + n; ++key)
      for (std::size_t r = 0; r < block_rows; ++r)
        if (key > i0 + r) probs[(key - j0) * block_rows + r] = 0.0f;
  V::store(running_total, V::mul_add(tile_total, V::load(running_total), rescale));

  // 4. The block's output rows: rescale, then add this tile's probability × value rows.
  float rescale_rows[block_rows];
  V::store(rescale_rows, rescale);
  std::size_t c = 0;
  for (; c + 8 <= d; c += 8)
    mix_eight_columns<V>(out_block, probs, value_panels + c * key_capacity, n, d, c, rescale_rows);
  if (c < d)
    mix_four_columns<V>(out_block, probs, value_panels + c * key_capacity, n, d, c, rescale_rows);
}

// Precondition: blocked_supports(token_count, head_dim); scratch holds
// blocked_scratch_floats(token_count, head_dim, schedule) floats. Returns false, having written
// no output, when a value of q, k or v is NaN, infinite or beyond ±max_abs_float (AttendFn).
template <class V>
bool attend_blocked(float* out, const float* q, const float* k, const float* v,
                    std::size_t token_count, std::size_t head_dim, MaskKind mask, float* scratch,
                    BlockedSchedule schedule) {
  using Reg = typename V::Reg;
  const std::size_t T = token_count, d = head_dim;
  const bool causal = mask == MaskKind::causal;
  const std::size_t tile_keys = schedule.tile_keys;
  const std::size_t tile = tile_keys ? std::min(tile_keys, T) : T;
  const std::size_t group = std::min(schedule.group_rows, round_up(T, block_rows));
  float* query_panels = scratch;                   // [group / 4][d][4] the group's query rows
  float* out_group = query_panels + group * d;     // [group][d] unnormalised output rows
  float* running_max = out_group + group * d;      // [group] per row
  float* running_total = running_max + group;      // [group] per row
  const std::size_t key_capacity = round_up(tile, panel_keys);
  float* key_panels = running_total + group;       // [tile / 8][d][8] the keys being visited
  float* value_panels = key_panels + key_capacity * d;  // [d / 8][tile][8] their values
  float* probs = value_panels + key_capacity * d;  // [tile][4] scores, probabilities
  const float inverse_divisor = 1.0f / std::sqrt(static_cast<float>(d));

  // The range check. Untiled, every key and value is packed once, before the first block, and
  // they are checked as they pass (at T = 256, d = 64 a separate pass over q, k and v took
  // 1.5 % of the call); so are the queries when one group holds them all, else they are
  // checked first, since a later group's queries are packed after earlier output rows were
  // written (over q, when out is q). Tiled, each key is packed once per group: everything is
  // checked first (a pass that costs little next to T² work).
  PackCheck<V> check;
  const std::size_t n = T * d;
  if (tile_keys) {
    if (!qkv_within_limit(q, k, v, n)) return false;
  } else if (group < T && !values_within_limit(q, n)) {
    return false;
  }
  const bool check_queries = !tile_keys && group >= T;

  for (std::size_t g0 = 0; g0 < T; g0 += group) {
    const std::size_t group_end = std::min(T, g0 + group);
    const std::size_t group_visible = causal ? group_end : T;
    for (std::size_t i0 = g0; i0 < group_end; i0 += block_rows) {
      float* panel = query_panels + (i0 - g0) * d;
      if (check_queries)
        pack_query_panel<V, true>(panel, q, i0, T, d, inverse_divisor, check);
      else
        pack_query_panel<V, false>(panel, q, i0, T, d, inverse_divisor, check);
    }
    std::fill(out_group, out_group + group * d, 0.0f);
    std::fill(running_max, running_max + group, -std::numeric_limits<float>::infinity());
    std::fill(running_total, running_total + group, 0.0f);

    for (std::size_t j0 = 0; j0 < group_visible; j0 += tile) {
      const std::size_t tile_end = std::min(group_visible, j0 + tile);
      if (tile_keys) {
        pack_key_panels<V, false>(key_panels, k + j0 * d, tile_end - j0, d, check);
        pack_value_panels<V, false>(value_panels, v + j0 * d, tile_end - j0, d, key_capacity,
                                    check);
      } else if (g0 == 0) {  // untiled: every key and value, once for the whole call
        pack_key_panels<V, true>(key_panels, k, T, d, check);
        pack_value_panels<V, true>(value_panels, v, T, d, key_capacity, check);
        if (!check.ok()) return false;
      }
      for (std::size_t i0 = g0; i0 < group_end; i0 += block_rows) {
        // Under the causal mask a block never sees past its own last row.
        const std::size_t visible = causal ? std::min(T, i0 + block_rows) : T;
        if (j0 >= visible) continue;
        const std::size_t b = i0 - g0;
        attend_block_tile<V>(out_group + b * d, running_max + b, running_total + b, probs,
                             query_panels + b * d, key_panels, value_panels, key_capacity, i0, j0,
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
  return true;
}

}  // namespace attn::detail
