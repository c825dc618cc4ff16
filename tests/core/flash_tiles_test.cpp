// FlashAttention on tiles: the tiled output equals the untiled one for every tile size
// (including sizes that do not divide T) and both masks, against float64 too; the skipped tiles
// are exactly those above the diagonal; the running max, sum and rescale factors obey their
// definitions; bad options are refused by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/layers/flash_tiles.h"
#include "attention/reference/seeded_random.h"
#include "attention/reference/trace.h"
#include "explore_test_helpers.h"
#include "sequel_test_helpers.h"

namespace {

attn::AttentionInput seeded_head(std::size_t T, std::size_t d, std::uint64_t seed, attn::MaskKind mask) {
  attn::AttentionInput input;
  input.tokens = sequel_test::words(T);
  input.q = attn::random_normal_matrix(attn::derive_seed(seed, 1), T, d);
  input.k = attn::random_normal_matrix(attn::derive_seed(seed, 2), T, d);
  input.v = attn::random_normal_matrix(attn::derive_seed(seed, 3), T, d);
  input.mask = mask;
  return input;
}

void check_tiles(const attn::AttentionInput& input, std::size_t block_rows, std::size_t block_cols,
                 const std::string& what) {
  INFO(what << ", Br " << block_rows << ", Bc " << block_cols);
  const attn::FlashTileOptions options{block_rows, block_cols, 4};
  REQUIRE_FALSE(attn::validate_flash_input(input, options).has_value());
  const attn::FlashTileTrace tiles = attn::compute_flash_tiles(input, options);
  const std::size_t T = input.tokens.size();
  const std::size_t d = input.q.cols;
  const bool causal = input.mask == attn::MaskKind::causal;

  // The tile grid, query tile by query tile, key tiles in order.
  const std::size_t query_tiles = (T + block_rows - 1) / block_rows;
  const std::size_t key_tiles = (T + block_cols - 1) / block_cols;
  CHECK(tiles.query_tiles == query_tiles);
  CHECK(tiles.key_tiles == key_tiles);
  REQUIRE(tiles.steps.size() == query_tiles * key_tiles);
  std::size_t skipped = 0;
  for (std::size_t n = 0; n < tiles.steps.size(); ++n) {
    const attn::FlashTileStep& step = tiles.steps[n];
    CHECK(step.query_tile == n / key_tiles);
    CHECK(step.key_tile == n % key_tiles);
    CHECK(step.row_begin == step.query_tile * block_rows);
    CHECK(step.row_end == std::min(T, step.row_begin + block_rows));
    CHECK(step.col_begin == step.key_tile * block_cols);
    CHECK(step.col_end == std::min(T, step.col_begin + block_cols));
    // Skipped exactly when the tile lies wholly above the diagonal: its first key comes after
    // its last query.
    const bool above_diagonal = causal && step.col_begin > step.row_end - 1;
    CHECK(step.skipped == above_diagonal);
    // Partly masked when the diagonal runs through it.
    const bool crosses = causal && !above_diagonal && step.col_end - 1 > step.row_begin;
    CHECK(step.partly_masked == crosses);
    if (step.skipped) {
      ++skipped;
      CHECK(step.scores.values.empty());
      continue;
    }
    const std::size_t r = step.row_end - step.row_begin, c = step.col_end - step.col_begin;
    REQUIRE(step.scores.rows == r);
    REQUIRE(step.scores.cols == c);
    REQUIRE(step.partial_out.rows == r);
    REQUIRE(step.partial_out.cols == d);
    for (std::size_t a = 0; a < r; ++a) {
      // m_new = max(m, the tile's max); rescale = e^(m - m_new), 0 before the first tile.
      CHECK(step.max_after[a] == std::max(step.max_before[a], step.tile_max[a]));
      if (std::isinf(step.max_before[a])) {
        CHECK(step.rescale[a] == 0.0f);
        CHECK(step.sum_before[a] == 0.0f);
      } else {
        CHECK(std::fabs(step.rescale[a] - std::exp(static_cast<double>(step.max_before[a]) - step.max_after[a])) <= 1e-6);
        CHECK(step.rescale[a] <= 1.0f);
      }
      double row_total = 0.0;
      for (std::size_t b = 0; b < c; ++b) {
        const std::size_t i = step.row_begin + a, j = step.col_begin + b;
        if (causal && j > i) {
          CHECK(std::isinf(step.scores.at(a, b)));
          CHECK(step.exponentials.at(a, b) == 0.0f);
        } else {
          CHECK(step.exponentials.at(a, b) <= 1.0f);
          CHECK(std::fabs(step.exponentials.at(a, b) -
                          std::exp(static_cast<double>(step.scores.at(a, b)) - step.max_after[a])) <= 1e-6);
        }
        row_total += step.exponentials.at(a, b);
      }
      CHECK(std::fabs(step.sum_after[a] - (step.sum_before[a] * step.rescale[a] + row_total)) <=
            1e-5 * (1.0 + step.sum_after[a]));
    }
  }
  CHECK(tiles.skipped_tiles == skipped);
  CHECK(tiles.computed_tiles + tiles.skipped_tiles == tiles.steps.size());
  if (!causal) CHECK(skipped == 0);

  // The final running max is the row's largest live score, exactly as the trace finds it.
  const attn::Trace trace = attn::compute_trace(input);
  CHECK(tiles.row_max == trace.row_max);

  // Tiled equals untiled, and both equal float64.
  const attn_test::HeadF64 ref = attn_test::reference_head_f64(
      attn_test::values_f64(input.q), attn_test::values_f64(input.k), attn_test::values_f64(input.v),
      T, d, causal, false, std::sqrt(static_cast<double>(d)));
  sequel_test::check_close(tiles.out, ref.out, 1e-5, "tiled out against float64");
  CHECK(tiles.untiled_out.values == trace.out.values);
  double largest = 0.0;
  for (std::size_t n = 0; n < tiles.out.values.size(); ++n)
    largest = std::max(largest, std::fabs(static_cast<double>(tiles.out.values[n]) - trace.out.values[n]));
  CHECK(tiles.max_abs_difference == largest);
  CHECK(tiles.max_abs_difference <= 2e-6);
  // The final running sum is Σ_j e^(score - row max) over the row's live scores (the trace's
  // float scores, added up in double).
  for (std::size_t i = 0; i < T; ++i) {
    double total = 0.0;
    for (std::size_t j = 0; j < T; ++j)
      if (!causal || j <= i)
        total += std::exp(static_cast<double>(trace.masked.at(i, j)) - static_cast<double>(tiles.row_max[i]));
    CHECK(std::fabs(tiles.row_sum[i] - total) <= 1e-5 * total);
  }
}

}  // namespace

TEST_CASE("flash tiles: every tile size, dividing T or not, equals the untiled output",
          "[flash]") {
  for (std::size_t T = 1; T <= 16; ++T) {
    for (const attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
      const attn::AttentionInput input = seeded_head(T, T % 2 ? 3 : 4, 100 + T, mask);
      for (std::size_t block_rows = 1; block_rows <= T; ++block_rows)
        for (std::size_t block_cols = 1; block_cols <= T; ++block_cols)
          check_tiles(input, block_rows, block_cols,
                      "T " + std::to_string(T) + (mask == attn::MaskKind::causal ? ", causal" : ", none"));
    }
  }
}

TEST_CASE("flash tiles: the article's four words, large scores, wide heads", "[flash]") {
  const attn::AttentionInput article = attn::article::four_words();
  for (std::size_t b = 1; b <= 4; ++b) check_tiles(article, b, 5 - b, "the article's four words");

  // Scores near 200: e^score overflows a float, the running max keeps every exponential <= 1.
  attn::AttentionInput large = seeded_head(9, 8, 5, attn::MaskKind::causal);
  for (float& value : large.q.values) value *= 12.0f;
  for (float& value : large.k.values) value *= 12.0f;
  for (std::size_t b : {1, 2, 4, 9}) check_tiles(large, b, b, "large scores");

  check_tiles(seeded_head(12, 64, 6, attn::MaskKind::causal), 5, 3, "head_dim 64");
}

TEST_CASE("flash tiles: 2 × 2 tiles on four tokens, worked", "[flash]") {
  const attn::FlashTileTrace tiles =
      attn::compute_flash_tiles(attn::article::four_words(), attn::FlashTileOptions{2, 2, 4});
  // Query tiles {0,1}, {2,3}; key tiles {0,1}, {2,3}: the top-right tile is hidden.
  REQUIRE(tiles.steps.size() == 4);
  CHECK_FALSE(tiles.steps[0].skipped);
  CHECK(tiles.steps[0].partly_masked);  // "the" may not see "cat"
  CHECK(tiles.steps[1].skipped);
  CHECK_FALSE(tiles.steps[2].skipped);
  CHECK_FALSE(tiles.steps[2].partly_masked);
  CHECK_FALSE(tiles.steps[3].skipped);
  CHECK(tiles.steps[3].partly_masked);
  CHECK(tiles.skipped_tiles == 1);
  CHECK(tiles.computed_tiles == 3);
  // The rows of the second query tile start from nothing, then are rescaled by the second tile.
  CHECK(tiles.steps[2].rescale == std::vector<float>{0.0f, 0.0f});
  CHECK(tiles.agrees_to_decimals);
  CHECK(tiles.decimals == 4);
  // "cat" splits 0.784 / 0.216 in the untiled trace; the tiles give the same weights.
  const attn::FlashTileStep& first = tiles.steps[0];
  const double cat_total = first.exponentials.at(1, 0) + first.exponentials.at(1, 1);
  CHECK(std::fabs(first.exponentials.at(1, 0) / cat_total - 0.784) < 5e-4);
}

TEST_CASE("flash tiles: printed agreement and bad options", "[flash]") {
  CHECK(attn::same_when_printed(0.12344, 0.12341, 4));
  CHECK_FALSE(attn::same_when_printed(0.12344, 0.12346, 4));
  CHECK(attn::same_when_printed(-0.00001, 0.00001, 4));  // "-0.0000" is 0.0000
  CHECK_FALSE(attn::same_when_printed(-0.1, 0.1, 1));
  CHECK(attn::same_when_printed(1.0, 1.4, 0));

  const attn::AttentionInput good = attn::article::four_words();
  const auto refused = [&](const char* what, const std::string& path, attn::AttentionInput input,
                           attn::FlashTileOptions options) {
    INFO(what);
    const auto error = attn::validate_flash_input(input, options);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  refused("Br 0", "block_rows", good, {0, 2, 4});
  refused("Br beyond T", "block_rows", good, {5, 2, 4});
  refused("Bc 0", "block_cols", good, {2, 0, 4});
  refused("Bc beyond T", "block_cols", good, {2, 9, 4});
  refused("9 decimals", "decimals", good, {2, 2, 9});
  refused("negative decimals", "decimals", good, {2, 2, -1});
  attn::AttentionInput zero_fill = good;
  zero_fill.mask_fill = attn::MaskFill::zero;
  refused("the FAQ's zero fill", "mask", zero_fill, {2, 2, 4});
  attn::AttentionInput scale_d = good;
  scale_d.scale = attn::ScaleKind::head_dim;
  refused("÷ d", "scale", scale_d, {2, 2, 4});
  attn::AttentionInput nan = good;
  nan.k.at(2, 1) = std::numeric_limits<float>::quiet_NaN();
  refused("NaN in k", "k[2][1]", nan, {2, 2, 4});
}
