// core-loader.js: finds and instantiates the compiled core. The one module that imports the
// compiler's generated glue (web/generated/, written by the wasm build and not committed), so
// that the location of the generated files is said in one place. A production build keeps this
// file as it is (not inlined into a bundle), so the relative paths below hold there too.

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

// The builds of the core, each imported only when first asked for:
//   simd    everything, with the wasm SIMD128 kernels (the default)
//   scalar  the same without SIMD, which the benchmark measures against it
//   embed   the trace and the article only, built for size: what the embeddable elements load,
//           so that a page embedding them downloads no more than it uses
// The import specifiers are literal so that bundlers and servers can see every file. The
// full builds are bound with Embind; the embed build exports plain C functions (`bound`).
export const CORE_BUILDS = {
  simd: { factory: () => import('../generated/attention-core.js'), wasm: 'attention-core.wasm' },
  scalar: { factory: () => import('../generated/attention-core-scalar.js'), wasm: 'attention-core-scalar.wasm' },
  embed: { factory: () => import('../generated/attention-core-embed.js'), wasm: 'attention-core-embed.wasm', bound: embedCalls },
};

// The embed build's C exports (bindings/embed_exports.cpp) under the names and shapes of the
// Embind builds' functions, so that the API above them is one: a request is copied into the
// module's memory as UTF-8 for the call and freed after it, and the answer is decoded from the
// core's buffer, which stays valid until the next call. HEAPU8 is read after each call because
// a call may grow the memory, which replaces the view.
function embedCalls(module) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const answer = () => {
    const start = module._attn_answer_data();
    return decoder.decode(module.HEAPU8.subarray(start, start + module._attn_answer_length()));
  };
  const withRequest = (call) => (text) => {
    const bytes = encoder.encode(text);
    const at = module._malloc(bytes.length + 1);
    if (at === 0) throw new Error('The attention core is out of memory for this request.');
    module.HEAPU8.set(bytes, at);
    let ok;
    try {
      ok = call(at, bytes.length) === 1;
    } finally {
      module._free(at);
    }
    const said = answer();
    return ok ? { ok, json: said, error: '' } : { ok, json: '', error: said };
  };
  const withoutRequest = (call) => () => {
    call();
    return answer();
  };
  return {
    traceJson: withRequest(module._attn_trace_json),
    nextWordJson: withRequest(module._attn_next_word_json),
    articleJson: withoutRequest(module._attn_article_json),
    vocabularyJson: withoutRequest(module._attn_vocabulary_json),
  };
}

// tracer() and trainer() live in modules of their own, imported with the builds that have them
// (not the embed build), so that the bundle the embeddable elements load does not carry them.
let fullBuildModules = null;
/** Resolves to { createTracer, createTrainer }. */
export function loadFullBuildModules() {
  fullBuildModules ??= Promise.all([import('./attention-tracer.js'), import('./trainer.js')])
    .then(([tracer, trainer]) => ({ createTracer: tracer.createTracer, createTrainer: trainer.createTrainer }))
    .catch((error) => {
      fullBuildModules = null;  // a later call may try again
      throw error;
    });
  return fullBuildModules;
}

/** Resolves to the instantiated module of one build ("simd", "scalar" or "embed"). */
export async function loadCore(build) {
  if (typeof WebAssembly !== 'object') {
    throw new Error('WebAssembly is not available here, so the attention core cannot run.');
  }
  const { factory, wasm, bound = (module) => module } = CORE_BUILDS[build];
  const createModule = (await factory()).default;
  if (isNode) {
    // The module is built for browsers (it finds its .wasm through import.meta.url and fetch);
    // Node is handed the bytes instead.
    const { readFile } = await import('node:fs/promises');
    const wasmBinary = await readFile(new URL(`../generated/${wasm}`, import.meta.url));
    return bound(await createModule({ wasmBinary }));
  }
  return bound(await createModule());
}
