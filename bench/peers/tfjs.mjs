// TensorFlow.js on its WebAssembly backend (XNNPACK), one thread, written the two ways people
// write it: matMul(q, k, false, true) — the transposeB flag a newcomer reaches for — and an
// explicit tf.transpose(k) followed by a plain matMul. The causal mask is an additive tensor made
// once per size, like a model's constant. The caller loads tfjs-core and the wasm backend, points
// the backend at local .wasm files and activates it (tf.setBackend('wasm')).

export const TFJS_TRANSPOSE_B_ID = 'tfjs-transposeB';
export const TFJS_TRANSPOSE_ID = 'tfjs-transpose';

function tfjsContender(tf, { id, label, explicitTranspose, version }) {
  return {
    id,
    label: `tfjs-backend-wasm ${version}, ${label}`,
    group: 'peer',
    sync: true,
    facts: { version, threads: tf.wasm?.getThreadsCount?.() ?? 1 },
    supports: ({ t }) => t <= 8192 || 'peers run up to T = 8192',
    heapBytes: () => tf.backend()?.wasm?.HEAPU8?.byteLength,
    async prepare({ t, d, mask }) {
      const scale = tf.scalar(1 / Math.sqrt(d));
      // 0 where token i may look at token j (j ≤ i), −∞ where it may not.
      const additiveMask = mask === 'causal'
        ? tf.tidy(() => tf.where(tf.cast(tf.linalg.bandPart(tf.ones([t, t]), -1, 0), 'bool'),
          tf.zeros([t, t]), tf.fill([t, t], -Infinity)))
        : null;
      return {
        call(q, k, v) {
          const y = tf.tidy(() => {
            const qt = tf.tensor2d(q, [t, d]);
            const kt = tf.tensor2d(k, [t, d]);
            const vt = tf.tensor2d(v, [t, d]);
            const scores = explicitTranspose ? tf.matMul(qt, tf.transpose(kt)) : tf.matMul(qt, kt, false, true);
            let scaled = tf.mul(scores, scale);
            if (additiveMask) scaled = tf.add(scaled, additiveMask);
            return tf.matMul(tf.softmax(scaled), vt);
          });
          const out = y.dataSync();
          y.dispose();
          return out;
        },
        dispose() {
          scale.dispose();
          additiveMask?.dispose();
        },
      };
    },
  };
}

/** Both tfjs contenders; `version` is the installed tfjs-backend-wasm version. */
export function tfjsContenders(tf, version = tf.version_wasm ?? tf.version?.['tfjs-backend-wasm'] ?? '') {
  if (tf.getBackend() !== 'wasm') throw new Error(`tfjs: the wasm backend is not active (got ${tf.getBackend()})`);
  return [
    tfjsContender(tf, { id: TFJS_TRANSPOSE_B_ID, label: 'matMul(q, k, false, true)', explicitTranspose: false, version }),
    tfjsContender(tf, { id: TFJS_TRANSPOSE_ID, label: 'transpose(k), then matMul', explicitTranspose: true, version }),
  ];
}
