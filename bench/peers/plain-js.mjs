// The baseline a newcomer writes first: attention as plain JavaScript loops over Float32Arrays
// (numbers are doubles while computed, stored as float32), no SIMD, no WebAssembly.

/** softmax(mask(q kᵀ / √d)) v, row by row; `scores` is scratch of at least t floats. */
export function plainAttention(q, k, v, t, d, mask, out = new Float32Array(t * d), scores = new Float32Array(t)) {
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < t; i += 1) {
    const visible = mask === 'causal' ? i + 1 : t;
    const qRow = i * d;
    let max = -Infinity;
    for (let j = 0; j < visible; j += 1) {
      const kRow = j * d;
      let dot = 0;
      for (let c = 0; c < d; c += 1) dot += q[qRow + c] * k[kRow + c];
      const score = dot * scale;
      scores[j] = score;
      if (score > max) max = score;
    }
    let total = 0;
    for (let j = 0; j < visible; j += 1) {
      const e = Math.exp(scores[j] - max);
      scores[j] = e;
      total += e;
    }
    out.fill(0, qRow, qRow + d);
    for (let j = 0; j < visible; j += 1) {
      const weight = scores[j] / total;
      const vRow = j * d;
      for (let c = 0; c < d; c += 1) out[qRow + c] += weight * v[vRow + c];
    }
  }
  return out;
}

export const PLAIN_JS_ID = 'plain-js';

/** The plain-JS contender: a fresh output per call, like every other implementation. */
export function plainJsContender() {
  return {
    id: PLAIN_JS_ID,
    label: 'plain JS (Float32Array loops)',
    group: 'peer',
    sync: true,
    facts: { threads: 1 },
    supports: ({ t }) => t <= 8192 || 'plain JS runs up to T = 8192',
    async prepare({ t, d, mask }) {
      const scores = new Float32Array(t);
      return {
        call: (q, k, v) => plainAttention(q, k, v, t, d, mask, new Float32Array(t * d), scores),
        dispose() {},
      };
    },
  };
}
