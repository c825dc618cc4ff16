// Shared by the fuzz targets: a failing check that libFuzzer records as a crash, a byte reader,
// a float64 reference of one attention head (with the FAQ's mask and scale variants), the error
// budget a float32 result is allowed against it, and the invariants every trace must hold.
//
// The error budget is derived, not tuned. For row i and a visible key j let
//   A_ij = Σ_c |q_ic k_jc|                        (the size of the terms of the score)
//   e_ij = ((d + 6) u A_ij + d·2⁻¹⁴⁹) / divisor   with u = 2⁻²⁴,
// a bound on the float32 rounding of the scaled score in any summation order (plus the
// rounding of √d and of the division, and products that underflow). With Δ_i = max_j e_ij,
// every weight of the row is off by at most a factor e^(±2Δ_i) from the exact one, plus the
// rounding of e^x (std::exp, or the kernels' polynomial at about 2e-7), of x - max and of the
// total, which gives a relative bound ρ_i on each weight, and an absolute ω for the weights the
// kernels clamp at e^-87. An output is then within
//   2 · [(ρ_i + (T + 4) u (1 + ρ_i)) Σ_j w_ij |v_jc| + ω Σ_j |v_jc| + (T + 2) 2⁻¹⁴⁹]
// of the float64 one (the factor 2 is the only slack). When the scores are so large that Δ_i
// is beyond about 20 (e^40) the bound says nothing and is dropped; the check that always holds
// is the other one: an output is a weighted mean of the visible value rows, so it lies between
// their smallest and largest (within the rounding of the sum).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/reference/trace.h"

namespace attn_fuzz {

// A failed check: print what and where, then abort so libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "\n%s:%d: check failed: %s\n", file, line, what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(condition, what)                                                     \
  do {                                                                                  \
    if (!(condition)) ::attn_fuzz::fail(__FILE__, __LINE__, std::string(#condition) + \
                                                                 " (" + (what) + ")"); \
  } while (0)

inline std::string num(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

inline std::string at(std::size_t i, std::size_t j) {
  return "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

// Reads the fuzz input front to back; past its end, a SplitMix64 stream seeded from the input
// keeps supplying bytes, so large shapes still get varied values from a short input.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
    std::uint64_t hash = 0x9E3779B97F4A7C15ull ^ size;
    for (std::size_t n = 0; n < size; ++n) hash = (hash ^ data[n]) * 0x100000001B3ull;
    state_ = hash;
  }

  std::uint8_t byte() {
    if (pos_ < size_) return data_[pos_++];
    return static_cast<std::uint8_t>(next_random() >> 56);
  }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  bool exhausted() const { return pos_ >= size_; }

 private:
  std::uint64_t next_random() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::uint64_t state_ = 0;
};

// The largest float within the value limit (1e15 itself is not a float).
inline float max_value_float() {
  float x = static_cast<float>(attn::Limits::max_abs_value);
  while (static_cast<double>(x) > attn::Limits::max_abs_value) x = std::nextafter(x, 0.0f);
  return x;
}

// One value from two bytes and the matrix's magnitude byte: edge cases (±0, ±1, the limit,
// the smallest normal, denormals) one time in sixteen, otherwise a 12-bit fraction in [-1, 1)
// times 10^(magnitude - 16 - spread), so one matrix mixes magnitudes up to 1e15.
inline float decode_value(std::uint16_t bits, std::uint8_t magnitude) {
  static const float specials[16] = {
      0.0f, -0.0f, 1.0f, -1.0f, max_value_float(), -max_value_float(),
      std::numeric_limits<float>::min(), -std::numeric_limits<float>::min(),
      std::numeric_limits<float>::denorm_min(), -1e-40f, 1e-20f, 3e7f, 0.5f, 2.0f, -2.0f, 1e10f};
  const unsigned nibble = bits >> 12;
  if (nibble == 15) return specials[bits & 15];
  const double fraction = static_cast<double>(bits & 0x0FFF) / 2048.0 - 1.0;
  const int exponent = static_cast<int>(magnitude % 32) - 16 - static_cast<int>(nibble % 8);
  float x = static_cast<float>(fraction * std::pow(10.0, exponent));
  const float limit = max_value_float();
  if (std::fabs(x) > limit) x = std::copysign(limit, x);
  return x;
}

// ---- float64 reference ----------------------------------------------------------------------

struct Reference {
  std::size_t T = 0, d = 0;
  std::vector<double> masked;   // [T][T] -inf where hidden under the -inf fill
  std::vector<double> error;    // [T][T] e_ij, the bound on the float32 error of masked
  std::vector<double> weights;  // [T][T]
  std::vector<double> out;      // [T][d]
  std::vector<double> rho;      // [T] relative bound on each weight of the row
  std::vector<double> out_budget;  // [T][d]
  std::vector<double> out_low, out_high;  // [T][d] smallest and largest live value, per column
  std::vector<double> hull_slack;         // [T][d]
};

constexpr double unit_roundoff = 1.0 / 16777216.0;        // 2^-24
constexpr double smallest_denormal = 1.401298464324817e-45;  // 2^-149
constexpr double clamped_weight = 4e-38;                   // ω: weights clamped at e^-87
constexpr double exp_relative_error = 3e-7;                // std::exp or the kernels' polynomial

// q, k, v: [T][d] float32 values. `divisor` as the trace computes it (√d as a float, d or 1).
inline Reference reference(const float* q, const float* k, const float* v, std::size_t T,
                           std::size_t d, attn::MaskKind mask, attn::MaskFill fill,
                           double divisor) {
  const double u = unit_roundoff;
  const double minus_infinity = -std::numeric_limits<double>::infinity();
  Reference r;
  r.T = T;
  r.d = d;
  r.masked.assign(T * T, 0.0);
  r.error.assign(T * T, 0.0);
  r.weights.assign(T * T, 0.0);
  r.out.assign(T * d, 0.0);
  r.rho.assign(T, 0.0);
  r.out_budget.assign(T * d, 0.0);
  r.out_low.assign(T * d, 0.0);
  r.out_high.assign(T * d, 0.0);
  r.hull_slack.assign(T * d, 0.0);
  for (std::size_t i = 0; i < T; ++i) {
    double row_error = 0.0;
    for (std::size_t j = 0; j < T; ++j) {
      double dot = 0.0, size = 0.0;
      for (std::size_t c = 0; c < d; ++c) {
        const double term = static_cast<double>(q[i * d + c]) * k[j * d + c];
        dot += term;
        size += std::fabs(term);
      }
      const bool visible = attn::is_visible(mask, i, j);
      if (visible) {
        r.masked[i * T + j] = dot / divisor;
        r.error[i * T + j] = ((d + 6) * u * size + d * smallest_denormal) / divisor;
        row_error = std::max(row_error, r.error[i * T + j]);
      } else {
        r.masked[i * T + j] = fill == attn::MaskFill::zero ? 0.0 : minus_infinity;
      }
    }
    const double* row = &r.masked[i * T];
    const double m = *std::max_element(row, row + T);
    double total = 0.0;
    for (std::size_t j = 0; j < T; ++j) total += std::exp(row[j] - m);
    for (std::size_t j = 0; j < T; ++j) r.weights[i * T + j] = std::exp(row[j] - m) / total;
    // 3 · 104 u: x - max (and the tiled kernels' rescale) rounded where e^x is not negligible.
    // Past a score error of about 40 the bound says nothing (e^80): no budget, only the span.
    const double exponent = 2.0 * row_error + 3.0 * 104.0 * u;
    const double rho = exponent < 40.0 ? std::expm1(exponent) + 4.0 * exp_relative_error + (T + 4) * u
                                       : std::numeric_limits<double>::infinity();
    r.rho[i] = rho;
    for (std::size_t c = 0; c < d; ++c) {
      double mean = 0.0, weighted_size = 0.0, size = 0.0, largest = 0.0;
      double low = std::numeric_limits<double>::infinity(), high = -low;
      for (std::size_t j = 0; j < T; ++j) {
        if (row[j] == minus_infinity) continue;
        const double value = v[j * d + c];
        mean += r.weights[i * T + j] * value;
        weighted_size += r.weights[i * T + j] * std::fabs(value);
        size += std::fabs(value);
        largest = std::max(largest, std::fabs(value));
        low = std::min(low, value);
        high = std::max(high, value);
      }
      r.out[i * d + c] = mean;
      r.out_budget[i * d + c] =
          std::isinf(rho) ? rho
                          : 2.0 * ((rho + (T + 4) * u * (1.0 + rho)) * weighted_size +
                                   clamped_weight * size + (T + 2) * smallest_denormal);
      r.out_low[i * d + c] = low;
      r.out_high[i * d + c] = high;
      r.hull_slack[i * d + c] =
          2.0 * ((T + 4) * u * largest + clamped_weight * size + (T + 2) * smallest_denormal);
    }
  }
  return r;
}

// One float32 output matrix [T][d] (a kernel's or the trace's) against the reference: finite,
// inside the hull of the visible value rows, and within the error budget.
inline void check_output(const Reference& r, const float* out, const char* who) {
  for (std::size_t i = 0; i < r.T; ++i) {
    for (std::size_t c = 0; c < r.d; ++c) {
      const std::size_t e = i * r.d + c;
      const double x = out[e];
      // Built only when a check fails.
      const auto where = [&] {
        return std::string(who) + " out" + at(i, c) + " = " + num(x) + ", float64 " +
               num(r.out[e]) + ", T " + std::to_string(r.T) + ", d " + std::to_string(r.d);
      };
      FUZZ_CHECK(std::isfinite(x), where());
      FUZZ_CHECK(x >= r.out_low[e] - r.hull_slack[e] && x <= r.out_high[e] + r.hull_slack[e],
                 where() + ", visible values span [" + num(r.out_low[e]) + ", " +
                     num(r.out_high[e]) + "]");
      FUZZ_CHECK(std::fabs(x - r.out[e]) <= r.out_budget[e],
                 where() + ", budget " + num(r.out_budget[e]) + ", rho " + num(r.rho[i]));
    }
  }
}

// Every invariant of a trace computed from valid input, and its weights and outputs against
// the float64 reference (`known`, when the caller has already computed it for this input).
inline void check_trace(const attn::AttentionInput& input, const attn::Trace& t,
                        const Reference* known = nullptr) {
  const std::size_t T = input.tokens.size(), d = input.q.cols;
  FUZZ_CHECK(t.token_count == T && t.head_dim == d, "shape");
  FUZZ_CHECK(t.tokens == input.tokens, "tokens copied");
  FUZZ_CHECK(t.q.values == input.q.values && t.k.values == input.k.values &&
                 t.v.values == input.v.values,
             "q, k, v copied");
  FUZZ_CHECK(t.scores.rows == T && t.scores.cols == T && t.weights.rows == T &&
                 t.weights.cols == T && t.exponentials.rows == T && t.masked.rows == T &&
                 t.out.rows == T && t.out.cols == d && t.score_terms.size() == T * T * d &&
                 t.weighted_values.size() == T * T * d && t.row_max.size() == T &&
                 t.row_shifted.size() == T && t.row_totals.size() == T &&
                 t.weight_sums.size() == T,
             "sizes");
  const float divisor = attn::scale_divisor_for(input.scale, d);
  FUZZ_CHECK(t.scale_divisor == divisor, num(t.scale_divisor));
  const bool minus_infinity_fill = input.mask_fill == attn::MaskFill::minus_infinity;

  for (std::size_t e = 0; e < T * T * d; ++e) {
    FUZZ_CHECK(std::isfinite(t.score_terms[e]), "score_terms " + std::to_string(e));
    FUZZ_CHECK(std::isfinite(t.weighted_values[e]), "weighted_values " + std::to_string(e));
  }
  for (std::size_t i = 0; i < T; ++i) {
    double sum = 0.0;
    float live_max = -std::numeric_limits<float>::infinity();
    for (std::size_t j = 0; j < T; ++j) {
      const bool visible = attn::is_visible(input.mask, i, j);
      const bool hidden_cell = !visible && minus_infinity_fill;
      const float masked = t.masked.at(i, j), w = t.weights.at(i, j), x = t.exponentials.at(i, j);
      FUZZ_CHECK(std::isfinite(t.scores.at(i, j)) && std::isfinite(t.scaled.at(i, j)),
                 "scores" + at(i, j));
      if (hidden_cell) {
        FUZZ_CHECK(masked == -std::numeric_limits<float>::infinity(), "masked" + at(i, j));
        FUZZ_CHECK(w == 0.0f && !std::signbit(w), "masked weight" + at(i, j) + " = " + num(w));
        FUZZ_CHECK(x == 0.0f, "masked exponential" + at(i, j));
      } else {
        FUZZ_CHECK(std::isfinite(masked), "masked" + at(i, j) + " = " + num(masked));
        FUZZ_CHECK(visible ? masked == t.scaled.at(i, j) : masked == 0.0f, "masked" + at(i, j));
        FUZZ_CHECK(std::isfinite(x) && x >= 0.0f, "exponential" + at(i, j) + " = " + num(x));
        if (t.row_shifted[i]) FUZZ_CHECK(x <= 1.0f, "shifted exponential" + at(i, j));
        live_max = std::max(live_max, masked);
      }
      FUZZ_CHECK(w >= 0.0f && w <= 1.0f, "weight" + at(i, j) + " = " + num(w));
      sum += w;
    }
    FUZZ_CHECK(t.row_max[i] == live_max, "row_max[" + std::to_string(i) + "]");
    FUZZ_CHECK(std::isfinite(t.row_totals[i]) && t.row_totals[i] > 0.0f,
               "row_totals[" + std::to_string(i) + "] = " + num(t.row_totals[i]));
    FUZZ_CHECK(std::fabs(sum - 1.0) <= 1e-5, "row " + std::to_string(i) + " sums to " + num(sum));
    FUZZ_CHECK(std::fabs(t.weight_sums[i] - 1.0) <= 1e-5,
               "weight_sums[" + std::to_string(i) + "] = " + num(t.weight_sums[i]));
  }

  const Reference r = known ? *known
                            : reference(input.q.values.data(), input.k.values.data(),
                                        input.v.values.data(), T, d, input.mask, input.mask_fill,
                                        divisor);
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T && !std::isinf(r.rho[i]); ++j) {
      const double w = t.weights.at(i, j), expected = r.weights[i * T + j];
      FUZZ_CHECK(std::fabs(w - expected) <= 2.0 * (r.rho[i] * expected + clamped_weight),
                 "weight" + at(i, j) + " = " + num(w) + ", float64 " + num(expected) + ", rho " +
                     num(r.rho[i]));
    }
  check_output(r, t.out.values.data(), "trace");
}

}  // namespace attn_fuzz
