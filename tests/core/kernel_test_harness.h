// What the kernel tests share: the error budget against float64 and the scalar trace, a kernel
// run between guard values (a write outside a buffer, a cell left unwritten or an input changed
// is caught), the comparison with float64 and the trace, and the blocked kernel built with a
// small schedule so that many query groups and key tiles meet at small sizes.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "kernels/attend_blocked.h"
#include "attention/reference/attention_input.h"
#include "attention/kernels/kernels.h"
#include "attention/reference/trace.h"
#include "reference_f64.h"

namespace kernel_test {

// Error budget. Inputs lie in [-2, 2] and head_dim <= 64, so a score is a float32 sum of at
// most 64 products (relative rounding ~64 · 2⁻²⁴ ≈ 4e-6 of the largest term), the softmax and
// the weighted sum add a few ulps each. Against float64 the kernels must stay within
//   |out - ref| <= 1e-5 · (1 + |ref|),
// and against the scalar trace (also float32, with a different summation order) within 2e-5.
inline constexpr double budget_vs_f64 = 1e-5;
inline constexpr double budget_vs_trace = 2e-5;

inline constexpr std::size_t guard_count = 16;
inline constexpr float guard_value = -1234.5678f;

// A buffer of `count` floats with guard values on both sides: a write outside is detected.
struct GuardedBuffer {
  std::vector<float> storage;
  std::size_t count;

  explicit GuardedBuffer(std::size_t n, float fill = 0.0f)
      : storage(n + 2 * guard_count, guard_value), count(n) {
    std::fill(storage.begin() + guard_count, storage.end() - guard_count, fill);
  }
  float* data() { return storage.data() + guard_count; }
  const float* data() const { return storage.data() + guard_count; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < guard_count; ++i) {
      if (std::memcmp(&storage[i], &guard_value, sizeof(float)) != 0) return false;
      if (std::memcmp(&storage[guard_count + count + i], &guard_value, sizeof(float)) != 0)
        return false;
    }
    return true;
  }
};

// Runs one kernel on `input` with guarded buffers and checks the guards and the inputs.
inline std::vector<float> run_kernel(const attn::KernelInfo& kernel, const attn::AttentionInput& input) {
  const std::size_t T = input.q.rows;
  const std::size_t d = input.q.cols;
  REQUIRE(kernel.supports(T, d));
  // NaN-filled output and scratch: a cell the kernel forgets to write, or scratch it reads
  // before writing, shows up as NaN.
  GuardedBuffer out(T * d, std::nanf(""));
  GuardedBuffer scratch(kernel.scratch_floats(T, d), std::nanf(""));
  GuardedBuffer q(T * d), k(T * d), v(T * d);
  std::memcpy(q.data(), input.q.values.data(), T * d * sizeof(float));
  std::memcpy(k.data(), input.k.values.data(), T * d * sizeof(float));
  std::memcpy(v.data(), input.v.values.data(), T * d * sizeof(float));
  INFO("kernel " << kernel.name);
  CHECK(kernel.attend(out.data(), q.data(), k.data(), v.data(), T, d, input.mask, scratch.data()));
  CHECK(out.guards_intact());
  CHECK(scratch.guards_intact());
  CHECK(std::memcmp(q.data(), input.q.values.data(), T * d * sizeof(float)) == 0);
  CHECK(std::memcmp(k.data(), input.k.values.data(), T * d * sizeof(float)) == 0);
  CHECK(std::memcmp(v.data(), input.v.values.data(), T * d * sizeof(float)) == 0);
  return std::vector<float>(out.data(), out.data() + T * d);
}

// Compares one kernel with float64 and the trace; returns false (testing nothing) when the
// kernel does not support the shape.
inline bool compare(const attn::KernelInfo& kernel, const attn::AttentionInput& input) {
  const std::size_t T = input.q.rows;
  const std::size_t d = input.q.cols;
  if (!kernel.supports(T, d)) return false;
  const std::vector<float> out = run_kernel(kernel, input);
  const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);
  const attn::Trace trace = attn::compute_trace(input);
  INFO("kernel " << kernel.name << ", T " << T << ", d " << d << ", mask "
                 << attn::mask_name(input.mask));
  std::size_t bad = 0;
  double worst_vs_f64 = 0.0, worst_vs_trace = 0.0;
  for (std::size_t n = 0; n < T * d; ++n) {
    const double expected = ref.out[n];
    const double error_f64 = std::fabs(out[n] - expected) / (1.0 + std::fabs(expected));
    const double error_trace = std::fabs(out[n] - trace.out.values[n]);
    worst_vs_f64 = std::max(worst_vs_f64, error_f64);
    worst_vs_trace = std::max(worst_vs_trace, error_trace);
    if (!std::isfinite(out[n]) || !(error_f64 <= budget_vs_f64) ||
        !(error_trace <= budget_vs_trace))
      ++bad;
  }
  INFO("worst relative error vs float64 " << worst_vs_f64 << ", vs trace " << worst_vs_trace);
  CHECK(bad == 0);
  return true;
}

// The blocked kernel with a small schedule, so that many query groups and key tiles (and
// tiles that are not a multiple of the 8-key panel) meet at small T.
template <class V, std::size_t Group, std::size_t Tile>
bool small_schedule_kernel(float* out, const float* q, const float* k, const float* v,
                           std::size_t token_count, std::size_t head_dim, attn::MaskKind mask,
                           float* scratch) {
  return attn::detail::attend_blocked<V>(out, q, k, v, token_count, head_dim, mask, scratch,
                                  {Group, Tile});
}

template <std::size_t Group, std::size_t Tile>
std::size_t small_schedule_scratch(std::size_t token_count, std::size_t head_dim) {
  return attn::detail::blocked_scratch_floats(token_count, head_dim, {Group, Tile});
}

template <class V, std::size_t Group, std::size_t Tile>
attn::KernelInfo small_schedule(const char* name) {
  return {name, V::isa, V::width, Tile, &attn::detail::blocked_supports,
          &small_schedule_scratch<Group, Tile>, &small_schedule_kernel<V, Group, Tile>};
}

}  // namespace kernel_test
