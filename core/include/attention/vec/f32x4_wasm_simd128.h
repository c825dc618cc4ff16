// The vector vocabulary on WebAssembly SIMD128 (compiled with -msimd128).
#pragma once

#include <cstddef>
#include <wasm_simd128.h>

namespace attn::vec {

struct WasmSimd128F32x4 {
  using Reg = v128_t;
  static constexpr std::size_t width = 4;
  static constexpr const char* isa = "wasm-simd128";

  static Reg zero() { return wasm_f32x4_splat(0.0f); }
  static Reg splat(float x) { return wasm_f32x4_splat(x); }
  static Reg load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, Reg a) { wasm_v128_store(p, a); }
  static Reg add(Reg a, Reg b) { return wasm_f32x4_add(a, b); }
  static Reg mul(Reg a, Reg b) { return wasm_f32x4_mul(a, b); }
  static Reg mul_add(Reg acc, Reg a, Reg b) { return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)); }
  static float reduce_add(Reg a) {
    return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 2)) +
           (wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 3));
  }
};

}  // namespace attn::vec
