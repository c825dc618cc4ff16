// The vector vocabulary on x86 SSE2 (every x86-64 CPU has it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <emmintrin.h>

namespace attn::vec {

struct Sse2F32x4 {
  using Reg = __m128;
  static constexpr std::size_t width = 4;
  static constexpr const char* isa = "sse2";

  static Reg zero() { return _mm_setzero_ps(); }
  static Reg splat(float x) { return _mm_set1_ps(x); }
  static Reg load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, Reg a) { _mm_storeu_ps(p, a); }
  static Reg add(Reg a, Reg b) { return _mm_add_ps(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm_sub_ps(a, b); }
  static Reg max(Reg a, Reg b) { return _mm_max_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm_mul_ps(a, b); }
  static Reg mul_add(Reg acc, Reg a, Reg b) { return _mm_add_ps(acc, _mm_mul_ps(a, b)); }
  static float reduce_add(Reg a) {
    const Reg high = _mm_movehl_ps(a, a);            // lanes 2, 3
    const Reg pairs = _mm_add_ps(a, high);           // 0+2, 1+3
    const Reg odd = _mm_shuffle_ps(pairs, pairs, 1); // 1+3 in lane 0
    return _mm_cvtss_f32(_mm_add_ss(pairs, odd));
  }
  static void transpose4(Reg& a, Reg& b, Reg& c, Reg& d) { _MM_TRANSPOSE4_PS(a, b, c, d); }
  // The range check (see f32x4_wasm_simd128.h). SSE2 has no 32-bit max: seen collects, lane by
  // lane, whether a magnitude's bits exceeded the limit's (a signed compare is enough, the sign
  // bit being cleared).
  static Reg range_limit(float limit) {
    std::int32_t bits;
    std::memcpy(&bits, &limit, sizeof bits);
    return _mm_castsi128_ps(_mm_set1_epi32(bits));
  }
  static Reg range_note(Reg seen, Reg x, Reg limit) {
    const __m128i magnitude = _mm_and_si128(_mm_castps_si128(x), _mm_set1_epi32(0x7fffffff));
    const __m128i beyond = _mm_cmpgt_epi32(magnitude, _mm_castps_si128(limit));
    return _mm_or_ps(seen, _mm_castsi128_ps(beyond));
  }
  static bool range_within(Reg seen, Reg /*limit*/) { return _mm_movemask_ps(seen) == 0; }
  // cvtps2dq rounds to nearest even under the default MXCSR rounding mode; 2^n from the
  // biased exponent bits.
  static Reg round_with_pow2(Reg t, Reg& pow2) {
    const __m128i n = _mm_cvtps_epi32(t);
    pow2 = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(n, _mm_set1_epi32(127)), 23));
    return _mm_cvtepi32_ps(n);
  }
};

}  // namespace attn::vec
