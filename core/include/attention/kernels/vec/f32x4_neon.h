// The vector vocabulary on ARM NEON as AArch64 has it (every AArch64 CPU does). AArch64 only:
// vzip1q/vzip2q_f32 and vmaxvq_u32 do not exist on 32-bit ARM, and vcvtnq_s32_f32 needs ARMv8
// (simd_backend.h selects this backend only on AArch64).
#pragma once

#include <arm_neon.h>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attn::vec {

struct NeonF32x4 {
  using Reg = float32x4_t;
  static constexpr std::size_t width = 4;
  static constexpr const char* isa = "neon";

  static Reg zero() { return vdupq_n_f32(0.0f); }
  static Reg splat(float x) { return vdupq_n_f32(x); }
  static Reg load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, Reg a) { vst1q_f32(p, a); }
  static Reg add(Reg a, Reg b) { return vaddq_f32(a, b); }
  static Reg sub(Reg a, Reg b) { return vsubq_f32(a, b); }
  static Reg max(Reg a, Reg b) { return vmaxq_f32(a, b); }
  static Reg mul(Reg a, Reg b) { return vmulq_f32(a, b); }
  static Reg mul_add(Reg acc, Reg a, Reg b) { return vaddq_f32(acc, vmulq_f32(a, b)); }
  static float reduce_add(Reg a) {
    const float32x2_t pairs = vadd_f32(vget_low_f32(a), vget_high_f32(a));  // 0+2, 1+3
    return vget_lane_f32(vpadd_f32(pairs, pairs), 0);
  }
  static void transpose4(Reg& a, Reg& b, Reg& c, Reg& d) {
    const Reg ab_low = vzip1q_f32(a, b), ab_high = vzip2q_f32(a, b);  // a0 b0 a1 b1, a2 b2 a3 b3
    const Reg cd_low = vzip1q_f32(c, d), cd_high = vzip2q_f32(c, d);
    a = vcombine_f32(vget_low_f32(ab_low), vget_low_f32(cd_low));      // a0 b0 c0 d0
    b = vcombine_f32(vget_high_f32(ab_low), vget_high_f32(cd_low));
    c = vcombine_f32(vget_low_f32(ab_high), vget_low_f32(cd_high));
    d = vcombine_f32(vget_high_f32(ab_high), vget_high_f32(cd_high));
  }
  // The range check (see f32x4_wasm_simd128.h): the unsigned max of the magnitudes' bits.
  static Reg range_limit(float limit) {
    std::uint32_t bits;
    std::memcpy(&bits, &limit, sizeof bits);
    return vreinterpretq_f32_u32(vdupq_n_u32(bits));
  }
  static Reg range_note(Reg seen, Reg x, Reg /*limit*/) {
    return vreinterpretq_f32_u32(vmaxq_u32(
        vreinterpretq_u32_f32(seen), vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x7fffffff))));
  }
  static bool range_within(Reg seen, Reg limit) {
    return vmaxvq_u32(vreinterpretq_u32_f32(seen)) <= vgetq_lane_u32(vreinterpretq_u32_f32(limit), 0);
  }
  // fcvtns rounds to nearest even; 2^n from the biased exponent bits.
  static Reg round_with_pow2(Reg t, Reg& pow2) {
    const int32x4_t n = vcvtnq_s32_f32(t);
    pow2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n, vdupq_n_s32(127)), 23));
    return vcvtq_f32_s32(n);
  }
};

}  // namespace attn::vec
