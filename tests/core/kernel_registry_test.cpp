// The kernel registry: every entry's name, ISA and shape, lookup by name, and which kernel is
// the default for a shape on this platform (the SIMD backend compiled in, blocked and tiled
// kernels where the shape allows them).
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "attention/kernels/kernels.h"

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
