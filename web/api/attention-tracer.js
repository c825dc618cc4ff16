// attention-tracer.js: attention.tracer(), the complete trace on typed arrays (see
// attention-api.js, which imports this module with the builds that have tracers, so that the
// embeddable elements' bundle does not carry it).
//
// Each tracer owns a workspace of one shape in the module's heap (bindings/trace_bindings.cpp).
// run() copies q, k and v into it, lets the core check them and compute every intermediate
// there, and hands back views of the core's own buffers: a call allocates nothing and converts
// no JSON.

import { DEFAULT_VARIANT, MASK_NAMES as masks, SCALE_NAMES as scales } from '../state/variant-names.js';

// masks and scales: in the order of the indices tracerRun takes (the core's vocabulary order).
const options = ['t', 'd', 'mask', 'scale'];

// The trace's arrays, under run()'s keys: [constructor, length in elements], row-major.
function traceShapes(t, d) {
  return {
    q: [Float32Array, t * d], k: [Float32Array, t * d], v: [Float32Array, t * d],
    score_terms: [Float32Array, t * t * d], scores: [Float32Array, t * t],
    scaled: [Float32Array, t * t], masked: [Float32Array, t * t], hidden: [Uint8Array, t * t],
    exponentials: [Float32Array, t * t], row_max: [Float32Array, t],
    row_shifted: [Uint8Array, t], row_totals: [Float32Array, t],
    weights: [Float32Array, t * t], weight_sums: [Float32Array, t],
    weighted_values: [Float32Array, t * t * d], out: [Float32Array, t * d],
  };
}

// A tracer its caller forgot to dispose() gives its workspace back once nothing can read it: the
// tracer, the object run() returns and every array view of the workspace are all collected
// (a view alone must not outlive the memory it shows, which would then be reused).
const forgotten = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((owner) => {
    owner.live -= 1;
    if (owner.live === 0) owner.core.tracerDispose(owner.id);
  })
  : null;

function choiceIndex(name, value, choices, describe) {
  const index = choices.indexOf(value);
  if (index < 0) {
    const listed = choices.map((choice) => `"${choice}"`);
    throw new Error(`${name}: must be ${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}, got ${describe(value)}`);
  }
  return index;
}

/**
 * attention.tracer(settings) over one loaded core (attention-api.js documents the method);
 * `describe` names a value in an error message as the rest of the API does.
 */
export function createTracer(core, settings, describe) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    throw new Error(`tracer: expects an object { t, d, mask, scale }, got ${describe(settings)}`);
  }
  for (const key of Object.keys(settings)) {
    if (!options.includes(key)) {
      const name = /^\w+$/u.test(key) ? key : describe(key);
      throw new Error(`${name}: is not an option of tracer(), which takes t, d, mask and scale`);
    }
  }
  const { t, d, mask = DEFAULT_VARIANT.mask, scale = DEFAULT_VARIANT.scale } = settings;
  for (const [name, value] of [['t', t], ['d', d]]) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`${name}: must be a positive integer, got ${describe(value)}`);
    }
    if (value > 0x7fffffff) throw new Error(`${name}: is ${value}, beyond any supported size`);
  }
  const maskIndex = choiceIndex('mask', mask, masks, describe);
  const scaleIndex = choiceIndex('scale', scale, scales, describe);
  const layout = core.tracerCreate(t, d);  // the core checks t and d against the trace's limits
  if (!layout.ok) throw new Error(layout.error);
  const { id } = layout;
  const n = t * d;
  const shapes = Object.entries(traceShapes(t, d));
  const divisorIndex = layout.scale_divisor / Float32Array.BYTES_PER_ELEMENT;

  // What run() returns, the same object every call. Its arrays are views of the workspace, made
  // again whenever the module's memory has grown (growing replaces the memory's ArrayBuffer and
  // detaches every view of the old one).
  const trace = { mask, scale, token_count: t, head_dim: d, scale_divisor: Number.NaN };
  let buffer = null;
  let disposed = false;
  const owner = { core, id, live: 0 };  // what the finalizer frees, and how many holders are left
  const token = {};                     // unregisters every holder at once on dispose()
  const hold = (object) => {
    if (!forgotten) return;
    owner.live += 1;
    forgotten.register(object, owner, token);
  };
  const viewHeap = () => {
    buffer = core.HEAPF32.buffer;
    for (const [key, [Type, length]] of shapes) hold(trace[key] = new Type(buffer, layout[key], length));
  };
  viewHeap();
  hold(trace);

  const checkArray = (name, array) => {
    if (!(array instanceof Float32Array)) {
      throw new Error(`${name}: must be a Float32Array of length t·d = ${n}, got ${describe(array)}`);
    }
    if (array.length !== n) {
      throw new Error(`${name}: has length ${array.length}; expected t·d = ${t} × ${d} = ${n}`);
    }
  };

  const tracer = {
    t, d, mask, scale,
    run(input) {
      if (disposed) throw new Error('tracer: disposed; create another with attention.tracer()');
      if (input === null || typeof input !== 'object') {
        throw new Error(`input: expects { q, k, v }, Float32Arrays of length t·d = ${n}, got ${describe(input)}`);
      }
      const { q, k, v } = input;
      checkArray('q', q);
      checkArray('k', k);
      checkArray('v', v);
      if (core.HEAPF32.buffer !== buffer) viewHeap();
      trace.q.set(q);
      trace.k.set(k);
      trace.v.set(v);
      const error = core.tracerRun(id, maskIndex, scaleIndex);  // checks every value first
      if (error) throw new Error(error);
      if (core.HEAPF32.buffer !== buffer) viewHeap();
      trace.scale_divisor = core.HEAPF32[divisorIndex];
      return trace;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      forgotten?.unregister(token);
      core.tracerDispose(id);
      for (const [key, [Type]] of shapes) trace[key] = new Type(0);
    },
  };
  hold(tracer);
  return tracer;
}
