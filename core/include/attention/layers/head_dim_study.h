// The FAQ's head_dim demonstration: why attention divides the scores by √d_k. For each head_dim,
// seeded random queries and keys (every component standard normal) are scored against each
// other with and without the scaling. A raw score q·k is a sum of d_k products of variance 1,
// so its spread (standard deviation) grows as √d_k: at head_dim 128 the raw scores are about
// √(128/4) ≈ 5.66 times those at head_dim 4. Unscaled, the softmax then gives one word almost
// all the weight (the largest weight nears 1, the entropy nears 0) and passes almost no
// gradient back; scaled, all three stay put.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn {

struct HeadDimStudyOptions {
  std::vector<std::size_t> head_dims = {1, 2, 4, 8, 16, 32, 64, 128};
  std::size_t token_count = 8;  // T: queries and keys per sample
  // Independent draws of q and k per head_dim. With 1 sample every figure describes one
  // T × T grid of scores; more samples average the figures (the spread pools every score).
  // One grid of 8 × 8 scores estimates a spread to about ±10 %; 256 samples bring the ratio of
  // two spreads to within about ±3 % of its expectation.
  std::size_t samples = 256;
  std::uint64_t seed = 1;
  ScaleKind scale = ScaleKind::sqrt_head_dim;  // what the "scaled" side divides by
  MaskKind mask = MaskKind::none;              // every word sees every word, by default
  // The two head_dims whose spreads the comparison divides; 0 means: 4 and 128 when the list
  // holds them, otherwise its smallest and its largest.
  std::size_t compare_from = 0;
  std::size_t compare_to = 0;
};

struct HeadDimStudyLimits {
  static constexpr std::size_t max_head_dim_count = 256;  // entries of head_dims
  static constexpr std::size_t max_samples = 1024;
  // samples · T² · (Σ head_dims) · 2 (both sides): keeps one call well under a second.
  static constexpr double max_multiplications = 1e8;
};

// Standard errors. Every figure below is an average over independent samples, so it carries
// sampling noise: a figure's standard error is the standard deviation of its per-sample values
// divided by √samples (for a spread, from the per-sample mean squares by the delta method;
// for a ratio of spreads, the same with the two spreads' covariance, since within a sample the
// head_dims share their leading components). A page rounds each figure to the digits its
// standard error leaves meaningful. With one sample no standard error exists: NaN.

// The softmax of one side (unscaled or scaled) at one head_dim. Per-row figures are averaged
// over the samples.
struct SoftmaxSpreadFigures {
  std::vector<double> largest_weight;  // [T] the row's largest weight (1 / T when flat, 1 when saturated)
  std::vector<double> entropy;         // [T] -Σ_j p_j ln p_j in nats: ln(visible words) when flat, 0 when saturated
  std::vector<double> jacobian_norm;   // [T] Frobenius norm of the row's softmax Jacobian diag(p) - p pᵀ
  double mean_largest_weight = 0.0;    // over rows
  double mean_entropy = 0.0;
  double mean_jacobian_norm = 0.0;
  // Frobenius norm of dL/d(softmax input) over the whole T × T grid, for one seeded upstream
  // gradient dL/dweights (standard normal, the same for every head_dim and both sides), through
  // softmax_backward_row; averaged over the samples.
  double gradient_norm = 0.0;
  // Standard errors of the four means above, over the samples.
  double mean_largest_weight_standard_error = 0.0;
  double mean_entropy_standard_error = 0.0;
  double mean_jacobian_norm_standard_error = 0.0;
  double gradient_norm_standard_error = 0.0;
};

struct HeadDimPoint {
  std::size_t head_dim = 0;
  float scale_divisor = 1.0f;       // of the scaled side: √d, d or 1
  double raw_score_spread = 0.0;    // standard deviation of every q·k score
  double scaled_score_spread = 0.0; // the same after dividing by scale_divisor
  double raw_score_spread_standard_error = 0.0;
  double scaled_score_spread_standard_error = 0.0;
  SoftmaxSpreadFigures unscaled;    // softmax of the raw scores
  SoftmaxSpreadFigures scaled;      // softmax of the scaled scores
};

struct HeadDimComparison {
  std::size_t from_head_dim = 0;
  std::size_t to_head_dim = 0;
  double raw_spread_ratio = 0.0;            // raw spread at `to` ÷ raw spread at `from`
  double scaled_spread_ratio = 0.0;         // the same for the scaled scores
  double expected_raw_spread_ratio = 0.0;   // √(to / from)
  double raw_spread_ratio_standard_error = 0.0;
  double scaled_spread_ratio_standard_error = 0.0;
};

struct HeadDimStudy {
  HeadDimStudyOptions options;
  std::vector<double> max_entropy;  // [T] ln(number of words row i sees): the entropy of a flat row
  std::vector<HeadDimPoint> points; // one per options.head_dims entry, in its order
  HeadDimComparison comparison;
};

// The seeded numbers of one (head_dim, sample): every component standard normal. Each row of
// queries and keys has its own stream of options.seed, drawn by fill_polar_normals (about half
// the cost of next_normal's Box–Muller), and a head_dim's row is the first head_dim numbers of
// that stream: the study draws each row once, for the largest head_dim listed, and every
// smaller head_dim reads a prefix of it (half the draws of new tables for each head_dim; the
// draws are most of the study's time). The upstream gradient is next_normal's. So a
// head_dim's numbers do not depend on which other head_dims are in the list, and the upstream
// gradient is the same for every head_dim (only the softmax differs between the figures):
//   queries, row i:  derive_seed(seed, 1, sample · 2^32 + i)
//   keys, row i:     derive_seed(seed, 2, sample · 2^32 + i)
//   upstream:        derive_seed(seed, 3, sample), row by row
// Within one sample the head_dims share their leading components, so their figures are not
// independent of each other; across samples every figure is.
struct HeadDimSample {
  Matrix queries;   // [T][head_dim]
  Matrix keys;      // [T][head_dim]
  Matrix upstream;  // [T][T] dL/dweights, the same for both sides
};
HeadDimSample draw_head_dim_sample(const HeadDimStudyOptions& options, std::size_t head_dim,
                                   std::size_t sample);

// Paths name the option: "head_dims[2]", "tokens", "samples", "compare".
std::optional<InputError> validate_head_dim_study(const HeadDimStudyOptions& options);

// Precondition: validate_head_dim_study(options) returned nothing. Each (head_dim, sample)
// scores draw_head_dim_sample's queries and keys and softmaxes the scores once unscaled and once
// divided for options.scale, with the reference trace's own steps (the figures are those of
// compute_trace run twice, without its per-product terms and its mix of values).
HeadDimStudy run_head_dim_study(const HeadDimStudyOptions& options);

}  // namespace attn
