// The explorable's part of the module (built site, wasm core in Node): run() with the FAQ's
// variants, softmaxBackward, headDimStudy, multiHead and randomMatrix, each against float64
// computed here from the formulas, and the seeded numbers against a JavaScript implementation of
// the generator's documented definition (so the wasm core gives the numbers the definition
// gives). Bad input throws an Error whose message starts with the field at fault.
//
// Run after the wasm build: node --test tests/web/explore-api.test.mjs
// (ATTN_SITE_DIR may name another assembled site folder.)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertThrowsNaming } from '../support/assertions.mjs';
import { dot, headF64, matmul, softmax } from '../support/attention-f64.mjs';
import { SplitMix64, deriveSeed, gridValues, polarNormals } from '../support/seeded-random.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

// Standard normals rounded to float32, as random_normal_matrix draws them (seeded_random.h).
function normalMatrix(seed, rows, cols) {
  const random = new SplitMix64(seed);
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.fround(random.nextNormal())));
}

const article = {
  tokens: ['the', 'cat'],
  q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2, 0.3]],
  k: [[-0.4, -0.3, 0.2, 1.2], [1.6, -0.7, -0.4, -0.5]],
  v: [[-0.5, -0.4, 0.1, 1.1], [1.2, -0.3, -0.2, -0.6]],
};

let attention;

before(async () => {
  attention = await createSiteAttention();
});

describe('explore API', () => {
  it('has the explore methods next to the walkthrough ones', () => {
    for (const name of ['run', 'softmaxBackward', 'headDimStudy', 'multiHead', 'randomMatrix']) {
      assert.equal(typeof attention[name], 'function', name);
    }
  });
});

describe('run() with the FAQ variants', () => {
  it('scale "sqrt_d", "d" and "none" match float64 and report the divisor', () => {
    const input = {
      tokens: ['a', 'b', 'c', 'd', 'e'],
      q: gridValues(1, 5, 8), k: gridValues(2, 5, 8), v: gridValues(3, 5, 8),
    };
    for (const mask of ['causal', 'none', 'causal_zero']) {
      for (const [scale, divisor] of [['sqrt_d', Math.sqrt(8)], ['d', 8], ['none', 1]]) {
        const what = `${mask}, ${scale}`;
        const trace = attention.run({ ...input, mask, scale });
        const ref = headF64({ ...input, mask, scale });
        assert.equal(trace.mask, mask, what);
        assert.equal(trace.scale, scale, what);
        assert.equal(Math.fround(trace.scale_divisor), Math.fround(divisor), what);
        assertClose(trace.scaled, ref.scaled, 1e-6, `${what} scaled`);
        assertClose(trace.masked, ref.masked, 1e-6, `${what} masked`);
        assertClose(trace.weights, ref.weights, 1e-5, `${what} weights`);
        assertClose(trace.out, ref.out, 1e-5, `${what} out`);
      }
    }
  });

  it('the defaults are still √d and -Infinity, named in the trace', () => {
    const trace = attention.run(article);
    assert.equal(trace.scale, 'sqrt_d');
    assert.equal(trace.mask, 'causal');
    assert.equal(trace.scale_divisor, 2);
    assert.equal(trace.masked[0][1], -Infinity);
    assert.deepEqual(trace.weights[0], [1, 0]);
  });

  it('"causal_zero" leaks weight onto the future word: the gives cat 1 / (1 + e^0.08)', () => {
    const trace = attention.run({ ...article, mask: 'causal_zero' });
    assert.equal(trace.masked[0][1], 0);
    assert.ok(trace.exponentials[0][1] > 0);
    assert.ok(Math.abs(trace.weights[0][1] - 1 / (1 + Math.exp(0.08))) < 1e-6, `${trace.weights[0][1]}`);
    assert.equal(trace.weights[0][1].toFixed(2), '0.48');
  });

  it('refuses an unknown scale or mask, naming it', () => {
    assertThrowsNaming(() => attention.run({ ...article, scale: 'sqrt' }), 'scale');
    assertThrowsNaming(() => attention.run({ ...article, scale: 2 }), 'scale');
    assertThrowsNaming(() => attention.run({ ...article, scale: null }), 'scale');
    assertThrowsNaming(() => attention.run({ ...article, mask: 'zero' }), 'mask');
    assertThrowsNaming(() => attention.run({ ...article, fill: 'zero' }), 'fill');
  });
});

describe('softmaxBackward()', () => {
  // L(x) = g · softmax(x); dL/dx by central differences in float64.
  function gradientByDifferences(x, g, h = 1e-6) {
    const loss = (at) => dot(g, softmax(at));
    return x.map((value, j) => {
      if (value === -Infinity) return 0;
      const up = x.slice();
      const down = x.slice();
      up[j] += h;
      down[j] -= h;
      return (loss(up) - loss(down)) / (2 * h);
    });
  }

  it('one row: p ⊙ (g − g·p) matches finite differences, masked entries exactly 0', () => {
    const random = new SplitMix64(5);
    for (const n of [1, 2, 3, 8, 17, 64]) {
      for (const spread of [1, 6]) {
        const x = Array.from({ length: n }, (_, j) => (j > 0 && j >= n - 2 ? -Infinity : (random.nextUniform() * 2 - 1) * spread));
        const g = Array.from({ length: n }, () => random.nextNormal());
        const p = softmax(x);
        const result = attention.softmaxBackward(p, g);
        const expected = gradientByDifferences(x, g);
        assert.equal(result.gradient.length, n);
        result.gradient.forEach((value, j) => {
          assert.ok(Math.abs(value - expected[j]) <= 2e-6 + 2e-5 * Math.abs(expected[j]),
            `n ${n}, spread ${spread}, entry ${j}: ${value} vs ${expected[j]}`);
          if (x[j] === -Infinity) assert.ok(Object.is(value, 0), `masked entry ${j} is +0`);
        });
        assert.ok(Math.abs(result.upstream_dot_weights - dot(g, p)) <= 1e-5 * (1 + Math.abs(dot(g, p))));
      }
    }
  });

  it('a trace\'s weights matrix: one gradient row per weights row', () => {
    const trace = attention.run(attention.article().four_words);
    const upstream = trace.weights.map((row, i) => row.map((_, j) => (i + 1) * (j % 2 ? -1 : 1)));
    const result = attention.softmaxBackward(trace.weights, upstream);
    assert.equal(result.gradient.length, 4);
    assert.equal(result.upstream_dot_weights.length, 4);
    result.gradient.forEach((row, i) => {
      const p = trace.weights[i];
      const gp = dot(upstream[i], p);
      row.forEach((value, j) => {
        const expected = p[j] * (upstream[i][j] - gp);
        assert.ok(Math.abs(value - expected) <= 1e-6, `row ${i}, entry ${j}`);
        if (j > i) assert.equal(value, 0, 'masked words get no gradient');
      });
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0)) <= 1e-6, 'each row sums to 0');
    });
    assert.deepEqual(result.gradient[0], [0, 0, 0, 0], 'a row with one visible word passes nothing back');
  });

  it('refuses bad weights or gradients, naming the element', () => {
    assertThrowsNaming(() => attention.softmaxBackward(undefined, [1]), 'weights');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, 0.5]), 'upstream');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, 0.4], [1, 1]), 'weights');
    assertThrowsNaming(() => attention.softmaxBackward([1.5, -0.5], [1, 1]), 'weights[0]');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, NaN], [1, 1]), 'weights[1]');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, 0.5], [1, Infinity]), 'upstream[1]');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, 0.5], [1, 2, 3]), 'upstream');
    assertThrowsNaming(() => attention.softmaxBackward([[1], [0.5, 0.5]], [[1], [1, 'x']]), 'upstream[1][1]');
    assertThrowsNaming(() => attention.softmaxBackward([[1], [0.5, 0.5]], [[1]]), 'upstream');
    assertThrowsNaming(() => attention.softmaxBackward([0.5, 0.5], [1n, 1]), 'input');
  });
});

describe('headDimStudy()', () => {
  it('raw scores at head_dim 128 are about 5–6× those at head_dim 4 (√32 ≈ 5.66); scaled, the same size', () => {
    const study = attention.headDimStudy({ head_dims: [4, 128], samples: 512, seed: 1 });
    const { comparison } = study;
    assert.equal(comparison.from_head_dim, 4);
    assert.equal(comparison.to_head_dim, 128);
    assert.ok(Math.abs(comparison.expected_raw_spread_ratio - Math.sqrt(32)) < 1e-6);
    assert.ok(Math.abs(comparison.raw_spread_ratio / Math.sqrt(32) - 1) < 0.05, `ratio ${comparison.raw_spread_ratio}`);
    assert.ok(comparison.raw_spread_ratio > 5 && comparison.raw_spread_ratio < 6);
    assert.ok(Math.abs(comparison.scaled_spread_ratio - 1) < 0.05, `scaled ratio ${comparison.scaled_spread_ratio}`);
  });

  it('gives each figure its standard error over the samples, and none (NaN) for one sample', () => {
    const study = attention.headDimStudy({ head_dims: [4, 128], samples: 512, seed: 1 });
    const { comparison } = study;
    // The ratio's own noise at 512 samples: about 1 % of it. The expected ratio lies within a
    // few standard errors of the measured one.
    const error = comparison.raw_spread_ratio_standard_error;
    assert.ok(error > 0.002 * Math.sqrt(32) && error < 0.03 * Math.sqrt(32), `standard error ${error}`);
    assert.ok(Math.abs(comparison.raw_spread_ratio - comparison.expected_raw_spread_ratio) < 4 * error,
      `${comparison.raw_spread_ratio} ± ${error} against ${comparison.expected_raw_spread_ratio}`);
    for (const point of study.points) {
      for (const value of [point.raw_score_spread_standard_error, point.scaled_score_spread_standard_error,
        point.unscaled.mean_largest_weight_standard_error, point.scaled.gradient_norm_standard_error]) {
        assert.ok(value > 0 && Number.isFinite(value), `head_dim ${point.head_dim}: ${value}`);
      }
    }
    const one = attention.headDimStudy({ head_dims: [4, 128], samples: 1 });
    assert.ok(Number.isNaN(one.comparison.raw_spread_ratio_standard_error));
    assert.ok(Number.isNaN(one.points[0].unscaled.gradient_norm_standard_error));
  });

  it('the default study: 8 head_dims up to 128, saturation and a fading gradient without scaling', () => {
    const study = attention.headDimStudy();
    assert.deepEqual(study.head_dims, [1, 2, 4, 8, 16, 32, 64, 128]);
    assert.equal(study.tokens, 8);
    assert.equal(study.samples, 256);
    assert.equal(study.scale, 'sqrt_d');
    assert.equal(study.mask, 'none');
    assert.equal(study.max_entropy.length, 8);
    assert.ok(Math.abs(study.max_entropy[0] - Math.log(8)) < 1e-6);
    const last = study.points.at(-1);
    assert.equal(last.head_dim, 128);
    for (const side of ['unscaled', 'scaled']) {
      for (const key of ['largest_weight', 'entropy', 'jacobian_norm']) assert.equal(last[side][key].length, 8, `${side}.${key}`);
    }
    assert.ok(last.unscaled.mean_largest_weight > 0.85, `${last.unscaled.mean_largest_weight}`);
    assert.ok(last.scaled.mean_largest_weight < 0.5);
    assert.ok(last.unscaled.gradient_norm < 0.5 * last.scaled.gradient_norm);
    assert.ok(last.unscaled.mean_entropy < last.scaled.mean_entropy);
  });

  it('every figure matches float64 recomputed here from the documented seeded streams', () => {
    const options = { head_dims: [3, 16, 128], tokens: 4, samples: 2, seed: 12345, scale: 'd', mask: 'causal' };
    const study = attention.headDimStudy(options);
    const T = options.tokens;
    study.points.forEach((point, n) => {
      const d = options.head_dims[n];
      assert.equal(point.head_dim, d);
      assert.equal(point.scale_divisor, d);
      const raw = [];
      const scaled = [];
      const sums = {
        unscaled: { largest: Array(T).fill(0), entropy: Array(T).fill(0), jacobian: Array(T).fill(0), gradient: 0 },
        scaled: { largest: Array(T).fill(0), entropy: Array(T).fill(0), jacobian: Array(T).fill(0), gradient: 0 },
      };
      for (let s = 0; s < options.samples; s++) {
        // Row i of a table is the first d numbers of the stream of (sample s, row i), drawn by
        // the polar method and rounded to float32.
        const rows = (stream) => Array.from({ length: T },
          (_, i) => polarNormals(deriveSeed(options.seed, stream, (BigInt(s) << 32n) + BigInt(i)), d).map(Math.fround));
        const q = rows(1);
        const k = rows(2);
        const upstream = normalMatrix(deriveSeed(options.seed, 3, BigInt(s)), T, T);
        const scores = q.map((qi) => k.map((kj) => dot(qi, kj)));
        raw.push(...scores.flat());
        scaled.push(...scores.flat().map((x) => x / d));
        for (const [side, divisor] of [['unscaled', 1], ['scaled', d]]) {
          let squares = 0;
          scores.forEach((row, i) => {
            const p = softmax(row.map((x, j) => (j <= i ? x / divisor : -Infinity)));
            sums[side].largest[i] += Math.max(...p);
            sums[side].entropy[i] -= p.reduce((sum, pj) => sum + (pj > 0 ? pj * Math.log(pj) : 0), 0);
            const jacobian = p.reduce((sum, pl, l) => sum + p.reduce((inner, pj, j) => inner + (pl * ((l === j ? 1 : 0) - pj)) ** 2, 0), 0);
            sums[side].jacobian[i] += Math.sqrt(jacobian);
            const gp = dot(upstream[i], p);
            p.forEach((pj, j) => { squares += (pj * (upstream[i][j] - gp)) ** 2; });
          });
          sums[side].gradient += Math.sqrt(squares);
        }
      }
      const spread = (values) => {
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        return Math.sqrt(values.reduce((sum, x) => sum + (x - mean) ** 2, 0) / values.length);
      };
      assertClose(point.raw_score_spread, spread(raw), 1e-5, `d ${d} raw spread`);
      assertClose(point.scaled_score_spread, spread(scaled), 1e-5, `d ${d} scaled spread`);
      for (const side of ['unscaled', 'scaled']) {
        const mean = (values) => values.map((x) => x / options.samples);
        assertClose(point[side].largest_weight, mean(sums[side].largest), 1e-4, `d ${d} ${side} largest_weight`);
        assertClose(point[side].entropy, mean(sums[side].entropy), 1e-4, `d ${d} ${side} entropy`);
        assertClose(point[side].jacobian_norm, mean(sums[side].jacobian), 1e-4, `d ${d} ${side} jacobian_norm`);
        assertClose(point[side].gradient_norm, sums[side].gradient / options.samples, 1e-4, `d ${d} ${side} gradient_norm`);
      }
    });
  });

  it('refuses bad options, naming them', () => {
    assertThrowsNaming(() => attention.headDimStudy({ head_dims: [4, 0] }), 'head_dims[1]');
    assertThrowsNaming(() => attention.headDimStudy({ head_dims: [4, 300] }), 'head_dims[1]');
    assertThrowsNaming(() => attention.headDimStudy({ tokens: 65 }), 'tokens');
    assertThrowsNaming(() => attention.headDimStudy({ samples: 1024, tokens: 64 }), 'samples');
    assertThrowsNaming(() => attention.headDimStudy({ seed: 2 ** 53 }), 'seed');
    assertThrowsNaming(() => attention.headDimStudy({ seed: NaN }), 'seed');
    assertThrowsNaming(() => attention.headDimStudy({ scale: 'root' }), 'scale');
    assertThrowsNaming(() => attention.headDimStudy({ compare: [4, 5] }), 'compare');
    assertThrowsNaming(() => attention.headDimStudy({ headDims: [4] }), 'headDims');
    assertThrowsNaming(() => attention.headDimStudy(null), 'input');
  });
});

describe('multiHead()', () => {
  function checkLayer(layer, mask = 'causal', scale = 'sqrt_d') {
    const T = layer.tokens.length;
    const headDim = layer.d_model / layer.n_heads;
    assert.equal(layer.head_dim, headDim);
    assert.equal(layer.heads.length, layer.n_heads);
    const concat = Array.from({ length: T }, () => []);
    layer.heads.forEach((head, h) => {
      const q = matmul(layer.x, head.w_q);
      const k = matmul(layer.x, head.w_k);
      const v = matmul(layer.x, head.w_v);
      assertClose(head.trace.q, q, 1e-5, `head ${h} q`);
      assertClose(head.trace.k, k, 1e-5, `head ${h} k`);
      assertClose(head.trace.v, v, 1e-5, `head ${h} v`);
      assert.equal(head.trace.mask, mask);
      assert.equal(head.trace.scale, scale);
      const ref = headF64({ q, k, v, mask, scale });
      assertClose(head.trace.masked, ref.masked, 1e-5, `head ${h} masked`);
      assertClose(head.trace.weights, ref.weights, 1e-5, `head ${h} weights`);
      assertClose(head.trace.out, ref.out, 1e-5, `head ${h} out`);
      ref.out.forEach((row, t) => concat[t].push(...row));
    });
    assertClose(layer.concat, concat, 1e-5, 'concat');
    assertClose(layer.out, matmul(concat, layer.w_o), 1e-4, 'out');
  }

  it('d_model 16, four heads of head_dim 4: every table matches float64', () => {
    const layer = attention.multiHead({ tokens: ['the', 'cat', 'sat', 'on'], d_model: 16, n_heads: 4, seed: 7 });
    assert.deepEqual(layer.tokens, ['the', 'cat', 'sat', 'on']);
    assert.equal(layer.d_model, 16);
    assert.equal(layer.n_heads, 4);
    assert.equal(layer.head_dim, 4);
    assert.equal(layer.x.length, 4);
    assert.ok(layer.x.every((row) => row.length === 16));
    assert.ok(layer.heads.every((head) => head.w_q.length === 16 && head.w_q[0].length === 4));
    assert.equal(layer.w_o.length, 16);
    assert.equal(layer.heads[0].trace.masked[0][1], -Infinity);
    checkLayer(layer);
  });

  it('the seeded tables are the documented streams', () => {
    const layer = attention.multiHead({ tokens: ['a', 'b', 'c'], seed: 99 });
    // Tables are float32 in the core, written with 9 significant digits: compare as float32.
    const f32 = (rows) => rows.map((row) => row.map(Math.fround));
    const same = (actual, expected, what) => assert.deepEqual(f32(actual), f32(expected), what);
    same(layer.x, gridValues(deriveSeed(99, 10), 3, 16), 'x');
    const bound = Math.sqrt(3 / 16);
    const weights = { min: -bound, max: bound, decimals: 2 };
    layer.heads.forEach((head, h) => {
      same(head.w_q, gridValues(deriveSeed(99, 11, BigInt(h)), 16, 4, weights), `w_q[${h}]`);
      same(head.w_k, gridValues(deriveSeed(99, 12, BigInt(h)), 16, 4, weights), `w_k[${h}]`);
      same(head.w_v, gridValues(deriveSeed(99, 13, BigInt(h)), 16, 4, weights), `w_v[${h}]`);
    });
    same(layer.w_o, gridValues(deriveSeed(99, 14), 16, 16, weights), 'w_o');
  });

  it('a given x, other head counts and the FAQ variants', () => {
    const x = [[1, 0, 0.5, -1, 0, 0.25], [0, 1, -0.5, 0, 2, 0], [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]];
    for (const nHeads of [1, 2, 3, 6]) {
      for (const [mask, scale] of [['causal', 'sqrt_d'], ['none', 'd'], ['causal_zero', 'none']]) {
        const layer = attention.multiHead({ tokens: ['x', 'y', 'z'], x, n_heads: nHeads, seed: 3, mask, scale });
        assert.equal(layer.d_model, 6);
        assert.deepEqual(layer.x.map((row) => row.map(Math.fround)), x.map((row) => row.map(Math.fround)));
        checkLayer(layer, mask, scale);
      }
    }
  });

  it('refuses bad layers, naming the field', () => {
    assertThrowsNaming(() => attention.multiHead({}), 'tokens');
    assertThrowsNaming(() => attention.multiHead({ tokens: [] }), 'tokens');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a', 7] }), 'tokens[1]');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], n_heads: 5 }), 'n_heads');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], d_model: 512 }), 'd_model');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a', 'b'], x: [[1, 2, 3, 4]] }), 'x');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], x: [[1, NaN, 3, 4]] }), 'x[0][1]');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], x: [[1, 2, 3, 4e6]] }), 'x[0][3]');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], d_model: 8, x: [[1, 2, 3, 4]] }), 'x[0]');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], mask: 'diagonal' }), 'mask');
    assertThrowsNaming(() => attention.multiHead({ tokens: ['a'], seed: -1 }), 'seed');
    assertThrowsNaming(() => attention.multiHead(undefined), 'input');
  });
});

describe('randomMatrix()', () => {
  it('gives exactly the numbers of the generator\'s definition, as short decimals', () => {
    assert.deepEqual(attention.randomMatrix({ rows: 2, cols: 5, seed: 42 }),
      [[0.5, -0.7, -0.5, -0.3, -1], [0.8, -0.6, 0.6, -0.3, 0.2]]);
    for (const [seed, range] of [[1, {}], [2 ** 53 - 1, { min: 0, max: 9, decimals: 0 }],
      [7, { min: -0.43, max: 0.43, decimals: 2 }], [8, { min: 0.35, max: 0.65, decimals: 1 }],
      [9, { min: -1e6, max: 1e6, decimals: 6 }]]) {
      const matrix = attention.randomMatrix({ rows: 4, cols: 6, seed, ...range });
      assert.deepEqual(matrix, gridValues(seed, 4, 6, range), `seed ${seed}, ${JSON.stringify(range)}`);
    }
  });

  it('refuses bad requests, naming the field', () => {
    assertThrowsNaming(() => attention.randomMatrix({ cols: 2 }), 'rows');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2 }), 'cols');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2.5, cols: 2 }), 'rows');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 300, cols: 300 }), 'cols');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2, cols: 2, min: 1, max: -1 }), 'max');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2, cols: 2, min: -Infinity }), 'min');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2, cols: 2, decimals: 7 }), 'decimals');
    assertThrowsNaming(() => attention.randomMatrix({ rows: 2, cols: 2, seed: 1.5 }), 'seed');
    assertThrowsNaming(() => attention.randomMatrix([2, 2]), 'input');
  });
});
