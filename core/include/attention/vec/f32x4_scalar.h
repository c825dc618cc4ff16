// The vector vocabulary in plain C++: four floats, element by element. The fallback every
// platform has, and the model the SIMD backends must agree with.
#pragma once

#include <cstddef>

namespace attn::vec {

struct ScalarF32x4 {
  struct Reg {
    float lane[4];
  };
  static constexpr std::size_t width = 4;
  static constexpr const char* isa = "scalar";

  static Reg zero() { return Reg{{0.0f, 0.0f, 0.0f, 0.0f}}; }
  static Reg splat(float x) { return Reg{{x, x, x, x}}; }
  static Reg load(const float* p) { return Reg{{p[0], p[1], p[2], p[3]}}; }
  static void store(float* p, Reg a) {
    for (std::size_t l = 0; l < 4; ++l) p[l] = a.lane[l];
  }
  static Reg add(Reg a, Reg b) {
    for (std::size_t l = 0; l < 4; ++l) a.lane[l] += b.lane[l];
    return a;
  }
  static Reg mul(Reg a, Reg b) {
    for (std::size_t l = 0; l < 4; ++l) a.lane[l] *= b.lane[l];
    return a;
  }
  // acc + a * b, rounded twice like the SIMD backends (wasm has no fused multiply-add).
  static Reg mul_add(Reg acc, Reg a, Reg b) { return add(acc, mul(a, b)); }
  static float reduce_add(Reg a) { return (a.lane[0] + a.lane[2]) + (a.lane[1] + a.lane[3]); }
};

}  // namespace attn::vec
