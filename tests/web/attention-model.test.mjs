// The shared model behind the embeddable elements (web/attention-model.js), in Node against the
// built wasm core: it starts from the article's example, takes configured fields, batches
// changes, refuses a reader's bad edit without losing the last good trace, words the core's
// errors as attribute problems, and tells its listeners.
//
// Run after the wasm build (ATTN_SITE_DIR may name another assembled site folder).

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createSiteAttention } from '../support/site-module.mjs';


let attention;
let AttentionModel;

before(async () => {
  ({ AttentionModel } = await import('../../web/elements/attention-model.js'));
  attention = await createSiteAttention();
});

// softmax(mask(q kᵀ/√d)) in float64, for the weights an edit must lead to.
function referenceWeights({ q, k, mask = 'causal' }) {
  const d = q[0].length;
  return q.map((qi, i) => {
    const row = k.map((kj, j) => (mask === 'causal' && j > i ? -Infinity
      : qi.reduce((sum, x, c) => sum + x * kj[c], 0) / Math.sqrt(d)));
    const max = Math.max(...row);
    const e = row.map((x) => Math.exp(x - max));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / total);
  });
}

function connected() {
  const model = new AttentionModel();
  const updates = [];
  model.addEventListener('update', () => updates.push(model.trace));
  model.connect(attention);
  return { model, updates };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('AttentionModel', () => {
  it('has no trace before the core is connected, and the article\u2019s example after', async () => {
    const model = new AttentionModel();
    assert.equal(model.trace, null);
    assert.equal(model.connected, false);
    model.connect(attention);
    assert.equal(model.connected, true);
    assert.deepEqual(model.trace.tokens, attention.article().two_words.tokens);
    assert.deepEqual(model.trace.weights, attention.run(attention.article().two_words).weights);
    assert.equal(model.problem, null);
    assert.equal(model.isConfigured('q'), false);
  });

  it('computes once for several fields changed together, on the next microtask', async () => {
    const { model, updates } = connected();
    await tick();
    updates.length = 0;
    model.configure('tokens', ['a', 'b', 'c']);   // alone, this does not fit the article's q
    model.configure('q', [[1, 0], [0, 1], [1, 1]]);
    model.configure('k', [[1, 0], [0, 1], [1, 1]]);
    model.configure('v', [[1, 2], [3, 4], [5, 6]]);
    model.configure('mask', 'none');
    assert.equal(updates.length, 0, 'nothing computed synchronously');
    await tick();
    assert.equal(updates.length, 1, 'one computation for five changes');
    assert.equal(model.problem, null);
    assert.deepEqual(model.trace.tokens, ['a', 'b', 'c']);
    assert.equal(model.trace.mask, 'none');
    const expected = referenceWeights({ q: [[1, 0], [0, 1], [1, 1]], k: [[1, 0], [0, 1], [1, 1]], mask: 'none' });
    model.trace.weights.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - expected[i][j]) < 1e-6)));
  });

  it('computes at once when the trace is read before the microtask', () => {
    const { model } = connected();
    model.configure('mask', 'none');
    assert.equal(model.trace.mask, 'none');
  });

  it('words a core error as a problem of the attribute, and recovers when it is fixed', async () => {
    const { model, updates } = connected();
    model.configure('q', [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2]]);
    await tick();
    assert.equal(model.trace, null);
    assert.equal(model.problem.attribute, 'q');
    assert.equal(model.problem.text, 'q attribute, row 2: has 3 values but q[0] has 4 (head_dim)');
    model.configure('q', undefined);
    await tick();
    assert.equal(model.problem, null);
    assert.ok(model.trace);
    assert.ok(updates.length >= 2);
  });

  it('says when the field at fault was left to the article', async () => {
    const { model } = connected();
    // Tokens alone take the trained head's q, k and v (trained-input.test.mjs); with q given,
    // k and v are the article's.
    model.configure('tokens', ['a', 'b', 'c']);
    model.configure('q', [[1, 0], [0, 1], [1, 1]]);
    await tick();
    assert.equal(model.problem.attribute, 'k');
    assert.match(model.problem.text, /has 2 rows but there are 3 tokens.*k is not set/);
  });

  it('shows an unreadable attribute first, whatever the core would say', async () => {
    const { model } = connected();
    model.configure('tokens', ['a', 'b', 'c']);
    model.configureError('v', { attribute: 'v', path: '', detail: 'bad JSON', text: 'v attribute: bad JSON' });
    await tick();
    assert.equal(model.trace, null);
    assert.equal(model.problem.text, 'v attribute: bad JSON');
  });

  it('applies a reader\u2019s edit of one cell, and refuses one the core refuses', () => {
    const { model, updates } = connected();
    const before = model.trace;
    assert.equal(model.setCell('q', 1, 0, 2.5), null);
    const input = attention.article().two_words;
    input.q[1][0] = 2.5;
    const expected = referenceWeights(input);
    model.trace.weights.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - expected[i][j]) < 1e-6)));
    assert.equal(model.current('q')[1][0], 2.5);
    assert.notEqual(model.trace, before);

    const good = model.trace;
    const count = updates.length;
    const problem = model.setCell('v', 0, 0, 1e16);
    assert.equal(problem.path, 'v[0][0]');
    assert.match(problem.detail, /outside the allowed range/);
    assert.equal(model.trace, good, 'the last good trace stays');
    assert.equal(updates.length, count, 'a refused edit tells no one');
    assert.equal(model.problem, null);
  });

  it('changes the mask, and reset() returns to the configured numbers', () => {
    const { model } = connected();
    model.setCell('k', 0, 0, 9);
    assert.equal(model.setMask('none'), null);
    assert.equal(model.trace.mask, 'none');
    assert.equal(model.setMask('diagonal').attribute, 'mask');
    model.reset();
    assert.equal(model.trace.mask, 'causal');
    assert.deepEqual(model.trace.k, attention.run(attention.article().two_words).k);
  });

  it('takes the scale as a field: the scores are divided as asked, and a bad one is the scale attribute\u2019s problem', async () => {
    const { model } = connected();
    assert.equal(model.current('scale'), 'sqrt_d', 'unset, the core\u2019s default is the input\u2019s');
    const { q, k } = attention.article().two_words;
    const d = q[0].length;
    for (const [scale, divisor] of [['d', d], ['none', 1], ['sqrt_d', Math.sqrt(d)]]) {
      model.configure('scale', scale);
      assert.equal(model.trace.scale, scale);
      assert.equal(model.current('scale'), scale);
      // The float64 reference, divided by the divisor this scale names.
      q.forEach((qi, i) => k.forEach((kj, j) => {
        const expected = qi.reduce((sum, x, c) => sum + x * kj[c], 0) / divisor;
        assert.ok(Math.abs(model.trace.scaled[i][j] - expected) <= 1e-6 * Math.max(1, Math.abs(expected)),
          `${scale}: scaled[${i}][${j}] is ${model.trace.scaled[i][j]}, the reference ${expected}`);
      }));
    }
    model.configure('scale', 'cube_root');
    assert.equal(model.problem.attribute, 'scale');
    assert.equal(model.trace, null);
    model.configure('scale', undefined);
    assert.equal(model.problem, null);
    assert.equal(model.trace.scale, 'sqrt_d');
  });

  it('hands out copies: changing what it returns changes nothing inside', () => {
    const { model } = connected();
    const q = model.current('q');
    q[0][0] = 42;
    model.input.q[0][0] = 42;
    assert.notEqual(model.current('q')[0][0], 42);
    const value = [[1, 2, 3, 4], [5, 6, 7, 8]];
    model.configure('v', value);
    value[0][0] = 99;
    assert.equal(model.current('v')[0][0], 1);
  });

  it('show() takes an input its caller ran through the core, without computing it again, until reset()', () => {
    const unconnected = new AttentionModel();
    assert.throws(() => unconnected.show({}, {}), /connect\(\) the model first/);
    const { model, updates } = connected();
    const article = model.input;
    const input = { ...article, q: article.q.map((row) => row.map((x) => x * 3)) };
    const trace = attention.run(input);
    let runs = 0;
    const counting = { ...attention, run: (request) => { runs += 1; return attention.run(request); } };
    model.connect(counting);
    model.flush();
    runs = 0;
    model.show(input, trace);
    assert.equal(runs, 0, 'the core is not asked again');
    assert.equal(model.trace, trace);
    assert.deepEqual(model.input.q, input.q);
    const expected = referenceWeights(input);
    model.trace.weights.forEach((row, i) => row.forEach((w, j) =>
      assert.ok(Math.abs(w - expected[i][j]) <= 1e-6, `weights[${i}][${j}] ${w} against ${expected[i][j]}`)));
    assert.equal(updates.at(-1), trace, 'listeners hear it');
    model.reset();
    assert.deepEqual(model.input.q, article.q, 'reset() returns to the configured input');
  });

  it('editCell() applies an edit itself, or hands it with its history to the editor a page set', () => {
    const { model } = connected();
    assert.equal(model.editCell('q', 1, 0, 2.5), null);
    assert.equal(model.current('q')[1][0], 2.5, 'without an editor the model applies it');

    const handed = [];
    model.editor = (matrix, row, col, value, { history }) => {
      handed.push([matrix, row, col, value, history]);
      if (value > 100) return { attribute: 'q', path: `q[${row}][${col}]`, detail: 'is too large for this page', text: '' };
      const input = model.input;
      input[matrix][row][col] = value;
      model.show(input, attention.run(input));
      return null;
    };
    assert.equal(model.editCell('k', 0, 1, 0.75, { history: 'replace' }), null);
    assert.equal(model.editCell('k', 0, 1, 0.5), null);
    assert.match(model.editCell('v', 1, 2, 1000).detail, /too large for this page/);
    assert.deepEqual(handed, [['k', 0, 1, 0.75, 'replace'], ['k', 0, 1, 0.5, 'push'], ['v', 1, 2, 1000, 'push']]);
    const expected = referenceWeights(model.input);
    assert.equal(model.input.k[0][1], 0.5);
    model.trace.weights.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - expected[i][j]) <= 1e-6)));
    model.editor = null;
    assert.equal(model.editCell('q', 0, 0, 3), null);
    assert.equal(handed.length, 3, 'null gives the edits back to the model');
    assert.equal(model.current('q')[0][0], 3);
  });

  it('refuses fields and matrices that do not exist', () => {
    const { model } = connected();
    assert.throws(() => model.configure('seed', 2), RangeError);
    assert.throws(() => model.setCell('scores', 0, 0, 1), RangeError);
    assert.throws(() => model.setCell('q', 5, 0, 1), RangeError);
  });
});
