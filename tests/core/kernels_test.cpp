// Every registered kernel against the float64 reference and the scalar trace, over sizes equal
// to, below, above and a multiple of the vector width, both masks, inputs whose naive e^x
// overflows, and guard values around every buffer the kernel may write.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "kernels/attend_blocked.h"
#include "attention/reference/attention_input.h"
#include "attention/kernels/kernels.h"
#include "attention/reference/trace.h"
#include "attention/kernels/vec/f32x4_scalar.h"
#include "reference_f64.h"
#include "kernels/simd_backend.h"
#include "test_inputs.h"

namespace {

// Error budget. Inputs lie in [-2, 2] and head_dim <= 64, so a score is a float32 sum of at
// most 64 products (relative rounding ~64 · 2⁻²⁴ ≈ 4e-6 of the largest term), the softmax and
// the weighted sum add a few ulps each. Against float64 the kernels must stay within
//   |out - ref| <= 1e-5 · (1 + |ref|),
// and against the scalar trace (also float32, with a different summation order) within 2e-5.
constexpr double budget_vs_f64 = 1e-5;
constexpr double budget_vs_trace = 2e-5;

// Sizes from the XNNPACK habit: 1, below / equal / above the width 4, multiples of it, and
// odd sizes past 8, 16 and 32, up to the token limit.
const std::vector<std::size_t> sizes = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 64};

const std::size_t guard_count = 16;
const float guard_value = -1234.5678f;

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
std::vector<float> run_kernel(const attn::KernelInfo& kernel, const attn::AttentionInput& input) {
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
bool compare(const attn::KernelInfo& kernel, const attn::AttentionInput& input) {
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

}  // namespace

TEST_CASE("kernel registry: names and ISAs and lookup", "[kernels]") {
  const std::vector<attn::KernelInfo>& kernels = attn::kernel_registry();
  REQUIRE_FALSE(kernels.empty());
  const std::string first_isa = kernels.front().isa;
  CHECK((first_isa == "scalar" || first_isa == "reference"));  // the portable one first
  std::set<std::string> names;
  for (const attn::KernelInfo& kernel : kernels) {
    INFO("kernel " << kernel.name);
    REQUIRE(kernel.name != nullptr);
    REQUIRE(kernel.isa != nullptr);
    REQUIRE(kernel.attend != nullptr);
    CHECK(std::string(kernel.name).rfind("attend__", 0) == 0);
    const std::set<std::string> isas = {"reference", "scalar", "sse2", "neon", "wasm-simd128"};
    CHECK(isas.count(kernel.isa) == 1);
    CHECK(kernel.vector_width >= 1);
    if (std::string(kernel.isa) == "reference") CHECK(kernel.vector_width == 1);
    CHECK(names.insert(kernel.name).second);  // unique
    const attn::KernelInfo* found = attn::find_kernel(kernel.name);
    REQUIRE(found != nullptr);
    CHECK(found == &kernel);
  }
  CHECK(attn::find_kernel("nope") == nullptr);
  CHECK(attn::find_kernel("") == nullptr);
  CHECK(attn::find_kernel(std::string(kernels.front().name) + "x") == nullptr);
}

TEST_CASE("kernel registry: names are derived from each entry's backend and shape", "[kernels]") {
  // The names the benchmark and the JS API have always used, written out per backend.
  std::set<std::string> expected = {"attend__scalar_1x4", "attend__scalar_4x8",
                                    "attend__scalar_4x8_tiled256"};
#if !defined(ATTN_NO_SIMD) && defined(__wasm_simd128__)
  expected.insert({"attend__wasmsimd_1x4", "attend__wasmsimd_4x8", "attend__wasmsimd_4x8_tiled256"});
#elif !defined(ATTN_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
  expected.insert({"attend__sse2_1x4", "attend__sse2_4x8", "attend__sse2_4x8_tiled256"});
#elif !defined(ATTN_NO_SIMD) && (defined(__aarch64__) || defined(_M_ARM64))
  expected.insert({"attend__neon_1x4", "attend__neon_4x8", "attend__neon_4x8_tiled256"});
#endif
  std::set<std::string> names;
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) {
    INFO("kernel " << kernel.name);
    names.insert(kernel.name);
    const std::string isa = kernel.isa;
    CHECK(kernel.simd == (isa != "scalar"));
    const std::string tag = isa == "wasm-simd128" ? "wasmsimd" : isa;
    std::string derived = "attend__" + tag + "_" + std::to_string(kernel.query_rows) + "x" +
                          std::to_string(kernel.output_columns);
    if (kernel.tile_keys != 0) derived += "_tiled" + std::to_string(kernel.tile_keys);
    CHECK(derived == kernel.name);
    // One query row over one vector of keys, or 4 rows × 8 columns blocked.
    CHECK(((kernel.query_rows == 1 && kernel.output_columns == kernel.vector_width) ||
           (kernel.query_rows == 4 && kernel.output_columns == 8)));
  }
  CHECK(names == expected);
}

TEST_CASE("kernel registry: the default is chosen by the entries' properties", "[kernels]") {
  // The rule, restated from the kernels' properties: the SIMD backend if there is one (else
  // the scalar one), then by shape: one row below 12 tokens or when head_dim is not a multiple
  // of 4; else blocked, tiled from T·d = 2^20 on.
  std::string backend = "scalar";
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    if (kernel.simd) backend = kernel.isa;
  for (std::size_t T : {1u, 11u, 12u, 13u, 1000u, 16383u, 16384u, 20000u})
    for (std::size_t d : {1u, 4u, 6u, 8u, 64u, 65u, 68u}) {
      const attn::KernelInfo& kernel = attn::default_kernel(T, d);
      INFO("T " << T << ", d " << d << ": " << kernel.name);
      CHECK(kernel.isa == backend);
      const bool blocked = T >= 12 && d % 4 == 0;
      CHECK(kernel.query_rows == (blocked ? 4u : 1u));
      const bool tiled = blocked && T * d >= (std::size_t{1} << 20);
      CHECK(kernel.tile_keys == (tiled ? 256u : 0u));
    }
}

TEST_CASE("kernel registry: the SIMD backend of this platform is compiled in and the default",
          "[kernels]") {
  const auto has_isa = [](const char* isa) {
    for (const attn::KernelInfo& kernel : attn::kernel_registry())
      if (std::string(kernel.isa) == isa) return true;
    return false;
  };
  const std::string default_isa = attn::default_kernel(64, 64).isa;
  INFO("default kernel " << attn::default_kernel(64, 64).name);
#if defined(ATTN_NO_SIMD)
  CHECK(attn::kernel_registry().size() == 3);
  CHECK(default_isa == "scalar");
#elif defined(__wasm_simd128__)
  CHECK(has_isa("wasm-simd128"));
  CHECK(default_isa == "wasm-simd128");
#elif defined(__EMSCRIPTEN__)
  FAIL("wasm tests must be compiled with -msimd128, or the wasm-simd128 kernel goes untested");
#elif defined(__SSE2__) || defined(_M_X64)
  CHECK(has_isa("sse2"));
  CHECK(default_isa == "sse2");
#elif defined(__aarch64__) || defined(_M_ARM64)
  CHECK(has_isa("neon"));
  CHECK(default_isa == "neon");
#else
  CHECK(default_isa == "scalar");
#endif
}

TEST_CASE("kernel registry: the default kernel fits the shape", "[kernels]") {
  const auto name_of = [](std::size_t T, std::size_t d) {
    return std::string(attn::default_kernel(T, d).name);
  };
  const auto ends_with = [](const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  CHECK(ends_with(name_of(2, 4), "_1x4"));         // tiny T: one row at a time
  CHECK(ends_with(name_of(256, 64), "_4x8"));      // register-blocked
  CHECK(ends_with(name_of(8192, 64), "_4x8"));     // packed keys and values: 4 MiB
  CHECK(ends_with(name_of(16384, 64), "_tiled256"));  // from T·d = 2^20: tiled online softmax
  CHECK(ends_with(name_of(8192, 128), "_tiled256"));
  CHECK(ends_with(name_of(256, 6), "_1x4"));       // head_dim not a multiple of 4
  for (std::size_t T : {1u, 3u, 8u, 100u, 5000u})
    for (std::size_t d : {1u, 3u, 4u, 6u, 64u, 128u}) {
      const attn::KernelInfo& kernel = attn::default_kernel(T, d);
      INFO("T " << T << ", d " << d << ": " << kernel.name);
      CHECK(kernel.supports(T, d));
      CHECK(attn::find_kernel(kernel.name) == &kernel);
    }
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    if (kernel.tile_keys != 0 || std::string(kernel.name).find("4x8") != std::string::npos) {
      INFO(kernel.name);
      CHECK_FALSE(kernel.supports(16, 6));  // the blocked kernels need head_dim % 4 == 0
      CHECK(kernel.supports(16, 12));
    }
}

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

TEST_CASE("kernels: a value out of range is refused wherever it lies", "[kernels]") {
  for (const attn::KernelInfo& kernel : attn::kernel_registry()) check_refusals(kernel);
  check_refusals(small_schedule<attn::vec::ScalarF32x4, 8, 0>("8-row groups, untiled"));
  check_refusals(small_schedule<attn::vec::ScalarF32x4, 8, 12>("8-row groups, 12-key tiles"));
}
