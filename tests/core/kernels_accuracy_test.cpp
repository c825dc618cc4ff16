// Every registered kernel, and the blocked kernel with small schedules, against the float64
// reference and the scalar trace: sizes equal to, below, above and a multiple of the vector
// width, sequences around the block, the query group and the key tile, head_dim up to its
// limit, both masks, inputs whose naive e^x overflows, values at the 1e15 limit and the
// article's two words.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/kernels/kernels.h"
#include "attention/reference/trace.h"
#include "attention/kernels/vec/f32x4_scalar.h"
#include "kernel_test_harness.h"
#include "kernels/simd_backend.h"
#include "reference_f64.h"
#include "test_inputs.h"

using kernel_test::budget_vs_f64;
using kernel_test::compare;
using kernel_test::run_kernel;
using kernel_test::small_schedule;

namespace {

// Sizes from the XNNPACK habit: 1, below / equal / above the width 4, multiples of it, and
// odd sizes past 8, 16 and 32, up to the token limit.
const std::vector<std::size_t> sizes = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 64};

}  // namespace

TEST_CASE("kernels: agree with float64 and the trace over sizes around the vector width",
          "[kernels]") {
  // Each size appears as T and as d: pair sizes[n] with sizes reversed, with itself, and with
  // a fixed small partner, for both masks.
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (std::size_t n = 0; n < sizes.size(); ++n) {
    shapes.emplace_back(sizes[n], sizes[sizes.size() - 1 - n]);
    shapes.emplace_back(sizes[n], sizes[n]);
    shapes.emplace_back(sizes[n], 4);
    shapes.emplace_back(3, sizes[n]);
  }
  std::uint32_t seed = 1000;
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
    std::size_t tested = 0;
    for (const auto& [T, d] : shapes) {
      for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
        const attn::AttentionInput input = attn_test::random_input(T, d, mask, ++seed);
        tested += compare(kernel, input) ? 1 : 0;
      }
    }
    INFO("kernel " << kernel.name);
    CHECK(tested >= 20);  // every kernel, whatever shapes it supports, is really exercised
  }
}

TEST_CASE("kernels: sequences around the 4-row block, the 256-row group and the 256-key tile",
          "[kernels]") {
  // T at, below and above multiples of the block (4), the query group and the key tile (256
  // each in the registered kernels), past the trace's 64-token limit: kernels have no such
  // limit. (Sizes around the 8-key panel are in the test above; small groups and tiles below.)
  // head_dim 12 (an odd multiple of 4: the 4-column tail of the output), and 64 and 128 as in
  // real models at one size each, to keep the float64 references small.
  std::uint32_t seed = 5000;
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    for (std::size_t T : {127u, 128u, 129u, 255u, 256u, 257u, 511u, 513u})
      for (std::size_t d : {12u, 64u, 128u})
        for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
          if ((d == 64 && T != 257) || (d == 128 && T != 129)) continue;
          compare(kernel, attn_test::random_input(T, d, mask, ++seed));
        }
}

namespace {

template <class V>
void check_small_schedules(std::uint32_t seed) {
  const attn::KernelInfo kernels[] = {
      small_schedule<V, 8, 0>("8-row groups, untiled"),
      small_schedule<V, 8, 8>("8-row groups, 8-key tiles"),
      small_schedule<V, 8, 12>("8-row groups, 12-key tiles"),
      small_schedule<V, 16, 24>("16-row groups, 24-key tiles"),
  };
  for (const attn::KernelInfo& kernel : kernels)
    for (std::size_t T : {1u, 5u, 8u, 9u, 12u, 16u, 17u, 23u, 24u, 25u, 40u, 47u})
      for (std::size_t d : {4u, 12u})
        for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none})
          CHECK(compare(kernel, attn_test::random_input(T, d, mask, ++seed)));
}

}  // namespace

TEST_CASE("kernels: the blocked kernel over small query groups and key tiles", "[kernels]") {
  check_small_schedules<attn::vec::ScalarF32x4>(7000);
#if defined(ATTN_SIMD_BACKEND)
  check_small_schedules<attn::ATTN_SIMD_BACKEND>(8000);
#endif
}

TEST_CASE("kernels: head_dim above 64 up to the limit", "[kernels]") {
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    for (std::size_t d : {65u, 127u, 128u, 255u, 256u})
      compare(kernel, attn_test::random_input(5, d, attn::MaskKind::causal, 7 + d));
}

TEST_CASE("kernels: scores near 1e4 (naive e^x overflows) stay finite and exact enough",
          "[kernels]") {
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
    for (std::size_t d : {1u, 4u}) {
      for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
        const attn::AttentionInput input = attn_test::large_score_input(d, mask);
        REQUIRE(attn_test::validation_error(input) == "");
        if (!kernel.supports(input.q.rows, d)) continue;  // d = 4 covers the blocked kernels
        const std::vector<float> out = run_kernel(kernel, input);
        const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);
        INFO("kernel " << kernel.name << ", d " << d << ", mask " << attn::mask_name(mask));
        for (std::size_t n = 0; n < out.size(); ++n) {
          CHECK(std::isfinite(out[n]));
          CHECK(std::fabs(out[n] - ref.out[n]) <= budget_vs_f64 * (1.0 + std::fabs(ref.out[n])));
        }
      }
    }
  }
}

TEST_CASE("kernels: values at the 1e15 limit give finite outputs", "[kernels]") {
  // The limits promise that no dot product overflows: head_dim · max² = 256 · 1e30 < FLT_MAX.
  // The scores are then huge, so only a shifted softmax keeps the weights finite.
  attn::AttentionInput random_big = attn_test::random_input(4, 4, attn::MaskKind::none, 5);
  for (float& x : random_big.q.values) x *= 4e14f;
  for (float& x : random_big.k.values) x *= 4e14f;
  for (float& x : random_big.v.values) x *= 4e14f;
  attn::AttentionInput at_limit = attn_test::random_input(4, 256, attn::MaskKind::causal, 6);
  for (attn::Matrix* m : {&at_limit.q, &at_limit.k, &at_limit.v})
    for (float& x : m->values) x = x < 0.0f ? -1e15f : 1e15f;
  for (const attn::AttentionInput& input : {random_big, at_limit}) {
    INFO("head_dim " << input.q.cols);
    REQUIRE(attn_test::validation_error(input) == "");
    const attn::Trace trace = attn::compute_trace(input);
    for (float w : trace.weights.values) CHECK(std::isfinite(w));
    for (float x : trace.scores.values) CHECK(std::isfinite(x));
    for (float x : trace.out.values) CHECK(std::isfinite(x));
    for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
      INFO("kernel " << kernel.name);
      const std::vector<float> out = run_kernel(kernel, input);
      for (float x : out) CHECK(std::isfinite(x));
    }
  }
}

TEST_CASE("kernels: the article's two words give out cat = 0.7242 -0.3280 -0.1160 -0.1242",
          "[kernels]") {
  const attn::AttentionInput input = []() {
    attn::AttentionInput in;
    in.tokens = {"the", "cat"};
    in.q = attn::matrix_from_rows({{0.3f, -0.2f, 0.5f, 0.1f}, {1.1f, -0.8f, 0.2f, 0.3f}});
    in.k = attn::matrix_from_rows({{-0.4f, -0.3f, 0.2f, 1.2f}, {1.6f, -0.7f, -0.4f, -0.5f}});
    in.v = attn::matrix_from_rows({{-0.5f, -0.4f, 0.1f, 1.1f}, {1.2f, -0.3f, -0.2f, -0.6f}});
    return in;
  }();
  const double printed[4] = {0.7242, -0.3280, -0.1160, -0.1242};
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
    INFO("kernel " << kernel.name);
    const std::vector<float> out = run_kernel(kernel, input);
    for (std::size_t c = 0; c < 4; ++c) CHECK(std::fabs(out[4 + c] - printed[c]) <= 0.5e-4);
    for (std::size_t c = 0; c < 4; ++c) CHECK(out[c] == input.v.at(0, c));  // the sees itself only
  }
}
