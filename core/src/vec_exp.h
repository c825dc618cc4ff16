// e^x for x <= 0 on the vector vocabulary: the softmax of the fast kernels only ever
// exponentiates x - row_max. Computed as 2^t with t = x·log2(e) = n + f, n the nearest integer
// and |f| <= 1/2: 2^f from Cephes' exp2f polynomial (relative error about 1.5e-7 there) and 2^n
// from the exponent bits. Nineteen vector operations per four values on SIMD128.
//
// Rounding t to a float first adds a relative error of about |x|·6e-8, which is only large
// where e^x is small (|x|·e^x·6e-8 is at most 2.2e-8, at x = -1): the absolute error stays
// within about 1e-7 for every x, far inside what a softmax weight needs, since the row's
// largest term is e^0 = 1 exactly. t is clamped at -125.5, where 2^t is still a normal float (e^x ≈ 2e-38 there: zero
// next to 1 at float precision); -infinity (a hidden key) lands there too, never on NaN.
// The kernel tests and tests/core/vector_test.cpp check it against float64.
#pragma once

namespace attn::detail {

template <class V>
typename V::Reg exp_nonpositive(typename V::Reg x) {
  using Reg = typename V::Reg;
  const Reg t = V::max(V::mul(x, V::splat(1.44269504088896341f)), V::splat(-125.5f));
  Reg pow2_n;
  const Reg n = V::round_with_pow2(t, pow2_n);
  const Reg f = V::sub(t, n);  // exact: t and n are within 1/2 of each other
  Reg p = V::splat(1.535336188319500e-4f);
  p = V::mul_add(V::splat(1.339887440266574e-3f), p, f);
  p = V::mul_add(V::splat(9.618437357674640e-3f), p, f);
  p = V::mul_add(V::splat(5.550332471162809e-2f), p, f);
  p = V::mul_add(V::splat(2.402264791363012e-1f), p, f);
  p = V::mul_add(V::splat(6.931472028550421e-1f), p, f);
  // 2^f ≈ 1 + f·p(f)
  return V::mul(V::mul_add(V::splat(1.0f), f, p), pow2_n);
}

}  // namespace attn::detail
