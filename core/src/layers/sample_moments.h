// Standard errors of the head_dim study's figures. Each figure is an average over independent
// samples, so it carries sampling noise: the standard deviation of its per-sample values divided
// by √samples. Running sums in double (the per-sample values lie within a few orders of magnitude
// of each other, so the differences of sums below lose a few digits of sixteen, not the answer),
// Bessel's n - 1 in the variances, and NaN with fewer than two samples, where no standard error
// exists.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

// Paired per-sample values (x, y), e.g. the mean squares of two head_dims' scores in one sample.
struct PairedMoments {
  double count = 0.0;
  double sum_x = 0.0, sum_y = 0.0;
  double sum_xx = 0.0, sum_yy = 0.0, sum_xy = 0.0;

  void add(double x, double y) {
    count += 1.0;
    sum_x += x;
    sum_y += y;
    sum_xx += x * x;
    sum_yy += y * y;
    sum_xy += x * y;
  }
  double mean_x() const { return sum_x / count; }
  double mean_y() const { return sum_y / count; }
  // Whether a standard error exists: two samples or more.
  bool has_spread() const { return count >= 2.0; }
  // The covariance of the two means: the sample covariance of x and y, divided by the count.
  // Precondition for these three: has_spread().
  double covariance_of_means_xy() const { return covariance_of_means(sum_xy, sum_x, sum_y); }
  double variance_of_mean_x() const { return std::max(0.0, covariance_of_means(sum_xx, sum_x, sum_x)); }
  double variance_of_mean_y() const { return std::max(0.0, covariance_of_means(sum_yy, sum_y, sum_y)); }

 private:
  double covariance_of_means(double sum_products, double sum_a, double sum_b) const {
    return (sum_products - sum_a * sum_b / count) / (count - 1.0) / count;
  }
};

inline constexpr double no_standard_error = std::numeric_limits<double>::quiet_NaN();

// One figure's per-sample values: its mean's standard error.
struct Moments {
  PairedMoments paired;

  void add(double x) { paired.add(x, 0.0); }
  double standard_error() const {
    return paired.has_spread() ? std::sqrt(paired.variance_of_mean_x()) : no_standard_error;
  }
};

// The standard error of √(mean x), a spread estimated from per-sample mean squares x, by the
// delta method: d√m = dm / (2√m). (The scores' mean, about 0, is left out: its noise changes a
// spread's variance by a term a factor T² · samples smaller.)
inline double standard_error_of_root_mean_x(const PairedMoments& m) {
  if (!m.has_spread()) return no_standard_error;
  const double mean = m.mean_x();
  if (!(mean > 0.0)) return 0.0;
  return std::sqrt(m.variance_of_mean_x()) / (2.0 * std::sqrt(mean));
}

// The standard error of √(mean x / mean y), a ratio of two spreads from the same samples, by
// the delta method on its logarithm: Var ln R = (Var x̄ / x̄² + Var ȳ / ȳ² - 2 Cov(x̄, ȳ) / (x̄ ȳ)) / 4.
inline double standard_error_of_root_ratio(const PairedMoments& m) {
  if (!m.has_spread()) return no_standard_error;
  const double x = m.mean_x(), y = m.mean_y();
  if (!(x > 0.0) || !(y > 0.0)) return 0.0;
  const double log_variance = (m.variance_of_mean_x() / (x * x) +
                               m.variance_of_mean_y() / (y * y) -
                               2.0 * m.covariance_of_means_xy() / (x * y)) / 4.0;
  return std::sqrt(x / y) * std::sqrt(std::max(0.0, log_variance));
}

}  // namespace attn
