// e^x for x <= 0 on the vector vocabulary: the softmax of the fast kernels only ever
// exponentiates x - row_max. Computed as 2^t with t = x·log2(e) = n + f, n the nearest integer
// and |f| <= 1/2: 2^f ≈ 1 + f·p(f) with p of degree 4 (a minimax fit of the relative error:
// 9e-8 in exact arithmetic, 2.1e-7 in float on [-1, 0]) and 2^n from the exponent bits.
// Seventeen vector operations per four values on SIMD128. A degree more (Cephes' exp2f, 1.4e-7
// in float) costs two more and made whole calls 1.5 % slower at T = 256, d = 64, for an error
// that stays below the rounding of the sums around it: the total of a row and its weighted sum
// of V each add about one float step per term.
//
// Rounding t to a float first adds a relative error of about |x|·6e-8, which is only large
// where e^x is small (|x|·e^x·6e-8 is at most 2.2e-8, at x = -1): the absolute error stays
// within about 1.3e-7 for every x, since the row's largest term is e^0 = 1 exactly. t is
// clamped at -125.5, where 2^t is still a normal float (e^x ≈ 2e-38 there: zero next to 1 at
// float precision); -infinity (a hidden key) lands there too, never on NaN.
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
  Reg p = V::splat(1.32647087923898e-3f);  // minimax on [-1/2, 1/2], Lawson's algorithm
  p = V::mul_add(V::splat(9.671511471155584e-3f), p, f);
  p = V::mul_add(V::splat(5.550733776472555e-2f), p, f);
  p = V::mul_add(V::splat(2.4022242103979047e-1f), p, f);
  p = V::mul_add(V::splat(6.931469775940139e-1f), p, f);
  // 2^f ≈ 1 + f·p(f)
  return V::mul(V::mul_add(V::splat(1.0f), f, p), pow2_n);
}

}  // namespace attn::detail
