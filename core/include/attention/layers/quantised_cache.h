// A quantised KV cache in the spirit of TurboQuant (Zandieh, Daliri, Hadian and Mirrokni,
// "TurboQuant: Online Vector Quantization with Near-optimal Distortion Rate", arXiv:2504.19874,
// 2025): rotate each cached key and value vector by one fixed random orthogonal matrix, store a
// few bits per coordinate, and undo both when attention reads the cache. The rotation spreads a
// vector's size evenly over its coordinates (no coordinate is an outlier any more), which is
// what lets a plain scalar quantiser with few levels work. TurboQuant itself goes further
// (quantisers fitted to the distribution a rotated coordinate follows, and a 1-bit correction
// of the inner-product bias); this is the simple version of the idea, written out:
//
//   Rotation: R [d][d], a random orthogonal matrix: Gram–Schmidt on the rows of a d × d table
//     of seeded standard normals (SeededRandom, Box–Muller), in double, then rounded to float.
//     Orthonormalising Gaussian rows gives a rotation drawn uniformly (Haar); any d works (a
//     randomised Hadamard transform would need d a power of two). rotation "none" uses R = I.
//   Rotate:   y = x · R                          one cached row x [d] (a key or a value)
//   Quantise: symmetric uniform scalar quantiser, one scale per vector:
//               L = 2^(bits-1) - 1 levels each side (8 bits: 127, 4: 7, 3: 3, 2: 1),
//               scale = max_c |y_c| / L,
//               code_c = round(y_c / scale), an integer in [-L, L] (0 when scale is 0);
//             stored: d codes of `bits` bits, packed, plus the scale (a float32, 4 bytes).
//   Read:     y'_c = code_c · scale, x' = y' · Rᵀ (R is orthogonal, so Rᵀ undoes it).
// Attention then runs on the unchanged queries and the restored keys and values x'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"

namespace attn {

struct QuantisedCacheOptions {
  std::vector<int> bits = {8, 4, 3, 2};  // each one 2, 3, 4 or 8; at most 8 entries
  bool rotate = true;                    // false: R = I, to see what the rotation buys
  std::uint64_t seed = 1;                // R from derive_seed(seed, 20)
};

struct QuantisedCacheLimits {
  static constexpr std::size_t max_bit_widths = 8;
  static constexpr std::size_t scale_bytes = 4;  // each vector's scale, a float32
  static constexpr std::size_t value_bytes = 4;  // an unquantised cached value, a float32
  // Every bit width carries a full trace (T × T × d products twice), and so does the reference:
  // T² · d · (bit widths + 1) is kept within 2^21, about 40 MB of JSON at most.
  static constexpr std::size_t max_trace_products = std::size_t{1} << 21;
};

// How far a table moved: max |a - b| over every entry, and ‖a - b‖ / ‖b‖ (Frobenius norms; 0
// when b is all zero).
struct ErrorFigures {
  double max_abs = 0.0;
  double relative = 0.0;
};
ErrorFigures error_figures(const Matrix& changed, const Matrix& reference);

struct QuantisedRows {
  std::vector<float> scales;           // [T] one per cached vector
  std::vector<std::int32_t> codes;     // [T][d] integers in [-L, L]
  Matrix dequantised;                  // [T][d] code · scale, still rotated
  Matrix restored;                     // [T][d] dequantised · Rᵀ, what attention reads
};

struct QuantisedLevel {
  int bits = 8;
  int levels_each_side = 127;       // L
  QuantisedRows k;
  QuantisedRows v;
  Trace trace;                      // attention on q and the restored k, v
  ErrorFigures k_error;             // restored k against k
  ErrorFigures v_error;             // restored v against v
  ErrorFigures weights_error;       // trace.weights against the unquantised trace's
  ErrorFigures out_error;           // trace.out against the unquantised trace's
  std::size_t bytes_per_token = 0;  // this head's key and value: 2 · (⌈d · bits / 8⌉ + 4)
};

struct QuantisedCacheTrace {
  std::vector<std::string> tokens;  // [T]
  std::size_t head_dim = 0;         // d
  bool rotated = true;
  std::uint64_t seed = 1;
  Matrix rotation;                  // [d][d] R (the identity when not rotated)
  Matrix k_rotated;                 // [T][d] k · R
  Matrix v_rotated;                 // [T][d] v · R
  Trace reference;                  // the unquantised attention
  std::size_t unquantised_bytes_per_token = 0;  // this head's key and value in float32: 2 · d · 4
  std::vector<QuantisedLevel> levels;           // one per entry of options.bits, in that order
};

// A d × d random orthogonal matrix from `seed`, as described above. Precondition: d >= 1.
Matrix random_rotation(std::size_t d, std::uint64_t seed);

// The attention input as validate_input checks it (any mask and scale), plus bits: 1 to 8
// entries, each 2, 3, 4 or 8 (paths "bits", "bits[2]"), and T² · d · (entries + 1) within
// max_trace_products ("bits").
std::optional<InputError> validate_quantised_cache(const AttentionInput& input,
                                                   const QuantisedCacheOptions& options);

// Precondition: validate_quantised_cache returned nothing.
QuantisedCacheTrace compute_quantised_cache(const AttentionInput& input,
                                            const QuantisedCacheOptions& options);

}  // namespace attn
