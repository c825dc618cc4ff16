// Helpers for tracer(), the typed-array trace: calling it as attend() is called, reading its
// flat arrays as run()'s nested rows, and holding it against run() key by key.

import assert from 'node:assert/strict';

/** The keys of run()'s trace that a tracer's run() returns as typed arrays, with their shapes. */
export const TRACE_ARRAYS = Object.freeze({
  q: ['t', 'd'], k: ['t', 'd'], v: ['t', 'd'],
  score_terms: ['t', 't', 'd'], scores: ['t', 't'], scaled: ['t', 't'], masked: ['t', 't'], hidden: ['t', 't'],
  exponentials: ['t', 't'], row_max: ['t'], row_shifted: ['t'], row_totals: ['t'],
  weights: ['t', 't'], weight_sums: ['t'], weighted_values: ['t', 't', 'd'], out: ['t', 'd'],
});
/** The keys of flags: Uint8Arrays of 0 and 1 in a tracer, booleans in run(). */
export const TRACE_FLAGS = Object.freeze(['row_shifted', 'hidden']);
/** The keys whose values are numbers or names, the same in both. */
export const TRACE_SCALARS = Object.freeze(['mask', 'scale', 'token_count', 'head_dim', 'scale_divisor']);

/** A copy of a tracer's result that outlives the tracer (its arrays are views of the heap). */
export function snapshot(trace) {
  const copy = { ...trace };
  for (const key of Object.keys(TRACE_ARRAYS)) copy[key] = trace[key].slice();
  return copy;
}

/**
 * attention.tracer({ t, d, mask, scale, ... }).run({ q, k, v }) for an input in attend()'s form
 * ({ q, k, v, t, d, mask, ... } of Float32Arrays), disposed afterwards: a snapshot of the trace.
 * Anything that is not a plain object goes to tracer() as it is.
 */
export function traceOnce(attention, input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return attention.tracer(input);
  const { q, k, v, ...settings } = input;
  const tracer = attention.tracer(settings);
  try {
    return snapshot(tracer.run({ q, k, v }));
  } finally {
    tracer.dispose();
  }
}

/** Splits a flat row-major array into nested rows of the given sizes (as plain numbers). */
export function nest(flat, sizes) {
  if (sizes.length === 1) return Array.from(flat);
  const inner = sizes.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: sizes[0] }, (_, i) => nest(flat.subarray(i * inner, (i + 1) * inner), sizes.slice(1)));
}

/** A tracer's result in run()'s form: nested number rows, row_shifted as booleans, with `tokens`. */
export function traceRows(trace, tokens) {
  const size = { t: trace.token_count, d: trace.head_dim };
  const rows = { tokens };
  for (const key of TRACE_SCALARS) rows[key] = trace[key];
  for (const [key, shape] of Object.entries(TRACE_ARRAYS)) rows[key] = nest(trace[key], shape.map((s) => size[s]));
  rows.row_shifted = rows.row_shifted.map((x) => x === 1);
  rows.hidden = rows.hidden.map((row) => row.map((x) => x === 1));
  return rows;
}

/**
 * Every key of a tracer's result against run()'s trace of the same input, exactly: run()'s JSON
 * writes each float32 with 9 significant digits, which read back as the same float32. Zeros are
 * compared without their sign, since JSON.stringify writes an input's −0 as 0 (the core's own
 * tests compare the two paths bit for bit).
 */
export function assertSameAsRun(trace, json, what) {
  for (const key of TRACE_SCALARS) {
    assert.equal(trace[key], key === 'scale_divisor' ? Math.fround(json[key]) : json[key], `${what}: ${key}`);
  }
  for (const [key, shape] of Object.entries(TRACE_ARRAYS)) {
    const array = trace[key];
    const flat = json[key].flat(shape.length - 1);
    const flags = TRACE_FLAGS.includes(key);
    assert.ok(array instanceof (flags ? Uint8Array : Float32Array), `${what}: ${key} type`);
    assert.equal(array.length, flat.length, `${what}: ${key} length`);
    for (let e = 0; e < flat.length; e += 1) {
      const expected = flags ? (flat[e] ? 1 : 0) : Math.fround(flat[e]);
      if (array[e] !== expected) {
        assert.fail(`${what}: ${key}[${e}] is ${array[e]}, run() gives ${flat[e]}`);
      }
    }
  }
}
