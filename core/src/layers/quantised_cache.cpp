// The quantised KV cache: rotation, per-vector scalar quantisation, dequantisation, and the
// attention read back from it, with the error each bit width causes.
#include "attention/layers/quantised_cache.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/layers/kv_bill.h"
#include "attention/reference/seeded_random.h"

namespace attn {

namespace {

constexpr std::uint64_t rotation_stream = 20;

// [rows][d] · [d][d] -> [rows][d], or · Rᵀ when `transpose`; summed left to right in float.
Matrix times_rotation(const Matrix& rows, const Matrix& rotation, bool transpose) {
  const std::size_t d = rotation.rows;
  Matrix product(rows.rows, d);
  for (std::size_t r = 0; r < rows.rows; ++r) {
    for (std::size_t c = 0; c < d; ++c) {
      float sum = 0.0f;
      for (std::size_t m = 0; m < d; ++m)
        sum += rows.at(r, m) * (transpose ? rotation.at(c, m) : rotation.at(m, c));
      product.at(r, c) = sum;
    }
  }
  return product;
}

Matrix identity(std::size_t d) {
  Matrix m(d, d);
  for (std::size_t n = 0; n < d; ++n) m.at(n, n) = 1.0f;
  return m;
}

// Each row of `rotated` [T][d] to `bits` bits with its own scale, and back.
QuantisedRows quantise_rows(const Matrix& rotated, const Matrix& rotation, int bits) {
  const std::size_t T = rotated.rows;
  const std::size_t d = rotated.cols;
  const int levels = (1 << (bits - 1)) - 1;  // L
  QuantisedRows rows;
  rows.scales.assign(T, 0.0f);
  rows.codes.assign(T * d, 0);
  rows.dequantised = Matrix(T, d);
  for (std::size_t t = 0; t < T; ++t) {
    float largest = 0.0f;
    for (std::size_t c = 0; c < d; ++c) largest = std::max(largest, std::fabs(rotated.at(t, c)));
    const float scale = largest / static_cast<float>(levels);
    rows.scales[t] = scale;
    for (std::size_t c = 0; c < d; ++c) {
      std::int32_t code = 0;
      if (scale > 0.0f) {
        const float steps = std::round(rotated.at(t, c) / scale);
        code = static_cast<std::int32_t>(std::clamp(steps, -static_cast<float>(levels),
                                                    static_cast<float>(levels)));
      }
      rows.codes[t * d + c] = code;
      rows.dequantised.at(t, c) = static_cast<float>(code) * scale;
    }
  }
  rows.restored = times_rotation(rows.dequantised, rotation, /*transpose=*/true);
  return rows;
}

}  // namespace

ErrorFigures error_figures(const Matrix& changed, const Matrix& reference) {
  ErrorFigures figures;
  double difference_squares = 0.0, reference_squares = 0.0;
  for (std::size_t n = 0; n < reference.values.size(); ++n) {
    const double difference = static_cast<double>(changed.values[n]) - reference.values[n];
    figures.max_abs = std::max(figures.max_abs, std::fabs(difference));
    difference_squares += difference * difference;
    reference_squares += static_cast<double>(reference.values[n]) * reference.values[n];
  }
  figures.relative = reference_squares > 0.0 ? std::sqrt(difference_squares / reference_squares) : 0.0;
  return figures;
}

Matrix random_rotation(std::size_t d, std::uint64_t seed) {
  SeededRandom random(derive_seed(seed, rotation_stream));
  std::vector<double> rows(d * d, 0.0);  // [d][d], orthonormal when done
  for (std::size_t i = 0; i < d; ++i) {
    double* row = &rows[i * d];
    // A row of normals, minus its projections on the rows before it (modified Gram–Schmidt),
    // then scaled to length 1. A row that (almost) lies in their span is drawn again; with
    // Gaussian rows that has probability 0, so the loop ends at once.
    for (double norm = 0.0; norm < 1e-6;) {
      for (std::size_t c = 0; c < d; ++c) row[c] = random.next_normal();
      for (std::size_t j = 0; j < i; ++j) {
        const double* earlier = &rows[j * d];
        double dot = 0.0;
        for (std::size_t c = 0; c < d; ++c) dot += row[c] * earlier[c];
        for (std::size_t c = 0; c < d; ++c) row[c] -= dot * earlier[c];
      }
      double squares = 0.0;
      for (std::size_t c = 0; c < d; ++c) squares += row[c] * row[c];
      norm = std::sqrt(squares);
      if (norm >= 1e-6)
        for (std::size_t c = 0; c < d; ++c) row[c] /= norm;
    }
  }
  Matrix rotation(d, d);
  for (std::size_t n = 0; n < d * d; ++n) rotation.values[n] = static_cast<float>(rows[n]);
  return rotation;
}

std::optional<InputError> validate_quantised_cache(const AttentionInput& input,
                                                   const QuantisedCacheOptions& options) {
  if (auto error = validate_input(input)) return error;
  if (options.bits.empty()) return make_input_error("bits", "needs at least one bit width");
  if (options.bits.size() > QuantisedCacheLimits::max_bit_widths)
    return make_input_error("bits", "has " + std::to_string(options.bits.size()) +
                                        " entries; the limit is " +
                                        std::to_string(QuantisedCacheLimits::max_bit_widths));
  for (std::size_t n = 0; n < options.bits.size(); ++n) {
    const int bits = options.bits[n];
    if (bits != 2 && bits != 3 && bits != 4 && bits != 8)
      return make_input_error("bits[" + std::to_string(n) + "]",
                              "must be 2, 3, 4 or 8, got " + std::to_string(bits));
  }
  const std::size_t T = input.tokens.size();
  const std::size_t products = T * T * input.q.cols * (options.bits.size() + 1);
  if (products > QuantisedCacheLimits::max_trace_products)
    return make_input_error("bits", counted(options.bits.size(), "bit width", "bit widths") + " of " +
                                        counted(T, "token", "tokens") + " with head_dim " +
                                        std::to_string(input.q.cols) +
                                        " make traces too large to show; give fewer bit widths, "
                                        "tokens or a smaller head (T² · head_dim · (bit widths + 1) "
                                        "must stay within " +
                                        std::to_string(QuantisedCacheLimits::max_trace_products) + ")");
  return std::nullopt;
}

QuantisedCacheTrace compute_quantised_cache(const AttentionInput& input,
                                            const QuantisedCacheOptions& options) {
  const std::size_t d = input.k.cols;
  QuantisedCacheTrace result;
  result.tokens = input.tokens;
  result.head_dim = d;
  result.rotated = options.rotate;
  result.seed = options.seed;
  result.rotation = options.rotate ? random_rotation(d, options.seed) : identity(d);
  result.k_rotated = times_rotation(input.k, result.rotation, /*transpose=*/false);  // [T][d]
  result.v_rotated = times_rotation(input.v, result.rotation, /*transpose=*/false);  // [T][d]
  result.reference = compute_trace(input);
  result.unquantised_bytes_per_token = 2 * d * QuantisedCacheLimits::value_bytes;

  for (const int bits : options.bits) {
    QuantisedLevel level;
    level.bits = bits;
    level.levels_each_side = (1 << (bits - 1)) - 1;
    level.k = quantise_rows(result.k_rotated, result.rotation, bits);
    level.v = quantise_rows(result.v_rotated, result.rotation, bits);
    AttentionInput read_back = input;
    read_back.k = level.k.restored;
    read_back.v = level.v.restored;
    level.trace = compute_trace(read_back);
    level.k_error = error_figures(level.k.restored, input.k);
    level.v_error = error_figures(level.v.restored, input.v);
    level.weights_error = error_figures(level.trace.weights, result.reference.weights);
    level.out_error = error_figures(level.trace.out, result.reference.out);
    level.bytes_per_token = 2 * quantised_vector_bytes(d, bits, QuantisedCacheLimits::scale_bytes);
    result.levels.push_back(std::move(level));
  }
  return result;
}

}  // namespace attn
