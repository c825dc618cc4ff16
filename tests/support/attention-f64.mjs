// Attention in float64, written from the formulas, for the suites to hold the core's float32
// numbers against.

export const dot = (a, b) => a.reduce((sum, x, c) => sum + x * b[c], 0);
export const matmul = (a, b) => a.map((row) => b[0].map((_, c) => row.reduce((sum, x, m) => sum + x * b[m][c], 0)));
export const transpose = (m) => m[0].map((_, c) => m.map((row) => row[c]));

// With the row maximum subtracted, so large scores do not overflow.
export function softmax(x) {
  const max = Math.max(...x);
  const e = x.map((value) => Math.exp(value - max));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((value) => value / total);
}

// softmax(mask(q kᵀ / divisor)) v with the FAQ's variants: mask "causal" (hidden cells
// -Infinity), "none" or "causal_zero" (hidden cells 0); scale "sqrt_d" (÷ √d), "d" or "none".
export function headF64({ q, k, v, mask = 'causal', scale = 'sqrt_d' }) {
  const d = q[0].length;
  const divisor = scale === 'd' ? d : scale === 'none' ? 1 : Math.sqrt(d);
  const hidden = mask === 'causal_zero' ? 0 : -Infinity;
  const scores = q.map((qi) => k.map((kj) => dot(qi, kj)));
  const scaled = scores.map((row) => row.map((s) => s / divisor));
  const masked = scaled.map((row, i) => row.map((s, j) => (mask !== 'none' && j > i ? hidden : s)));
  const weights = masked.map(softmax);
  const out = weights.map((w) => v[0].map((_, c) => w.reduce((sum, wj, j) => sum + wj * v[j][c], 0)));
  return { divisor, scores, scaled, masked, weights, out };
}

// headF64's out for flat row-major q, k, v of t rows of d (as attend() takes them), flat too.
export function attendF64(q, k, v, t, d, mask) {
  const rows = (flat) => Array.from({ length: t }, (_, i) => Array.from({ length: d }, (_, c) => flat[i * d + c]));
  return Float64Array.from(headF64({ q: rows(q), k: rows(k), v: rows(v), mask }).out.flat());
}
