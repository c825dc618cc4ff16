// FlashAttention's tiled forward pass, one numbered pass per tile, every running quantity kept.
// Plain scalar float code; it exists to be read next to the walkthrough, not to be fast.
#include "attention/layers/flash_tiles.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attention/reference/trace.h"
#include "json/decimal_text.h"

namespace attn {

namespace {

constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

std::size_t tiles_of(std::size_t count, std::size_t block) { return (count + block - 1) / block; }

}  // namespace

bool same_when_printed(double a, double b, int decimals) {
  const auto printed = [decimals](double value) {
    std::string text = json::format_fixed(value, decimals);
    // "-0.0000" and "0.0000" print differently but mean the same number.
    if (text[0] == '-' && text.find_first_not_of("0.", 1) == std::string::npos) text.erase(0, 1);
    return text;
  };
  return printed(a) == printed(b);
}

std::optional<InputError> validate_flash_input(const AttentionInput& input,
                                               const FlashTileOptions& options) {
  if (auto error = validate_input(input)) return error;
  if (input.mask_fill != MaskFill::minus_infinity)
    return make_input_error("mask", "FlashAttention tiles take \"causal\" or \"none\" (hidden "
                                    "cells -infinity), not the FAQ's \"causal_zero\"");
  if (input.scale != ScaleKind::sqrt_head_dim)
    return make_input_error("scale", "FlashAttention tiles divide the scores by √d only (\"sqrt_d\")");
  const std::size_t T = input.tokens.size();
  if (options.block_rows == 0 || options.block_rows > T)
    return make_input_error("block_rows", "must be a whole number from 1 to the number of tokens (" +
                                              std::to_string(T) + "), got " +
                                              std::to_string(options.block_rows));
  if (options.block_cols == 0 || options.block_cols > T)
    return make_input_error("block_cols", "must be a whole number from 1 to the number of tokens (" +
                                              std::to_string(T) + "), got " +
                                              std::to_string(options.block_cols));
  if (options.decimals < 0 || options.decimals > FlashTileLimits::max_decimals)
    return make_input_error("decimals", "must be a whole number from 0 to " +
                                            std::to_string(FlashTileLimits::max_decimals));
  return std::nullopt;
}

FlashTileTrace compute_flash_tiles(const AttentionInput& input, const FlashTileOptions& options) {
  const std::size_t T = input.tokens.size();
  const std::size_t d = input.q.cols;
  const std::size_t Br = options.block_rows;
  const std::size_t Bc = options.block_cols;

  FlashTileTrace trace;
  trace.tokens = input.tokens;
  trace.mask = input.mask;
  trace.token_count = T;
  trace.head_dim = d;
  trace.block_rows = Br;
  trace.block_cols = Bc;
  trace.query_tiles = tiles_of(T, Br);
  trace.key_tiles = tiles_of(T, Bc);
  trace.scale_divisor = scale_divisor_for(ScaleKind::sqrt_head_dim, d);
  trace.q = input.q;
  trace.k = input.k;
  trace.v = input.v;
  trace.row_max.assign(T, minus_infinity);
  trace.row_sum.assign(T, 0.0f);
  trace.out = Matrix(T, d);
  trace.decimals = options.decimals;

  for (std::size_t qt = 0; qt < trace.query_tiles; ++qt) {
    const std::size_t row_begin = qt * Br;
    const std::size_t row_end = std::min(T, row_begin + Br);
    const std::size_t r = row_end - row_begin;
    // The running quantities of this query tile's rows, carried from key tile to key tile.
    std::vector<float> m(r, minus_infinity);  // [r]
    std::vector<float> l(r, 0.0f);            // [r]
    Matrix o(r, d);                           // [r][d]

    for (std::size_t kt = 0; kt < trace.key_tiles; ++kt) {
      FlashTileStep step;
      step.query_tile = qt;
      step.key_tile = kt;
      step.row_begin = row_begin;
      step.row_end = row_end;
      step.col_begin = kt * Bc;
      step.col_end = std::min(T, step.col_begin + Bc);
      const std::size_t c = step.col_end - step.col_begin;

      // Pass 0: a tile whose every cell is hidden is skipped: its first key comes after the
      // tile's last query.
      std::size_t hidden = 0;
      for (std::size_t i = row_begin; i < row_end; ++i)
        for (std::size_t j = step.col_begin; j < step.col_end; ++j)
          if (!is_visible(input.mask, i, j)) ++hidden;
      step.skipped = hidden == r * c;
      step.partly_masked = hidden > 0 && !step.skipped;
      if (step.skipped) {
        ++trace.skipped_tiles;
        trace.steps.push_back(std::move(step));
        continue;
      }
      ++trace.computed_tiles;

      // Pass 1: the tile's scores, q_i · k_j summed left to right, ÷ √d, -infinity where hidden.
      step.scores = Matrix(r, c);
      for (std::size_t a = 0; a < r; ++a) {
        for (std::size_t b = 0; b < c; ++b) {
          const std::size_t i = row_begin + a, j = step.col_begin + b;
          if (!is_visible(input.mask, i, j)) {
            step.scores.at(a, b) = minus_infinity;
            continue;
          }
          float dot = 0.0f;
          for (std::size_t e = 0; e < d; ++e) dot += input.q.at(i, e) * input.k.at(j, e);
          step.scores.at(a, b) = dot / trace.scale_divisor;
        }
      }

      // Pass 2: the new running max and the factor that rescales what was accumulated.
      step.tile_max.assign(r, minus_infinity);
      step.max_before = m;
      step.max_after.assign(r, minus_infinity);
      step.rescale.assign(r, 0.0f);
      for (std::size_t a = 0; a < r; ++a) {
        for (std::size_t b = 0; b < c; ++b) step.tile_max[a] = std::max(step.tile_max[a], step.scores.at(a, b));
        step.max_after[a] = std::max(m[a], step.tile_max[a]);
        // e^(m - m_new); nothing has been accumulated while m is still -infinity.
        step.rescale[a] = m[a] == minus_infinity ? 0.0f : std::exp(m[a] - step.max_after[a]);
      }

      // Pass 3: the tile's exponentials against the new max, and the running sum.
      step.exponentials = Matrix(r, c);
      step.sum_before = l;
      step.sum_after.assign(r, 0.0f);
      for (std::size_t a = 0; a < r; ++a) {
        float row_total = 0.0f;
        for (std::size_t b = 0; b < c; ++b) {
          const float score = step.scores.at(a, b);
          const float e = score == minus_infinity ? 0.0f : std::exp(score - step.max_after[a]);
          step.exponentials.at(a, b) = e;
          row_total += e;
        }
        step.sum_after[a] = l[a] * step.rescale[a] + row_total;
      }

      // Pass 4: the partial output, rescaled, plus this tile's weighted value rows.
      step.partial_out = Matrix(r, d);
      for (std::size_t a = 0; a < r; ++a) {
        for (std::size_t e = 0; e < d; ++e) {
          float value = o.at(a, e) * step.rescale[a];
          for (std::size_t b = 0; b < c; ++b)
            value += step.exponentials.at(a, b) * input.v.at(step.col_begin + b, e);
          step.partial_out.at(a, e) = value;
        }
      }

      m = step.max_after;
      l = step.sum_after;
      o = step.partial_out;
      trace.steps.push_back(std::move(step));
    }

    // Pass 5: after the last key tile, divide by the running sum.
    for (std::size_t a = 0; a < r; ++a) {
      trace.row_max[row_begin + a] = m[a];
      trace.row_sum[row_begin + a] = l[a];
      for (std::size_t e = 0; e < d; ++e) trace.out.at(row_begin + a, e) = o.at(a, e) / l[a];
    }
  }

  // The walkthrough's untiled answer, and how far the tiled one is from it.
  trace.untiled_out = compute_trace(input).out;
  trace.agrees_to_decimals = true;
  for (std::size_t n = 0; n < trace.out.values.size(); ++n) {
    const double tiled = trace.out.values[n], untiled = trace.untiled_out.values[n];
    trace.max_abs_difference = std::max(trace.max_abs_difference, std::fabs(tiled - untiled));
    if (!same_when_printed(tiled, untiled, options.decimals)) trace.agrees_to_decimals = false;
  }
  return trace;
}

}  // namespace attn
