// The vector vocabulary on WebAssembly SIMD128 (compiled with -msimd128).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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
  static Reg sub(Reg a, Reg b) { return wasm_f32x4_sub(a, b); }
  // pmax: a < b ? b : a, one instruction (f32x4.max also orders NaN and -0, at a cost).
  static Reg max(Reg a, Reg b) { return wasm_f32x4_pmax(a, b); }
  static Reg mul(Reg a, Reg b) { return wasm_f32x4_mul(a, b); }
  static Reg mul_add(Reg acc, Reg a, Reg b) { return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)); }
  static float reduce_add(Reg a) {
    return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 2)) +
           (wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 3));
  }
  static void transpose4(Reg& a, Reg& b, Reg& c, Reg& d) {
    const Reg ab_low = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5);   // a0 b0 a1 b1
    const Reg ab_high = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);  // a2 b2 a3 b3
    const Reg cd_low = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5);
    const Reg cd_high = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
    a = wasm_i32x4_shuffle(ab_low, cd_low, 0, 1, 4, 5);        // a0 b0 c0 d0
    b = wasm_i32x4_shuffle(ab_low, cd_low, 2, 3, 6, 7);
    c = wasm_i32x4_shuffle(ab_high, cd_high, 0, 1, 4, 5);
    d = wasm_i32x4_shuffle(ab_high, cd_high, 2, 3, 6, 7);
  }
  // Adding 1.5·2²³ + 127 rounds t to an integer n (floats near 1.5·2²³ are one apart) and leaves
  // n + 127, the biased exponent of 2^n, in the sum's low mantissa bits: shifted left by 23 they
  // are 2^n, and subtracting the constant again gives n. Three instructions, where rounding
  // (f32x4.nearest) and i32x4.trunc_sat_f32x4 (five on x64: it handles NaN and overflow, which
  // n never is) took six. The sum's own rounding sends a tie to the odd side: n is still
  // within 1/2 of t, all e^x needs.
  // The range check of values as they are loaded: seen starts at zero(), range_note folds in x,
  // range_within says whether every x noted was within ±limit (NaN never is). Here seen is the
  // unsigned max of the magnitudes' bit patterns, which order like the magnitudes, with every
  // NaN above infinity: two instructions per vector.
  static Reg range_limit(float limit) {
    std::uint32_t bits;
    std::memcpy(&bits, &limit, sizeof bits);
    return wasm_i32x4_splat(static_cast<std::int32_t>(bits));
  }
  static Reg range_note(Reg seen, Reg x, Reg /*limit*/) {
    return wasm_u32x4_max(seen, wasm_v128_and(x, wasm_i32x4_splat(0x7fffffff)));
  }
  static bool range_within(Reg seen, Reg limit) {
    return wasm_i32x4_all_true(wasm_u32x4_le(seen, limit));
  }
  static Reg round_with_pow2(Reg t, Reg& pow2) {
    constexpr float magic = 12583039.0f;  // 1.5 · 2^23 + 127, bits 0x4B40007F
    const v128_t shifted = wasm_f32x4_add(t, wasm_f32x4_splat(magic));
    pow2 = wasm_i32x4_shl(shifted, 23);
    return wasm_f32x4_sub(shifted, wasm_f32x4_splat(magic));
  }
};

}  // namespace attn::vec
