// attend(), the fast path of the module, in Node against the built wasm core: every kernel of
// both builds against a float64 reference, the errors a caller can make, and a heap that stays
// put over repeated calls.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attendF64 } from '../support/attention-f64.mjs';
import { seededQkv } from '../support/seeded-random.mjs';
import { importExplainer } from '../support/site-module.mjs';

const { createAttention } = await importExplainer();

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  for (let e = 0; e < actual.length; e += 1) {
    const budget = 1e-5 * (1 + Math.abs(expected[e]));
    if (!(Math.abs(actual[e] - expected[e]) <= budget)) {
      assert.fail(`${what}: element ${e} is ${actual[e]}, float64 gives ${expected[e]}`);
    }
  }
}

function inputs(t, d, seed) {
  return { ...seededQkv(t, d, seed), t, d };
}

for (const build of ['simd', 'scalar']) {
  describe(`attend() in the ${build} build`, () => {
    let attention;
    before(async () => { attention = await createAttention({ build }); });

    it('has the kernels of its build', () => {
      const isas = new Set(attention.kernels().map((kernel) => kernel.isa));
      assert.ok(isas.has('scalar'));
      assert.equal(isas.has('wasm-simd128'), build === 'simd');
    });

    it('every kernel matches float64 around the block and tile sizes, both masks', () => {
      for (const kernel of attention.kernels()) {
        for (const [t, d] of [[1, 4], [3, 8], [4, 64], [5, 12], [63, 64], [64, 64], [65, 64], [130, 16]]) {
          for (const mask of ['causal', 'none']) {
            const input = inputs(t, d, t * 31 + d);
            const out = attention.attend({ ...input, mask, kernel: kernel.name });
            assert.ok(out instanceof Float32Array);
            assertClose(out, attendF64(input.q, input.k, input.v, t, d, mask), `${kernel.name} t=${t} d=${d} ${mask}`);
          }
        }
      }
    });
  });
}

describe('attend() as a caller meets it', () => {
  let attention;
  before(async () => { attention = await createAttention(); });

  it('picks a kernel for the shape when none is named, causal by default', () => {
    assert.match(attention.defaultKernel(2, 64), /_1x4$/);
    assert.match(attention.defaultKernel(256, 64), /_4x8$/);
    assert.match(attention.defaultKernel(8192, 64), /_4x8$/);
    assert.match(attention.defaultKernel(16384, 64), /_tiled256$/);  // from t·d = 2^20 on
    const input = inputs(70, 64, 5);
    assertClose(attention.attend(input), attendF64(input.q, input.k, input.v, 70, 64, 'causal'), 'default');
  });

  it('leaves the caller\'s arrays untouched', () => {
    const input = inputs(9, 8, 11);
    const copies = [input.q.slice(), input.k.slice(), input.v.slice()];
    attention.attend(input);
    assert.deepEqual([input.q, input.k, input.v], copies);
  });

  it('writes into out when given, and refuses an out of the wrong type or length', () => {
    const input = inputs(33, 16, 21);
    const expected = attendF64(input.q, input.k, input.v, 33, 16, 'causal');
    const out = new Float32Array(33 * 16).fill(Number.NaN);
    assert.equal(attention.attend({ ...input, out }), out);
    assertClose(out, expected, 'into out');
    // out may be one of the inputs: they are copied into the module before it is written.
    const q = input.q.slice();
    assert.equal(attention.attend({ ...input, q, out: q }), q);
    assertClose(q, expected, 'into q');
    const untouched = new Float32Array(33 * 16 - 1);
    assert.throws(() => attention.attend({ ...input, out: untouched }), /^Error: out: has length 527; expected t·d = 33 × 16 = 528/);
    assert.throws(() => attention.attend({ ...input, out: new Float64Array(528) }), /^Error: out: must be a Float32Array/);
    const kept = new Float32Array(528).fill(7);
    const bad = { ...input, v: input.v.slice(), out: kept };
    bad.v[527] = Number.NaN;
    assert.throws(() => attention.attend(bad), /^Error: v\[32\]\[15\]: must be a finite number/);
    assert.ok(kept.every((x) => x === 7), 'a refused call writes nothing into out');
  });

  it('checks every value up to the last one, and the 1e15 bound exactly', () => {
    // 300 × 8 = 2400 values per matrix: past the core's 1024-value check chunks.
    const input = inputs(300, 8, 4);
    for (const [name, index, value, pattern] of [
      ['q', 2399, Number.NaN, /^Error: q\[299\]\[7\]: must be a finite number/],
      ['k', 1024, -Infinity, /^Error: k\[128\]\[0\]: must be a finite number/],
      ['v', 1023, 1.0000001e15, /^Error: v\[127\]\[7\]: is 1\.0000001e15, outside the allowed range of ±1e15/],
    ]) {
      const array = input[name].slice();
      array[index] = value;
      assert.throws(() => attention.attend({ ...input, [name]: array }), pattern, `${name}[${index}] = ${value}`);
    }
    // 1e15 itself is allowed (as a float it is 999999986991104, the float just below 1e15).
    const atLimit = inputs(2, 4, 9);
    atLimit.v[3] = 1e15;
    atLimit.v[4] = -1e15;
    assertClose(attention.attend(atLimit), attendF64(atLimit.q, atLimit.k, atLimit.v, 2, 4, 'causal'), 'at 1e15');
  });

  it('does not grow the heap over repeated calls of one shape', () => {
    const input = inputs(512, 64, 3);
    attention.attend(input);
    const heap = attention.heapBytes();
    for (let call = 0; call < 200; call += 1) attention.attend(input);
    assert.equal(attention.heapBytes(), heap);
  });

  it('throws an Error naming the argument at fault', () => {
    const good = inputs(2, 4, 1);
    const cases = [
      [undefined, /^attend: /],
      [{ ...good, t: 0 }, /^t: must be a positive integer/],
      [{ ...good, t: 2.5 }, /^t: /],
      [{ ...good, d: '4' }, /^d: must be a positive integer, got "4"/],
      [{ ...good, q: [0, 0, 0, 0, 0, 0, 0, 0] }, /^q: must be a Float32Array/],
      [{ ...good, k: new Float32Array(7) }, /^k: has length 7; expected t·d = 2 × 4 = 8/],
      [{ ...good, v: new Float64Array(8) }, /^v: must be a Float32Array/],
      [{ ...good, mask: 'diagonal' }, /^mask: must be "causal" or "none", got "diagonal"/],
      [{ ...good, kernel: 'fastest' }, /^kernel: unknown kernel "fastest"; this build has attend__/],
      [{ ...good, q: Float32Array.from([0, 0, 0, 0, 0, Number.NaN, 0, 0]) }, /^q\[1\]\[1\]: must be a finite number/],
      [{ ...good, k: Float32Array.from([0, 0, 0, 0, 0, 0, Infinity, 0]) }, /^k\[1\]\[2\]: must be a finite number/],
      [{ ...good, v: Float32Array.from([3e15, 0, 0, 0, 0, 0, 0, 0]) }, /^v\[0\]\[0\]: is 3e15, outside the allowed range of ±1e15$/],
      [{ q: new Float32Array(6), k: new Float32Array(6), v: new Float32Array(6), t: 2, d: 3, kernel: attention.kernels().find((k) => /_4x8$/.test(k.name)).name },
        /^kernel: attend__\w+ does not support head_dim 3/],
      [{ ...inputs(1, 1, 1), t: 2 ** 21, d: 1, q: new Float32Array(2 ** 21), k: new Float32Array(2 ** 21), v: new Float32Array(2 ** 21) }, /^t: is 2097152; the limit is/],
    ];
    for (const [input, pattern] of cases) {
      assert.throws(() => attention.attend(input), (error) => error instanceof Error && pattern.test(error.message),
        `expected ${pattern}`);
    }
    // And it still works afterwards.
    assertClose(attention.attend(good), attendF64(good.q, good.k, good.v, 2, 4, 'causal'), 'after errors');
  });

  it('refuses an unknown build', async () => {
    await assert.rejects(createAttention({ build: 'gpu' }), /^Error: build: must be "simd", "scalar" or "embed", got "gpu"/);
  });
});

describe('the embed build (what the elements load)', () => {
  it('offers the trace and the article only, with the same numbers as the full build', async () => {
    const embed = await createAttention({ build: 'embed' });
    const full = await createAttention();
    assert.deepEqual(Object.keys(embed).sort(), ['article', 'run', 'scoreNextWord', 'vocabulary']);
    assert.deepEqual(embed.vocabulary(), full.vocabulary());
    const input = full.article().four_words;
    assert.deepEqual(embed.run(input), full.run(input));
    assert.throws(() => embed.run({ ...input, mask: 'diagonal' }), /^Error: mask: /);
    const row = full.article().vocabulary.vectors[0];
    assert.deepEqual(embed.scoreNextWord(row), full.scoreNextWord(row));
    assert.throws(() => embed.scoreNextWord([1]), /^Error: row: /);
  });
});
