// The building blocks of the fast kernels, per backend of the vector vocabulary (the portable
// scalar one and the SIMD one this build targets): the 4×4 transpose, rounding, 2^n and the
// softmax's e^x against float64.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "attention/kernels/vec/f32x4_scalar.h"
#include "kernels/simd_backend.h"
#include "kernels/vec_exp.h"

namespace {

template <class V>
std::vector<float> lanes(typename V::Reg reg) {
  std::vector<float> out(4);
  V::store(out.data(), reg);
  return out;
}

// e^x for four values at a time, through the backend.
template <class V>
std::vector<float> exp_of(const std::vector<float>& x) {
  std::vector<float> out(x.size());
  for (std::size_t i = 0; i < x.size(); i += 4)
    V::store(out.data() + i, attn::detail::exp_nonpositive<V>(V::load(x.data() + i)));
  return out;
}

template <class V>
void check_backend() {
  INFO("backend " << V::isa);

  // transpose4: rows become columns.
  float m[16];
  for (int i = 0; i < 16; ++i) m[i] = static_cast<float>(i);
  auto a = V::load(m), b = V::load(m + 4), c = V::load(m + 8), d = V::load(m + 12);
  V::transpose4(a, b, c, d);
  CHECK(lanes<V>(a) == std::vector<float>{0, 4, 8, 12});
  CHECK(lanes<V>(b) == std::vector<float>{1, 5, 9, 13});
  CHECK(lanes<V>(c) == std::vector<float>{2, 6, 10, 14});
  CHECK(lanes<V>(d) == std::vector<float>{3, 7, 11, 15});

  // round_with_pow2: on [-126, 126] (every exponent of a normal float, ties, near-ties and
  // fractions), an integer n within 1/2 of t, and exactly 2^n beside it.
  std::vector<float> ts;
  for (int i = -126 * 8; i <= 126 * 8; ++i) ts.push_back(static_cast<float>(i) / 8.0f);
  for (float near_tie : {-125.50001f, -0.49999997f, 0.49999997f, 2.5000002f, -1e-30f, -0.0f})
    ts.push_back(near_tie);
  while (ts.size() % 4) ts.push_back(126.0f);
  for (std::size_t i = 0; i < ts.size(); i += 4) {
    typename V::Reg pow2;
    const std::vector<float> n = lanes<V>(V::round_with_pow2(V::load(&ts[i]), pow2));
    const std::vector<float> p = lanes<V>(pow2);
    for (std::size_t l = 0; l < 4; ++l) {
      INFO("t = " << ts[i + l]);
      CHECK(n[l] == std::nearbyint(n[l]));
      CHECK(std::fabs(static_cast<double>(ts[i + l]) - n[l]) <= 0.5);
      CHECK(p[l] == std::ldexp(1.0f, static_cast<int>(n[l])));
    }
  }

  // e^x on [-86.9, 0] (above the clamp): relative error within 2.5e-7 + |x|·1e-7 of float64
  // (the polynomial's 9e-8 plus a few roundings, and the rounding of t = x·log2(e)), so the
  // absolute error stays below 2e-7 (about two float steps of 1) everywhere.
  std::vector<float> x;
  for (int i = 0; i <= 200000; ++i) x.push_back(-86.9f * static_cast<float>(i) / 200000.0f);
  for (float special : {-0.0f, -1e-30f, -1e-7f, -0.5f, -0.6931472f, -1.0f, -10.0f, -86.9f})
    x.push_back(special);
  while (x.size() % 4) x.push_back(0.0f);
  const std::vector<float> e = exp_of<V>(x);
  double worst_relative = 0.0, worst_absolute = 0.0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp(static_cast<double>(x[i]));
    const double error = std::fabs(e[i] - exact);
    worst_relative = std::max(worst_relative, error / exact);
    worst_absolute = std::max(worst_absolute, error);
    if (!(error <= (2.5e-7 + std::fabs(x[i]) * 1e-7) * exact)) ++bad;
  }
  INFO("worst relative error " << worst_relative << ", worst absolute " << worst_absolute);
  CHECK(bad == 0);
  CHECK(worst_absolute < 2e-7);
  CHECK(exp_of<V>({0.0f, -0.0f, 0.0f, 0.0f}) == std::vector<float>{1, 1, 1, 1});

  // Below the clamp, and -infinity (a hidden key): a tiny normal value, never NaN or 0 / 0.
  const float inf = std::numeric_limits<float>::infinity();
  for (float v : exp_of<V>({-88.0f, -1e4f, -1e30f, -inf})) {
    CHECK(v > 0.0f);
    CHECK(v >= std::numeric_limits<float>::min());
    CHECK(v < 3e-38f);
  }
}

}  // namespace

TEST_CASE("vector vocabulary: transpose, rounding, 2^n and e^x, scalar backend", "[vector]") {
  check_backend<attn::vec::ScalarF32x4>();
}

#if defined(ATTN_SIMD_BACKEND)
TEST_CASE("vector vocabulary: transpose, rounding, 2^n and e^x, SIMD backend", "[vector]") {
  check_backend<attn::ATTN_SIMD_BACKEND>();
}
#endif
