// The ES module pages import (attention-explainer.js), run in Node against the built wasm core:
// the article's walkthrough matches float64 and the printed numbers, bad input throws an Error
// whose message starts with the field at fault, and the step-6 demonstration, the article
// check and the kernel list are all there.
//
// Run after the wasm build: node --test tests/web/attention-explainer.test.mjs
// (ATTN_SITE_DIR may name another assembled site folder.)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { headF64, softmax } from '../support/attention-f64.mjs';
import { createSiteAttention, importExplainer, modulePath } from '../support/site-module.mjs';

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  expected.forEach((row, i) => {
    assert.equal(actual[i].length, row.length, `${what}[${i}]: length`);
    row.forEach((x, j) => {
      const y = actual[i][j];
      if (x === -Infinity) assert.equal(y, -Infinity, `${what}[${i}][${j}]`);
      else assert.ok(Math.abs(y - x) <= tolerance, `${what}[${i}][${j}] = ${y}, float64 says ${x}`);
    });
  });
}

// The article's two words, as its tables print them, for the bad-input table.
const article = {
  tokens: ['the', 'cat'],
  q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2, 0.3]],
  k: [[-0.4, -0.3, 0.2, 1.2], [1.6, -0.7, -0.4, -0.5]],
  v: [[-0.5, -0.4, 0.1, 1.1], [1.2, -0.3, -0.2, -0.6]],
  mask: 'causal',
};
const withChanges = (changes) => ({ ...structuredClone(article), ...changes });
const rows = (T, d, x = 0.5) => Array.from({ length: T }, () => Array(d).fill(x));
const head = (T, d) => ({
  tokens: Array.from({ length: T }, (_, t) => `w${t}`), q: rows(T, d), k: rows(T, d), v: rows(T, d),
});
const withCell = (matrix, r, c, value) => {
  const input = structuredClone(article);
  input[matrix][r][c] = value;
  return input;
};

let attention;

before(async () => {
  attention = await createSiteAttention();
});

describe('createAttention', () => {
  it('resolves to the documented API, and a second call works too', async () => {
    for (const name of ['run', 'article', 'scoreNextWord', 'checkArticle', 'kernels']) {
      assert.equal(typeof attention[name], 'function', name);
    }
    const { createAttention } = await importExplainer();
    const again = await createAttention();
    assert.deepEqual(again.run(attention.article().two_words).out, attention.run(attention.article().two_words).out);
  });
});

describe('article()', () => {
  it('holds the article inputs, the worked rows and the vocabulary', () => {
    const data = attention.article();
    assert.deepEqual(data.two_words.tokens, ['the', 'cat']);
    assert.equal(data.two_words.mask, 'causal');
    // As the article's tables print them, to three decimals.
    assert.deepEqual(data.two_words.q.map((row) => row.map((x) => x.toFixed(3))),
      [['0.300', '-0.200', '0.500', '0.100'], ['1.100', '-0.800', '0.200', '0.300']]);
    assert.deepEqual(data.two_words.k.map((row) => row.map((x) => x.toFixed(3))),
      [['-0.400', '-0.300', '0.200', '1.200'], ['1.600', '-0.700', '-0.400', '-0.500']]);
    assert.deepEqual(data.two_words.v.map((row) => row.map((x) => x.toFixed(3))),
      [['-0.500', '-0.400', '0.100', '1.100'], ['1.200', '-0.300', '-0.200', '-0.600']]);
    assert.deepEqual(data.four_words.tokens, ['the', 'cat', 'sat', 'on']);
    assert.ok(data.four_words_worked_rows.includes(1));
    assert.ok(data.four_words_worked_rows.every((row) => Number.isInteger(row) && row >= 0 && row < 4));
    assert.deepEqual(data.vocabulary.words, ['sat', 'ran', 'is']);
    assert.equal(data.vocabulary.vectors.length, 3);
    assert.ok(data.vocabulary.vectors.every((row) => row.length === 4));
  });

  it('returns a fresh copy each time (callers may edit it)', () => {
    const data = attention.article();
    data.two_words.q[0][0] = 99;
    assert.equal(attention.article().two_words.q[0][0].toFixed(3), '0.300');
  });
});

describe('run()', () => {
  it('two words: every table matches float64 within 1e-6', () => {
    const input = attention.article().two_words;
    const trace = attention.run(input);
    const ref = headF64(input);
    assert.deepEqual(trace.tokens, ['the', 'cat']);
    assert.equal(trace.mask, 'causal');
    assert.equal(trace.token_count, 2);
    assert.equal(trace.head_dim, 4);
    assert.equal(trace.scale_divisor, 2);
    assertClose(trace.scores, ref.scores, 1e-6, 'scores');
    assertClose(trace.scaled, ref.scaled, 1e-6, 'scaled');
    assertClose(trace.masked, ref.masked, 1e-6, 'masked');
    assertClose(trace.weights, ref.weights, 1e-6, 'weights');
    assertClose(trace.out, ref.out, 1e-6, 'out');
    assert.deepEqual(trace.row_shifted, [false, false]);
    // Unshifted exponentials, as the article prints them.
    assert.ok(Math.abs(trace.exponentials[1][0] - Math.exp(ref.masked[1][0])) <= 1e-6);
    assert.ok(Math.abs(trace.exponentials[1][1] - Math.exp(ref.masked[1][1])) <= 1e-6);
  });

  it('two words: the numbers the article prints, at its precision', () => {
    const t = attention.run(attention.article().two_words);
    const fixed = (rows, decimals) => rows.map((row) => row.map((x) => x.toFixed(decimals)));
    assert.deepEqual(t.score_terms[1][1].map((x) => x.toFixed(2)), ['1.76', '0.56', '-0.08', '-0.15']);
    assert.deepEqual(t.score_terms[1][0].map((x) => x.toFixed(2)), ['-0.44', '0.24', '0.04', '0.36']);
    // Summed left to right in float32, the terms give the score exactly (nine significant
    // digits identify a float32, so Math.fround recovers each one).
    const sum = t.score_terms[1][1].reduce((a, b) => Math.fround(a + Math.fround(b)), 0);
    assert.equal(sum, Math.fround(t.scores[1][1]));
    assert.deepEqual(fixed(t.scores, 3), [['0.160', '0.370'], ['0.200', '2.090']]);
    assert.deepEqual(fixed(t.scaled, 3), [['0.080', '0.185'], ['0.100', '1.045']]);
    assert.equal(t.masked[0][1], -Infinity);
    assert.deepEqual([t.masked[0][0], t.masked[1][0], t.masked[1][1]].map((x) => x.toFixed(3)), ['0.080', '0.100', '1.045']);
    assert.equal(t.exponentials[0][1], 0);
    assert.deepEqual(t.exponentials[1].map((x) => x.toFixed(4)), ['1.1052', '2.8434']);
    assert.equal(t.row_totals[1].toFixed(4), '3.9486');
    assert.deepEqual(t.weights[1].map((x) => x.toFixed(4)), ['0.2799', '0.7201']);
    assert.deepEqual(t.weights[1].map((x) => `${Math.round(x * 100)}%`), ['28%', '72%']);
    assert.deepEqual(t.weights[0], [1, 0]);
    assert.deepEqual(t.weight_sums.map((x) => x.toFixed(4)), ['1.0000', '1.0000']);
    assert.deepEqual(fixed(t.weighted_values[1], 4),
      [['-0.1399', '-0.1120', '0.0280', '0.3079'], ['0.8641', '-0.2160', '-0.1440', '-0.4321']]);
    assert.deepEqual(t.out[1].map((x) => x.toFixed(4)), ['0.7242', '-0.3280', '-0.1160', '-0.1242']);
    assert.deepEqual(t.out[1].map((x) => x.toFixed(3)), ['0.724', '-0.328', '-0.116', '-0.124']);
  });

  it('four words: row 1 (cat) splits 0.784 / 0.216 and nothing above the diagonal', () => {
    const input = attention.article().four_words;
    const t = attention.run(input);
    assert.deepEqual(t.weights[1].slice(0, 2).map((x) => x.toFixed(3)), ['0.784', '0.216']);
    assertClose(t.weights, headF64(input).weights, 1e-6, 'weights');
    t.weights.forEach((row, i) => {
      row.forEach((w, j) => {
        if (j > i) {
          assert.equal(w, 0);
          assert.equal(t.masked[i][j], -Infinity);
        }
      });
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) <= 1e-6);
    });
  });

  it('mask "none": no -Infinity and every weight positive; the mask defaults to causal', () => {
    const { mask, ...input } = attention.article().two_words;
    const open = attention.run({ ...input, mask: 'none' });
    assert.equal(open.mask, 'none');
    assert.ok(open.masked.flat().every(Number.isFinite));
    assert.ok(open.weights.flat().every((w) => w > 0));
    assertClose(open.out, headF64({ ...input, mask: 'none' }).out, 1e-6, 'out');
    assert.equal(attention.run(input).mask, 'causal');
  });

  it('scores near 1e4 stay finite and the rows are shifted', () => {
    // q_i · k_j = 12288 + 192 i + j (1 + i/64), exact in float32: e^score overflows naively.
    const input = {
      tokens: ['big', 'bigger', 'biggest'],
      q: [[128], [130], [132]],
      k: [[96], [96 + 1 / 128], [96 + 2 / 128]],
      v: [[0.5], [1], [1.5]],
      mask: 'causal',
    };
    const t = attention.run(input);
    assert.deepEqual(t.row_shifted, [true, true, true]);
    assertClose(t.weights, headF64(input).weights, 1e-6, 'weights');
    assertClose(t.out, headF64(input).out, 1e-5, 'out');
  });

  it('accepts inputs at the documented limits (64 tokens, head_dim 256, |value| 1e15)', () => {
    assert.equal(attention.run(head(64, 2)).token_count, 64);
    assert.equal(attention.run(head(2, 256)).head_dim, 256);
    const t = attention.run(withCell('v', 0, 0, 1e15));
    assert.equal(Math.fround(t.out[0][0]), Math.fround(1e15), 'the attends only to itself');
  });

  it('does not modify its input', () => {
    const input = attention.article().two_words;
    const copy = structuredClone(input);
    attention.run(input);
    assert.deepEqual(input, copy);
  });
});

// [what, input, the path the message must start with]
const badInputs = [
  // The same table as the CLI's, as JS objects.
  ['missing tokens', { q: article.q, k: article.k, v: article.v }, 'tokens'],
  ['missing q', { tokens: article.tokens, k: article.k, v: article.v }, 'q'],
  ['ragged q rows', withChanges({ q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2]] }), 'q[1]'],
  ['k has three rows', withChanges({ k: rows(3, 4) }), 'k'],
  ['v rows wider than q rows', withChanges({ v: rows(2, 5) }), 'v[0]'],
  ['three tokens for two rows', withChanges({ tokens: ['the', 'cat', 'sat'] }), 'q'],
  ['zero tokens', { tokens: [], q: [], k: [], v: [] }, 'tokens'],
  ['head_dim 0', { tokens: ['a', 'b'], q: [[], []], k: [[], []], v: [[], []] }, 'q[0]'],
  ['a string "1" as a value', withCell('q', 0, 1, '1'), 'q[0][1]'],
  ['null as a value', withCell('k', 1, 2, null), 'k[1][2]'],
  ['unknown mask "diagonal"', withChanges({ mask: 'diagonal' }), 'mask'],
  ['65 tokens (limit 64)', head(65, 2), 'tokens'],
  ['head_dim 257 (limit 256)', head(2, 257), 'q[0]'],
  ['a value of 1e300', withCell('v', 1, 2, 1e300), 'v[1][2]'],
  ['an unknown member', withChanges({ scale: 2 }), 'scale'],
  // JS-specific.
  ['NaN', withCell('q', 1, 3, NaN), 'q[1][3]'],
  ['Infinity', withCell('v', 0, 0, Infinity), 'v[0][0]'],
  ['-Infinity', withCell('k', 1, 1, -Infinity), 'k[1][1]'],
  ['undefined as a value', withCell('q', 0, 2, undefined), 'q[0][2]'],
  ['a hole in a row', withChanges({ q: [[0.3, , 0.5, 0.1], [1.1, -0.8, 0.2, 0.3]] }), 'q[0][1]'], // eslint-disable-line no-sparse-arrays
  ['a bigint as a value', withCell('q', 0, 0, 1n), 'input'],
  ['a row that is a string', withChanges({ q: [[0.3, -0.2, 0.5, 0.1], '1,2,3,4'] }), 'q[1]'],
  ['a row that is an object', withChanges({ v: [{ 0: 1, 1: 2, 2: 3, 3: 4 }, [1.2, -0.3, -0.2, -0.6]] }), 'v[0]'],
  ['a typed-array row', withChanges({ k: [new Float32Array(4), [1.6, -0.7, -0.4, -0.5]] }), 'k[0]'],
  ['q that is a string', withChanges({ q: 'abc' }), 'q'],
  ['tokens that are a string', withChanges({ tokens: 'the cat' }), 'tokens'],
  ['a token that is a number', withChanges({ tokens: ['the', 2] }), 'tokens[1]'],
  ['mask undefined-as-null', withChanges({ mask: null }), 'mask'],
  ['input null', null, 'input'],
  ['input undefined', undefined, 'input'],
  ['input a number', 42, 'input'],
  ['input a string', 'the cat', 'input'],
  ['input an array', [article], 'input'],
];

describe('which cells the mask hid', () => {
  it('run() and every multiHead() head: hidden[i][j] is true exactly when j > i, under the causal masks', () => {
    const input = head(4, 2);
    const rule = (mask) => Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (__, j) => mask !== 'none' && j > i));
    for (const mask of ['causal', 'none', 'causal_zero']) {
      const trace = attention.run({ ...input, mask });
      assert.deepEqual(trace.hidden, rule(mask), `run(), ${mask}`);
      for (let i = 0; i < 4; i += 1) {
        for (let j = 0; j < 4; j += 1) {
          if (trace.hidden[i][j]) assert.equal(trace.masked[i][j], mask === 'causal_zero' ? 0 : -Infinity);
        }
      }
      const layer = attention.multiHead({ tokens: ['a', 'b', 'c', 'd'], mask });
      for (const [h, { trace: headTrace }] of layer.heads.entries()) {
        assert.deepEqual(headTrace.hidden, rule(mask), `multiHead() head ${h}, ${mask}`);
      }
    }
  });
});

describe('vocabulary()', () => {
  it('names every mask and scale variant once, each accepted by run() and tracer()', () => {
    const { masks, scales } = attention.vocabulary();
    assert.deepEqual(masks.map((m) => m.name).sort(), ['causal', 'causal_zero', 'none']);
    assert.deepEqual(scales.map((s) => s.name).sort(), ['d', 'none', 'sqrt_d']);
    const input = head(2, 4);
    for (const { name, description, hides_later_words: hides } of masks) {
      assert.ok(description.length > 20, `${name} is described`);
      assert.equal(attention.run({ ...input, mask: name }).mask, name);
      assert.equal(attention.run({ ...input, mask: name }).hidden[0][1], hides);
      const tracer = attention.tracer({ t: 2, d: 4, mask: name });
      assert.equal(tracer.mask, name);
      tracer.dispose();
    }
    for (const { name, divisor } of scales) {
      // head_dim 4: ÷ √4 = 2, ÷ 4, ÷ 1.
      const expected = { '√d_k': 2, d_k: 4, 1: 1 }[divisor];
      assert.equal(attention.run({ ...input, scale: name }).scale_divisor, expected, `${name} divides by ${divisor}`);
    }
  });

  it('states the defaults the calls apply when a member is left out', () => {
    const { defaults } = attention.vocabulary();
    const trace = attention.run(head(2, 4));
    assert.equal(trace.mask, defaults.run.mask);
    assert.equal(trace.scale, defaults.run.scale);
    const layer = attention.multiHead({ tokens: ['a', 'b'] });
    for (const key of ['d_model', 'n_heads', 'mask', 'scale']) assert.equal(layer[key], defaults.multi_head[key], key);
    const grouped = attention.groupedAttention();
    for (const key of ['d_model', 'n_heads', 'seed', 'mask', 'scale']) assert.equal(grouped[key], defaults.layer[key], key);
    assert.deepEqual(grouped.tokens, defaults.layer.tokens);
    assert.equal(grouped.n_kv_heads, defaults.grouped_attention.n_kv_heads);
    const tiles = attention.flashTiles();
    for (const key of ['block_rows', 'block_cols', 'decimals', 'mask']) assert.equal(tiles[key], defaults.flash_tiles[key], key);
  });
});

describe('run() refuses bad input with an Error naming the field', () => {
  for (const [what, input, path] of badInputs) {
    it(`${what} -> ${path}`, () => {
      assert.throws(() => attention.run(input), (error) => {
        assert.ok(error instanceof Error, `an Error, got ${error}`);
        assert.ok(error.message.startsWith(`${path}: `), `message starts with "${path}: ": ${error.message}`);
        assert.ok(!error.message.includes('\n'), 'one line');
        return true;
      });
    });
  }

  it('a cyclic input is refused, not a crash', () => {
    const input = structuredClone(article);
    input.self = input;
    assert.throws(() => attention.run(input), (error) => error instanceof Error && error.message.startsWith('input'));
  });

  it('still works after an error', () => {
    assert.throws(() => attention.run(null));
    assert.equal(attention.run(article).weights[1][0].toFixed(4), '0.2799');
  });
});

describe('scoreNextWord()', () => {
  it('out[cat] gives sat 55 %, the largest share, matching float64', () => {
    const t = attention.run(attention.article().two_words);
    const scores = attention.scoreNextWord(t.out[1]);
    assert.deepEqual(scores.words, ['sat', 'ran', 'is']);
    for (const key of ['logits', 'exponentials', 'probabilities']) assert.equal(scores[key].length, 3, key);
    assert.equal(scores.probabilities[0].toFixed(2), '0.55');
    assert.equal(`${Math.round(scores.probabilities[0] * 100)}%`, '55%');
    assert.ok(scores.probabilities[0] > scores.probabilities[1]);
    assert.ok(scores.probabilities[0] > scores.probabilities[2]);
    assert.equal(scores.shifted, false);
    assert.equal(scores.most_likely, 0);
    assert.ok(Math.abs(scores.probability_sum - 1) <= 1e-6);
    assert.ok(Math.abs(scores.probabilities.reduce((a, b) => a + b, 0) - 1) <= 1e-6);

    const { vectors } = attention.article().vocabulary;
    const logits = vectors.map((vector) => vector.reduce((sum, x, c) => sum + x * t.out[1][c], 0));
    const p = softmax(logits);
    scores.logits.forEach((x, w) => assert.ok(Math.abs(x - logits[w]) <= 1e-6, `logit ${w}`));
    scores.probabilities.forEach((x, w) => assert.ok(Math.abs(x - p[w]) <= 1e-6, `probability ${w}`));
    scores.exponentials.forEach((x, w) => assert.ok(Math.abs(x - Math.exp(logits[w])) <= 1e-5 * Math.exp(logits[w])));
    assert.ok(Math.abs(scores.total - scores.exponentials.reduce((a, b) => a + b, 0)) <= 1e-5 * scores.total);
  });

  it('refuses a row of the wrong length or with bad values, naming it', () => {
    for (const [row, path] of [[[1, 2, 3], 'row'], [[1, 2, 3, 4, 5], 'row'], ['1,2,3,4', 'row'], [null, 'row'],
      [[1, NaN, 3, 4], 'row[1]'], [[1, 2, 'x', 4], 'row[2]'], [[1, 2, 3, Infinity], 'row[3]'], [[1e16, 2, 3, 4], 'row[0]']]) {
      assert.throws(() => attention.scoreNextWord(row), (error) => {
        assert.ok(error instanceof Error);
        assert.ok(error.message.startsWith(`${path}: `), `${JSON.stringify(row)}: ${error.message}`);
        return true;
      });
    }
  });
});

describe('checkArticle()', () => {
  it('every number the article prints matches', () => {
    const claims = attention.checkArticle();
    assert.ok(claims.length > 40, `${claims.length} claims`);
    for (const claim of claims) {
      assert.equal(typeof claim.what, 'string');
      assert.equal(claim.matches, true, `${claim.what}: printed ${claim.printed}, computed ${claim.computed}`);
      assert.equal(claim.computed, claim.printed, claim.what);
    }
    for (const printed of ['0.2799', '0.7201', '3.9486', '2.09', '-inf', '72%', '0.784', '0.216', '55%']) {
      assert.ok(claims.some((claim) => claim.printed === printed), `the article prints ${printed}`);
    }
  });
});

describe('kernels()', () => {
  it('lists the scalar kernel and the wasm SIMD128 kernel', () => {
    const kernels = attention.kernels();
    assert.ok(kernels.length >= 1);
    for (const kernel of kernels) {
      assert.equal(typeof kernel.name, 'string');
      assert.ok(kernel.name.startsWith('attend__'), kernel.name);
      assert.equal(typeof kernel.isa, 'string');
      assert.ok(Number.isInteger(kernel.vector_width) && kernel.vector_width >= 1);
    }
    assert.equal(new Set(kernels.map((kernel) => kernel.name)).size, kernels.length, 'names are unique');
    assert.ok(kernels.some((kernel) => kernel.isa === 'scalar' || kernel.isa === 'reference'));
    assert.ok(kernels.some((kernel) => kernel.isa === 'wasm-simd128'), 'the site is built with -msimd128');
  });
});

describe('no code generation from strings', () => {
  // Embind's default glue uses new Function, which a Content-Security-Policy without
  // 'unsafe-eval' forbids; the module is linked so that it never needs it. Node's flag is the
  // same prohibition.
  it('loads and runs under node --disallow-code-generation-from-strings', async () => {
    const { execFileSync } = await import('node:child_process');
    const script = `
      const { createAttention } = await import(${JSON.stringify(pathToFileURL(modulePath).href)});
      const attention = await createAttention();
      const trace = attention.run(attention.article().two_words);
      process.stdout.write(JSON.stringify(trace.weights[1]));`;
    const output = execFileSync(process.execPath,
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      { encoding: 'utf8' });
    const weights = JSON.parse(output);
    const expected = softmax([0.2 / 2, 2.09 / 2]);
    assert.equal(weights.length, 2);
    weights.forEach((w, j) => assert.ok(Math.abs(w - expected[j]) < 1e-6, `weight ${j}: ${w}`));
  });

  it('the flag really forbids code generation (the check above can fail)', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath,
      ['--disallow-code-generation-from-strings', '-e', 'new Function("return 1")()'],
      { encoding: 'utf8' });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /Code generation from strings disallowed/);
  });
});
