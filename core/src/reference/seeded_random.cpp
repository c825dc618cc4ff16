// SplitMix64, Box–Muller, the polar method and the decimal grid: the core's only source of
// random numbers, written so that a seed means the same numbers natively and in WebAssembly.
#include "attention/reference/seeded_random.h"

#include <cmath>
#include <string>

namespace attn {

namespace {

constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ull;
constexpr double two_pi = 6.283185307179586476925286766559;

// 10^decimals, exact in double for the decimals allowed (at most 6).
double power_of_ten(int decimals) {
  double p = 1.0;
  for (int n = 0; n < decimals; ++n) p *= 10.0;
  return p;
}

// The grid steps (integers n, value n / 10^decimals) that lie in [min, max]. A bound within a
// thousandth of a step of a grid value counts as on it: min · 10^decimals carries the rounding
// of min's own decimal text (0.3 · 10 = 3.0000000000000004), which must not push 0.3 off its grid.
struct GridSteps {
  double lowest = 0.0;
  double count = 0.0;  // how many grid values; 0 when none lies in the range
};

GridSteps grid_steps(const UniformGrid& grid) {
  const double p = power_of_ten(grid.decimals);
  const double tolerance = 1e-3;
  double lowest = std::ceil(grid.min * p - tolerance);
  double highest = std::floor(grid.max * p + tolerance);
  // The tolerance must not admit a value outside [min, max] (max 0.2999 must not give 0.3):
  // the values are n / 10^decimals, so that is what is checked.
  if (lowest / p < grid.min) lowest += 1.0;
  if (highest / p > grid.max) highest -= 1.0;
  return GridSteps{lowest, highest >= lowest ? highest - lowest + 1.0 : 0.0};
}

}  // namespace

std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t SeededRandom::next_u64() {
  state_ += golden_gamma;
  return splitmix64_mix(state_);
}

double SeededRandom::next_uniform() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double SeededRandom::next_normal() {
  if (spare_normal_) {
    const double second = *spare_normal_;
    spare_normal_.reset();
    return second;
  }
  const double u1 = next_uniform();
  const double u2 = next_uniform();
  const double radius = std::sqrt(-2.0 * std::log(1.0 - u1));  // 1 - u1 lies in (0, 1]
  const double angle = two_pi * u2;
  spare_normal_ = radius * std::sin(angle);
  return radius * std::cos(angle);
}

void fill_polar_normals(SeededRandom& random, float* out, std::size_t count) {
  for (std::size_t c = 0; c < count;) {
    double x = 0.0, y = 0.0, s = 0.0;
    do {
      x = 2.0 * random.next_uniform() - 1.0;
      y = 2.0 * random.next_uniform() - 1.0;
      s = x * x + y * y;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    out[c++] = static_cast<float>(x * factor);
    if (c < count) out[c++] = static_cast<float>(y * factor);
  }
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t per_stream = splitmix64_mix(seed + golden_gamma * (stream + 1));
  return splitmix64_mix(per_stream + golden_gamma * (index + 1));
}

std::optional<InputError> validate_uniform_grid(const UniformGrid& grid) {
  for (const auto& [name, bound] : {std::pair<const char*, double>{"min", grid.min},
                                    std::pair<const char*, double>{"max", grid.max}}) {
    if (!std::isfinite(bound)) return make_input_error(name, "must be a finite number");
    if (std::fabs(bound) > RandomGridLimits::max_abs_bound)
      return make_input_error(name, out_of_range(bound, RandomGridLimits::max_abs_bound));
  }
  if (grid.min > grid.max) return make_input_error("max", "must not be less than min");
  if (grid.decimals < 0 || grid.decimals > RandomGridLimits::max_decimals)
    return make_input_error("decimals", "must be a whole number from 0 to " +
                                            std::to_string(RandomGridLimits::max_decimals));
  if (grid_steps(grid).count == 0.0)
    return make_input_error("decimals", "leaves no number with " + std::to_string(grid.decimals) +
                                            " decimal places between min and max");
  return std::nullopt;
}

double next_on_grid(SeededRandom& random, const UniformGrid& grid) {
  const GridSteps steps = grid_steps(grid);
  double index = std::floor(random.next_uniform() * steps.count);
  if (index > steps.count - 1.0) index = steps.count - 1.0;  // guards the rounding of u · count
  return (steps.lowest + index) / power_of_ten(grid.decimals);
}

std::vector<double> random_grid_values(std::uint64_t seed, std::size_t rows, std::size_t cols,
                                       const UniformGrid& grid) {
  SeededRandom random(seed);
  std::vector<double> values(rows * cols);  // [rows][cols]
  for (double& value : values) value = next_on_grid(random, grid);
  return values;
}

Matrix random_grid_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols,
                          const UniformGrid& grid) {
  const std::vector<double> values = random_grid_values(seed, rows, cols, grid);
  Matrix m(rows, cols);
  for (std::size_t n = 0; n < values.size(); ++n) m.values[n] = static_cast<float>(values[n]);
  return m;
}

Matrix random_normal_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols) {
  SeededRandom random(seed);
  Matrix m(rows, cols);
  for (float& value : m.values) value = static_cast<float>(random.next_normal());
  return m;
}

}  // namespace attn
