// The quantised KV cache: the rotation is orthogonal, the quantiser does what its definition
// says (checked in float64), the attention read back from the cache matches float64, the error
// shrinks as the bits grow, 8 bits are close to exact, and the bytes are counted as documented.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/layers/multi_head.h"
#include "attention/layers/quantised_cache.h"
#include "attention/reference/seeded_random.h"
#include "explore_test_helpers.h"
#include "sequel_test_helpers.h"

namespace {

// Head `head` of the seeded multi-head layer, as the JSON call builds it by default.
attn::AttentionInput seeded_layer_head(std::size_t T, std::size_t d_model, std::size_t n_heads,
                                       std::size_t head, std::uint64_t seed) {
  const attn::MultiHeadInput layer = attn::seeded_multi_head_input(sequel_test::words(T), d_model, n_heads, seed);
  const attn::MultiHeadLayer computed = attn::compute_multi_head(layer);
  attn::AttentionInput input;
  input.tokens = layer.tokens;
  input.q = computed.heads[head].trace.q;
  input.k = computed.heads[head].trace.k;
  input.v = computed.heads[head].trace.v;
  return input;
}

attn::AttentionInput normal_head(std::size_t T, std::size_t d, std::uint64_t seed) {
  attn::AttentionInput input;
  input.tokens = sequel_test::words(T);
  input.q = attn::random_normal_matrix(attn::derive_seed(seed, 1), T, d);
  input.k = attn::random_normal_matrix(attn::derive_seed(seed, 2), T, d);
  input.v = attn::random_normal_matrix(attn::derive_seed(seed, 3), T, d);
  return input;
}

// The quantiser's definition, in float64, against the core's rows.
void check_quantised_rows(const attn::QuantisedRows& rows, const attn::Matrix& rotated,
                          const attn::Matrix& rotation, const attn::Matrix& original, int bits,
                          const std::string& what) {
  INFO(what);
  const std::size_t T = rotated.rows, d = rotated.cols;
  const int levels = (1 << (bits - 1)) - 1;
  REQUIRE(rows.scales.size() == T);
  REQUIRE(rows.codes.size() == T * d);
  for (std::size_t t = 0; t < T; ++t) {
    double largest = 0.0;
    for (std::size_t c = 0; c < d; ++c) largest = std::max(largest, std::fabs(static_cast<double>(rotated.at(t, c))));
    CHECK(std::fabs(rows.scales[t] - largest / levels) <= 1e-6 * largest);
    for (std::size_t c = 0; c < d; ++c) {
      const std::int32_t code = rows.codes[t * d + c];
      CHECK(code >= -levels);
      CHECK(code <= levels);
      // The nearest level: within half a step of the rotated value.
      CHECK(std::fabs(code * static_cast<double>(rows.scales[t]) - rotated.at(t, c)) <=
            0.5 * rows.scales[t] * (1.0 + 1e-5) + 1e-12);
      CHECK(rows.dequantised.at(t, c) == static_cast<float>(code) * rows.scales[t]);
    }
  }
  // Restored = dequantised · Rᵀ, in float64.
  std::vector<double> restored(T * d, 0.0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t m = 0; m < d; ++m)
        restored[t * d + c] += static_cast<double>(rows.dequantised.at(t, m)) * rotation.at(c, m);
  sequel_test::check_close(rows.restored, restored, 1e-5, "restored");
  // The restored rows are within the quantisation step of the originals: ‖x' - x‖ = ‖y' - y‖
  // (R is orthogonal), at most √d · scale / 2.
  for (std::size_t t = 0; t < T; ++t) {
    double squares = 0.0;
    for (std::size_t c = 0; c < d; ++c) {
      const double difference = static_cast<double>(rows.restored.at(t, c)) - original.at(t, c);
      squares += difference * difference;
    }
    CHECK(std::sqrt(squares) <= std::sqrt(static_cast<double>(d)) * rows.scales[t] * 0.5 * 1.001 + 1e-5);
  }
}

}  // namespace

TEST_CASE("quantised cache: the rotation is orthogonal and seeded", "[quantised]") {
  for (const std::size_t d : {1, 2, 3, 4, 5, 8, 16, 64, 128, 256}) {
    INFO("d " << d);
    const attn::Matrix r = attn::random_rotation(d, 7);
    REQUIRE(r.rows == d);
    REQUIRE(r.cols == d);
    double worst = 0.0;
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        double dot = 0.0;  // (R · Rᵀ)[i][j]
        for (std::size_t c = 0; c < d; ++c) dot += static_cast<double>(r.at(i, c)) * r.at(j, c);
        worst = std::max(worst, std::fabs(dot - (i == j ? 1.0 : 0.0)));
      }
    CHECK(worst <= 1e-5);
    CHECK(attn::random_rotation(d, 7).values == r.values);
    if (d > 1) {
      CHECK(attn::random_rotation(d, 8).values != r.values);
      // Not the identity, nor a signed permutation: the rotation mixes coordinates.
      std::size_t nonzero = 0;
      for (const float value : r.values) nonzero += std::fabs(value) > 1e-3 ? 1 : 0;
      CHECK(nonzero > d);
    }
  }
}

TEST_CASE("quantised cache: the quantiser and the attention read back, against float64",
          "[quantised]") {
  for (const bool rotate : {true, false}) {
    for (const std::size_t d : {4, 16}) {
      const attn::AttentionInput input = d == 4 ? seeded_layer_head(4, 16, 4, 0, 1) : normal_head(7, d, 3);
      attn::QuantisedCacheOptions options;
      options.rotate = rotate;
      REQUIRE_FALSE(attn::validate_quantised_cache(input, options).has_value());
      const attn::QuantisedCacheTrace cache = attn::compute_quantised_cache(input, options);
      const std::string what = std::string(rotate ? "rotated" : "not rotated") + ", d " + std::to_string(d);
      INFO(what);
      CHECK(cache.rotated == rotate);
      if (!rotate) {
        for (std::size_t i = 0; i < d; ++i)
          for (std::size_t j = 0; j < d; ++j) CHECK(cache.rotation.at(i, j) == (i == j ? 1.0f : 0.0f));
      }
      const std::size_t T = input.tokens.size();
      sequel_test::check_close(cache.k_rotated,
                               attn_test::multiply_f64(attn_test::values_f64(input.k),
                                                       attn_test::values_f64(cache.rotation), T, d, d),
                               1e-5, "k · R");
      REQUIRE(cache.levels.size() == 4);
      for (std::size_t n = 0; n < 4; ++n) {
        const attn::QuantisedLevel& level = cache.levels[n];
        CHECK(level.bits == options.bits[n]);
        CHECK(level.levels_each_side == (1 << (level.bits - 1)) - 1);
        check_quantised_rows(level.k, cache.k_rotated, cache.rotation, input.k, level.bits,
                             what + ", k, " + std::to_string(level.bits) + " bits");
        check_quantised_rows(level.v, cache.v_rotated, cache.rotation, input.v, level.bits,
                             what + ", v, " + std::to_string(level.bits) + " bits");
        // The attention on the restored cache, in float64, and the errors against the
        // unquantised attention, recomputed.
        const attn_test::HeadF64 ref = attn_test::reference_head_f64(
            attn_test::values_f64(input.q), attn_test::values_f64(level.k.restored),
            attn_test::values_f64(level.v.restored), T, d, true, false, std::sqrt(static_cast<double>(d)));
        sequel_test::check_close(level.trace.out, ref.out, 1e-4, "out read from the cache");
        const attn::ErrorFigures out_error = attn::error_figures(level.trace.out, cache.reference.out);
        CHECK(level.out_error.max_abs == out_error.max_abs);
        double difference = 0.0, norm = 0.0, largest = 0.0;
        for (std::size_t m = 0; m < cache.reference.weights.values.size(); ++m) {
          const double delta = static_cast<double>(level.trace.weights.values[m]) - cache.reference.weights.values[m];
          largest = std::max(largest, std::fabs(delta));
          difference += delta * delta;
          norm += static_cast<double>(cache.reference.weights.values[m]) * cache.reference.weights.values[m];
        }
        CHECK(level.weights_error.max_abs == Approx(largest).margin(1e-12));
        CHECK(level.weights_error.relative == Approx(std::sqrt(difference / norm)).margin(1e-12));
      }
    }
  }
}

TEST_CASE("quantised cache: the error shrinks as the bits grow; 8 bits are close", "[quantised]") {
  struct Example {
    const char* what;
    attn::AttentionInput input;
  };
  const std::vector<Example> examples = {
      {"the toy's head 0 (d 4)", seeded_layer_head(4, 16, 4, 0, 1)},
      {"the toy's head 2 (d 4)", seeded_layer_head(4, 16, 4, 2, 1)},
      {"a head of 16, 8 tokens", normal_head(8, 16, 21)},
      {"a head of 64, 16 tokens", normal_head(16, 64, 22)},
  };
  for (const Example& example : examples) {
    INFO(example.what);
    attn::QuantisedCacheOptions options;
    options.bits = {2, 3, 4, 8};
    const attn::QuantisedCacheTrace cache = attn::compute_quantised_cache(example.input, options);
    for (std::size_t n = 1; n < cache.levels.size(); ++n) {
      const attn::QuantisedLevel& fewer = cache.levels[n - 1];
      const attn::QuantisedLevel& more = cache.levels[n];
      INFO(fewer.bits << " bits against " << more.bits << " bits");
      CHECK(more.k_error.relative < fewer.k_error.relative);
      CHECK(more.v_error.relative < fewer.v_error.relative);
      CHECK(more.out_error.relative < fewer.out_error.relative);
      CHECK(more.out_error.max_abs < fewer.out_error.max_abs);
      CHECK(more.weights_error.max_abs < fewer.weights_error.max_abs);
    }
    const attn::QuantisedLevel& eight = cache.levels.back();
    CHECK(eight.bits == 8);
    CHECK(eight.k_error.relative < 0.01);
    CHECK(eight.v_error.relative < 0.01);
    CHECK(eight.weights_error.max_abs < 0.01);
    CHECK(eight.out_error.relative < 0.01);
  }
}

TEST_CASE("quantised cache: bytes per token, and bad options", "[quantised]") {
  const attn::AttentionInput input = seeded_layer_head(4, 16, 4, 0, 1);
  const attn::QuantisedCacheTrace cache = attn::compute_quantised_cache(input, {});
  // A head of 4: unquantised, a key and a value of 4 float32s: 2 · 4 · 4 = 32 bytes.
  CHECK(cache.unquantised_bytes_per_token == 32);
  REQUIRE(cache.levels.size() == 4);
  // 8 bits: 2 · (⌈4 · 8 / 8⌉ + 4) = 2 · (4 + 4) = 16
  CHECK(cache.levels[0].bytes_per_token == 16);
  // 4 bits: 2 · (⌈16 / 8⌉ + 4) = 2 · 6 = 12
  CHECK(cache.levels[1].bytes_per_token == 12);
  // 3 bits: 2 · (⌈12 / 8⌉ + 4) = 2 · (2 + 4) = 12
  CHECK(cache.levels[2].bytes_per_token == 12);
  // 2 bits: 2 · (⌈8 / 8⌉ + 4) = 2 · 5 = 10
  CHECK(cache.levels[3].bytes_per_token == 10);

  const auto refused = [&](const char* what, const std::string& path, std::vector<int> bits) {
    INFO(what);
    attn::QuantisedCacheOptions options;
    options.bits = std::move(bits);
    const auto error = attn::validate_quantised_cache(input, options);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  refused("no bit widths", "bits", {});
  refused("5 bits", "bits[1]", {8, 5});
  refused("1 bit", "bits[0]", {1});
  refused("16 bits", "bits[2]", {2, 3, 16});
  refused("nine widths", "bits", {2, 2, 2, 2, 2, 2, 2, 2, 2});
  // 64 tokens with head_dim 256: one bit width (2 traces of 64² · 256 = 2^20 products) fits,
  // two do not.
  const attn::AttentionInput big = normal_head(64, 256, 9);
  attn::QuantisedCacheOptions one;
  one.bits = {4};
  CHECK_FALSE(attn::validate_quantised_cache(big, one).has_value());
  one.bits = {4, 8};
  const auto too_big = attn::validate_quantised_cache(big, one);
  REQUIRE(too_big.has_value());
  attn_test::check_names(*too_big, "bits");

  attn::AttentionInput bad = input;
  bad.v.at(3, 0) = std::numeric_limits<float>::infinity();
  const auto error = attn::validate_quantised_cache(bad, {});
  REQUIRE(error.has_value());
  attn_test::check_names(*error, "v[3][0]");

  // An all-zero row has scale 0 and codes 0, not a division by zero.
  attn::AttentionInput zeros = input;
  for (std::size_t c = 0; c < 4; ++c) zeros.k.at(1, c) = 0.0f;
  const attn::QuantisedCacheTrace zero_cache = attn::compute_quantised_cache(zeros, {});
  for (const attn::QuantisedLevel& level : zero_cache.levels) {
    CHECK(level.k.scales[1] == 0.0f);
    for (std::size_t c = 0; c < 4; ++c) CHECK(level.k.restored.at(1, c) == 0.0f);
    for (const float value : level.trace.out.values) CHECK(std::isfinite(value));
  }
}
