// The FAQ's variants of one head: the scale (÷ √d_k, ÷ d_k, none) and the mask that fills hidden
// cells with 0 instead of -infinity. Each is checked against a float64 reference; the defaults
// must stay the article's attention bit for bit; the JSON input and the trace name the variant.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/reference/attention_input.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/reference/trace.h"
#include "explore_test_helpers.h"
#include "reference_variants_f64.h"
#include "test_inputs.h"

namespace {

using attn_test::Shape;
const std::vector<Shape> variant_shapes = {{1, 1}, {2, 4}, {3, 5}, {5, 3}, {8, 16}, {17, 9}};

bool same_bits(const attn::Matrix& a, const attn::Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

double divisor_f64(attn::ScaleKind scale, std::size_t d) {
  switch (scale) {
    case attn::ScaleKind::sqrt_head_dim: return std::sqrt(static_cast<double>(d));
    case attn::ScaleKind::head_dim: return static_cast<double>(d);
    case attn::ScaleKind::none: return 1.0;
  }
  return 0.0;
}

attn_test::HeadF64 reference_of(const attn::AttentionInput& input) {
  return attn_test::reference_head_f64(
      attn_test::values_f64(input.q), attn_test::values_f64(input.k), attn_test::values_f64(input.v),
      input.q.rows, input.q.cols, input.mask == attn::MaskKind::causal,
      input.mask_fill == attn::MaskFill::zero, divisor_f64(input.scale, input.q.cols));
}

// Every table of the trace within budget of the float64 reference. Inputs lie in [-2, 2] and
// head_dim <= 16, so a score carries at most ~16 · 4 · 2⁻²⁴ of rounding; unscaled scores reach
// 64, where a weight's relative error is about that times the score.
void check_against_reference(const attn::AttentionInput& input, const std::string& what) {
  const attn::Trace t = attn::compute_trace(input);
  const attn_test::HeadF64 ref = reference_of(input);
  const std::size_t T = t.token_count;
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      INFO(what << ", cell " << i << "," << j);
      const double score = ref.at(ref.scores, i, j);
      CHECK(std::fabs(t.scores.at(i, j) - score) <= 1e-5 * (1.0 + std::fabs(score)));
      const double scaled = ref.at(ref.scaled, i, j);
      CHECK(std::fabs(t.scaled.at(i, j) - scaled) <= 1e-5 * (1.0 + std::fabs(scaled)));
      const double masked = ref.at(ref.masked, i, j);
      if (std::isinf(masked)) CHECK(t.masked.at(i, j) == -std::numeric_limits<float>::infinity());
      else CHECK(std::fabs(t.masked.at(i, j) - masked) <= 1e-5 * (1.0 + std::fabs(masked)));
      CHECK(std::fabs(t.weights.at(i, j) - ref.at(ref.weights, i, j)) <= 1e-4);
    }
    CHECK(std::fabs(t.weight_sums[i] - 1.0) <= 1e-5);
    for (std::size_t c = 0; c < t.head_dim; ++c) {
      INFO(what << ", out " << i << "," << c);
      CHECK(std::fabs(t.out.at(i, c) - ref.out[i * t.head_dim + c]) <= 2e-4);
    }
  }
}

using attn_test::error_of;

// The article's two words as JSON without the "scale" member the writer adds, and with
// `extra` members appended.
std::string two_words_json_with(const std::string& extra) {
  std::string json = attn::attention_input_to_json(attn::article::two_words());
  const std::string scale = ",\"scale\":\"sqrt_d\"}";
  REQUIRE(json.size() > scale.size());
  REQUIRE(json.substr(json.size() - scale.size()) == scale);
  return json.substr(0, json.size() - scale.size()) + extra + "}";
}

}  // namespace

TEST_CASE("trace variants: the defaults are the article's attention, bit for bit", "[variants]") {
  for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
    for (const Shape& shape : variant_shapes) {
      attn::AttentionInput input = attn_test::random_input(shape.token_count, shape.head_dim, mask, 77);
      CHECK(input.scale == attn::ScaleKind::sqrt_head_dim);
      CHECK(input.mask_fill == attn::MaskFill::minus_infinity);
      const attn::Trace t = attn::compute_trace(input);
      INFO("T " << shape.token_count << ", d " << shape.head_dim);
      CHECK(t.scale == attn::ScaleKind::sqrt_head_dim);
      CHECK(t.mask_fill == attn::MaskFill::minus_infinity);
      // Step 2 and 3 exactly as they were before the variants existed.
      const float root_d = std::sqrt(static_cast<float>(shape.head_dim));
      CHECK(t.scale_divisor == root_d);
      for (std::size_t i = 0; i < t.token_count; ++i) {
        for (std::size_t j = 0; j < t.token_count; ++j) {
          const float scaled = t.scores.at(i, j) / root_d;
          CHECK(std::memcmp(t.scaled.row(i) + j, &scaled, sizeof scaled) == 0);
          const float masked = attn::is_visible(mask, i, j)
                                   ? scaled
                                   : -std::numeric_limits<float>::infinity();
          CHECK(std::memcmp(t.masked.row(i) + j, &masked, sizeof masked) == 0);
        }
      }
    }
  }
  // The article's printed numbers still come out (its claims are checked in golden_test.cpp).
  const attn::Trace two = attn::compute_trace(attn::article::two_words());
  CHECK(two.scale_divisor == 2.0f);
  CHECK(two.weights.at(1, 0) == Approx(0.2799).margin(5e-5));
}

TEST_CASE("trace variants: ÷ d_k and no scaling, against float64", "[variants]") {
  for (attn::ScaleKind scale : {attn::ScaleKind::sqrt_head_dim, attn::ScaleKind::head_dim,
                                attn::ScaleKind::none}) {
    for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
      for (const Shape& shape : variant_shapes) {
        attn::AttentionInput input = attn_test::random_input(shape.token_count, shape.head_dim, mask, 5);
        input.scale = scale;
        const attn::Trace t = attn::compute_trace(input);
        CHECK(t.scale == scale);
        const float d = static_cast<float>(shape.head_dim);
        const float expected_divisor = scale == attn::ScaleKind::head_dim ? d
                                       : scale == attn::ScaleKind::none   ? 1.0f
                                                                          : std::sqrt(d);
        CHECK(t.scale_divisor == expected_divisor);
        if (scale == attn::ScaleKind::none) CHECK(same_bits(t.scaled, t.scores));
        check_against_reference(input, std::string(attn::scale_name(scale)) + " " +
                                           std::string(attn::mask_name(mask)) + " T " +
                                           std::to_string(shape.token_count) + " d " +
                                           std::to_string(shape.head_dim));
      }
    }
  }
}

TEST_CASE("trace variants: ÷ d_k flattens the weights, no scaling sharpens them", "[variants]") {
  // The FAQ's point, on one input: the larger the divisor, the closer each row is to uniform.
  attn::AttentionInput input = attn_test::random_input(8, 16, attn::MaskKind::none, 9);
  const auto largest_weight = [&](attn::ScaleKind scale) {
    input.scale = scale;
    const attn::Trace t = attn::compute_trace(input);
    double sum = 0.0;
    for (std::size_t i = 0; i < 8; ++i) {
      float largest = 0.0f;
      for (std::size_t j = 0; j < 8; ++j) largest = std::max(largest, t.weights.at(i, j));
      sum += largest;
    }
    return sum / 8.0;
  };
  const double by_d = largest_weight(attn::ScaleKind::head_dim);
  const double by_root_d = largest_weight(attn::ScaleKind::sqrt_head_dim);
  const double unscaled = largest_weight(attn::ScaleKind::none);
  CHECK(by_d < by_root_d);
  CHECK(by_root_d < unscaled);
}

TEST_CASE("trace variants: the 0-filled mask leaks weight onto future words, as float64 does",
          "[variants]") {
  for (const Shape& shape : variant_shapes) {
    attn::AttentionInput input =
        attn_test::random_input(shape.token_count, shape.head_dim, attn::MaskKind::causal, 21);
    input.mask_fill = attn::MaskFill::zero;
    const attn::Trace t = attn::compute_trace(input);
    CHECK(t.mask == attn::MaskKind::causal);
    CHECK(t.mask_fill == attn::MaskFill::zero);
    for (std::size_t i = 0; i < t.token_count; ++i) {
      for (std::size_t j = i + 1; j < t.token_count; ++j) {
        INFO("T " << shape.token_count << ", hidden cell " << i << "," << j);
        CHECK(t.masked.at(i, j) == 0.0f);
        CHECK(t.exponentials.at(i, j) > 0.0f);
        CHECK(t.weights.at(i, j) > 0.0f);  // the leak
      }
    }
    check_against_reference(input, "causal_zero T " + std::to_string(shape.token_count));
  }

  // On the article's words: "the" should give "cat" nothing; with 0 it gives it
  // e^0 / (e^0.08 + e^0) = 1 / (1 + e^0.08) ≈ 0.48.
  attn::AttentionInput two = attn::article::two_words();
  two.mask_fill = attn::MaskFill::zero;
  const attn::Trace t = attn::compute_trace(two);
  CHECK(t.masked.at(0, 1) == 0.0f);
  CHECK(t.weights.at(0, 1) == Approx(1.0 / (1.0 + std::exp(0.08))).margin(1e-6));
  CHECK(t.weights.at(0, 1) > 0.47f);
  // Row 1 sees everything anyway: unchanged.
  const attn::Trace correct = attn::compute_trace(attn::article::two_words());
  CHECK(t.weights.at(1, 0) == correct.weights.at(1, 0));
}

TEST_CASE("trace variants: the 0 fill changes nothing when the mask hides nothing", "[variants]") {
  attn::AttentionInput input = attn_test::random_input(6, 4, attn::MaskKind::none, 3);
  const attn::Trace plain = attn::compute_trace(input);
  input.mask_fill = attn::MaskFill::zero;
  const attn::Trace filled = attn::compute_trace(input);
  CHECK(same_bits(plain.masked, filled.masked));
  CHECK(same_bits(plain.weights, filled.weights));
  CHECK(same_bits(plain.out, filled.out));
  CHECK(attn::mask_variant_name(attn::MaskKind::none, attn::MaskFill::zero) == "none");
}

TEST_CASE("variant names parse and print", "[variants]") {
  CHECK(attn::scale_name(attn::ScaleKind::sqrt_head_dim) == "sqrt_d");
  CHECK(attn::scale_name(attn::ScaleKind::head_dim) == "d");
  CHECK(attn::scale_name(attn::ScaleKind::none) == "none");
  for (attn::ScaleKind scale : {attn::ScaleKind::sqrt_head_dim, attn::ScaleKind::head_dim,
                                attn::ScaleKind::none})
    CHECK(attn::parse_scale(attn::scale_name(scale)) == scale);
  CHECK_FALSE(attn::parse_scale("sqrt").has_value());
  CHECK_FALSE(attn::parse_scale("").has_value());

  CHECK(attn::mask_variant_name(attn::MaskKind::causal, attn::MaskFill::minus_infinity) == "causal");
  CHECK(attn::mask_variant_name(attn::MaskKind::causal, attn::MaskFill::zero) == "causal_zero");
  CHECK(attn::mask_variant_name(attn::MaskKind::none, attn::MaskFill::minus_infinity) == "none");
  const auto zero = attn::parse_mask_variant("causal_zero");
  REQUIRE(zero.has_value());
  CHECK(zero->mask == attn::MaskKind::causal);
  CHECK(zero->fill == attn::MaskFill::zero);
  CHECK(attn::parse_mask_variant("none")->mask == attn::MaskKind::none);
  CHECK(attn::parse_mask_variant("causal")->fill == attn::MaskFill::minus_infinity);
  CHECK_FALSE(attn::parse_mask_variant("zero").has_value());
  CHECK_FALSE(attn::parse_mask_variant("none_zero").has_value());
  // The kernels' own names are untouched.
  CHECK_FALSE(attn::parse_mask("causal_zero").has_value());

  CHECK(attn::scale_divisor_for(attn::ScaleKind::sqrt_head_dim, 5) == std::sqrt(5.0f));
  CHECK(attn::scale_divisor_for(attn::ScaleKind::head_dim, 5) == 5.0f);
  CHECK(attn::scale_divisor_for(attn::ScaleKind::none, 5) == 1.0f);
}

TEST_CASE("JSON: scale and mask variants are read, echoed in the trace, and round-trip",
          "[variants][json_io]") {
  struct Case {
    const char* extra;
    attn::ScaleKind scale;
    attn::MaskKind mask;
    attn::MaskFill fill;
    const char* scale_text;
    const char* mask_text;
  };
  using S = attn::ScaleKind;
  using M = attn::MaskKind;
  using F = attn::MaskFill;
  const std::vector<Case> cases = {
      {"", S::sqrt_head_dim, M::causal, F::minus_infinity, "sqrt_d", "causal"},
      {R"(,"scale":"sqrt_d")", S::sqrt_head_dim, M::causal, F::minus_infinity, "sqrt_d", "causal"},
      {R"(,"scale":"d")", S::head_dim, M::causal, F::minus_infinity, "d", "causal"},
      {R"(,"scale":"none")", S::none, M::causal, F::minus_infinity, "none", "causal"},
  };
  for (const Case& c : cases) {
    for (const char* mask : {"causal", "none", "causal_zero"}) {
      attn::AttentionInput base = attn::article::two_words();
      base.mask = attn::parse_mask_variant(mask)->mask;
      base.mask_fill = attn::parse_mask_variant(mask)->fill;
      std::string json = attn::attention_input_to_json(base);
      // Drop the "scale" member the writer adds, then append the case's own.
      const std::size_t at = json.find(",\"scale\"");
      REQUIRE(at != std::string::npos);
      json = json.substr(0, at) + c.extra + "}";
      INFO(json);
      const auto parsed = attn::parse_attention_input(json);
      INFO(error_of(parsed));
      REQUIRE(std::holds_alternative<attn::AttentionInput>(parsed));
      const attn::AttentionInput& input = std::get<attn::AttentionInput>(parsed);
      CHECK(input.scale == c.scale);
      CHECK(input.mask == base.mask);
      CHECK(input.mask_fill == base.mask_fill);

      const attn::json::Value trace =
          attn_test::parse_json_text(attn::trace_to_json(attn::compute_trace(input)));
      CHECK(trace.find("scale")->string == c.scale_text);
      CHECK(trace.find("mask")->string == mask);
      const double divisor = c.scale == S::head_dim ? 4.0 : c.scale == S::none ? 1.0 : 2.0;
      CHECK(trace.find("scale_divisor")->number == divisor);
      const attn::json::Value& hidden = trace.find("masked")->array[0].array[1];
      if (std::string(mask) == "causal") CHECK(attn_test::is_non_finite(hidden, "-Infinity"));
      if (std::string(mask) == "causal_zero") {
        CHECK(hidden.type == attn::json::Value::Type::number);
        CHECK(hidden.number == 0.0);
        CHECK(trace.find("weights")->array[0].array[1].number > 0.4);  // the leak
      }

      // Input -> JSON -> input keeps the variant.
      const auto again = attn::parse_attention_input(attn::attention_input_to_json(input));
      REQUIRE(std::holds_alternative<attn::AttentionInput>(again));
      CHECK(std::get<attn::AttentionInput>(again).scale == input.scale);
      CHECK(std::get<attn::AttentionInput>(again).mask == input.mask);
      CHECK(std::get<attn::AttentionInput>(again).mask_fill == input.mask_fill);
    }
  }
}

TEST_CASE("JSON: a bad scale or mask is refused, naming it", "[variants][json_io]") {
  struct Case {
    std::string extra;
    const char* path;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {R"(,"scale":"sqrt")", "scale", "\"sqrt\""},
      {R"(,"scale":2)", "scale", "\"sqrt_d\", \"d\" or \"none\""},
      {R"(,"scale":null)", "scale", "null"},
      {R"(,"scale":"SQRT_D")", "scale", nullptr},
      {R"(,"colour":"red")", "colour", "scale"},
  };
  for (const Case& c : cases) {
    const auto parsed = attn::parse_attention_input(two_words_json_with(c.extra));
    INFO(c.extra);
    REQUIRE(std::holds_alternative<attn::InputError>(parsed));
    attn_test::check_names(std::get<attn::InputError>(parsed), c.path);
    if (c.fragment) CHECK(std::get<attn::InputError>(parsed).message.find(c.fragment) != std::string::npos);
  }
  for (const char* mask : {R"("zero")", R"("causal-zero")", R"("none_zero")", "0", "[]"}) {
    std::string json = attn::attention_input_to_json(attn::article::two_words());
    const std::string from = "\"mask\":\"causal\"";
    json.replace(json.find(from), from.size(), std::string("\"mask\":") + mask);
    INFO(json);
    const auto parsed = attn::parse_attention_input(json);
    REQUIRE(std::holds_alternative<attn::InputError>(parsed));
    attn_test::check_names(std::get<attn::InputError>(parsed), "mask");
    CHECK(std::get<attn::InputError>(parsed).message.find("\"causal_zero\"") != std::string::npos);
  }
}
