// The walkthrough page's state (web/page-state.js), in plain Node: the changes a reader can make
// (cells, tokens, head_dim, re-roll), the page's limits, and the URL hash: written, read back,
// and refused as a whole when it is too long or anything in it does not parse.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEmbedHash } from '../../web/state/embed-hash.js';
import {
  NEW_TOKEN_WORDS, PAGE_LIMITS, POOL_REQUEST, WALK_STEPS, articleState, attentionInput,
  pageLimitProblem, parseStateHash, poolFromMatrix, sameInput, stateToHash,
  withCell, withHeadDim, withMask, withScale, withSettings, withStep, withTokenAdded,
  withTokenRemoved, withTokenRenamed, withValuesFromPool,
} from '../../web/state/page-state.js';

const example = {
  tokens: ['the', 'cat'],
  q: [[0.30000001192092896, -0.2], [1.100000023841858, -0.8]],
  k: [[-0.4, -0.3], [1.6, -0.7]],
  v: [[-0.5, -0.4], [1.2, -0.3]],
};
const article = articleState(example);

// A pool whose cell [r][c] of matrix m is recognisable: 100·(m+1) + 16·r + c, as randomMatrix's
// 16 × 48 answer would be laid out (q in columns 0–15, k in 16–31, v in 32–47).
const poolMatrix = Array.from({ length: POOL_REQUEST.rows }, (_, r) =>
  Array.from({ length: POOL_REQUEST.cols }, (_, col) => 100 * (Math.floor(col / 16) + 1) + 16 * r + (col % 16)));
const pool = poolFromMatrix(poolMatrix);

describe('the page state', () => {
  it("starts from the article's example, its float32 numbers in their shortest form", () => {
    assert.deepEqual(article.tokens, ['the', 'cat']);
    assert.deepEqual(article.q, [[0.3, -0.2], [1.1, -0.8]]);
    assert.equal(article.mask, 'causal');
    assert.equal(article.scale, 'sqrt_d');
    assert.equal(article.seed, 1);
    assert.equal(article.step, null);
    assert.deepEqual(attentionInput(article), {
      tokens: ['the', 'cat'], q: article.q, k: article.k, v: article.v, mask: 'causal', scale: 'sqrt_d',
    });
  });

  it('splits the seeded pool into one 16 × 16 block per matrix', () => {
    assert.equal(pool.q.length, 16);
    assert.equal(pool.q[0].length, 16);
    assert.equal(pool.q[2][3], 100 + 32 + 3);
    assert.equal(pool.k[2][3], 200 + 32 + 3);
    assert.equal(pool.v[15][15], 300 + 240 + 15);
  });

  it('changes one cell and leaves the state it came from alone', () => {
    const next = withCell(article, 'k', 1, 0, 2.5);
    assert.equal(next.k[1][0], 2.5);
    assert.equal(article.k[1][0], 1.6);
    assert.throws(() => withCell(article, 'k', 2, 0, 1), /outside the input/);
    assert.throws(() => withCell(article, 'x', 0, 0, 1), /not an editable matrix/);
  });

  it('renames, adds and removes tokens, new rows from the pool', () => {
    assert.deepEqual(withTokenRenamed(article, 1, 'dog').tokens, ['the', 'dog']);
    const added = withTokenAdded(article, pool);
    assert.deepEqual(added.tokens, ['the', 'cat', NEW_TOKEN_WORDS[2]]);
    assert.deepEqual(added.q[2], [100 + 32, 100 + 33]);
    assert.deepEqual(added.k[2], [200 + 32, 200 + 33]);
    assert.deepEqual(added.v[2], [300 + 32, 300 + 33]);
    const removed = withTokenRemoved(added, 0);
    assert.deepEqual(removed.tokens, ['cat', NEW_TOKEN_WORDS[2]]);
    assert.deepEqual(removed.q, [[1.1, -0.8], [132, 133]]);
  });

  it('changes head_dim: columns dropped, or new ones taken from the pool', () => {
    const wider = withHeadDim(article, 4, pool);
    assert.deepEqual(wider.q, [[0.3, -0.2, 102, 103], [1.1, -0.8, 118, 119]]);
    assert.deepEqual(wider.v[1], [1.2, -0.3, 318, 319]);
    const narrower = withHeadDim(wider, 1, pool);
    assert.deepEqual(narrower.q, [[0.3], [1.1]]);
    assert.throws(() => withHeadDim(article, 0, pool), /positive integer/);
  });

  it('re-rolls every cell from a new seed, keeping the tokens', () => {
    const rolled = withValuesFromPool(article, pool, 2);
    assert.equal(rolled.seed, 2);
    assert.deepEqual(rolled.tokens, article.tokens);
    assert.deepEqual(rolled.q, [[100, 101], [116, 117]]);
    assert.deepEqual(rolled.k, [[200, 201], [216, 217]]);
  });

  it('keeps tokens and head_dim within the page\'s limits', () => {
    assert.equal(pageLimitProblem(article), null);
    let many = article;
    for (let n = 2; n < PAGE_LIMITS.maxTokens; n += 1) many = withTokenAdded(many, pool);
    assert.equal(many.tokens.length, 16);
    assert.equal(pageLimitProblem(many), null);
    const tooMany = { ...many, tokens: [...many.tokens, 'x'], q: [...many.q, [0, 0]], k: [...many.k, [0, 0]], v: [...many.v, [0, 0]] };
    assert.match(pageLimitProblem(tooMany), /^tokens: this page shows 1 to 16 tokens, not 17/);
    assert.match(pageLimitProblem({ ...article, tokens: [], q: [], k: [], v: [] }), /^tokens: .* not 0/);
    assert.match(pageLimitProblem(withHeadDim(article, 17, { q: [Array(17).fill(0), Array(17).fill(0)], k: [Array(17).fill(0), Array(17).fill(0)], v: [Array(17).fill(0), Array(17).fill(0)] })),
      /^head_dim: this page shows head_dim 1 to 16, not 17/);
    assert.match(pageLimitProblem(withMask(article, 'sideways')), /^mask:/);
    assert.match(pageLimitProblem(withScale(article, 'cube')), /^scale:/);
    assert.match(pageLimitProblem(withStep(article, WALK_STEPS.length)), /^step:/);
    assert.match(pageLimitProblem({ ...article, seed: -1 }), /^seed:/);
  });

  it('compares inputs: tokens, cells, mask and scale, not the seed or the step', () => {
    assert.ok(sameInput(article, withStep({ ...article, seed: 9 }, 3)));
    assert.ok(!sameInput(article, withCell(article, 'q', 0, 0, 0.31)));
    assert.ok(!sameInput(article, withMask(article, 'none')));
    assert.ok(!sameInput(article, withScale(article, 'd')));
    assert.ok(!sameInput(article, withTokenRenamed(article, 0, 'a')));
    assert.ok(sameInput(withCell(article, 'v', 0, 0, 0), withCell(article, 'v', 0, 0, -0)), 'the core reads -0 as 0');
  });
});

describe('the state in the URL hash', () => {
  const edited = withStep(withScale(withMask(withTokenRenamed(withCell(article, 'q', 1, 0, -1e6), 0, 'New York'), 'causal_zero'), 'd'), 3);

  it('writes every field and reads it back exactly', () => {
    const hash = stateToHash({ ...edited, seed: 42 });
    assert.match(hash, /^#tokens=/);
    assert.match(hash, /&mask=causal_zero&scale=d&seed=42&step=3$/);
    const { settings, problem, empty } = parseStateHash(hash);
    assert.equal(problem, null);
    assert.equal(empty, false);
    assert.deepEqual(withSettings(article, settings), { ...edited, seed: 42 });
  });

  it('uses the embed page\'s keys and encoding for what the two share', () => {
    const parsed = parseEmbedHash(stateToHash(edited).replace(/&scale=.*$/u, ''));
    assert.deepEqual(parsed.warnings, []);
    assert.equal(parsed.attributes.tokens, '["New York","cat"]');
    assert.equal(parsed.attributes.q, '[[0.3,-0.2],[-1000000,-0.8]]');
    assert.equal(parsed.attributes.mask, 'causal_zero');
  });

  it('leaves the step out when the step-through is off, and reads an empty hash as nothing', () => {
    assert.doesNotMatch(stateToHash(article), /step=/);
    assert.deepEqual(parseStateHash(''), { settings: {}, problem: null, empty: true });
    assert.deepEqual(parseStateHash('#'), { settings: {}, problem: null, empty: true });
  });

  it('lets a link name only some fields', () => {
    const { settings, problem } = parseStateHash('#mask=none&scale=none');
    assert.equal(problem, null);
    assert.deepEqual(settings, { mask: 'none', scale: 'none' });
    assert.deepEqual(withSettings(article, settings), { ...article, mask: 'none', scale: 'none' });
  });

  it('refuses a whole hash that is too long, unknown, malformed or out of range', () => {
    const cases = [
      [`#tokens=${'a'.repeat(PAGE_LIMITS.maxHashLength)}`, /characters long; the page reads at most 32768/],
      ['#q=[[1,2]', /^q: is not a JSON array of rows/],
      ['#tokens=[1,2]', /^tokens: a JSON list here must hold only strings/],
      ['#mask=sideways', /^mask: must be one of causal, none, causal_zero/],
      ['#scale=cube', /^scale: must be one of sqrt_d, d, none/],
      ['#seed=-3', /^seed: "-3" is not a whole number/],
      ['#seed=99999999999', /^seed:/],
      ['#step=7', /^step: "7" is not a whole number from 0 to 6/],
      ['#colour=red', /unknown key "colour"/],
      ['#tokens=%E0%A4%A', /not valid percent-encoding/],
      ['#steps=scores', /belongs to the embed page/],
      ['#hide=footer', /belong to the embed page/],
      ['#tokens=the&tokens=cat', /^tokens: given twice$/],
      ['#mask=none&q=[[1]]&mask=causal', /^mask: given twice$/],
      ['#seed=1&seed=2', /^seed: given twice$/],
      ['#step=1&scale=d&step=2', /^step: given twice$/],
    ];
    for (const [hash, pattern] of cases) {
      const { settings, problem } = parseStateHash(hash);
      assert.match(problem ?? '', pattern, hash.slice(0, 40));
      assert.deepEqual(settings, {}, `${hash.slice(0, 40)}: nothing of it is used`);
    }
  });

  it('names an unknown key with every key the page reads, and does not call the refused link "ignored"', () => {
    // The page writes scale, seed and step itself (stateToHash), so a list without them misleads.
    const written = stateToHash({ ...article, step: 2 }).slice(1).split('&').map((part) => part.split('=')[0]);
    for (const hash of ['#colour=red', '#scale=d&colour=red', '#tokens=a%20b&colour=red']) {
      const { problem } = parseStateHash(hash);
      assert.match(problem ?? '', /^unknown key "colour" \(this page reads [a-z, ]+\)$/u, hash);
      const listed = problem.match(/reads ([a-z, ]+)\)$/u)[1].split(', ');
      assert.deepEqual([...listed].sort(), [...new Set(written)].sort(), `${hash}: the keys the page writes`);
      assert.doesNotMatch(problem, /ignored/u, hash);
    }
    assert.doesNotMatch(parseStateHash('#tokens=%E0%A4%A').problem, /ignored/u);
  });
});
