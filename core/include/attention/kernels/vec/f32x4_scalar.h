// The vector vocabulary in plain C++: four floats, element by element. The fallback every
// platform has, and the model the SIMD backends must agree with.
#pragma once

#include <cmath>
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
  static Reg sub(Reg a, Reg b) {
    for (std::size_t l = 0; l < 4; ++l) a.lane[l] -= b.lane[l];
    return a;
  }
  static Reg max(Reg a, Reg b) {
    for (std::size_t l = 0; l < 4; ++l) a.lane[l] = a.lane[l] > b.lane[l] ? a.lane[l] : b.lane[l];
    return a;
  }
  static Reg mul(Reg a, Reg b) {
    for (std::size_t l = 0; l < 4; ++l) a.lane[l] *= b.lane[l];
    return a;
  }
  // acc + a * b, rounded twice like the SIMD backends (wasm has no fused multiply-add).
  static Reg mul_add(Reg acc, Reg a, Reg b) { return add(acc, mul(a, b)); }
  static float reduce_add(Reg a) { return (a.lane[0] + a.lane[2]) + (a.lane[1] + a.lane[3]); }
  // Rows a, b, c, d of a 4×4 matrix become its columns: a = {a0, b0, c0, d0}, and so on.
  static void transpose4(Reg& a, Reg& b, Reg& c, Reg& d) {
    const Reg rows[4] = {a, b, c, d};
    Reg* columns[4] = {&a, &b, &c, &d};
    for (std::size_t col = 0; col < 4; ++col)
      for (std::size_t row = 0; row < 4; ++row) columns[col]->lane[row] = rows[row].lane[col];
  }
  // The range check of values as they are loaded: seen starts at zero(), range_note folds in x,
  // range_within says whether every x noted was within ±limit (NaN never is). Here a lane of
  // seen becomes 1 once a value beyond the limit passed.
  static Reg range_limit(float limit) { return splat(limit); }
  static Reg range_note(Reg seen, Reg x, Reg limit) {
    for (std::size_t l = 0; l < 4; ++l)
      if (!(std::fabs(x.lane[l]) <= limit.lane[l])) seen.lane[l] = 1.0f;
    return seen;
  }
  static bool range_within(Reg seen, Reg /*limit*/) {
    return seen.lane[0] == 0.0f && seen.lane[1] == 0.0f && seen.lane[2] == 0.0f &&
           seen.lane[3] == 0.0f;
  }
  // For t in [-126, 126]: returns n, t rounded to an integer (to nearest; a tie may go either
  // way), and sets pow2 = 2^n. The two halves of 2^t = 2^n · 2^(t - n).
  static Reg round_with_pow2(Reg t, Reg& pow2) {
    for (std::size_t l = 0; l < 4; ++l) {
      t.lane[l] = std::nearbyint(t.lane[l]);
      pow2.lane[l] = std::ldexp(1.0f, static_cast<int>(t.lane[l]));
    }
    return t;
  }
};

}  // namespace attn::vec
