// Properties every trace must have whatever the numbers: rows of weights sum to 1, the mask
// removes exactly what it should, the future cannot change the past, the softmax ignores a
// constant shift, big scores do not overflow, and each printed intermediate adds up to the
// next one.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/reference/attention_input.h"
#include "attention/article/next_word.h"
#include "attention/reference/softmax.h"
#include "attention/reference/trace.h"
#include "reference_f64.h"
#include "test_inputs.h"

namespace {

using attn_test::Shape;

const std::vector<Shape> property_shapes = {{1, 1}, {2, 4}, {3, 5}, {5, 3}, {8, 16}, {17, 9}, {64, 7}};

bool same_bits(const float* a, const float* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("trace: shapes and the echoed input", "[properties]") {
  const attn::AttentionInput input = attn_test::random_input(3, 5, attn::MaskKind::none, 11);
  const attn::Trace t = attn::compute_trace(input);
  CHECK(t.tokens == input.tokens);
  CHECK(t.mask == attn::MaskKind::none);
  CHECK(t.token_count == 3);
  CHECK(t.head_dim == 5);
  CHECK(t.q.values == input.q.values);
  CHECK(t.k.values == input.k.values);
  CHECK(t.v.values == input.v.values);
  CHECK(t.score_terms.size() == 3 * 3 * 5);
  CHECK(t.weighted_values.size() == 3 * 3 * 5);
  for (const attn::Matrix* m : {&t.scores, &t.scaled, &t.masked, &t.exponentials, &t.weights}) {
    CHECK(m->rows == 3);
    CHECK(m->cols == 3);
    CHECK(m->values.size() == 9);
  }
  CHECK(t.out.rows == 3);
  CHECK(t.out.cols == 5);
  CHECK(t.row_max.size() == 3);
  CHECK(t.row_shifted.size() == 3);
  CHECK(t.row_totals.size() == 3);
  CHECK(t.weight_sums.size() == 3);
  CHECK(t.scale_divisor == std::sqrt(5.0f));
}

TEST_CASE("weights: each row sums to 1 and masked cells are exactly 0", "[properties]") {
  for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
    for (const Shape& shape : property_shapes) {
      const attn::AttentionInput input =
          attn_test::random_input(shape.token_count, shape.head_dim, mask, 1234);
      REQUIRE(attn_test::validation_error(input) == "");
      const attn::Trace t = attn::compute_trace(input);
      const std::size_t T = shape.token_count;
      for (std::size_t i = 0; i < T; ++i) {
        INFO("mask " << attn::mask_name(mask) << ", T " << T << ", d " << shape.head_dim
                     << ", row " << i);
        double total = 0.0;
        for (std::size_t j = 0; j < T; ++j) {
          const float w = t.weights.at(i, j);
          total += w;
          if (mask == attn::MaskKind::causal && j > i) {
            CHECK(t.masked.at(i, j) == -std::numeric_limits<float>::infinity());
            CHECK(t.exponentials.at(i, j) == 0.0f);
            CHECK(w == 0.0f);
            CHECK_FALSE(std::signbit(w));
            CHECK_FALSE(attn::is_visible(mask, i, j));
          } else {
            CHECK(std::isfinite(t.masked.at(i, j)));
            CHECK(t.masked.at(i, j) == t.scaled.at(i, j));
            CHECK(w > 0.0f);  // a smear, not a pointer
            CHECK(attn::is_visible(mask, i, j));
          }
        }
        CHECK(std::fabs(total - 1.0) <= 1e-6);
        // The trace's own check of the row: the same sum, stored as a float.
        CHECK(std::fabs(t.weight_sums[i] - total) <= 1e-7);
        CHECK(std::fabs(t.weight_sums[i] - 1.0) <= 1e-6);
      }
    }
  }
}

TEST_CASE("mask none: every weight is positive", "[properties]") {
  const attn::AttentionInput input = attn_test::random_input(9, 4, attn::MaskKind::none, 7);
  const attn::Trace t = attn::compute_trace(input);
  for (float x : t.masked.values) CHECK(std::isfinite(x));
  for (float w : t.weights.values) CHECK(w > 0.0f);
}

TEST_CASE("trace: agrees with float64 on random heads", "[properties]") {
  // Values in [-2, 2]; float32 sums of at most 64 products stay within ~1e-5 of float64.
  for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
    for (const Shape& shape : property_shapes) {
      const attn::AttentionInput input =
          attn_test::random_input(shape.token_count, shape.head_dim, mask, 99);
      const attn::Trace t = attn::compute_trace(input);
      const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);
      INFO("mask " << attn::mask_name(mask) << ", T " << shape.token_count << ", d "
                   << shape.head_dim);
      for (std::size_t n = 0; n < t.weights.values.size(); ++n)
        CHECK(std::fabs(t.weights.values[n] - ref.weights[n]) <= 1e-5);
      for (std::size_t n = 0; n < t.out.values.size(); ++n)
        CHECK(std::fabs(t.out.values[n] - ref.out[n]) <= 1e-5 * (1.0 + std::fabs(ref.out[n])));
    }
  }
}

TEST_CASE("causal: output row t does not depend on tokens after t", "[properties]") {
  const std::size_t T = 12;
  const std::size_t d = 6;
  const attn::AttentionInput original = attn_test::random_input(T, d, attn::MaskKind::causal, 5);
  const attn::Trace before = attn::compute_trace(original);
  std::mt19937 rng(77);
  for (std::size_t t = 0; t + 1 < T; ++t) {
    attn::AttentionInput changed = original;
    for (std::size_t r = t + 1; r < T; ++r) {
      changed.tokens[r] = "changed";
      for (attn::Matrix* m : {&changed.q, &changed.k, &changed.v}) {
        const attn::Matrix fresh = attn_test::random_matrix(rng, 1, d);
        std::memcpy(m->row(r), fresh.row(0), d * sizeof(float));
      }
    }
    const attn::Trace after = attn::compute_trace(changed);
    INFO("rows after " << t << " changed");
    for (std::size_t r = 0; r <= t; ++r) {
      CHECK(same_bits(before.out.row(r), after.out.row(r), d));
      CHECK(same_bits(before.weights.row(r), after.weights.row(r), T));
    }
    // The changed rows themselves do change, or this test could not fail.
    CHECK_FALSE(same_bits(before.out.row(T - 1), after.out.row(T - 1), d));
  }
}

TEST_CASE("mask none: earlier rows do see later tokens", "[properties]") {
  // The counterpart of the causal test: without the mask, changing the last token moves row 0.
  attn::AttentionInput input = attn_test::random_input(4, 4, attn::MaskKind::none, 21);
  const attn::Trace before = attn::compute_trace(input);
  input.v.at(3, 0) += 1.0f;
  input.k.at(3, 1) += 1.0f;
  const attn::Trace after = attn::compute_trace(input);
  CHECK_FALSE(same_bits(before.out.row(0), after.out.row(0), 4));
}

TEST_CASE("softmax_row: adding a constant to every input leaves the weights unchanged",
          "[properties]") {
  // Inputs on a 1/256 grid, so x + c is exact in float32 and only the softmax itself differs.
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> steps(-512, 512);
  const float masked = -std::numeric_limits<float>::infinity();
  for (std::size_t n : {1u, 2u, 5u, 16u, 33u}) {
    std::vector<float> x(n);
    for (float& value : x) value = static_cast<float>(steps(rng)) / 256.0f;
    if (n > 2) x[1] = masked;
    std::vector<float> exps(n), weights(n);
    const attn::SoftmaxRowResult base = attn::softmax_row(exps.data(), weights.data(), x.data(), n);
    CHECK_FALSE(base.shifted);
    for (float c : {-100.0f, -20.0f, 3.0f, 50.0f, 100.0f, 1000.0f}) {
      std::vector<float> moved(n);
      for (std::size_t j = 0; j < n; ++j) moved[j] = x[j] + c;
      std::vector<float> moved_exps(n), moved_weights(n);
      const attn::SoftmaxRowResult r =
          attn::softmax_row(moved_exps.data(), moved_weights.data(), moved.data(), n);
      INFO("n " << n << ", shift " << c);
      for (std::size_t j = 0; j < n; ++j) {
        CHECK(std::isfinite(moved_weights[j]));
        CHECK(std::fabs(moved_weights[j] - weights[j]) <= 1e-6);
        CHECK(std::isfinite(moved_exps[j]));
      }
      CHECK(r.max == base.max + c);
      if (c >= 100.0f) CHECK(r.shifted);  // e^100 > FLT_MAX
      if (c == 3.0f) CHECK_FALSE(r.shifted);
      CHECK(std::isfinite(r.total));
      CHECK(r.total > 0.0f);
    }
    if (n > 2) {
      CHECK(exps[1] == 0.0f);
      CHECK(weights[1] == 0.0f);
    }
  }
}

TEST_CASE("softmax_row: exponentials and total and weights of a small row", "[properties]") {
  const float x[3] = {0.1f, 1.045f, -std::numeric_limits<float>::infinity()};
  float exps[3], weights[3];
  const attn::SoftmaxRowResult r = attn::softmax_row(exps, weights, x, 3);
  CHECK_FALSE(r.shifted);
  CHECK(r.max == 1.045f);
  CHECK(std::fabs(exps[0] - std::exp(0.1)) <= 1e-6);
  CHECK(std::fabs(exps[1] - std::exp(1.045)) <= 1e-6);
  CHECK(exps[2] == 0.0f);
  CHECK(std::fabs(r.total - (std::exp(0.1) + std::exp(1.045))) <= 1e-6);
  CHECK(std::fabs(weights[0] - std::exp(0.1) / (std::exp(0.1) + std::exp(1.045))) <= 1e-6);
  CHECK(weights[2] == 0.0f);
}

TEST_CASE("softmax_weights_row: softmax_row's weights bit for bit, without its e^x",
          "[properties]") {
  // Rows whose e^x fits a float and rows whose e^x overflows (softmax_row then keeps the
  // shifted exponentials), with and without masked entries.
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const float masked = -std::numeric_limits<float>::infinity();
  for (std::size_t n : {1u, 3u, 8u, 17u}) {
    for (float spread : {1.0f, 30.0f, 200.0f}) {
      std::vector<float> x(n);
      for (float& value : x) value = normal(rng) * spread;
      if (n > 2) x[n - 1] = masked;
      std::vector<float> exps(n), weights(n), alone(n);
      const attn::SoftmaxRowResult row = attn::softmax_row(exps.data(), weights.data(), x.data(), n);
      const float max = attn::softmax_row_max(x.data(), n);
      const float shifted_total = attn::softmax_weights_row(alone.data(), x.data(), max, n);
      INFO("n " << n << ", spread " << spread);
      CHECK(max == row.max);
      CHECK(std::memcmp(alone.data(), weights.data(), n * sizeof(float)) == 0);
      std::vector<double> wide(x.begin(), x.end());
      const std::vector<double> expected = attn_test::softmax_f64(wide);
      double expected_shifted_total = 0.0;
      for (double value : wide) expected_shifted_total += std::exp(value - static_cast<double>(max));
      // n float terms, each within an ulp of e^(x - max), summed in float: within 2n ulps.
      const double tolerance = static_cast<double>(n) * 2.0 * 0x1.0p-24 * expected_shifted_total;
      CHECK(std::fabs(shifted_total - expected_shifted_total) <= tolerance);
      for (std::size_t j = 0; j < n; ++j) {
        CHECK(std::fabs(alone[j] - expected[j]) <= 1e-6);
        if (row.shifted)
          CHECK(std::fabs(exps[j] - std::exp(wide[j] - static_cast<double>(max))) <= 1e-6);
      }
      if (row.shifted) CHECK(row.total == shifted_total);
    }
  }
}

TEST_CASE("large scores: weights stay finite and match float64 and the row is shifted",
          "[properties]") {
  for (std::size_t d : {1u, 4u}) {
    for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
      const attn::AttentionInput input = attn_test::large_score_input(d, mask);
      REQUIRE(attn_test::validation_error(input) == "");
      const attn::Trace t = attn::compute_trace(input);
      const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);
      const std::size_t T = t.token_count;
      for (std::size_t i = 0; i < T; ++i) {
        INFO("d " << d << ", mask " << attn::mask_name(mask) << ", row " << i);
        CHECK(ref.masked_score(i, 0) > 6000.0);  // e^6000 overflows even float64
        CHECK(t.row_shifted[i] == 1);
        double row_max = -INFINITY;
        for (std::size_t j = 0; j < T; ++j) row_max = std::max(row_max, ref.masked_score(i, j));
        CHECK(t.row_max[i] == row_max);
        double total = 0.0;
        for (std::size_t j = 0; j < T; ++j) {
          CHECK(std::isfinite(t.weights.at(i, j)));
          CHECK(std::fabs(t.weights.at(i, j) - ref.weight(i, j)) <= 1e-6);
          const double shifted_exp = std::exp(ref.masked_score(i, j) - row_max);
          CHECK(std::fabs(t.exponentials.at(i, j) - shifted_exp) <= 1e-6);
          CHECK(t.exponentials.at(i, j) <= 1.0f);
          total += shifted_exp;
        }
        CHECK(std::fabs(t.row_totals[i] - total) <= 1e-6 * total);
        for (std::size_t c = 0; c < d; ++c)
          CHECK(std::fabs(t.out.at(i, c) - ref.output(i, c)) <= 1e-5 * (1 + std::fabs(ref.output(i, c))));
      }
    }
  }
}

TEST_CASE("small scores: exponentials are unshifted e^x as the article prints them",
          "[properties]") {
  const attn::AttentionInput input = attn_test::random_input(6, 4, attn::MaskKind::causal, 8);
  const attn::Trace t = attn::compute_trace(input);
  for (std::size_t i = 0; i < 6; ++i) {
    INFO("row " << i);
    CHECK(t.row_shifted[i] == 0);
    double total = 0.0;
    float row_max = -INFINITY;
    for (std::size_t j = 0; j <= i; ++j) {
      const double e = std::exp(static_cast<double>(t.masked.at(i, j)));
      CHECK(std::fabs(t.exponentials.at(i, j) - e) <= 1e-6 * e);
      total += t.exponentials.at(i, j);
      row_max = std::max(row_max, t.masked.at(i, j));
    }
    CHECK(std::fabs(t.row_totals[i] - total) <= 1e-6 * total);
    CHECK(t.row_max[i] == row_max);
  }
}

TEST_CASE("score terms summed left to right are the scores exactly", "[properties]") {
  const attn::AttentionInput input = attn_test::random_input(7, 13, attn::MaskKind::causal, 17);
  const attn::Trace t = attn::compute_trace(input);
  for (std::size_t i = 0; i < 7; ++i) {
    for (std::size_t j = 0; j < 7; ++j) {
      INFO("score " << i << ", " << j);
      float sum = 0.0f;
      for (std::size_t c = 0; c < 13; ++c) {
        CHECK(t.score_term(i, j, c) == input.q.at(i, c) * input.k.at(j, c));
        sum += t.score_term(i, j, c);
      }
      CHECK(sum == t.scores.at(i, j));
      CHECK(std::fabs(t.scaled.at(i, j) - t.scores.at(i, j) / std::sqrt(13.0)) <=
            1e-6 * (1.0 + std::fabs(t.scaled.at(i, j))));
    }
  }
}

TEST_CASE("weighted values are weight times value and sum to out", "[properties]") {
  for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
    const attn::AttentionInput input = attn_test::random_input(6, 9, mask, 23);
    const attn::Trace t = attn::compute_trace(input);
    for (std::size_t i = 0; i < 6; ++i) {
      for (std::size_t c = 0; c < 9; ++c) {
        INFO("mask " << attn::mask_name(mask) << ", out " << i << ", " << c);
        double sum = 0.0;
        for (std::size_t j = 0; j < 6; ++j) {
          CHECK(t.weighted_value(i, j, c) == t.weights.at(i, j) * input.v.at(j, c));
          sum += t.weighted_value(i, j, c);
        }
        CHECK(std::fabs(sum - t.out.at(i, c)) <= 1e-6);
      }
    }
  }
}

TEST_CASE("score_next_word: probabilities sum to 1 and most_likely is the first largest",
          "[properties]") {
  attn::article::Vocabulary vocabulary;
  vocabulary.words = {"a", "b", "c", "d"};
  vocabulary.vectors = attn::matrix_from_rows(
      {{0.0f, 1.0f}, {1.0f, 0.0f}, {0.5f, 0.5f}, {1.0f, 0.0f}});  // b and d tie
  const float row[2] = {2.0f, -1.0f};
  const attn::NextWordScores scores = attn::score_next_word(row, vocabulary);
  REQUIRE(scores.probabilities.size() == 4);
  CHECK(scores.most_likely == 1);
  CHECK(scores.probabilities[1] == scores.probabilities[3]);
  const std::vector<double> p = attn_test::softmax_f64({-1.0, 2.0, 0.5, 2.0});
  for (std::size_t w = 0; w < 4; ++w) CHECK(std::fabs(scores.probabilities[w] - p[w]) <= 1e-6);
  CHECK(std::fabs(scores.probability_sum - 1.0) <= 1e-6);

  // Logits large enough that e^x overflows: shifted, still a distribution.
  const float big[2] = {200.0f, 100.0f};
  const attn::NextWordScores shifted = attn::score_next_word(big, vocabulary);
  CHECK(shifted.shifted);
  CHECK(shifted.most_likely == 1);
  for (float x : shifted.probabilities) CHECK(std::isfinite(x));
  CHECK(std::fabs(shifted.probability_sum - 1.0) <= 1e-6);
}
