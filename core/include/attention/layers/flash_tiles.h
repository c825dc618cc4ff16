// FlashAttention's forward pass on tiles (Dao et al. 2022; the loop order of FlashAttention-2),
// written out as a trace. The T × T grid of scores is never held at once: the queries are cut
// into tiles of block_rows rows and the keys and values into tiles of block_cols rows, and for
// each query tile the key tiles are visited in order while every query row keeps three running
// quantities:
//   m  the largest score seen so far (the running row max),
//   l  the sum of e^(score - m) over the scores seen so far (the running sum),
//   O  the sum of e^(score - m) · v over the value rows seen so far (the partial output).
// When a tile brings a larger score, m grows to m_new and everything accumulated against the old
// m is multiplied by the rescale factor e^(m - m_new) (0 before the first tile); then the tile's
// own e^(score - m_new) are added to l and their weighted value rows to O. After the last tile,
// out = O / l, which is softmax(scores) · V: the untiled answer, up to float rounding.
// Under the causal mask a key tile whose first key comes after the tile's last query is hidden
// entirely; FlashAttention skips it without loading it, and so does this trace.
//
// Only the article's attention is tiled: scores ÷ √d, hidden cells -infinity ("causal" or
// "none"); the FAQ's variants stay the reference trace's alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn {

struct FlashTileOptions {
  std::size_t block_rows = 2;  // Br: queries per tile
  std::size_t block_cols = 2;  // Bc: keys (and values) per tile
  int decimals = 4;            // the printed precision the tiled and untiled outputs are compared at
};

struct FlashTileLimits {
  static constexpr int max_decimals = 8;
};

struct FlashTileStep {
  std::size_t query_tile = 0;
  std::size_t key_tile = 0;
  std::size_t row_begin = 0, row_end = 0;  // the tile's query rows [row_begin, row_end)
  std::size_t col_begin = 0, col_end = 0;  // the tile's key rows [col_begin, col_end)
  bool skipped = false;        // every cell hidden by the causal mask: nothing loaded or computed
  bool partly_masked = false;  // some cells (not all) hidden

  // Empty when skipped. r = row_end - row_begin, c = col_end - col_begin, d = head_dim.
  Matrix scores;                   // [r][c] q_i · k_j / √d, -infinity where hidden
  std::vector<float> tile_max;     // [r] largest live score of the tile's row (-infinity if none)
  std::vector<float> max_before;   // [r] m before this tile (-infinity before the first)
  std::vector<float> max_after;    // [r] m_new = max(m, tile_max)
  std::vector<float> rescale;      // [r] e^(m - m_new): applied to l and O (0 before the first tile)
  Matrix exponentials;             // [r][c] e^(score - m_new), 0 where hidden
  std::vector<float> sum_before;   // [r] l before this tile
  std::vector<float> sum_after;    // [r] l · rescale + the row's exponentials
  Matrix partial_out;              // [r][d] O · rescale + exponentials · V_tile (not yet ÷ l)
};

struct FlashTileTrace {
  std::vector<std::string> tokens;  // [T]
  MaskKind mask = MaskKind::causal;
  std::size_t token_count = 0;      // T
  std::size_t head_dim = 0;         // d
  std::size_t block_rows = 0;       // Br
  std::size_t block_cols = 0;       // Bc
  std::size_t query_tiles = 0;      // ⌈T / Br⌉
  std::size_t key_tiles = 0;        // ⌈T / Bc⌉
  float scale_divisor = 1.0f;       // √d
  Matrix q, k, v;                   // [T][d]
  std::vector<FlashTileStep> steps; // query tile by query tile, each with its key tiles in order
  std::size_t computed_tiles = 0;
  std::size_t skipped_tiles = 0;
  std::vector<float> row_max;       // [T] m after the row's last tile
  std::vector<float> row_sum;       // [T] l after the row's last tile
  Matrix out;                       // [T][d] O / l
  Matrix untiled_out;               // [T][d] compute_trace(...).out, the walkthrough's answer
  double max_abs_difference = 0.0;  // max |out - untiled_out| over every entry
  int decimals = 4;
  bool agrees_to_decimals = false;  // every entry of out prints as untiled_out does at `decimals` places
};

// The attention input as validate_input checks it, plus: mask "causal" or "none" with the
// -infinity fill, scale ÷ √d (paths "mask", "scale"); block sizes 1 to T ("block_rows",
// "block_cols"); decimals 0 to 8 ("decimals").
std::optional<InputError> validate_flash_input(const AttentionInput& input,
                                               const FlashTileOptions& options);

// Precondition: validate_flash_input returned nothing.
FlashTileTrace compute_flash_tiles(const AttentionInput& input, const FlashTileOptions& options);

// True when a and b print the same with `decimals` places ("%.*f").
bool same_when_printed(double a, double b, int decimals);

}  // namespace attn
