// e^x for x <= 0 on the vector vocabulary: the softmax of the fast kernels only ever
// exponentiates x - row_max. Cephes' expf scheme: x = n·ln2 + r with |r| <= ln2/2, a degree-6
// polynomial for e^r, and 2^n from the exponent bits. Relative error about 2e-7 (a couple of
// float ulps), checked against float64 by the kernel tests. Inputs below -87 are clamped there:
// e^-87 ≈ 1.6e-38 is the smallest value whose 2^n is still a normal float, and a weight that
// small next to e^0 = 1 is zero at float precision anyway.
#pragma once

namespace attn::detail {

template <class V>
typename V::Reg exp_nonpositive(typename V::Reg x) {
  x = V::max(x, V::splat(-87.0f));
  const typename V::Reg n = V::round_nearest(V::mul(x, V::splat(1.44269504088896341f)));  // x/ln2
  // r = x - n·ln2, with ln2 split in two so that n·ln2_high is exact.
  typename V::Reg r = V::sub(x, V::mul(n, V::splat(0.693359375f)));
  r = V::sub(r, V::mul(n, V::splat(-2.12194440e-4f)));
  typename V::Reg p = V::splat(1.9875691500e-4f);
  p = V::mul_add(V::splat(1.3981999507e-3f), p, r);
  p = V::mul_add(V::splat(8.3334519073e-3f), p, r);
  p = V::mul_add(V::splat(4.1665795894e-2f), p, r);
  p = V::mul_add(V::splat(1.6666665459e-1f), p, r);
  p = V::mul_add(V::splat(5.0000001201e-1f), p, r);
  // e^r ≈ 1 + r + r²·p(r)
  const typename V::Reg e_r = V::add(V::add(V::splat(1.0f), r), V::mul(V::mul(r, r), p));
  return V::mul(e_r, V::pow2_integral(n));
}

}  // namespace attn::detail
