// A small seeded random generator whose numbers are the same on every platform, so a seed in a
// link gives the reader the same cells natively and in the browser.
//
// The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014), as in Vigna's public-domain reference splitmix64.c:
//   state += 0x9E3779B97F4A7C15
//   z = state
//   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//   z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//   return z ^ (z >> 31)
// (all arithmetic modulo 2^64). Its integers, and the uniform doubles made from them, are exact
// integer and power-of-two arithmetic: identical bit for bit everywhere. Normal values go
// through std::log, std::cos and std::sin (Box–Muller), or std::log and std::sqrt (the polar
// method), whose last bit may differ between C libraries, so they agree everywhere to within a
// few units in the last place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"

namespace attn {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

  // The next 64-bit output of SplitMix64.
  std::uint64_t next_u64();

  // Uniform in [0, 1): the top 53 bits of next_u64() times 2^-53.
  double next_uniform();

  // Standard normal N(0, 1) by the Box–Muller transform. Each pair of uniforms u1, u2 gives
  //   r = √(-2 ln(1 - u1)),  first = r cos(2π u2),  second = r sin(2π u2);
  // `first` is returned now and `second` by the next call.
  double next_normal();

 private:
  std::uint64_t state_;
  std::optional<double> spare_normal_;
};

// `count` standard normals into `out` (as floats), two at a time by Marsaglia's polar method:
// points x = 2·next_uniform() - 1, then y the same, until s = x² + y² lies in (0, 1); then
//   x·√(-2 ln s / s) and y·√(-2 ln s / s), in that order
// (the last y is dropped for an odd count).
// A pair costs one logarithm and one square root, where next_normal's Box–Muller also needs a
// sine and a cosine: about half the time, for the head_dim study's half a million draws.
void fill_polar_normals(SeededRandom& random, float* out, std::size_t count);

// The SplitMix64 output function alone: a bijective mix of 64 bits.
std::uint64_t splitmix64_mix(std::uint64_t z);

// An independent seed for one use of a user's seed, so that each table (say W_Q of head 2) has
// its own stream and changing one list of head_dims, tokens or heads leaves the others' numbers
// alone: mix(mix(seed + γ·(stream + 1)) + γ·(index + 1)), γ = 0x9E3779B97F4A7C15.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream, std::uint64_t index = 0);

// Seeds are JSON numbers, so they stop at 2^53 - 1 (JavaScript's Number.MAX_SAFE_INTEGER).
inline constexpr std::uint64_t max_seed = (std::uint64_t{1} << 53) - 1;

// Values uniform over the numbers with `decimals` decimal places that lie in [min, max]: for
// min -1, max 1, decimals 1 the 21 values -1.0, -0.9, ..., 1.0, each equally likely. A value is
// (lowest grid step + an index drawn uniformly) / 10^decimals, in double: exact arithmetic and
// one correctly rounded division, so the same everywhere.
struct UniformGrid {
  double min = -1.0;
  double max = 1.0;
  int decimals = 1;
};

struct RandomGridLimits {
  static constexpr double max_abs_bound = 1e6;   // |min|, |max|
  static constexpr int max_decimals = 6;
  static constexpr std::size_t max_values = 65536;  // rows · cols of one request
};

// Range, decimals, and at least one grid value inside [min, max]. Paths name "min", "max",
// "decimals".
std::optional<InputError> validate_uniform_grid(const UniformGrid& grid);

// Precondition: validate_uniform_grid(grid) returned nothing.
double next_on_grid(SeededRandom& random, const UniformGrid& grid);

// [rows][cols] row-major values on the grid, from SeededRandom(seed), row by row.
std::vector<double> random_grid_values(std::uint64_t seed, std::size_t rows, std::size_t cols,
                                       const UniformGrid& grid);

// The same values rounded to float32, for the tables (which hold floats).
Matrix random_grid_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols,
                          const UniformGrid& grid);

// [rows][cols] standard normal values from SeededRandom(seed), as float32.
Matrix random_normal_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols);

}  // namespace attn
