// onnxruntime-web on its WebAssembly backend, one thread, two graphs: the fused `Attention`
// operator (opset 23, is_causal) and the MatMul / Softmax / MatMul graph a model exporter emits.
// The caller passes the loaded `ort` module (Node and browsers load it differently) and must set
// ort.env.wasm.wasmPaths to local files before the first session.

import { decomposedAttentionModel, fusedAttentionModel } from '../onnx-model.mjs';

export const ORT_FUSED_ID = 'ort-fused';
export const ORT_DECOMPOSED_ID = 'ort-decomposed';

function ortContender(ort, { id, label, makeModel, shapeOf }) {
  return {
    id,
    label: `onnxruntime-web ${ort.env.versions?.web ?? ''}, ${label}`.replace(/ ,/, ','),
    group: 'peer',
    sync: false,
    facts: { version: ort.env.versions?.web, threads: ort.env.wasm.numThreads },
    supports: ({ t }) => t <= 8192 || 'peers run up to T = 8192',
    async prepare({ t, d, mask }) {
      const session = await ort.InferenceSession.create(makeModel({ t, d, causal: mask === 'causal' }), {
        executionProviders: ['wasm'],
      });
      const dims = shapeOf(t, d);
      return {
        async call(q, k, v) {
          const outputs = await session.run({
            q: new ort.Tensor('float32', q, dims),
            k: new ort.Tensor('float32', k, dims),
            v: new ort.Tensor('float32', v, dims),
          });
          return outputs.y.data;
        },
        dispose: () => session.release(),
      };
    },
  };
}

/** Both onnxruntime-web contenders; sets the single-thread flag before any session exists. */
export function onnxruntimeContenders(ort) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  return [
    ortContender(ort, {
      id: ORT_FUSED_ID,
      label: 'fused Attention op (opset 23, is_causal)',
      makeModel: fusedAttentionModel,
      shapeOf: (t, d) => [1, 1, t, d],
    }),
    ortContender(ort, {
      id: ORT_DECOMPOSED_ID,
      label: 'MatMul/Softmax/MatMul graph, additive mask',
      makeModel: decomposedAttentionModel,
      shapeOf: (t, d) => [t, d],
    }),
  ];
}
