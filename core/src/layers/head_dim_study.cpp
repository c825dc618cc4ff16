// The head_dim demonstration: seeded normal q and k scored once, the scores softmaxed unscaled
// and scaled, and what each softmax does to the weights and to the gradient.
#include "attention/layers/head_dim_study.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "attention/reference/seeded_random.h"
#include "attention/reference/softmax.h"
#include "attention/reference/softmax_backward.h"
#include "attention/reference/trace.h"
#include "sample_moments.h"

namespace attn {

namespace {

// Streams of the user's seed (derive_seed), one per table this study draws.
constexpr std::uint64_t queries_stream = 1;
constexpr std::uint64_t keys_stream = 2;
constexpr std::uint64_t upstream_stream = 3;

bool lists(const std::vector<std::size_t>& head_dims, std::size_t head_dim) {
  return std::find(head_dims.begin(), head_dims.end(), head_dim) != head_dims.end();
}

// A running sum of values and of their squares, for a standard deviation over every score of
// every sample without keeping them (the scores lie near 0, so E[x²] - E[x]² loses nothing),
// and the moments of each sample's mean square, for the standard error of that deviation.
struct SpreadSum {
  double sum = 0.0;
  double sum_of_squares = 0.0;
  double count = 0.0;
  Moments sample_mean_squares;
  double last_mean_square = 0.0;  // of the sample added last

  // One sample's scores.
  void add(const Matrix& m) {
    double squares = 0.0;
    for (const float x : m.values) {
      sum += x;
      squares += static_cast<double>(x) * x;
    }
    sum_of_squares += squares;
    count += static_cast<double>(m.values.size());
    last_mean_square = squares / static_cast<double>(m.values.size());
    sample_mean_squares.add(last_mean_square);
  }
  double standard_deviation() const {
    const double mean = sum / count;
    return std::sqrt(std::max(0.0, sum_of_squares / count - mean * mean));
  }
  double standard_error() const { return standard_error_of_root_mean_x(sample_mean_squares.paired); }
};

// The steps of one sample below are functions of their own (gnu::noinline here; the wasm link
// folds only small functions into their one caller, bindings/CMakeLists.txt). A page's one
// study starts in WebAssembly's baseline tier, and the engine optimises these small functions,
// called thousands of times, while the study runs and at little cost, where one large function
// would be optimised at length, on another thread, for a second call that never comes.

// Each sample's mean over rows of the four figures, for their standard errors.
struct SideMoments {
  Moments largest_weight, entropy, jacobian_norm, gradient_norm;
};

// Adds one sample's softmax figures to `figures` (sums; divided by the sample count later) and
// to `moments`.
// inputs: [T][T] the softmax's input (masked entries -infinity); row_max: [T] each row's largest
// finite input; weights, upstream: [T][T]; input_gradient: [T] scratch.
// Entropy and the Jacobian's norm come from identities that need one logarithm and one pass
// per row rather than one logarithm per weight and T² products (the tests recompute both from
// their definitions):
//   ln p_j = (x_j - max) - ln Σ_l e^(x_l - max) and p at the max is 1 / Σ_l e^(x_l - max), so
//     -Σ_j p_j ln p_j = -ln(largest p) - Σ_j p_j (x_j - max);
//   ‖diag(p) - p pᵀ‖²_F = Σ_l Σ_j p_l² (δ_lj - p_j)² = Σ p_j² - 2 Σ p_j³ + (Σ p_j²)².
[[gnu::noinline]] void add_softmax_figures(SoftmaxSpreadFigures& figures, SideMoments& moments,
                                           const Matrix& inputs, const float* row_max,
                                           const Matrix& weights, const Matrix& upstream,
                                           float* input_gradient) {
  const std::size_t T = weights.rows;
  double gradient_squares = 0.0;
  double sample_largest = 0.0, sample_entropy = 0.0, sample_jacobian = 0.0;  // sums over rows
  for (std::size_t i = 0; i < T; ++i) {
    const float* x = inputs.row(i);
    const float* p = weights.row(i);
    const double max = row_max[i];
    double largest = 0.0, weighted_shift = 0.0, squares = 0.0, cubes = 0.0;
    for (std::size_t j = 0; j < T; ++j) {
      const double pj = p[j];
      largest = std::max(largest, pj);
      if (pj > 0.0) weighted_shift += pj * (static_cast<double>(x[j]) - max);
      squares += pj * pj;
      cubes += pj * pj * pj;
    }
    const double entropy = std::max(0.0, -std::log(largest) - weighted_shift);
    const double jacobian_norm = std::sqrt(std::max(0.0, squares - 2.0 * cubes + squares * squares));
    figures.largest_weight[i] += largest;
    figures.entropy[i] += entropy;
    figures.jacobian_norm[i] += jacobian_norm;
    sample_largest += largest;
    sample_entropy += entropy;
    sample_jacobian += jacobian_norm;

    softmax_backward_row(input_gradient, p, upstream.row(i), T);
    for (std::size_t j = 0; j < T; ++j)
      gradient_squares += static_cast<double>(input_gradient[j]) * input_gradient[j];
  }
  figures.gradient_norm += std::sqrt(gradient_squares);
  const double rows = static_cast<double>(T);
  moments.largest_weight.add(sample_largest / rows);
  moments.entropy.add(sample_entropy / rows);
  moments.jacobian_norm.add(sample_jacobian / rows);
  moments.gradient_norm.add(std::sqrt(gradient_squares));
}

// Turns the per-sample sums into averages and fills the means over rows.
void finish_softmax_figures(SoftmaxSpreadFigures& figures, const SideMoments& moments,
                            std::size_t samples) {
  const double n = static_cast<double>(samples);
  const std::size_t T = figures.largest_weight.size();
  for (std::size_t i = 0; i < T; ++i) {
    figures.largest_weight[i] /= n;
    figures.entropy[i] /= n;
    figures.jacobian_norm[i] /= n;
    figures.mean_largest_weight += figures.largest_weight[i] / static_cast<double>(T);
    figures.mean_entropy += figures.entropy[i] / static_cast<double>(T);
    figures.mean_jacobian_norm += figures.jacobian_norm[i] / static_cast<double>(T);
  }
  figures.gradient_norm /= n;
  figures.mean_largest_weight_standard_error = moments.largest_weight.standard_error();
  figures.mean_entropy_standard_error = moments.entropy.standard_error();
  figures.mean_jacobian_norm_standard_error = moments.jacobian_norm.standard_error();
  figures.gradient_norm_standard_error = moments.gradient_norm.standard_error();
}

// One side's weights, step by step as the reference trace computes them (steps 2 to 4 of
// compute_trace_steps, the same float operations in the same order, so the figures equal the
// trace's): each raw score divided by `divisor`, the hidden ones replaced by -infinity, and the
// softmax of each row. The study needs neither the trace's per-product terms, nor its mix of
// values, nor the unshifted exponentials the trace prints, which together would cost as much
// again as the scores.
struct SideBuffers {
  Matrix scaled;               // [T][T] the scores after division, before the mask
  Matrix masked;               // [T][T] softmax input
  std::vector<float> row_max;  // [T] each row's largest finite softmax input
  Matrix weights;              // [T][T]

  explicit SideBuffers(std::size_t T) : scaled(T, T), masked(T, T), row_max(T), weights(T, T) {}

  [[gnu::noinline]] void compute(const Matrix& scores, float divisor, MaskKind mask) {
    const std::size_t T = scores.rows;
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t j = 0; j < T; ++j) {
        scaled.at(i, j) = scores.at(i, j) / divisor;
        masked.at(i, j) = is_visible(mask, i, j) ? scaled.at(i, j)
                                                 : -std::numeric_limits<float>::infinity();
      }
    for (std::size_t i = 0; i < T; ++i) {
      row_max[i] = softmax_row_max(masked.row(i), T);
      softmax_weights_row(weights.row(i), masked.row(i), row_max[i], T);
    }
  }
};

// Step 1 of the reference trace for every head_dim at once: every query against every key,
// summed in float in the trace's order (component 0 first). A head_dim's score is the running
// sum after its first d components, so the running sums carried from one head_dim to the next
// wider one are the narrower one's scores, bit for bit: each product is computed once, for the
// widest head_dim, rather than once per head_dim listed.
// Adds components [from, to) of each query-key product to `running`. The keys come by component
// (keys_by_component: [≥ to][T], the keys transposed), so that one component of one query meets
// every key in a contiguous row, which the compiler turns into vector operations: each score is
// still its own running sum, over the components in order, so the sums are the trace's.
// queries: [T][≥ to].
[[gnu::noinline]] void extend_scores(Matrix& running, const Matrix& queries,
                                     const Matrix& keys_by_component, std::size_t from,
                                     std::size_t to) {
  const std::size_t T = queries.rows;
  for (std::size_t i = 0; i < T; ++i) {
    float* sums = running.row(i);
    for (std::size_t c = from; c < to; ++c) {
      const float query = queries.at(i, c);
      const float* keys = keys_by_component.row(c);
      for (std::size_t j = 0; j < T; ++j) {
        const float term = query * keys[j];
        sums[j] += term;
      }
    }
  }
}

// keys: [T][cols] -> [cols][T].
[[gnu::noinline]] void transpose_into(Matrix& by_component, const Matrix& keys) {
  for (std::size_t j = 0; j < keys.rows; ++j)
    for (std::size_t c = 0; c < keys.cols; ++c) by_component.at(c, j) = keys.at(j, c);
}

SoftmaxSpreadFigures empty_figures(std::size_t token_count) {
  SoftmaxSpreadFigures figures;
  figures.largest_weight.assign(token_count, 0.0);
  figures.entropy.assign(token_count, 0.0);
  figures.jacobian_norm.assign(token_count, 0.0);
  return figures;
}

// The (sample, row) index of a query's or a key's stream.
std::uint64_t row_index(std::size_t sample, std::size_t row) {
  return (static_cast<std::uint64_t>(sample) << 32) | row;
}

// One table of a sample, [T][cols]: row i is the first cols numbers of its own stream.
[[gnu::noinline]] Matrix draw_rows(std::uint64_t seed, std::uint64_t stream, std::size_t sample,
                                   std::size_t T, std::size_t cols) {
  Matrix m(T, cols);
  for (std::size_t i = 0; i < T; ++i) {
    SeededRandom random(derive_seed(seed, stream, row_index(sample, i)));
    fill_polar_normals(random, m.row(i), cols);
  }
  return m;
}

// The upstream gradient of one sample: the same for every head_dim, so the study draws it once.
Matrix draw_upstream(const HeadDimStudyOptions& options, std::size_t sample) {
  const std::size_t T = options.token_count;
  return random_normal_matrix(derive_seed(options.seed, upstream_stream, sample), T, T);
}

// The figures of one head_dim while the samples are added.
struct PointSums {
  HeadDimPoint point;
  SpreadSum raw_scores, scaled_scores;
  SideMoments unscaled, scaled;
};

// What one sample's steps write into, kept from sample to sample.
struct SampleBuffers {
  Matrix keys_by_component;           // [widest][T] the sample's keys, transposed
  Matrix scores;                      // [T][T] raw q·k over the leading components read so far
  SideBuffers unscaled, scaled;
  std::vector<float> input_gradient;  // [T] one row of dL/d(softmax input)

  SampleBuffers(std::size_t T, std::size_t widest)
      : keys_by_component(widest, T), scores(T, T), unscaled(T), scaled(T), input_gradient(T) {}
};

// One sample at every head_dim: each reads the leading columns of the same rows of q and k.
// `narrowest_first` lists the indices of `sums` by head_dim, smallest first.
[[gnu::noinline]] void add_sample(std::vector<PointSums>& sums,
                                  const std::vector<std::size_t>& narrowest_first,
                                  SampleBuffers& buffers, const Matrix& queries,
                                  const Matrix& keys, const Matrix& upstream, MaskKind mask) {
  const float unscaled_divisor = scale_divisor_for(ScaleKind::none, 1);
  std::fill(buffers.scores.values.begin(), buffers.scores.values.end(), 0.0f);
  transpose_into(buffers.keys_by_component, keys);
  std::size_t summed = 0;  // components in buffers.scores
  for (const std::size_t n : narrowest_first) {
    PointSums& sum = sums[n];
    HeadDimPoint& point = sum.point;
    extend_scores(buffers.scores, queries, buffers.keys_by_component, summed, point.head_dim);
    summed = point.head_dim;
    // The raw scores serve both sides: the trace's scaled side divides the same sums.
    buffers.unscaled.compute(buffers.scores, unscaled_divisor, mask);
    buffers.scaled.compute(buffers.scores, point.scale_divisor, mask);

    sum.raw_scores.add(buffers.scores);
    sum.scaled_scores.add(buffers.scaled.scaled);
    const SideBuffers& raw = buffers.unscaled;
    const SideBuffers& divided = buffers.scaled;
    float* gradient = buffers.input_gradient.data();
    add_softmax_figures(point.unscaled, sum.unscaled, raw.masked, raw.row_max.data(), raw.weights,
                        upstream, gradient);
    add_softmax_figures(point.scaled, sum.scaled, divided.masked, divided.row_max.data(),
                        divided.weights, upstream, gradient);
  }
}

// The comparison the FAQ quotes: the two head_dims asked for, else 4 against 128 when both are
// listed, else the smallest against the largest.
std::pair<std::size_t, std::size_t> compared_head_dims(const HeadDimStudyOptions& options) {
  const std::vector<std::size_t>& head_dims = options.head_dims;
  if (options.compare_from != 0 || options.compare_to != 0)
    return {options.compare_from, options.compare_to};
  if (lists(head_dims, 4) && lists(head_dims, 128)) return {4, 128};
  return {*std::min_element(head_dims.begin(), head_dims.end()),
          *std::max_element(head_dims.begin(), head_dims.end())};
}

}  // namespace

HeadDimSample draw_head_dim_sample(const HeadDimStudyOptions& options, std::size_t head_dim,
                                   std::size_t sample) {
  const std::size_t T = options.token_count;
  HeadDimSample drawn;
  drawn.queries = draw_rows(options.seed, queries_stream, sample, T, head_dim);
  drawn.keys = draw_rows(options.seed, keys_stream, sample, T, head_dim);
  drawn.upstream = draw_upstream(options, sample);
  return drawn;
}

std::optional<InputError> validate_head_dim_study(const HeadDimStudyOptions& options) {
  const std::vector<std::size_t>& head_dims = options.head_dims;
  if (head_dims.empty()) return make_input_error("head_dims", "needs at least one head_dim");
  if (head_dims.size() > HeadDimStudyLimits::max_head_dim_count)
    return make_input_error("head_dims", "has " + std::to_string(head_dims.size()) +
                                             " entries; the limit is " +
                                             std::to_string(HeadDimStudyLimits::max_head_dim_count));
  double head_dim_total = 0.0;
  for (std::size_t n = 0; n < head_dims.size(); ++n) {
    if (head_dims[n] < 1 || head_dims[n] > Limits::max_head_dim)
      return make_input_error("head_dims[" + std::to_string(n) + "]",
                              "must be a whole number from 1 to " +
                                  std::to_string(Limits::max_head_dim));
    head_dim_total += static_cast<double>(head_dims[n]);
  }
  if (options.token_count < 1 || options.token_count > Limits::max_tokens)
    return make_input_error("tokens", "must be a whole number from 1 to " +
                                          std::to_string(Limits::max_tokens));
  if (options.samples < 1 || options.samples > HeadDimStudyLimits::max_samples)
    return make_input_error("samples", "must be a whole number from 1 to " +
                                           std::to_string(HeadDimStudyLimits::max_samples));
  if (options.seed > max_seed)
    return make_input_error("seed", "must be a whole number from 0 to 2^53 - 1");
  const double T = static_cast<double>(options.token_count);
  const double work = static_cast<double>(options.samples) * T * T * head_dim_total * 2.0;
  if (work > HeadDimStudyLimits::max_multiplications)
    return make_input_error("samples", "asks for too much work (" +
                                           counted(options.samples, "sample", "samples") + " of " +
                                           counted(options.token_count, "token", "tokens") +
                                           " over these head_dims); lower samples, "
                                           "tokens or head_dims");
  const bool compare_given = options.compare_from != 0 || options.compare_to != 0;
  if (compare_given && (!lists(head_dims, options.compare_from) ||
                        !lists(head_dims, options.compare_to)))
    return make_input_error("compare", "must name two head_dims of the head_dims list");
  return std::nullopt;
}

HeadDimStudy run_head_dim_study(const HeadDimStudyOptions& options) {
  const std::size_t T = options.token_count;
  HeadDimStudy study;
  study.options = options;

  study.max_entropy.assign(T, 0.0);
  for (std::size_t i = 0; i < T; ++i) {
    const std::size_t visible = options.mask == MaskKind::none ? T : i + 1;
    study.max_entropy[i] = std::log(static_cast<double>(visible));
  }

  std::vector<PointSums> sums(options.head_dims.size());
  for (std::size_t n = 0; n < sums.size(); ++n) {
    HeadDimPoint& point = sums[n].point;
    point.head_dim = options.head_dims[n];
    point.scale_divisor = scale_divisor_for(options.scale, point.head_dim);
    point.unscaled = empty_figures(T);
    point.scaled = empty_figures(T);
  }
  std::vector<std::size_t> narrowest_first(sums.size());
  for (std::size_t n = 0; n < sums.size(); ++n) narrowest_first[n] = n;
  std::stable_sort(narrowest_first.begin(), narrowest_first.end(),
                   [&](std::size_t a, std::size_t b) {
                     return sums[a].point.head_dim < sums[b].point.head_dim;
                   });
  const std::size_t widest = sums[narrowest_first.back()].point.head_dim;

  HeadDimComparison& comparison = study.comparison;
  std::tie(comparison.from_head_dim, comparison.to_head_dim) = compared_head_dims(options);
  const std::vector<std::size_t>& head_dims = options.head_dims;
  const auto index_of = [&](std::size_t d) {
    return static_cast<std::size_t>(std::find(head_dims.begin(), head_dims.end(), d) - head_dims.begin());
  };
  const std::size_t from = index_of(comparison.from_head_dim);
  const std::size_t to = index_of(comparison.to_head_dim);
  // Each sample's mean squares at `to` and `from`, paired: the two spreads share the samples'
  // leading components, so their ratio's noise needs their covariance.
  PairedMoments raw_pairs, scaled_pairs;

  SampleBuffers buffers(T, widest);
  for (std::size_t s = 0; s < options.samples; ++s) {
    // The widest rows; every other head_dim reads their leading columns.
    const HeadDimSample drawn = draw_head_dim_sample(options, widest, s);
    add_sample(sums, narrowest_first, buffers, drawn.queries, drawn.keys, drawn.upstream,
               options.mask);
    raw_pairs.add(sums[to].raw_scores.last_mean_square, sums[from].raw_scores.last_mean_square);
    scaled_pairs.add(sums[to].scaled_scores.last_mean_square,
                     sums[from].scaled_scores.last_mean_square);
  }
  for (PointSums& sum : sums) {
    HeadDimPoint& point = sum.point;
    point.raw_score_spread = sum.raw_scores.standard_deviation();
    point.scaled_score_spread = sum.scaled_scores.standard_deviation();
    point.raw_score_spread_standard_error = sum.raw_scores.standard_error();
    point.scaled_score_spread_standard_error = sum.scaled_scores.standard_error();
    finish_softmax_figures(point.unscaled, sum.unscaled, options.samples);
    finish_softmax_figures(point.scaled, sum.scaled, options.samples);
    study.points.push_back(std::move(point));
  }

  const HeadDimPoint& from_point = study.points[from];
  const HeadDimPoint& to_point = study.points[to];
  comparison.raw_spread_ratio = to_point.raw_score_spread / from_point.raw_score_spread;
  comparison.scaled_spread_ratio = to_point.scaled_score_spread / from_point.scaled_score_spread;
  comparison.expected_raw_spread_ratio =
      std::sqrt(static_cast<double>(comparison.to_head_dim) /
                static_cast<double>(comparison.from_head_dim));
  comparison.raw_spread_ratio_standard_error = standard_error_of_root_ratio(raw_pairs);
  comparison.scaled_spread_ratio_standard_error = standard_error_of_root_ratio(scaled_pairs);
  return study;
}

}  // namespace attn
