// A layer of several heads in float64, written from the formulas: each head projects the token
// vectors x by its own W_Q, W_K and W_V, runs one head of attention (attention-f64.mjs), the
// heads' outputs are laid side by side, and the concatenation is mixed by W_O. The suites feed
// it the matrices an element shows and hold the element's other tables against it.

import { headF64, matmul } from './attention-f64.mjs';

/**
 * @param {{x: number[][], heads: {w_q: number[][], w_k: number[][], w_v: number[][]}[],
 *          w_o: number[][], mask?: string, scale?: string}} layer
 * @returns {{heads: {q, k, v, weights, out}[], concat: number[][], out: number[][]}}
 */
export function multiHeadF64({ x, heads, w_o: wO, mask = 'causal', scale = 'sqrt_d' }) {
  const computed = heads.map(({ w_q: wQ, w_k: wK, w_v: wV }) => {
    const q = matmul(x, wQ);
    const k = matmul(x, wK);
    const v = matmul(x, wV);
    return { q, k, v, ...headF64({ q, k, v, mask, scale }) };
  });
  const concat = x.map((_, t) => computed.flatMap((head) => head.out[t]));
  return { heads: computed, concat, out: matmul(concat, wO) };
}
