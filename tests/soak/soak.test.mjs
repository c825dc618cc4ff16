// Soak: 100 000 calls of run(), 100 000 of attend() and 100 000 tracers (each made, run and
// disposed) on seeded random shapes, masks, variants and kernels, with a bad input every so
// often (errors must not leak either), against one loaded module, as a page that stays open for
// a long time would make them.
//   - The wasm heap (heapBytes()) after all calls is what it was after the first thousand.
//     The first call of each kind uses the largest shape of the run, so the heap has reached
//     its working size by then; growth after it is memory that was not given back. The heap
//     starts at 16 MiB with most of it free, so this catches what leaks a trace or a string
//     per call (kilobytes), not a few bytes per call: a 64-byte leak in every attend() call
//     (6.4 MB in all) still fits in the free part and goes unnoticed.
//   - At the end, results still match a float64 reference (and every 500th call on the way).
// Prints the figures: calls, time, heap.
//
// It takes about a minute, so it is not part of `npm test`: scripts/soak runs it, and
// scripts/test runs scripts/soak as a suite of its own. After the wasm build:
//   scripts/soak                          (ATTN_SOAK_CALLS=N for another count;
//   node --test tests/soak/soak.test.mjs   ATTN_SITE_DIR for another assembled site folder)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSiteAttention } from '../support/site-module.mjs';

const calls = Number(process.env.ATTN_SOAK_CALLS ?? 100_000);
const warmUpCalls = Math.min(1000, calls);

const runLimits = { tokens: 8, headDim: 8 };      // run() serialises the whole trace: small shapes
const attendLimits = { tokens: 96, headDim: 64 };  // attend(): past run()'s 64-token limit

// Mulberry32: a small seeded generator, so every run makes the same calls.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
}

// softmax(mask(q kᵀ / divisor)) v in float64; q, k, v as rows. fill: the score hidden cells
// get (-Infinity, or 0 for the FAQ's causal_zero).
function referenceF64(q, k, v, { causal, fill = -Infinity, divisor }) {
  const T = q.length;
  const d = q[0].length;
  const weights = [];
  const out = [];
  for (let i = 0; i < T; i += 1) {
    const row = [];
    for (let j = 0; j < T; j += 1) {
      if (causal && j > i) { row.push(fill); continue; }
      let dot = 0;
      for (let c = 0; c < d; c += 1) dot += q[i][c] * k[j][c];
      row.push(dot / divisor);
    }
    const max = Math.max(...row);
    const e = row.map((x) => Math.exp(x - max));
    const total = e.reduce((a, b) => a + b, 0);
    const w = e.map((x) => x / total);
    weights.push(w);
    out.push(Array.from({ length: d }, (_, c) => w.reduce((sum, wj, j) => sum + wj * v[j][c], 0)));
  }
  return { weights, out };
}

function assertCloseRows(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  for (let i = 0; i < expected.length; i += 1) {
    assert.equal(actual[i].length, expected[i].length, `${what}[${i}]: length`);
    for (let c = 0; c < expected[i].length; c += 1) {
      const budget = 1e-5 * (1 + Math.abs(expected[i][c]));
      if (!(Math.abs(actual[i][c] - expected[i][c]) <= budget)) {
        assert.fail(`${what}[${i}][${c}] = ${actual[i][c]}, float64 gives ${expected[i][c]}`);
      }
    }
  }
}

// assert.throws with a pattern for the Error's message (a bare RegExp would be matched
// against "Error: ...").
const throwsWith = (call, pattern) => assert.throws(call, (error) => error instanceof Error && pattern.test(error.message),
  `expected an Error matching ${pattern}`);

const toRows = (flat, t, d) => Array.from({ length: t }, (_, i) => Array.from(flat.subarray(i * d, (i + 1) * d)));

// One run() call: a random input, or (one call in 50) a ragged one that must be refused.
function runCall(attention, random, { tokens, headDim }, check) {
  const T = tokens ?? 1 + Math.floor(random() * runLimits.tokens);
  const d = headDim ?? 1 + Math.floor(random() * runLimits.headDim);
  const matrix = () => Array.from({ length: T }, () => Array.from({ length: d }, () => Math.round((random() * 4 - 2) * 1000) / 1000));
  const mask = ['causal', 'none', 'causal_zero'][Math.floor(random() * 3)];
  const scale = ['sqrt_d', 'd', 'none'][Math.floor(random() * 3)];
  const input = { tokens: Array.from({ length: T }, (_, t) => `w${t}`), q: matrix(), k: matrix(), v: matrix(), mask, scale };
  if (tokens === undefined && random() < 0.02) {
    input.v[T - 1] = input.v[T - 1].concat([1]);
    throwsWith(() => attention.run(input), /^v\[\d+\]: has \d+ values/);
    return;
  }
  const trace = attention.run(input);
  assert.equal(trace.token_count, T);
  if (!check) return;
  const divisor = scale === 'sqrt_d' ? Math.fround(Math.sqrt(d)) : scale === 'd' ? d : 1;
  const f32 = (rows) => rows.map((row) => row.map(Math.fround));
  const expected = referenceF64(f32(input.q), f32(input.k), f32(input.v),
    { causal: mask !== 'none', fill: mask === 'causal_zero' ? 0 : -Infinity, divisor });
  assertCloseRows(trace.weights, expected.weights, `run() ${T}×${d} ${mask} ${scale} weights`);
  assertCloseRows(trace.out, expected.out, `run() ${T}×${d} ${mask} ${scale} out`);
}

// attend()'s inputs are slices of one pool of random floats in [-2, 2), taken at random
// offsets: random enough, and cheap next to the call itself.
let pool = null;
function randomFloats(random, length) {
  pool ??= Float32Array.from({ length: 1 << 20 }, () => random() * 4 - 2);
  const start = Math.floor(random() * (pool.length - length));
  return pool.slice(start, start + length);
}

// One tracer, made for a random shape, mask and scale, run once (or, one call in 50, given a NaN
// that must be refused) and disposed: the workspaces of 100 000 tracers must all be given back.
function tracerCall(attention, random, { tokens, headDim }, check) {
  const t = tokens ?? 1 + Math.floor(random() * runLimits.tokens);
  const d = headDim ?? 1 + Math.floor(random() * runLimits.headDim);
  const mask = ['causal', 'none', 'causal_zero'][Math.floor(random() * 3)];
  const scale = ['sqrt_d', 'd', 'none'][Math.floor(random() * 3)];
  const q = randomFloats(random, t * d);
  const k = randomFloats(random, t * d);
  const v = randomFloats(random, t * d);
  const tracer = attention.tracer({ t, d, mask, scale });
  try {
    if (tokens === undefined && random() < 0.02) {
      v[Math.floor(random() * v.length)] = Number.NaN;
      throwsWith(() => tracer.run({ q, k, v }), /^v\[\d+\]\[\d+\]: must be a finite number/);
      return;
    }
    const trace = tracer.run({ q, k, v });
    assert.equal(trace.out.length, t * d);
    if (!check) return;
    const divisor = scale === 'sqrt_d' ? Math.fround(Math.sqrt(d)) : scale === 'd' ? d : 1;
    const expected = referenceF64(toRows(q, t, d), toRows(k, t, d), toRows(v, t, d),
      { causal: mask !== 'none', fill: mask === 'causal_zero' ? 0 : -Infinity, divisor });
    assertCloseRows(toRows(trace.weights, t, t), expected.weights, `tracer ${t}×${d} ${mask} ${scale} weights`);
    assertCloseRows(toRows(trace.out, t, d), expected.out, `tracer ${t}×${d} ${mask} ${scale} out`);
  } finally {
    tracer.dispose();
  }
}

// One attend() call: a random shape, mask and kernel (a kernel that does not support the shape
// must refuse it), or (one call in 50) a NaN that must be refused.
function attendCall(attention, random, kernels, { t: fixedT, d: fixedD }, check) {
  const t = fixedT ?? 1 + Math.floor(random() * attendLimits.tokens);
  const d = fixedD ?? 1 + Math.floor(random() * attendLimits.headDim);
  const q = randomFloats(random, t * d);
  const k = randomFloats(random, t * d);
  const v = randomFloats(random, t * d);
  const mask = random() < 0.5 ? 'causal' : 'none';
  const kernel = random() < 0.2 ? undefined : kernels[Math.floor(random() * kernels.length)].name;
  if (fixedT === undefined && random() < 0.02) {
    q[Math.floor(random() * q.length)] = Number.NaN;
    throwsWith(() => attention.attend({ q, k, v, t, d, mask, kernel }), /^(q\[\d+\]\[\d+\]: must be a finite number|kernel: )/);
    return;
  }
  if (kernel && /_4x8/.test(kernel) && d % 4 !== 0) {
    throwsWith(() => attention.attend({ q, k, v, t, d, mask, kernel }), /^kernel: .* does not support head_dim/);
    return;
  }
  const out = attention.attend({ q, k, v, t, d, mask, kernel });
  assert.equal(out.length, t * d);
  if (!check) return;
  const expected = referenceF64(toRows(q, t, d), toRows(k, t, d), toRows(v, t, d),
    { causal: mask === 'causal', divisor: Math.sqrt(d) });
  assertCloseRows(toRows(out, t, d), expected.out, `attend() ${kernel ?? 'default'} ${t}×${d} ${mask}`);
}

describe('soak: run(), attend() and tracers over many calls', () => {
  let attention;
  before(async () => {
    attention = await createSiteAttention();
  });

  it(`${calls} calls of each leave the heap where it was after ${warmUpCalls}, and results still match float64`, () => {
    const random = generator(20240601);
    const kernels = attention.kernels();
    const started = performance.now();
    const heapAtStart = attention.heapBytes();
    let heapAfterWarmUp = 0;
    let heapPeak = heapAtStart;
    for (let call = 0; call < calls; call += 1) {
      // The largest shapes first, so the heap reaches its working size during the warm-up.
      const first = call === 0;
      const check = call % 500 === 0;
      runCall(attention, random, first ? { tokens: runLimits.tokens, headDim: runLimits.headDim } : {}, check);
      attendCall(attention, random, kernels, first ? { t: attendLimits.tokens, d: attendLimits.headDim } : {}, check);
      tracerCall(attention, random, first ? { tokens: runLimits.tokens, headDim: runLimits.headDim } : {}, check);
      if (call + 1 === warmUpCalls) heapAfterWarmUp = attention.heapBytes();
      heapPeak = Math.max(heapPeak, attention.heapBytes());
    }
    const soakSeconds = (performance.now() - started) / 1000;
    const heapAtEnd = attention.heapBytes();

    // At the end: every kernel and the trace against float64 once more, on fresh shapes.
    for (let n = 0; n < 200; n += 1) {
      runCall(attention, random, {}, true);
      attendCall(attention, random, kernels, {}, true);
      tracerCall(attention, random, {}, true);
    }

    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
    console.log(`soak: ${calls} run() + ${calls} attend() calls + ${calls} tracers in ${soakSeconds.toFixed(1)} s; ` +
      `wasm heap ${mb(heapAtStart)} at start, ${mb(heapAfterWarmUp)} after ${warmUpCalls} calls, ` +
      `${mb(heapAtEnd)} at the end (peak ${mb(heapPeak)}); ` +
      `then 200 + 200 + 200 calls checked against float64`);
    assert.equal(heapAtEnd, heapAfterWarmUp,
      `the wasm heap grew from ${heapAfterWarmUp} to ${heapAtEnd} bytes after the first ${warmUpCalls} calls`);
  });
});
