// The sequel's part of the module (built site, wasm core in Node): groupedAttention,
// latentAttention, flashTiles, flashTraffic, quantisedCache, kvBill and modelPresets. Every computed number is
// checked against float64 computed here from the formulas and from the tables the answer shows;
// the seeded tables and the rotation against a JavaScript implementation of their documented
// definitions; the bills against figures worked out by hand. Bad input throws an Error whose
// message starts with the field at fault.
//
// Run after the wasm build: node --test tests/web/sequel-api.test.mjs
// (ATTN_SITE_DIR may name another assembled site folder.)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertThrowsNaming } from '../support/assertions.mjs';
import { dot, headF64, matmul, transpose } from '../support/attention-f64.mjs';
import { SplitMix64, deriveSeed, gridValues } from '../support/seeded-random.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

// The rotation's definition (quantised_cache.h): Gram–Schmidt on rows of seeded normals.
function rotationF64(d, seed) {
  const random = new SplitMix64(deriveSeed(seed, 20));
  const rows = [];
  for (let i = 0; i < d; i += 1) {
    let row;
    let norm = 0;
    while (norm < 1e-6) {
      row = Array.from({ length: d }, () => random.nextNormal());
      for (const earlier of rows) {
        const projection = dot(row, earlier);
        row = row.map((x, c) => x - projection * earlier[c]);
      }
      norm = Math.sqrt(dot(row, row));
    }
    rows.push(row.map((x) => x / norm));
  }
  return rows;
}

const f32 = (rows) => rows.map((row) => row.map(Math.fround));

// The float64 layer from per-head q, k, v: attention per head, concatenation, · W_O.
function layerF64(qs, ks, vs, wO, mask, scale) {
  const heads = qs.map((q, h) => headF64({ q, k: ks[h], v: vs[h], mask, scale }));
  const concat = qs[0].map((_, t) => heads.flatMap((head) => head.out[t]));
  return { heads, concat, out: matmul(concat, wO) };
}

const fourWords = ['the', 'cat', 'sat', 'on'];
let attention;

before(async () => {
  attention = await createSiteAttention();
});

describe('sequel API', () => {
  it('has the sequel methods next to the others', () => {
    for (const name of ['groupedAttention', 'latentAttention', 'flashTiles', 'flashTraffic', 'quantisedCache', 'kvBill', 'modelPresets']) {
      assert.equal(typeof attention[name], 'function', name);
    }
  });
});

describe('groupedAttention()', () => {
  function checkLayer(layer, mask = 'causal', scale = 'sqrt_d') {
    const group = layer.n_heads / layer.n_kv_heads;
    assert.equal(layer.group_size, group);
    const ks = [];
    const vs = [];
    const qs = layer.heads.map((head, h) => {
      assert.equal(head.kv_head, Math.floor(h / group), `head ${h} reads K/V head ${Math.floor(h / group)}`);
      const kv = layer.kv_heads[head.kv_head];
      ks.push(matmul(layer.x, kv.w_k));
      vs.push(matmul(layer.x, kv.w_v));
      return matmul(layer.x, head.w_q);
    });
    layer.kv_heads.forEach((kv, g) => {
      assertClose(kv.k, ks[g * group], 1e-5, `K/V head ${g} k`);
      assertClose(kv.v, vs[g * group], 1e-5, `K/V head ${g} v`);
      assert.deepEqual(kv.query_heads, Array.from({ length: group }, (_, n) => g * group + n));
    });
    const ref = layerF64(qs, ks, vs, layer.w_o, mask, scale);
    layer.heads.forEach((head, h) => {
      assert.deepEqual(head.trace.k, layer.kv_heads[head.kv_head].k, `head ${h} reads the cached k`);
      assertClose(head.trace.masked, ref.heads[h].masked, 1e-5, `head ${h} masked`);
      assertClose(head.trace.weights, ref.heads[h].weights, 1e-5, `head ${h} weights`);
      assertClose(head.trace.out, ref.heads[h].out, 1e-5, `head ${h} out`);
    });
    assertClose(layer.concat, ref.concat, 1e-5, 'concat');
    assertClose(layer.out, ref.out, 1e-4, 'out');
  }

  it('defaults: the four tokens, d_model 16, four query heads sharing two K/V heads', () => {
    const layer = attention.groupedAttention();
    assert.equal(layer.variant, 'GQA');
    assert.deepEqual(layer.tokens, fourWords);
    assert.equal(layer.d_model, 16);
    assert.equal(layer.n_heads, 4);
    assert.equal(layer.n_kv_heads, 2);
    assert.equal(layer.head_dim, 4);
    assert.equal(layer.heads[0].trace.masked[0][1], -Infinity);
    checkLayer(layer);
    // The seeded tables are the documented streams of seed 1.
    const bound = Math.sqrt(3 / 16);
    const weights = { min: -bound, max: bound, decimals: 2 };
    assert.deepEqual(f32(layer.x), f32(gridValues(deriveSeed(1, 10), 4, 16)), 'x');
    layer.kv_heads.forEach((kv, g) => {
      assert.deepEqual(f32(kv.w_k), f32(gridValues(deriveSeed(1, 12, BigInt(g)), 16, 4, weights)), `w_k[${g}]`);
      assert.deepEqual(f32(kv.w_v), f32(gridValues(deriveSeed(1, 13, BigInt(g)), 16, 4, weights)), `w_v[${g}]`);
    });
  });

  it('MHA (n_kv_heads = n_heads) gives the multi-head layer\u2019s numbers exactly; MQA shares one K/V head', () => {
    const mha = attention.groupedAttention({ n_kv_heads: 4, seed: 5 });
    assert.equal(mha.variant, 'MHA');
    const multi = attention.multiHead({ tokens: fourWords, seed: 5 });
    assert.deepEqual(mha.out, multi.out);
    mha.heads.forEach((head, h) => assert.deepEqual(head.trace, multi.heads[h].trace, `head ${h}`));
    const mqa = attention.groupedAttention({ n_kv_heads: 1, seed: 5 });
    assert.equal(mqa.variant, 'MQA');
    assert.equal(mqa.kv_heads.length, 1);
    assert.deepEqual(mqa.kv_heads[0].k, mha.kv_heads[0].k);
    checkLayer(mqa);
  });

  it('other shapes, a given x and the FAQ variants match float64', () => {
    const x = [[1, 0, 0.5, -1, 0, 0.25], [0, 1, -0.5, 0, 2, 0], [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]];
    for (const [nHeads, nKv] of [[6, 3], [6, 2], [6, 1], [2, 2]]) {
      for (const [mask, scale] of [['causal', 'sqrt_d'], ['none', 'd'], ['causal_zero', 'none']]) {
        const layer = attention.groupedAttention({ tokens: ['x', 'y', 'z'], x, n_heads: nHeads, n_kv_heads: nKv, seed: 3, mask, scale });
        assert.equal(layer.d_model, 6);
        checkLayer(layer, mask, scale);
      }
    }
    checkLayer(attention.groupedAttention({ tokens: 'a b c d e f g'.split(' '), d_model: 32, n_heads: 8, n_kv_heads: 2, seed: 12 }));
  });

  it('carries the toy bill', () => {
    const { bill } = attention.groupedAttention();
    assert.equal(bill.attention, 'GQA');
    assert.equal(bill.bytes_per_token_per_layer, 2 * 2 * 4 * 4);  // 2 · n_kv_heads · head_dim · 4 bytes
    assert.equal(bill.working, '2 · 2 · 4 · 4 = 64');
    assert.equal(bill.bytes_per_sequence, 64 * 4);
    assert.equal(bill.parameters, 768);
  });

  it('refuses bad groupings and layers, naming the field', () => {
    assertThrowsNaming(() => attention.groupedAttention({ n_kv_heads: 3 }), 'n_kv_heads', 'must divide n_heads (4)');
    assertThrowsNaming(() => attention.groupedAttention({ n_heads: 8, n_kv_heads: 16 }), 'n_kv_heads', 'must divide n_heads (8)');
    assertThrowsNaming(() => attention.groupedAttention({ n_kv_heads: 0 }), 'n_kv_heads');
    assertThrowsNaming(() => attention.groupedAttention({ n_heads: 5 }), 'n_heads');
    assertThrowsNaming(() => attention.groupedAttention({ tokens: ['a', 7] }), 'tokens[1]');
    assertThrowsNaming(() => attention.groupedAttention({ tokens: ['a'], x: [[1, NaN]] }), 'x[0][1]', 'NaN');
    assertThrowsNaming(() => attention.groupedAttention({ w_k: [] }), 'w_k');
    assertThrowsNaming(() => attention.groupedAttention(null), 'input');
  });
});

describe('latentAttention()', () => {
  function checkLayer(layer, mask = 'causal', scale = 'sqrt_d') {
    const latent = matmul(layer.x, layer.w_dkv);
    assertClose(layer.latent, latent, 1e-5, 'latent');
    const qs = layer.heads.map((head) => matmul(layer.x, head.w_q));
    const ks = layer.heads.map((head) => matmul(latent, head.w_uk));
    const vs = layer.heads.map((head) => matmul(latent, head.w_uv));
    const ref = layerF64(qs, ks, vs, layer.w_o, mask, scale);
    layer.heads.forEach((head, h) => {
      assertClose(head.trace.k, ks[h], 1e-5, `head ${h} k`);
      assertClose(head.trace.weights, ref.heads[h].weights, 1e-5, `head ${h} weights`);
      assertClose(head.trace.out, ref.heads[h].out, 1e-5, `head ${h} out`);
    });
    assertClose(layer.out, ref.out, 1e-4, 'out');
  }

  it('defaults: d_latent 8, only the latent cached, against float64', () => {
    const layer = attention.latentAttention();
    assert.equal(layer.variant, 'MLA');
    assert.deepEqual(layer.tokens, fourWords);
    assert.equal(layer.d_latent, 8);
    assert.match(layer.positional_encoding, /^left out/);
    assert.equal(layer.latent.length, 4);
    assert.ok(layer.latent.every((row) => row.length === 8));
    checkLayer(layer);
    assert.equal(layer.bill.attention, 'MLA');
    assert.equal(layer.bill.bytes_per_token_per_layer, 8 * 4);
    // W_DKV and the up-projections are their documented streams.
    const grid = (fanIn) => ({ min: -Math.sqrt(3 / fanIn), max: Math.sqrt(3 / fanIn), decimals: 2 });
    assert.deepEqual(f32(layer.w_dkv), f32(gridValues(deriveSeed(1, 15), 16, 8, grid(16))));
    assert.deepEqual(f32(layer.heads[2].w_uk), f32(gridValues(deriveSeed(1, 16, 2n), 8, 4, grid(8))));
    assert.deepEqual(f32(layer.heads[3].w_uv), f32(gridValues(deriveSeed(1, 17, 3n), 8, 4, grid(8))));
  });

  it('a full-rank latent equals MHA with the composed weights (float64)', () => {
    const layer = attention.latentAttention({ d_latent: 16, seed: 8, mask: 'none' });
    checkLayer(layer, 'none');
    const qs = layer.heads.map((head) => matmul(layer.x, head.w_q));
    const ks = layer.heads.map((head) => matmul(layer.x, matmul(layer.w_dkv, head.w_uk)));
    const vs = layer.heads.map((head) => matmul(layer.x, matmul(layer.w_dkv, head.w_uv)));
    assertClose(layer.out, layerF64(qs, ks, vs, layer.w_o, 'none').out, 1e-4, 'out against composed MHA');
  });

  it('refuses bad sizes, naming the field', () => {
    assertThrowsNaming(() => attention.latentAttention({ d_latent: 0 }), 'd_latent');
    assertThrowsNaming(() => attention.latentAttention({ d_latent: 1000 }), 'd_latent');
    assertThrowsNaming(() => attention.latentAttention({ tokens: ['a'], x: [[1, 5000]] }), 'x[0][1]', '1e3');
    assertThrowsNaming(() => attention.latentAttention({ n_kv_heads: 2 }), 'n_kv_heads');
  });
});

describe('flashTiles()', () => {
  function checkTiles(tiles, mask) {
    const { q, k, v } = tiles;
    const T = q.length;
    const ref = headF64({ q, k, v, mask });
    assertClose(tiles.out, ref.out, 1e-5, 'tiled out');
    assertClose(tiles.untiled_out, ref.out, 1e-5, 'untiled out');
    assert.ok(tiles.max_abs_difference < 1e-5);
    assert.equal(tiles.steps.length, tiles.query_tiles * tiles.key_tiles);
    assert.equal(tiles.query_tiles, Math.ceil(T / tiles.block_rows));
    assert.equal(tiles.key_tiles, Math.ceil(T / tiles.block_cols));
    let skipped = 0;
    for (const step of tiles.steps) {
      const aboveDiagonal = mask === 'causal' && step.col_begin > step.row_end - 1;
      assert.equal(step.skipped, aboveDiagonal, `tile ${step.query_tile},${step.key_tile}`);
      if (step.skipped) {
        skipped += 1;
        assert.equal(step.scores, null);
        continue;
      }
      step.scores.forEach((row, a) => row.forEach((score, b) => {
        const i = step.row_begin + a;
        const j = step.col_begin + b;
        assertClose(score, ref.masked[i][j], 1e-5, `score ${i},${j}`);
      }));
      step.max_after.forEach((m, a) => {
        assert.equal(m, Math.max(step.max_before[a], step.tile_max[a]));
        const expected = step.max_before[a] === -Infinity ? 0 : Math.exp(step.max_before[a] - m);
        assertClose(step.rescale[a], expected, 1e-6, 'rescale');
        const tileSum = step.exponentials[a].reduce((x, y) => x + y, 0);
        assertClose(step.sum_after[a], step.sum_before[a] * step.rescale[a] + tileSum, 1e-5, 'running sum');
      });
    }
    assert.equal(tiles.skipped_tiles, skipped);
    // The final running max and sum: the row's largest live score and Σ e^(score - max).
    ref.masked.forEach((row, i) => {
      const max = Math.max(...row);
      assertClose(tiles.row_max[i], max, 1e-5, `row_max[${i}]`);
      assertClose(tiles.row_sum[i], row.reduce((sum, s) => sum + Math.exp(s - max), 0), 1e-5, `row_sum[${i}]`);
    });
  }

  it('defaults: head 0 of the toy layer on 2 × 2 tiles, one tile skipped, equal to 4 decimals', () => {
    const tiles = attention.flashTiles();
    assert.deepEqual(tiles.tokens, fourWords);
    assert.equal(tiles.block_rows, 2);
    assert.equal(tiles.block_cols, 2);
    assert.equal(tiles.skipped_tiles, 1);
    assert.equal(tiles.source.kind, 'seeded_head');
    assert.equal(tiles.decimals, 4);
    assert.equal(tiles.agrees_to_decimals, true);
    assert.deepEqual(tiles.out.map((row) => row.map((x) => x.toFixed(4))),
      tiles.untiled_out.map((row) => row.map((x) => x.toFixed(4))));
    assert.equal(tiles.steps[0].max_before[0], -Infinity);
    const multi = attention.multiHead({ tokens: fourWords, seed: 1 });
    assert.deepEqual(tiles.q, multi.heads[0].trace.q);
    assert.deepEqual(tiles.untiled_out, multi.heads[0].trace.out);
    checkTiles(tiles, 'causal');
  });

  it('every tile size on seven tokens, both masks, dividing T or not', () => {
    const tokens = 'the cat sat on the mat today'.split(' ');
    for (const mask of ['causal', 'none']) {
      for (let rows = 1; rows <= 7; rows += 1) {
        for (let cols = 1; cols <= 7; cols += 1) {
          checkTiles(attention.flashTiles({ tokens, head: 1, seed: 4, mask, block_rows: rows, block_cols: cols }), mask);
        }
      }
    }
  });

  it('takes the article\u2019s q, k, v', () => {
    const { four_words: input } = attention.article();
    const tiles = attention.flashTiles({ tokens: input.tokens, q: input.q, k: input.k, v: input.v, block_rows: 3, block_cols: 2 });
    assert.equal(tiles.source.kind, 'given');
    checkTiles(tiles, 'causal');
    const cat = tiles.steps[0].exponentials[1];
    assertClose(cat[0] / (cat[0] + cat[1]), 0.784, 1e-3, 'cat splits 0.784 / 0.216');
  });

  it('refuses bad tiles, naming the field', () => {
    assertThrowsNaming(() => attention.flashTiles({ block_rows: 0 }), 'block_rows');
    assertThrowsNaming(() => attention.flashTiles({ block_cols: 5 }), 'block_cols', 'from 1 to 4');
    assertThrowsNaming(() => attention.flashTiles({ decimals: 12 }), 'decimals');
    assertThrowsNaming(() => attention.flashTiles({ mask: 'causal_zero' }), 'mask');
    assertThrowsNaming(() => attention.flashTiles({ q: [[1]] }), 'k');
    assertThrowsNaming(() => attention.flashTiles({ tokens: ['a'], q: [[1]], k: [[1]], v: [[Infinity]] }), 'v[0][0]');
    assertThrowsNaming(() => attention.flashTiles({ head: 4 }), 'head');
  });
});

describe('quantisedCache()', () => {
  it('defaults: a random rotation that matches its definition and is orthogonal', () => {
    const cache = attention.quantisedCache();
    assert.deepEqual(cache.tokens, fourWords);
    assert.equal(cache.rotation, 'random');
    const r = cache.rotation_matrix;
    const d = r.length;
    assert.equal(d, 4);
    assertClose(r, rotationF64(d, 1), 1e-6, 'R from its definition');
    const identity = matmul(r, transpose(r));
    identity.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - (i === j ? 1 : 0)) <= 1e-5)));
    assert.deepEqual(cache.levels.map((level) => level.bits), [8, 4, 3, 2]);
    assert.equal(cache.unquantised_bytes_per_token, 32);
    assert.deepEqual(cache.levels.map((level) => level.bytes_per_token), [16, 12, 12, 10]);
  });

  it('each bit width: the quantiser, the read-back attention and its error, against float64', () => {
    for (const rotation of ['random', 'none']) {
      const cache = attention.quantisedCache({ rotation, d_model: 32, n_heads: 2, tokens: 'a b c d e f'.split(' '), seed: 6 });
      const { q, k, v } = cache.reference;
      const reference = headF64({ q, k, v });
      assertClose(cache.reference.out, reference.out, 1e-5, 'reference out');
      assertClose(cache.k_rotated, matmul(k, cache.rotation_matrix), 1e-5, 'k · R');
      let previous = null;
      for (const level of cache.levels) {
        const L = 2 ** (level.bits - 1) - 1;
        assert.equal(level.levels_each_side, L);
        for (const [name, rows, rotated] of [['k', level.k, cache.k_rotated], ['v', level.v, cache.v_rotated]]) {
          rotated.forEach((row, t) => {
            const scale = Math.max(...row.map(Math.abs)) / L;
            assertClose(rows.scales[t], scale, 1e-6, `${name} scale ${t}`);
            row.forEach((y, c) => {
              const code = rows.codes[t][c];
              assert.ok(Number.isInteger(code) && Math.abs(code) <= L, `${name} code ${code}`);
              assert.ok(Math.abs(code * rows.scales[t] - y) <= 0.5 * rows.scales[t] * (1 + 1e-5) + 1e-9, `${name} nearest level`);
            });
          });
          assertClose(rows.restored, matmul(rows.dequantised, transpose(cache.rotation_matrix)), 1e-5, `${name} restored`);
        }
        const read = headF64({ q, k: level.k.restored, v: level.v.restored });
        assertClose(level.trace.out, read.out, 1e-5, `${level.bits} bits: out`);
        const maxAbs = (a, b) => Math.max(...a.flat().map((x, n) => Math.abs(x - b.flat()[n])));
        assertClose(level.out_error.max_abs, maxAbs(level.trace.out, cache.reference.out), 1e-6, 'out max_abs');
        assertClose(level.weights_error.max_abs, maxAbs(level.trace.weights, cache.reference.weights), 1e-6, 'weights max_abs');
        if (previous) {
          assert.ok(level.out_error.relative > previous.out_error.relative,
            `${rotation}: fewer bits (${level.bits}) give a larger error than ${previous.bits}`);
        }
        previous = level;
      }
      assert.ok(cache.levels[0].out_error.relative < 0.01, '8 bits are close');
    }
  });

  it('refuses bad options, naming the field', () => {
    assertThrowsNaming(() => attention.quantisedCache({ bits: [8, 5] }), 'bits[1]', '2, 3, 4 or 8');
    assertThrowsNaming(() => attention.quantisedCache({ bits: [] }), 'bits');
    assertThrowsNaming(() => attention.quantisedCache({ rotation: 'hadamard' }), 'rotation');
  });
});

describe('kvBill() and modelPresets()', () => {
  const GPU_80_GIB = 80 * 2 ** 30;  // 85,899,345,920 bytes

  it('lists an MHA, a GQA, an MQA and an MLA preset, each with its source', () => {
    const presets = attention.modelPresets();
    for (const kind of ['MHA', 'GQA', 'MQA', 'MLA']) assert.ok(presets.some((p) => p.attention === kind), kind);
    for (const preset of presets) {
      assert.match(preset.citation, /^https:\/\/huggingface\.co\/.+\/config\.json$/);
      assert.ok(preset.parameters > 0 && preset.layers > 0);
    }
  });

  it('the presets\u2019 bills, worked out by hand', () => {
    const cases = [
      // [preset, bytes per token per layer, per token, per sequence at the preset's context,
      //  weight bytes, sequences on 80 GiB]
      ['llama-2-7b', 2 * 32 * 128 * 2, 16384 * 32, 524288 * 4096, 6738415616 * 2, 33],
      ['llama-3-8b', 2 * 8 * 128 * 2, 4096 * 32, 131072 * 8192, 8030261248 * 2, 65],
      ['falcon-7b', 2 * 1 * 64 * 2, 256 * 32, 8192 * 2048, 6921720704 * 2, 4294],
      ['deepseek-v2-lite', (512 + 64) * 2, 1152 * 27, 31104 * 32768, 15.7e9 * 2, 53],
      ['deepseek-v3', (512 + 64) * 2, 1152 * 61, 70272 * 163840, 671e9, 0],
    ];
    for (const [preset, perLayer, perToken, perSequence, weights, sequences] of cases) {
      const bill = attention.kvBill({ preset });
      assert.equal(bill.preset, preset);
      assert.equal(bill.bytes_per_token_per_layer, perLayer, `${preset} per layer`);
      assert.equal(bill.bytes_per_token, perToken, `${preset} per token`);
      assert.equal(bill.bytes_per_sequence, perSequence, `${preset} per sequence`);
      assert.equal(bill.weight_bytes, weights, `${preset} weights`);
      assert.equal(bill.gpu_bytes, GPU_80_GIB);
      assert.equal(bill.concurrent_sequences, sequences, `${preset} sequences`);
      assert.equal(bill.concurrent_sequences, weights >= GPU_80_GIB ? 0 : Math.floor((GPU_80_GIB - weights) / perSequence));
    }
  });

  it('the toy\u2019s bill for each variant, and a reader\u2019s own shape', () => {
    assert.equal(attention.kvBill().bytes_per_token_per_layer, 64);                  // GQA: 2 · 2 · 4 · 4
    assert.equal(attention.kvBill({ n_kv_heads: 4 }).bytes_per_token_per_layer, 128);  // MHA
    assert.equal(attention.kvBill({ n_kv_heads: 1 }).attention, 'MQA');
    assert.equal(attention.kvBill({ d_latent: 8 }).bytes_per_token_per_layer, 32);    // MLA: 8 · 4
    const own = attention.kvBill({ preset: 'llama-3-8b', kv_bits: 4, context_length: 32768, batch: 16, gpu_memory_gib: 141 });
    assert.equal(own.bytes_per_token_per_layer, 16 * (128 * 4 / 8 + 4));  // 1088
    assert.equal(own.cache_bytes, 1088 * 32 * 32768 * 16);
    assert.equal(own.fits, 8030261248 * 2 + 1088 * 32 * 32768 * 16 <= 141 * 2 ** 30);
    assert.equal(own.working, '2 · 8 · (⌈128 · 4 / 8⌉ + 4) = 1088');
  });

  it('refuses bad shapes, naming the field', () => {
    assertThrowsNaming(() => attention.kvBill({ preset: 'gpt-9' }), 'preset', 'llama-3-8b');
    assertThrowsNaming(() => attention.kvBill({ preset: 'llama-3-8b', n_kv_heads: 5 }), 'n_kv_heads', 'must divide n_heads (32)');
    assertThrowsNaming(() => attention.kvBill({ preset: 'deepseek-v3', head_dim: 128 }), 'head_dim');
    assertThrowsNaming(() => attention.kvBill({ dtype_bytes: 3 }), 'dtype_bytes');
    assertThrowsNaming(() => attention.kvBill({ gpu_memory_gib: -1 }), 'gpu_memory_gib');
    assertThrowsNaming(() => attention.kvBill({ context_length: 1.5 }), 'context_length');
    assertThrowsNaming(() => attention.kvBill({ batch: NaN }), 'batch');
  });
});
