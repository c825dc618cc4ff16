// tracer(), the complete trace on typed arrays, in Node against the built wasm core: every key
// equal to run()'s for the same input (the article's and seeded ones, every mask and scale, both
// full builds); each step against float64 with stated tolerances; errors naming the argument at
// fault; a heap that does not grow over repeated runs, and views made again after it grows.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { assertThrowsNaming } from '../support/assertions.mjs';
import { headF64 } from '../support/attention-f64.mjs';
import { checkTracerTrace } from '../support/bad-inputs.mjs';
import { seededQkv } from '../support/seeded-random.mjs';
import { importExplainer, modulePath } from '../support/site-module.mjs';
import { TRACE_ARRAYS, assertSameAsRun, nest, snapshot } from '../support/tracer.mjs';

const { createAttention } = await importExplainer();

const MASKS = ['causal', 'none', 'causal_zero'];
const SCALES = ['sqrt_d', 'd', 'none'];
const SHAPES = [[1, 1], [2, 4], [3, 7], [4, 4], [4, 64], [8, 16], [17, 5], [64, 8]];
const f32 = Math.fround;
const U = 2 ** -24;  // float32's unit roundoff
const TINY = 2 ** -148;  // two of float32's smallest denormals

// The same input as run() takes it.
function runInput({ q, k, v }, t, d, mask, scale) {
  const rows = (a) => nest(a, [t, d]);
  return { tokens: Array.from({ length: t }, (_, i) => `w${i}`), q: rows(q), k: rows(k), v: rows(v), mask, scale };
}

function within(actual, expected, tolerance, what) {
  if (!(Math.abs(actual - expected) <= tolerance)) {
    assert.fail(`${what} is ${actual}, expected ${expected} within ${tolerance}`);
  }
}

/**
 * Every step of a tracer's trace against float64, for float32 inputs q, k, v:
 *  - score_terms, scaled, masked, weight_sums and weighted_values are exact: one float32 operation
 *    each on float32 numbers (a float64 product, quotient or sum of such numbers rounds to the
 *    same float32), or a float64 sum rounded once (weight_sums);
 *  - scores and out are float32 sums: within d·u (T·u) of the float64 sum of their terms' sizes,
 *    u = 2^-24, and bit for bit the left-to-right float32 sum of the trace's own terms;
 *  - exponentials within 8·u relative (4 ulp) of float64's e^x (of the masked score, less row_max
 *    when the row is shifted, plus u·|x − row_max| for float32's rounding of that difference),
 *    row_totals within T·u of their float64 sum, weights within (T + 20)·u + 2·u·max|x − row_max|
 *    relative of float64's softmax of the trace's masked row, and rows of weights adding to 1
 *    within the same; plus 2^-148 where a value is down among float32's denormals;
 *  - weights and out against float64 computed from the inputs alone (attention-f64.mjs), within
 *    what the scores' own rounding (the bound above, over scale_divisor) can move them:
 *    |Δw| ≤ 2·w·max|Δscaled| to first order, plus the bounds above.
 */
function checkStepsF64(trace, { q, k, v }, t, d, mask, scale) {
  const divisor = scale === 'd' ? d : scale === 'none' ? 1 : Math.sqrt(d);
  assert.equal(trace.scale_divisor, f32(divisor), 'scale_divisor');
  const hidden = (i, j) => mask !== 'none' && j > i;
  const rowErrors = [];
  for (let i = 0; i < t; i += 1) {
    const live = [];
    for (let j = 0; j < t; j += 1) {
      let sum = 0;
      let float = 0;
      let size = 0;
      for (let c = 0; c < d; c += 1) {
        const term = trace.score_terms[(i * t + j) * d + c];
        assert.equal(term, f32(q[i * d + c] * k[j * d + c]), `score_terms[${i}][${j}][${c}]`);
        sum += q[i * d + c] * k[j * d + c];
        size += Math.abs(q[i * d + c] * k[j * d + c]);
        float = f32(float + term);
      }
      const score = trace.scores[i * t + j];
      assert.equal(score, float, `scores[${i}][${j}]: the float32 sum of its terms`);
      within(score, sum, d * U * size * 1.01 + 1e-38, `scores[${i}][${j}] against float64`);
      assert.equal(trace.scaled[i * t + j], f32(score / trace.scale_divisor), `scaled[${i}][${j}]`);
      const masked = trace.masked[i * t + j];
      if (hidden(i, j)) assert.equal(masked, mask === 'causal_zero' ? 0 : -Infinity, `masked[${i}][${j}]`);
      else assert.equal(masked, trace.scaled[i * t + j], `masked[${i}][${j}]`);
      if (Number.isFinite(masked)) live.push(masked);
    }
    const rowMax = Math.max(...live);
    assert.equal(trace.row_max[i], rowMax, `row_max[${i}]`);
    const shift = trace.row_shifted[i] ? rowMax : 0;
    // float32 rounds x − row_max before e^ sees it: a relative error of up to u·|x − row_max|.
    const shiftError = U * Math.max(...live.map((x) => Math.abs(x - rowMax)));
    const rowError = (t + 20) * U + 2 * shiftError;  // relative, for each weight of the row
    rowErrors.push(rowError);
    let total = 0;
    let softmaxTotal = 0;
    for (let j = 0; j < t; j += 1) {
      const x = trace.masked[i * t + j];
      const e = trace.exponentials[i * t + j];
      const expected = Number.isFinite(x) ? Math.exp(x - shift) : 0;
      const tolerance = Number.isFinite(x) ? (8 * U + U * Math.abs(x - shift)) * expected + TINY : 0;
      within(e, expected, tolerance, `exponentials[${i}][${j}]`);
      total += e;
      softmaxTotal += Number.isFinite(x) ? Math.exp(x - rowMax) : 0;
    }
    within(trace.row_totals[i], total, t * U * total, `row_totals[${i}]`);
    let weightSum = 0;
    for (let j = 0; j < t; j += 1) {
      const x = trace.masked[i * t + j];
      const w = trace.weights[i * t + j];
      const expected = Number.isFinite(x) ? Math.exp(x - rowMax) / softmaxTotal : 0;
      within(w, expected, rowError * expected + TINY, `weights[${i}][${j}]`);
      if (x === -Infinity) assert.equal(w, 0, `weights[${i}][${j}] is masked: exactly 0`);
      weightSum += w;
    }
    assert.equal(trace.weight_sums[i], f32(weightSum), `weight_sums[${i}]`);
    within(trace.weight_sums[i], 1, rowError, `weight_sums[${i}] is 1`);
    for (let c = 0; c < d; c += 1) {
      let float = 0;
      let sum = 0;
      let size = 0;
      for (let j = 0; j < t; j += 1) {
        const w = trace.weights[i * t + j];
        const share = trace.weighted_values[(i * t + j) * d + c];
        assert.equal(share, f32(w * v[j * d + c]), `weighted_values[${i}][${j}][${c}]`);
        float = f32(float + share);
        sum += w * v[j * d + c];
        size += Math.abs(w * v[j * d + c]);
      }
      assert.equal(trace.out[i * d + c], float, `out[${i}][${c}]: the float32 sum of its weighted values`);
      within(trace.out[i * d + c], sum, t * U * size * 1.01 + 1e-38, `out[${i}][${c}] against float64`);
    }
  }
  // From the inputs alone: the float64 head.
  const rows = (a) => nest(a, [t, d]);
  const ref = headF64({ q: rows(q), k: rows(k), v: rows(v), mask, scale });
  for (let i = 0; i < t; i += 1) {
    let scaledError = 0;  // the most a scaled score of this row can be off float64's
    for (let j = 0; j < t; j += 1) {
      let size = 0;
      for (let c = 0; c < d; c += 1) size += Math.abs(q[i * d + c] * k[j * d + c]);
      scaledError = Math.max(scaledError, (d * U * size * 1.01) / divisor + U * Math.abs(trace.scaled[i * t + j]));
    }
    const weightError = ref.weights[i].map((w) => 2.2 * w * scaledError + rowErrors[i] * w + TINY);
    ref.weights[i].forEach((w, j) => within(trace.weights[i * t + j], w, weightError[j], `weights[${i}][${j}] (float64 from the inputs)`));
    for (let c = 0; c < d; c += 1) {
      let tolerance = 1e-30;
      for (let j = 0; j < t; j += 1) {
        tolerance += weightError[j] * Math.abs(v[j * d + c]) + 1.01 * t * U * Math.abs(ref.weights[i][j] * v[j * d + c]);
      }
      within(trace.out[i * d + c], ref.out[i][c], tolerance, `out[${i}][${c}] (float64 from the inputs)`);
    }
  }
}

for (const build of ['simd', 'scalar']) {
  describe(`tracer() in the ${build} build`, () => {
    let attention;
    before(async () => { attention = await createAttention({ build }); });

    it('gives run()\u2019s trace of the article\u2019s inputs, key for key, bit for bit', () => {
      const article = attention.article();
      for (const name of ['two_words', 'four_words']) {
        const input = article[name];
        const t = input.q.length;
        const d = input.q[0].length;
        const tracer = attention.tracer({ t, d, mask: input.mask });
        const trace = tracer.run({ q: Float32Array.from(input.q.flat()), k: Float32Array.from(input.k.flat()), v: Float32Array.from(input.v.flat()) });
        assertSameAsRun(trace, attention.run(input), name);
        tracer.dispose();
      }
    });

    it('gives run()\u2019s trace of seeded inputs of every shape, mask and scale, and float64\u2019s numbers', () => {
      let seed = 10;
      for (const [t, d] of SHAPES) {
        for (const mask of MASKS) {
          for (const scale of SCALES) {
            const what = `t=${t} d=${d} ${mask} ${scale}`;
            const input = seededQkv(t, d, (seed += 3));
            const tracer = attention.tracer({ t, d, mask, scale });
            const trace = tracer.run(input);
            assertSameAsRun(trace, attention.run(runInput(input, t, d, mask, scale)), what);
            checkStepsF64(trace, input, t, d, mask, scale);
            tracer.dispose();
          }
        }
      }
    });
  });
}

describe('tracer() as a caller meets it', () => {
  let attention;
  before(async () => { attention = await createAttention(); });

  it('defaults to the article\u2019s attention: causal, ÷ √d', () => {
    const input = seededQkv(5, 8, 1);
    const tracer = attention.tracer({ t: 5, d: 8 });
    assert.deepEqual([tracer.t, tracer.d, tracer.mask, tracer.scale], [5, 8, 'causal', 'sqrt_d']);
    const trace = tracer.run(input);
    assert.equal(trace.mask, 'causal');
    assert.equal(trace.scale, 'sqrt_d');
    assert.equal(trace.masked[1], -Infinity);
    checkTracerTrace(snapshot(trace), { ...input, t: 5, d: 8 }, 'defaults');
    tracer.dispose();
  });

  it('says which cells the mask hid: hidden[i·t + j] is 1 exactly when j > i, under the causal masks', () => {
    for (const mask of MASKS) {
      const tracer = attention.tracer({ t: 5, d: 3, mask });
      const trace = tracer.run(seededQkv(5, 3, 8));
      assert.ok(trace.hidden instanceof Uint8Array);
      assert.equal(trace.hidden.length, 25);
      for (let i = 0; i < 5; i += 1) {
        for (let j = 0; j < 5; j += 1) {
          const hidden = mask !== 'none' && j > i;
          assert.equal(trace.hidden[i * 5 + j], hidden ? 1 : 0, `${mask}: hidden[${i}·5 + ${j}]`);
          // Under causal_zero a hidden cell holds 0, which only hidden tells from a score of 0.
          if (hidden) assert.equal(trace.masked[i * 5 + j], mask === 'causal_zero' ? 0 : -Infinity);
        }
      }
      tracer.dispose();
    }
  });

  it('recomputes every array on every run, in the same object, and leaves the caller\u2019s arrays alone', () => {
    const tracer = attention.tracer({ t: 4, d: 6, mask: 'none' });
    const first = seededQkv(4, 6, 21);
    const second = seededQkv(4, 6, 99);
    const copies = [second.q.slice(), second.k.slice(), second.v.slice()];
    const a = snapshot(tracer.run(first));
    const result = tracer.run(second);
    assert.deepEqual([second.q, second.k, second.v], copies, 'inputs untouched');
    assert.equal(tracer.run(second), result, 'the same object each run');
    assertSameAsRun(result, attention.run(runInput(second, 4, 6, 'none', 'sqrt_d')), 'second input');
    for (const key of Object.keys(TRACE_ARRAYS)) {
      if (key === 'row_shifted' || key === 'hidden') continue;  // the same for both inputs
      assert.notDeepEqual(result[key], a[key], `${key} was recomputed`);
    }
    // And back: the snapshot of the first run is what a fresh run of it gives.
    assert.deepEqual(snapshot(tracer.run(first)), a);
    tracer.dispose();
  });

  it('keeps tracers of different shapes apart', () => {
    const small = attention.tracer({ t: 2, d: 3 });
    const large = attention.tracer({ t: 9, d: 20, mask: 'causal_zero', scale: 'd' });
    const smallInput = seededQkv(2, 3, 5);
    const largeInput = seededQkv(9, 20, 6);
    for (let round = 0; round < 3; round += 1) {
      assertSameAsRun(small.run(smallInput), attention.run(runInput(smallInput, 2, 3, 'causal', 'sqrt_d')), `small, round ${round}`);
      assertSameAsRun(large.run(largeInput), attention.run(runInput(largeInput, 9, 20, 'causal_zero', 'd')), `large, round ${round}`);
    }
    small.dispose();
    large.dispose();
  });

  it('holds row_shifted for rows whose e^x overflows float32, and the values at ±1e15', () => {
    const t = 3;
    const d = 2;
    const q = Float32Array.from([1e15, 0, 0, 1e15, -1e15, 1e15]);
    const k = Float32Array.from([1e15, 1e15, -1e15, 1e15, 0.5, -0.25]);
    const v = Float32Array.from([1e15, -1e15, -1e15, 1e15, 3, 4]);
    const tracer = attention.tracer({ t, d, mask: 'none' });
    const trace = tracer.run({ q, k, v });
    assert.deepEqual(Array.from(trace.row_shifted), [1, 1, 1]);
    assertSameAsRun(trace, attention.run(runInput({ q, k, v }, t, d, 'none', 'sqrt_d')), 'extreme');
    tracer.dispose();
  });

  it('throws an Error naming the argument at fault, and works afterwards', () => {
    const good = seededQkv(2, 4, 1);
    const tracerCases = [
      [undefined, 'tracer', 'expects an object'],
      [null, 'tracer'],
      [[2, 4], 'tracer'],
      [{ d: 4 }, 't', 'must be a positive integer, got undefined'],
      [{ t: 0, d: 4 }, 't', 'must be a positive integer'],
      [{ t: 2.5, d: 4 }, 't'],
      [{ t: 2, d: '4' }, 'd', 'got "4"'],
      [{ t: 2, d: 0 }, 'd'],
      [{ t: 65, d: 4 }, 't', 'is 65; the limit is 64'],
      [{ t: 2, d: 257 }, 'd', 'is 257; the limit is 256'],
      [{ t: 2 ** 31, d: 1 }, 't', 'beyond any supported size'],
      [{ t: 2, d: 4, mask: 'diagonal' }, 'mask', 'must be "causal", "none" or "causal_zero", got "diagonal"'],
      [{ t: 2, d: 4, mask: null }, 'mask'],
      [{ t: 2, d: 4, scale: 'sqrt' }, 'scale', 'must be "sqrt_d", "d" or "none", got "sqrt"'],
      [{ t: 2, d: 4, kernel: 'attend__scalar_1x4' }, 'kernel', 'is not an option of tracer()'],
      [{ t: 2, d: 4, 'mask ': 'none' }, '"mask "', 'is not an option'],
    ];
    for (const [settings, path, fragment] of tracerCases) {
      assertThrowsNaming(() => attention.tracer(settings), path, fragment);
    }
    const tracer = attention.tracer({ t: 2, d: 4 });
    const runCases = [
      [undefined, 'input', 'expects { q, k, v }'],
      [{ ...good, q: Array.from(good.q) }, 'q', 'must be a Float32Array of length t·d = 8, got Array'],
      [{ ...good, k: new Float32Array(7) }, 'k', 'has length 7; expected t·d = 2 × 4 = 8'],
      [{ ...good, v: new Float64Array(8) }, 'v', 'must be a Float32Array'],
      [{ q: good.q, k: good.k }, 'v', 'got undefined'],
      [{ ...good, q: Float32Array.from([0, 0, 0, 0, 0, 0, 0, Number.NaN]) }, 'q[1][3]', 'must be a finite number'],
      [{ ...good, k: Float32Array.from([0, 0, 0, 0, 0, 0, Infinity, 0]) }, 'k[1][2]', 'must be a finite number'],
      [{ ...good, k: Float32Array.from([0, -Infinity, 0, 0, 0, 0, 0, 0]) }, 'k[0][1]', 'must be a finite number'],
      [{ ...good, v: Float32Array.from([1e16, 0, 0, 0, 0, 0, 0, 0]) }, 'v[0][0]', 'is 1e16, outside the allowed range of ±1e15'],
      [{ ...good, v: Float32Array.from([0, 0, 0, 0, 0, 0, 0, 3e38]) }, 'v[1][3]', 'is 3e38, outside the allowed range of ±1e15'],
    ];
    for (const [input, path, fragment] of runCases) assertThrowsNaming(() => tracer.run(input), path, fragment);
    // The first bad value in q, k, v order is the one named.
    assertThrowsNaming(() => tracer.run({ q: good.q, k: Float32Array.from([0, 0, 0, 0, 0, 5e15, 0, 0]), v: Float32Array.from([Number.NaN, 0, 0, 0, 0, 0, 0, 0]) }), 'k[1][1]');
    // 1e15 itself is allowed.
    assert.doesNotThrow(() => tracer.run({ ...good, q: Float32Array.from([1e15, 0, 0, 0, 0, 0, 0, -1e15]) }));
    assertSameAsRun(tracer.run(good), attention.run(runInput(good, 2, 4, 'causal', 'sqrt_d')), 'after errors');
    tracer.dispose();
  });

  it('dispose() empties the arrays and ends the tracer; disposing twice is harmless', () => {
    const tracer = attention.tracer({ t: 3, d: 2 });
    const trace = tracer.run(seededQkv(3, 2, 4));
    tracer.dispose();
    tracer.dispose();
    for (const key of Object.keys(TRACE_ARRAYS)) assert.equal(trace[key].length, 0, key);
    assertThrowsNaming(() => tracer.run(seededQkv(3, 2, 4)), 'tracer', 'disposed');
  });

  it('does not grow the heap over repeated runs, nor over tracers made and disposed', () => {
    const input = seededQkv(64, 256, 8);
    const largest = attention.tracer({ t: 64, d: 256 });
    largest.run(input);
    const heap = attention.heapBytes();
    for (let call = 0; call < 20; call += 1) largest.run(input);
    largest.dispose();
    const small = seededQkv(4, 4, 3);
    const tracer = attention.tracer({ t: 4, d: 4 });
    for (let call = 0; call < 5000; call += 1) tracer.run(small);
    tracer.dispose();
    // 40 tracers of the largest shape (over 8 MiB each) would need 330 MiB if dispose() freed nothing.
    for (let n = 0; n < 40; n += 1) attention.tracer({ t: 64, d: 256 }).dispose();
    assert.equal(attention.heapBytes(), heap);
  });

  it('keeps working after the heap grew: the old views are detached, run() makes new ones', () => {
    const input = seededQkv(6, 10, 12);
    const tracer = attention.tracer({ t: 6, d: 10, mask: 'none', scale: 'none' });
    const before = snapshot(tracer.run(input));
    const oldOut = tracer.run(input).out;
    const heap = attention.heapBytes();
    // Grow the memory: attend() on 3 × 2 MiB of inputs, then tracers of the largest shape, kept
    // until the memory has grown.
    const t = 128;
    const d = 4096;
    const big = seededQkv(t, d, 1);
    const out = attention.attend({ ...big, t, d, mask: 'causal' });
    assert.equal(out.length, t * d);
    const held = [];
    while (attention.heapBytes() === heap && held.length < 100) held.push(attention.tracer({ t: 64, d: 256 }));
    assert.ok(attention.heapBytes() > heap, 'the memory grew');
    assert.equal(oldOut.length, 0, 'a view from before the growth is detached');
    const after = tracer.run(input);
    assert.equal(after.out.length, 60);
    assert.deepEqual(snapshot(after), before);
    assertSameAsRun(after, attention.run(runInput(input, 6, 10, 'none', 'none')), 'after growth');
    for (const other of held) other.dispose();
    tracer.dispose();
  });

  it('frees a forgotten tracer once it and every view it made are collected, not before', async () => {
    // In a process of its own, where the garbage collector can be called.
    const script = `
      const { createAttention } = await import(${JSON.stringify(pathToFileURL(modulePath).href)});
      const attention = await createAttention();
      const collect = async () => { gc(); await new Promise((r) => setTimeout(r, 0)); };
      const n = 64 * 256;
      const filled = (x) => new Float32Array(n).fill(x);
      for (const tracer of Array.from({ length: 6 }, () => attention.tracer({ t: 64, d: 256 }))) tracer.dispose();
      const heap = attention.heapBytes();
      // A view kept alone keeps its memory: later tracers must not write over it.
      const kept = attention.tracer({ t: 64, d: 256 }).run({ q: filled(0.5), k: filled(0.25), v: filled(2) }).out;
      const copy = kept.slice();
      for (let round = 1; round <= 30; round += 1) {
        attention.tracer({ t: 64, d: 256 }).run({ q: filled(round), k: filled(1), v: filled(-round) });
        await collect();
      }
      const keptIntact = kept.every((x, i) => x === copy[i]);
      console.log(JSON.stringify({ keptIntact, grew: attention.heapBytes() - heap }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath,
      ['--expose-gc', '--input-type=module', '-e', script], { timeout: 60_000 });
    const { keptIntact, grew } = JSON.parse(stdout);
    assert.equal(keptIntact, true, 'a kept view still shows its own run');
    // 31 tracers of over 8 MiB each: without freeing, the memory would grow by 260 MiB.
    assert.equal(grew, 0, 'the forgotten tracers were freed');
  });

  it('is not part of the embed build', async () => {
    const embed = await createAttention({ build: 'embed' });
    assert.equal(embed.tracer, undefined);
    assert.equal(typeof (await createAttention()).tracer, 'function');
  });
});
