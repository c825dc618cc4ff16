// The vector vocabulary on ARM NEON (every AArch64 CPU has it).
#pragma once

#include <arm_neon.h>
#include <cstddef>

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
  static Reg mul(Reg a, Reg b) { return vmulq_f32(a, b); }
  static Reg mul_add(Reg acc, Reg a, Reg b) { return vaddq_f32(acc, vmulq_f32(a, b)); }
  static float reduce_add(Reg a) {
    const float32x2_t pairs = vadd_f32(vget_low_f32(a), vget_high_f32(a));  // 0+2, 1+3
    return vget_lane_f32(vpadd_f32(pairs, pairs), 0);
  }
};

}  // namespace attn::vec
