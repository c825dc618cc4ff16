// The head_dim demonstration: every figure against a float64 recomputation from the same seeded
// queries and keys, the FAQ's claim (raw scores at head_dim 128 are about √32 ≈ 5.66 times
// those at head_dim 4, scaled ones the same size), what saturation does to the weights and the
// gradient, and the JSON call.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/json/explore_json.h"
#include "attention/layers/head_dim_study.h"
#include "attention/reference/seeded_random.h"
#include "explore_test_helpers.h"
#include "reference_variants_f64.h"

namespace {

struct FiguresF64 {
  std::vector<double> largest_weight, entropy, jacobian_norm;  // [T], averaged over samples
  double gradient_norm = 0.0;                                  // averaged over samples
  // [samples] each sample's mean over rows (the gradient norm: the sample's own)
  std::vector<double> sample_largest, sample_entropy, sample_jacobian, sample_gradient;
};

struct PointF64 {
  double raw_spread = 0.0;
  double scaled_spread = 0.0;
  FiguresF64 unscaled, scaled;
  std::vector<double> raw_mean_squares, scaled_mean_squares;  // [samples]
};

// Two passes over the values: the mean, then the sample variance (n - 1).
double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double x : values) sum += x;
  return sum / static_cast<double>(values.size());
}
double covariance_of(const std::vector<double>& a, const std::vector<double>& b) {
  const double mean_a = mean_of(a), mean_b = mean_of(b);
  double sum = 0.0;
  for (std::size_t s = 0; s < a.size(); ++s) sum += (a[s] - mean_a) * (b[s] - mean_b);
  return sum / static_cast<double>(a.size() - 1);
}
// The standard error of the mean of `values`: their standard deviation over √n.
double standard_error_of(const std::vector<double>& values) {
  return std::sqrt(covariance_of(values, values) / static_cast<double>(values.size()));
}
// A spread from per-sample mean squares m: √(mean m), whose standard error is, to first order
// in the noise of mean m, SE(mean m) / (2 √(mean m)).
double spread_standard_error_of(const std::vector<double>& mean_squares) {
  return standard_error_of(mean_squares) / (2.0 * std::sqrt(mean_of(mean_squares)));
}
// √(mean a / mean b), to first order: its logarithm's variance is
// (Var ā / ā² + Var b̄ / b̄² - 2 Cov(ā, b̄) / (ā b̄)) / 4.
double ratio_standard_error_of(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = mean_of(a), mb = mean_of(b);
  const double log_variance = (covariance_of(a, a) / (ma * ma) + covariance_of(b, b) / (mb * mb) -
                               2.0 * covariance_of(a, b) / (ma * mb)) / (4.0 * n);
  return std::sqrt(ma / mb) * std::sqrt(log_variance);
}

double population_spread(const std::vector<double>& values) {
  double mean = 0.0;
  for (const double x : values) mean += x / static_cast<double>(values.size());
  double variance = 0.0;
  for (const double x : values) variance += (x - mean) * (x - mean) / static_cast<double>(values.size());
  return std::sqrt(variance);
}

// The figures of one side from its score rows, in double, from the definitions: the entropy
// -Σ p_j ln p_j term by term, the Jacobian's entries p_l (δ_lj - p_j) one by one,
// dL/dx_j = p_j (g_j - Σ_l g_l p_l).
void add_side(FiguresF64& figures, const std::vector<double>& scores, const attn::Matrix& upstream,
              std::size_t T, double divisor, bool causal) {
  double gradient_squares = 0.0;
  double row_largest = 0.0, row_entropy = 0.0, row_jacobian = 0.0;  // sums over rows
  for (std::size_t i = 0; i < T; ++i) {
    std::vector<double> x(T);
    for (std::size_t j = 0; j < T; ++j)
      x[j] = (!causal || j <= i) ? scores[i * T + j] / divisor : -std::numeric_limits<double>::infinity();
    const std::vector<double> p = attn_test::softmax_row_f64(x);
    double largest = 0.0, entropy = 0.0, jacobian_squares = 0.0, dot = 0.0;
    for (std::size_t j = 0; j < T; ++j) {
      largest = std::max(largest, p[j]);
      if (p[j] > 0.0) entropy -= p[j] * std::log(p[j]);
      for (std::size_t l = 0; l < T; ++l) {
        const double entry = p[l] * ((l == j ? 1.0 : 0.0) - p[j]);
        jacobian_squares += entry * entry;
      }
      dot += upstream.at(i, j) * p[j];
    }
    figures.largest_weight[i] += largest;
    figures.entropy[i] += entropy;
    figures.jacobian_norm[i] += std::sqrt(jacobian_squares);
    row_largest += largest;
    row_entropy += entropy;
    row_jacobian += std::sqrt(jacobian_squares);
    for (std::size_t j = 0; j < T; ++j) {
      const double g = p[j] * (upstream.at(i, j) - dot);
      gradient_squares += g * g;
    }
  }
  figures.gradient_norm += std::sqrt(gradient_squares);
  figures.sample_largest.push_back(row_largest / static_cast<double>(T));
  figures.sample_entropy.push_back(row_entropy / static_cast<double>(T));
  figures.sample_jacobian.push_back(row_jacobian / static_cast<double>(T));
  figures.sample_gradient.push_back(std::sqrt(gradient_squares));
}

PointF64 reference_point(const attn::HeadDimStudyOptions& options, std::size_t d) {
  const std::size_t T = options.token_count;
  const bool causal = options.mask == attn::MaskKind::causal;
  const double divisor = options.scale == attn::ScaleKind::sqrt_head_dim ? std::sqrt(static_cast<double>(d))
                         : options.scale == attn::ScaleKind::head_dim   ? static_cast<double>(d)
                                                                        : 1.0;
  PointF64 point;
  for (FiguresF64* side : {&point.unscaled, &point.scaled}) {
    side->largest_weight.assign(T, 0.0);
    side->entropy.assign(T, 0.0);
    side->jacobian_norm.assign(T, 0.0);
  }
  std::vector<double> raw, scaled;
  for (std::size_t s = 0; s < options.samples; ++s) {
    const attn::HeadDimSample drawn = attn::draw_head_dim_sample(options, d, s);
    std::vector<double> scores(T * T, 0.0);  // [T][T]
    double raw_squares = 0.0, scaled_squares = 0.0;
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t j = 0; j < T; ++j) {
        for (std::size_t c = 0; c < d; ++c)
          scores[i * T + j] += static_cast<double>(drawn.queries.at(i, c)) * drawn.keys.at(j, c);
        raw.push_back(scores[i * T + j]);
        scaled.push_back(scores[i * T + j] / divisor);
        raw_squares += raw.back() * raw.back();
        scaled_squares += scaled.back() * scaled.back();
      }
    point.raw_mean_squares.push_back(raw_squares / static_cast<double>(T * T));
    point.scaled_mean_squares.push_back(scaled_squares / static_cast<double>(T * T));
    add_side(point.unscaled, scores, drawn.upstream, T, 1.0, causal);
    add_side(point.scaled, scores, drawn.upstream, T, divisor, causal);
  }
  const double n = static_cast<double>(options.samples);
  for (FiguresF64* side : {&point.unscaled, &point.scaled}) {
    for (std::size_t i = 0; i < T; ++i) {
      side->largest_weight[i] /= n;
      side->entropy[i] /= n;
      side->jacobian_norm[i] /= n;
    }
    side->gradient_norm /= n;
  }
  point.raw_spread = population_spread(raw);
  point.scaled_spread = population_spread(scaled);
  return point;
}

bool close(double core, double reference, double tolerance) {
  return std::fabs(core - reference) <= tolerance * (1.0 + std::fabs(reference));
}

void check_figures(const attn::SoftmaxSpreadFigures& core, const FiguresF64& ref, const char* side) {
  const std::size_t T = ref.largest_weight.size();
  REQUIRE(core.largest_weight.size() == T);
  REQUIRE(core.entropy.size() == T);
  REQUIRE(core.jacobian_norm.size() == T);
  double mean_largest = 0.0, mean_entropy = 0.0, mean_jacobian = 0.0;
  for (std::size_t i = 0; i < T; ++i) {
    INFO(side << " row " << i);
    // float32 scores of up to 128 products and a float32 softmax: ~1e-5 of the largest score.
    CHECK(close(core.largest_weight[i], ref.largest_weight[i], 1e-4));
    CHECK(close(core.entropy[i], ref.entropy[i], 1e-4));
    CHECK(close(core.jacobian_norm[i], ref.jacobian_norm[i], 1e-4));
    mean_largest += ref.largest_weight[i] / static_cast<double>(T);
    mean_entropy += ref.entropy[i] / static_cast<double>(T);
    mean_jacobian += ref.jacobian_norm[i] / static_cast<double>(T);
  }
  INFO(side);
  CHECK(close(core.mean_largest_weight, mean_largest, 1e-4));
  CHECK(close(core.mean_entropy, mean_entropy, 1e-4));
  CHECK(close(core.mean_jacobian_norm, mean_jacobian, 1e-4));
  CHECK(close(core.gradient_norm, ref.gradient_norm, 1e-4));
  // A standard error is a difference of figures a few 1e-3 apart, each good to about 1e-5 of
  // itself, so it is compared within 1e-3 of the largest figure.
  CHECK(close(core.mean_largest_weight_standard_error, standard_error_of(ref.sample_largest), 1e-3));
  CHECK(close(core.mean_entropy_standard_error, standard_error_of(ref.sample_entropy), 1e-3));
  CHECK(close(core.mean_jacobian_norm_standard_error, standard_error_of(ref.sample_jacobian), 1e-3));
  CHECK(close(core.gradient_norm_standard_error, standard_error_of(ref.sample_gradient), 1e-3));
}

const attn::HeadDimPoint& point_at(const attn::HeadDimStudy& study, std::size_t d) {
  for (const attn::HeadDimPoint& point : study.points)
    if (point.head_dim == d) return point;
  FAIL("no point for head_dim " << d);
  return study.points.front();
}

}  // namespace

TEST_CASE("head_dim study: every figure matches float64 from the same seeded numbers",
          "[head_dim_study]") {
  for (const attn::MaskKind mask : {attn::MaskKind::none, attn::MaskKind::causal}) {
    for (const attn::ScaleKind scale : {attn::ScaleKind::sqrt_head_dim, attn::ScaleKind::head_dim}) {
      attn::HeadDimStudyOptions options;
      options.head_dims = {1, 3, 4, 16, 128};
      options.token_count = 5;
      options.samples = 3;
      options.seed = 99;
      options.mask = mask;
      options.scale = scale;
      REQUIRE_FALSE(attn::validate_head_dim_study(options).has_value());
      const attn::HeadDimStudy study = attn::run_head_dim_study(options);
      REQUIRE(study.points.size() == options.head_dims.size());
      for (std::size_t i = 0; i < 5; ++i)
        CHECK(study.max_entropy[i] ==
              Approx(std::log(mask == attn::MaskKind::none ? 5.0 : static_cast<double>(i + 1))));
      for (std::size_t n = 0; n < options.head_dims.size(); ++n) {
        const std::size_t d = options.head_dims[n];
        INFO("mask " << attn::mask_name(mask) << ", scale " << attn::scale_name(scale) << ", head_dim " << d);
        const attn::HeadDimPoint& point = study.points[n];
        CHECK(point.head_dim == d);
        CHECK(point.scale_divisor == attn::scale_divisor_for(scale, d));
        const PointF64 ref = reference_point(options, d);
        CHECK(close(point.raw_score_spread, ref.raw_spread, 1e-5));
        CHECK(close(point.scaled_score_spread, ref.scaled_spread, 1e-5));
        check_figures(point.unscaled, ref.unscaled, "unscaled");
        check_figures(point.scaled, ref.scaled, "scaled");
        CHECK(close(point.raw_score_spread_standard_error,
                    spread_standard_error_of(ref.raw_mean_squares), 1e-4));
        CHECK(close(point.scaled_score_spread_standard_error,
                    spread_standard_error_of(ref.scaled_mean_squares), 1e-4));
      }
      // The default comparison of a list that holds 4 and 128: 4 against 128.
      const attn::HeadDimComparison& comparison = study.comparison;
      REQUIRE(comparison.from_head_dim == 4);
      REQUIRE(comparison.to_head_dim == 128);
      const PointF64 from = reference_point(options, 4), to = reference_point(options, 128);
      CHECK(close(comparison.raw_spread_ratio_standard_error,
                  ratio_standard_error_of(to.raw_mean_squares, from.raw_mean_squares), 1e-4));
      CHECK(close(comparison.scaled_spread_ratio_standard_error,
                  ratio_standard_error_of(to.scaled_mean_squares, from.scaled_mean_squares), 1e-4));
    }
  }
}

TEST_CASE("head_dim study: a standard error is the scatter of the figure from seed to seed",
          "[head_dim_study]") {
  // 60 studies of 64 samples, seeds 1 to 60: the standard deviation of each figure across the
  // studies is what its standard error estimates. With 60 studies that deviation is itself
  // known to about ±10 %, so the test allows 0.7 to 1.4 times the mean standard error.
  std::vector<double> ratio, ratio_errors, spread, spread_errors, largest, largest_errors,
      gradient, gradient_errors;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    attn::HeadDimStudyOptions options;
    options.head_dims = {4, 32, 128};
    options.samples = 64;
    options.seed = seed;
    const attn::HeadDimStudy study = attn::run_head_dim_study(options);
    ratio.push_back(study.comparison.raw_spread_ratio);
    ratio_errors.push_back(study.comparison.raw_spread_ratio_standard_error);
    const attn::HeadDimPoint& at32 = point_at(study, 32);
    spread.push_back(at32.raw_score_spread);
    spread_errors.push_back(at32.raw_score_spread_standard_error);
    largest.push_back(at32.unscaled.mean_largest_weight);
    largest_errors.push_back(at32.unscaled.mean_largest_weight_standard_error);
    gradient.push_back(at32.scaled.gradient_norm);
    gradient_errors.push_back(at32.scaled.gradient_norm_standard_error);
  }
  const auto check_scatter = [](const std::vector<double>& figures, const std::vector<double>& errors,
                                const char* name) {
    const double scatter = std::sqrt(covariance_of(figures, figures));
    const double error = mean_of(errors);
    INFO(name << ": scatter across seeds " << scatter << ", mean standard error " << error);
    CHECK(scatter > 0.7 * error);
    CHECK(scatter < 1.4 * error);
  };
  check_scatter(ratio, ratio_errors, "raw spread ratio, 128 against 4");
  check_scatter(spread, spread_errors, "raw spread at 32");
  check_scatter(largest, largest_errors, "largest weight at 32, unscaled");
  check_scatter(gradient, gradient_errors, "gradient norm at 32, scaled");
}

TEST_CASE("head_dim study: raw scores at head_dim 128 are about √32 ≈ 5.66 times those at 4",
          "[head_dim_study]") {
  // 512 samples of 8 × 8 scores per head_dim: the ratio of the two spreads lands within about
  // ±3 % of √32 for any seed (measured over 40 seeds: 5.54 to 5.76); the test allows ±5 %.
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    attn::HeadDimStudyOptions options;
    options.head_dims = {4, 128};
    options.samples = 512;
    options.seed = seed;
    const attn::HeadDimStudy study = attn::run_head_dim_study(options);
    const attn::HeadDimComparison& c = study.comparison;
    INFO("seed " << seed << ": raw spread ratio " << c.raw_spread_ratio << ", scaled "
                 << c.scaled_spread_ratio);
    CHECK(c.from_head_dim == 4);
    CHECK(c.to_head_dim == 128);
    CHECK(c.expected_raw_spread_ratio == Approx(std::sqrt(32.0)));
    CHECK(c.raw_spread_ratio == Approx(std::sqrt(32.0)).epsilon(0.05));
    CHECK(c.raw_spread_ratio > 5.0);  // "about 5–6×"
    CHECK(c.raw_spread_ratio < 6.0);
    CHECK(c.scaled_spread_ratio == Approx(1.0).epsilon(0.05));
    // Each spread is about √d raw and 1 scaled.
    CHECK(point_at(study, 4).raw_score_spread == Approx(2.0).epsilon(0.05));
    CHECK(point_at(study, 128).raw_score_spread == Approx(std::sqrt(128.0)).epsilon(0.05));
    CHECK(point_at(study, 128).scaled_score_spread == Approx(1.0).epsilon(0.05));
  }
}

TEST_CASE("head_dim study: unscaled the softmax saturates and the gradient fades, scaled it does not",
          "[head_dim_study]") {
  attn::HeadDimStudyOptions options;  // 1, 2, 4, ..., 128; 8 tokens; 256 samples
  const attn::HeadDimStudy study = attn::run_head_dim_study(options);
  const attn::HeadDimPoint& small = point_at(study, 4);
  const attn::HeadDimPoint& large = point_at(study, 128);
  // Unscaled at 128 one word takes almost all the weight...
  CHECK(large.unscaled.mean_largest_weight > 0.85);
  CHECK(large.unscaled.mean_largest_weight > small.unscaled.mean_largest_weight + 0.3);
  CHECK(large.unscaled.mean_entropy < 0.35);  // ln 8 ≈ 2.08 for a flat row
  // ...and far less gradient comes back than with the scaling.
  CHECK(large.unscaled.gradient_norm < 0.5 * large.scaled.gradient_norm);
  CHECK(large.unscaled.mean_jacobian_norm < 0.5 * large.scaled.mean_jacobian_norm);
  // Scaled, head_dim changes none of it much.
  CHECK(std::fabs(large.scaled.mean_largest_weight - small.scaled.mean_largest_weight) < 0.05);
  CHECK(std::fabs(large.scaled.mean_entropy - small.scaled.mean_entropy) < 0.1);
  CHECK(large.scaled.gradient_norm == Approx(small.scaled.gradient_norm).epsilon(0.1));
  // At head_dim 1 the two sides are the same computation (÷ √1).
  const attn::HeadDimPoint& one = point_at(study, 1);
  CHECK(one.unscaled.mean_largest_weight == one.scaled.mean_largest_weight);
  CHECK(one.unscaled.gradient_norm == one.scaled.gradient_norm);
}

TEST_CASE("head_dim study: a head_dim's numbers depend on the seed only, not on the list",
          "[head_dim_study]") {
  attn::HeadDimStudyOptions alone;
  alone.head_dims = {4};
  alone.samples = 4;
  alone.seed = 5;
  attn::HeadDimStudyOptions among = alone;
  among.head_dims = {128, 1, 4, 64};
  const attn::HeadDimPoint a = attn::run_head_dim_study(alone).points[0];
  const attn::HeadDimPoint b = point_at(attn::run_head_dim_study(among), 4);
  CHECK(a.raw_score_spread == b.raw_score_spread);
  CHECK(a.unscaled.largest_weight == b.unscaled.largest_weight);
  CHECK(a.scaled.gradient_norm == b.scaled.gradient_norm);

  attn::HeadDimStudyOptions other_seed = alone;
  other_seed.seed = 6;
  CHECK(attn::run_head_dim_study(other_seed).points[0].raw_score_spread != a.raw_score_spread);
  CHECK(attn::head_dim_study_to_json(attn::run_head_dim_study(alone)) ==
        attn::head_dim_study_to_json(attn::run_head_dim_study(alone)));
}

TEST_CASE("head_dim study: bad options name the field", "[head_dim_study]") {
  const auto refused = [](const attn::HeadDimStudyOptions& options, const std::string& path) {
    const auto error = attn::validate_head_dim_study(options);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  attn::HeadDimStudyOptions options;
  options.head_dims = {};
  refused(options, "head_dims");
  options.head_dims = {4, 0};
  refused(options, "head_dims[1]");
  options.head_dims = {4, 257};
  refused(options, "head_dims[1]");
  options = {};
  options.token_count = 0;
  refused(options, "tokens");
  options.token_count = 65;
  refused(options, "tokens");
  options = {};
  options.samples = 0;
  refused(options, "samples");
  options.samples = 1024;  // 1024 · 64 · 255 · 2 = 3.3e7 is fine, but not with 64 tokens
  options.token_count = 64;
  refused(options, "samples");
  options = {};
  options.seed = attn::max_seed + 1;
  refused(options, "seed");
  options = {};
  options.compare_from = 4;
  options.compare_to = 100;
  refused(options, "compare");
}

TEST_CASE("head_dim_study_json: the documented answer, options and errors",
          "[head_dim_study][explore_json]") {
  const attn::json::Value study = attn_test::answer_of(attn::head_dim_study_json("{}"));
  for (const char* key : {"head_dims", "tokens", "samples", "seed", "scale", "mask", "max_entropy",
                          "points", "comparison"})
    CHECK(study.find(key) != nullptr);
  CHECK(study.object.size() == 9);
  CHECK(attn_test::numbers_of(*study.find("head_dims")) ==
        std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128});
  CHECK(study.find("tokens")->number == 8);
  CHECK(study.find("samples")->number == 256);
  CHECK(study.find("seed")->number == 1);
  CHECK(study.find("scale")->string == "sqrt_d");
  CHECK(study.find("mask")->string == "none");
  const auto& points = study.find("points")->array;
  REQUIRE(points.size() == 8);
  const attn::json::Value& last = points.back();
  CHECK(last.find("head_dim")->number == 128);
  CHECK(last.find("scale_divisor")->number == Approx(std::sqrt(128.0)).epsilon(1e-7));
  for (const char* key : {"raw_score_spread", "scaled_score_spread"})
    CHECK(last.find(key)->type == attn::json::Value::Type::number);
  for (const char* side : {"unscaled", "scaled"}) {
    const attn::json::Value& figures = *last.find(side);
    CHECK(figures.object.size() == 11);
    for (const char* key : {"largest_weight", "entropy", "jacobian_norm"})
      CHECK(figures.find(key)->array.size() == 8);
    for (const char* key : {"mean_largest_weight", "mean_entropy", "mean_jacobian_norm", "gradient_norm",
                            "mean_largest_weight_standard_error", "mean_entropy_standard_error",
                            "mean_jacobian_norm_standard_error", "gradient_norm_standard_error"})
      CHECK(figures.find(key)->type == attn::json::Value::Type::number);
  }
  for (const char* key : {"raw_score_spread_standard_error", "scaled_score_spread_standard_error"})
    CHECK(last.find(key)->number > 0.0);
  const attn::json::Value& comparison = *study.find("comparison");
  CHECK(comparison.find("from_head_dim")->number == 4);
  CHECK(comparison.find("to_head_dim")->number == 128);
  CHECK(comparison.find("expected_raw_spread_ratio")->number == Approx(std::sqrt(32.0)));
  CHECK(comparison.find("raw_spread_ratio")->number == Approx(std::sqrt(32.0)).epsilon(0.08));
  // About ±3 % of the ratio at 256 samples (the figure the FAQ's sentence quotes).
  CHECK(comparison.find("raw_spread_ratio_standard_error")->number > 0.005 * std::sqrt(32.0));
  CHECK(comparison.find("raw_spread_ratio_standard_error")->number < 0.05 * std::sqrt(32.0));
  CHECK(comparison.find("scaled_spread_ratio_standard_error")->type == attn::json::Value::Type::number);

  const attn::json::Value custom = attn_test::answer_of(attn::head_dim_study_json(
      R"({"head_dims":[2,8,32],"tokens":4,"samples":2,"seed":7,"scale":"d","mask":"causal","compare":[8,32]})"));
  CHECK(custom.find("scale")->string == "d");
  CHECK(custom.find("mask")->string == "causal");
  CHECK(custom.find("points")->array[1].find("scale_divisor")->number == 8);
  CHECK(custom.find("comparison")->find("from_head_dim")->number == 8);
  CHECK(custom.find("comparison")->find("expected_raw_spread_ratio")->number == Approx(2.0));
  CHECK(custom.find("max_entropy")->array[0].number == 0.0);  // row 0 sees one word
  const attn::json::Value smallest = attn_test::answer_of(
      attn::head_dim_study_json(R"({"head_dims":[16,2,8],"samples":1})"));
  CHECK(smallest.find("comparison")->find("from_head_dim")->number == 2);
  CHECK(smallest.find("comparison")->find("to_head_dim")->number == 16);
  // One sample has no standard error: NaN, written as JSON writes every non-finite number.
  const attn::json::Value& unknown = *smallest.find("comparison")->find("raw_spread_ratio_standard_error");
  REQUIRE(unknown.type == attn::json::Value::Type::object);
  CHECK(unknown.find("non_finite")->string == "NaN");

  struct Case {
    const char* request;
    const char* path;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {R"({"head_dims":4})", "head_dims", nullptr},
      {R"({"head_dims":[]})", "head_dims", nullptr},
      {R"({"head_dims":[4,0]})", "head_dims[1]", "got 0"},
      {R"({"head_dims":[4,2.5]})", "head_dims[1]", "whole number"},
      {R"({"head_dims":[4,"8"]})", "head_dims[1]", "\"8\""},
      {R"({"head_dims":[4,512]})", "head_dims[1]", "256"},
      {R"({"tokens":65})", "tokens", "64"},
      {R"({"tokens":"8"})", "tokens", nullptr},
      {R"({"samples":0})", "samples", nullptr},
      {R"({"samples":1024,"tokens":64})", "samples", "too much work"},
      {R"({"seed":-3})", "seed", nullptr},
      {R"({"seed":"NaN"})", "seed", "\"NaN\""},
      {R"({"scale":"sqrt"})", "scale", "\"sqrt_d\""},
      {R"({"mask":"causal_zero"})", "mask", "\"none\" or \"causal\""},
      {R"({"compare":[4]})", "compare", nullptr},
      {R"({"compare":[4,"x"]})", "compare[1]", nullptr},
      {R"({"compare":[4,100]})", "compare", "head_dims"},
      {R"({"head_dim":[4]})", "head_dim", "not a known field"},
      {"8", "input", nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.request);
    attn_test::check_refused(attn::head_dim_study_json(c.request), c.path, c.fragment);
  }
  std::string too_many = R"({"head_dims":[1)";
  for (std::size_t n = 1; n <= attn::HeadDimStudyLimits::max_head_dim_count; ++n) too_many += ",1";
  too_many += "]}";
  attn_test::check_refused(attn::head_dim_study_json(too_many), "head_dims", "the limit is 256");
}
