// What every kernel promises its callers besides accuracy: the output may overwrite the
// queries in place, a causal row never depends on a later token, and a value out of range
// (NaN, ±infinity, beyond 1e15) is refused wherever it lies in q, k or v.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/kernels/kernels.h"
#include "attention/kernels/vec/f32x4_scalar.h"
#include "kernel_test_harness.h"
#include "test_inputs.h"

using kernel_test::run_kernel;
using kernel_test::small_schedule;

TEST_CASE("kernels: the output may overwrite the queries in place", "[kernels]") {
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    for (std::size_t T : {1u, 5u, 70u})
      for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
        const std::size_t d = 8;
        const attn::AttentionInput input = attn_test::random_input(T, d, mask, 90 + T);
        const std::vector<float> separate = run_kernel(kernel, input);
        std::vector<float> in_place = input.q.values;
        std::vector<float> scratch(kernel.scratch_floats(T, d));
        INFO("kernel " << kernel.name << ", T " << T);
        CHECK(kernel.attend(in_place.data(), in_place.data(), input.k.values.data(),
                            input.v.values.data(), T, d, mask, scratch.data()));
        CHECK(in_place == separate);
      }
}

TEST_CASE("kernels: causal output row t ignores every token after t", "[kernels]") {
  const std::size_t T = 10;
  for (std::size_t d : {9u, 12u})
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
    if (!kernel.supports(T, d)) continue;  // d = 12 covers the blocked kernels
    const attn::AttentionInput original = attn_test::random_input(T, d, attn::MaskKind::causal, 61);
    const std::vector<float> before = run_kernel(kernel, original);
    for (std::size_t t = 0; t + 1 < T; ++t) {
      attn::AttentionInput changed = original;
      for (std::size_t r = t + 1; r < T; ++r)
        for (std::size_t c = 0; c < d; ++c) {
          changed.q.at(r, c) = -changed.q.at(r, c) + 0.5f;
          changed.k.at(r, c) = 1.5f - changed.k.at(r, c);
          changed.v.at(r, c) = changed.v.at(r, c) * -3.0f;
        }
      const std::vector<float> after = run_kernel(kernel, changed);
      INFO("kernel " << kernel.name << ", rows after " << t << " changed");
      CHECK(std::memcmp(before.data(), after.data(), (t + 1) * d * sizeof(float)) == 0);
      CHECK(std::memcmp(before.data() + (T - 1) * d, after.data() + (T - 1) * d,
                        d * sizeof(float)) != 0);
    }
  }
}

namespace {

// Every kernel checks what it is given (the untiled blocked one while it packs): NaN, ±infinity
// or a value just beyond the limit anywhere in q, k or v is refused, and the limit itself is not.
// T = 300 puts queries past the first 256-row group, which the untiled kernel checks first;
// T = 70 and 5 have rows in a last, partial block of four and keys in a partial panel of eight.
void check_refusals(const attn::KernelInfo& kernel) {
  const float bad[] = {std::nanf(""), std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity(),
                       std::nextafter(attn::max_abs_float, 1e30f)};
  for (std::size_t T : {5u, 70u, 300u}) {
    const std::size_t d = 8, n = T * d;
    for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
      const attn::AttentionInput input = attn_test::random_input(T, d, mask, 500 + T);
      std::vector<float> qkv[3] = {input.q.values, input.k.values, input.v.values};
      std::vector<float> out(n), scratch(kernel.scratch_floats(T, d));
      const auto run = [&] {
        return kernel.attend(out.data(), qkv[0].data(), qkv[1].data(), qkv[2].data(), T, d, mask,
                             scratch.data());
      };
      for (std::size_t m = 0; m < 3; ++m)
        for (std::size_t e : {std::size_t{0}, n / 2 + 3, n - 1}) {
          INFO("kernel " << kernel.name << ", T " << T << ", matrix " << "qkv"[m] << ", value " << e);
          const float was = qkv[m][e];
          for (float value : bad) {
            qkv[m][e] = value;
            CHECK_FALSE(run());
          }
          qkv[m][e] = m == 1 ? -attn::max_abs_float : attn::max_abs_float;
          CHECK(run());
          qkv[m][e] = was;
        }
    }
  }
}

}  // namespace

TEST_CASE("kernels: a value out of range is refused wherever it lies", "[kernels]") {
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) check_refusals(kernel);
  check_refusals(small_schedule<attn::vec::ScalarF32x4, 8, 0>("8-row groups, untiled"));
  check_refusals(small_schedule<attn::vec::ScalarF32x4, 8, 12>("8-row groups, 12-key tiles"));
}
