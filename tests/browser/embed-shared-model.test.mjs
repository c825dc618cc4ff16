// One live model spread across an article's paragraphs (tests/browser/fixtures/article.html),
// next to two explainers that have nothing to do with it. Typing a new value into a Q cell of
// one piece makes every other piece follow, to the values a float64 reference computes from
// the edited input; editing K through another piece and the mask through the grid does the
// same; the unrelated explainers do not move, and an edit inside one explainer stays there.
// Also: attention-change events, properties, the arrows view, nested and scoped models, and a
// piece placed after its attributes were set drawing once.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, cellField, launchBrowser, piecesDrawn } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, assertPrinted, assertTable, openHostPage, readShadowTable, referenceAttention,
  requireBuiltSite, startHostServer, waitForElements,
} from './embed-harness.mjs';

let browser;
let server;
let opened;
let page;
let article;

// Everything the model's pieces print, for comparing before and after. An editable cell prints
// its number whether or not the table's one field is in it; the field is left out.
async function snapshot(ids) {
  await piecesDrawn(page);
  return page.evaluate((hostIds) => Object.fromEntries(hostIds.map((id) => {
    const root = document.getElementById(id).shadowRoot;
    const values = [...root.querySelectorAll('.value, input:not(.cell-input), .working-line, text')]
      .map((node) => node.value ?? node.textContent);
    return [id, values];
  })), ids);
}

// Types into the cell input of `matrix`[row][col] inside element `hostId`, then presses Tab.
async function typeInto(hostId, matrix, row, col, text) {
  const input = cellField(page, `#${hostId} table[data-table="${matrix}"]`, row, col);
  await input.fill(text);
  await input.press('Tab');
}

async function assertModelPieces(input, what) {
  const ref = referenceAttention(input);
  assertTable(await readShadowTable(page, 'piece-scores', 'scores'), ref.scores, 3, `${what}: scores`);
  assertTable(await readShadowTable(page, 'piece-weights', 'weights'), ref.weights, 4, `${what}: weights`);
  assertTable(await readShadowTable(page, 'piece-grid', 'grid'), ref.weights, 4, `${what}: grid`);
  assertTable(await readShadowTable(page, 'piece-out', 'out'), ref.out, 4, `${what}: out`);
  const last = input.tokens.length - 1;
  const softmax = await readShadowTable(page, 'piece-softmax', 'softmax');
  softmax.rows.forEach((row, j) => {
    assertPrinted(row.cells[0], ref.masked[last][j], 3, `${what}: softmax score ${j}`);
    assertPrinted(row.cells[2], ref.weights[last][j], 4, `${what}: softmax weight ${j}`);
  });
  assertPrinted(softmax.footer[0].cells[1], ref.totals[last], 4, `${what}: softmax total`);
  const working = await page.evaluate(() => document.getElementById('piece-working').shadowRoot
    .querySelector('.result .value').textContent);
  assertPrinted(working, ref.scores[1][0], 2, `${what}: the worked score cat·the`);
  const weightWorking = await page.evaluate(() => document.getElementById('piece-weight-working').shadowRoot
    .querySelector('strong.value').textContent);
  assertPrinted(weightWorking, ref.weights[last][0], 4, `${what}: the worked weight`);
  for (const matrix of ['q', 'k']) {
    const table = await readShadowTable(page, `piece-${matrix}`, matrix);
    table.rows.forEach((row, i) => row.cells.forEach((text, c) => {
      assert.ok(Math.abs(Number(text.replace('\u2212', '-')) - input[matrix][i][c]) < 1e-6,
        `${what}: ${matrix}[${i}][${c}] shows ${text}`);
    }));
  }
}

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startHostServer({ csp: PAGE_CSP });
  opened = await openHostPage(browser, server.fixture('article.html'));
  page = opened.page;
  await waitForElements(page);
  article = await page.evaluate(async () => {
    const { createAttention } = await import('../site/web/attention-explainer.js');
    return (await createAttention()).article();
  });
  await page.evaluate(() => {
    globalThis.__changes = [];
    document.addEventListener('attention-change', (event) => {
      globalThis.__changes.push({ target: event.target.id, weights: event.detail.trace.weights, same: event.detail.trace === event.target.trace && event.detail.result === event.detail.trace && event.detail.problem === null });
    });
  });
});

after(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

describe('one model across an article, and two explainers beside it', { timeout: TEST_TIMEOUT * 2 }, () => {
  const pieces = ['piece-q', 'piece-k', 'piece-scores', 'piece-working', 'piece-softmax', 'piece-weights',
    'piece-weight-working', 'piece-grid', 'piece-arrows', 'piece-out'];
  let input;

  it('loads without errors, every piece showing the model (the article\u2019s example)', async () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.warnings, []);
    assert.deepEqual(await opened.cspViolations(), []);
    input = structuredClone(article.two_words);
    await assertModelPieces(input, 'at load');
    const traces = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).trace === document.getElementById('cat').trace), pieces);
    assert.ok(traces.every(Boolean), 'every piece exposes the model\u2019s trace');
  });

  it('typing a new value into a Q cell updates every piece to the float64 values', async () => {
    const unrelated = await snapshot(['first', 'second', 'nested', 'standalone']);
    await page.evaluate(() => { globalThis.__changes = []; });
    await typeInto('piece-q', 'q', 1, 0, '\u22122.5');
    input.q[1][0] = -2.5;
    await assertModelPieces(input, 'after q[1][0] = −2.5');
    assert.deepEqual(await snapshot(['first', 'second', 'nested', 'standalone']), unrelated,
      'the unrelated explainers and models did not change');
    const state = await page.evaluate(() => ({
      q: document.getElementById('cat').q,
      changes: globalThis.__changes,
      value: document.getElementById('piece-q').shadowRoot.querySelector('td[data-row="1"][data-col="0"] .value').textContent,
    }));
    assert.equal(state.q[1][0], -2.5, 'the model element\u2019s q property has the edit');
    assert.equal(state.value, '\u22122.5');
    assert.ok(state.changes.length >= 1, 'attention-change fired');
    assert.ok(state.changes.every((change) => change.target === 'cat'), `only the model fired: ${JSON.stringify(state.changes.map((c) => c.target))}`);
    assert.ok(state.changes.every((change) => change.same), 'the event carries the element\u2019s trace, as detail.result and detail.trace, and no problem');
    const ref = referenceAttention(input);
    state.changes.at(-1).weights.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - ref.weights[i][j]) < 1e-6)));
  });

  it('editing K through another piece, and the mask through the grid, updates all of them too', async () => {
    await typeInto('piece-k', 'k', 0, 3, '0.25');
    input.k[0][3] = 0.25;
    await assertModelPieces(input, 'after k[0][3] = 0.25');
    await page.locator('#piece-grid select[data-control="mask"]').selectOption('none');
    input.mask = 'none';
    await assertModelPieces(input, 'after mask none');
    const masked = await page.evaluate(() => document.getElementById('piece-weights').shadowRoot
      .querySelectorAll('td[data-masked="true"]').length);
    assert.equal(masked, 0);
  });

  it('a value that is not a number is refused on its cell; the tables keep the last good state', async () => {
    const before = await snapshot(['piece-scores', 'piece-out']);
    const input1 = cellField(page, '#piece-q table[data-table="q"]', 0, 0);
    await input1.fill('1.2.3');
    const state = await page.evaluate(() => {
      const root = document.getElementById('piece-q').shadowRoot;
      const message = root.querySelector('.edit-message');
      return { invalid: root.querySelector('input[data-row="0"][data-col="0"]').getAttribute('aria-invalid'), message: message.hidden ? null : message.textContent };
    });
    assert.equal(state.invalid, 'true');
    assert.match(state.message, /q0 of \u201cthe\u201d: \u201c1\.2\.3\u201d is not a number/);
    assert.deepEqual(await snapshot(['piece-scores', 'piece-out']), before);
    await input1.fill('1e16');
    assert.match(await page.evaluate(() => document.getElementById('piece-q').shadowRoot.querySelector('.edit-message').textContent),
      /outside the allowed range/);
    assert.deepEqual(await snapshot(['piece-scores', 'piece-out']), before);
    // Leaving the refused cell puts its good value back and says so.
    await input1.press('Tab');
    const left = await page.evaluate(() => {
      const root = document.getElementById('piece-q').shadowRoot;
      // The field left the cell with the focus; the cell prints the value it is back to.
      const cell = root.querySelector('td[data-row="0"][data-col="0"]');
      const field = cell.querySelector('input');
      return {
        value: cell.querySelector('.value').textContent,
        field: field !== null,
        invalid: field?.getAttribute('aria-invalid') ?? null,
        message: root.querySelector('.edit-message').textContent,
      };
    });
    assert.equal(left.field, false, 'the field left the cell');
    assert.equal(left.invalid, null);
    assert.equal(Number(left.value.replace('\u2212', '-')), Number(input.q[0][0].toPrecision(6)));
    assert.match(left.message, /^q0 of \u201cthe\u201d: .*outside the allowed range.*\. The cell is back to /);
    assert.ok(left.message.endsWith(`back to ${left.value}.`), left.message);
    assert.deepEqual(await snapshot(['piece-scores', 'piece-out']), before);
    await input1.fill(String(input.q[0][0]));
    await input1.press('Tab');
  });

  it('an edit inside one explainer stays inside it', async () => {
    const others = await snapshot([...pieces, 'second']);
    const beforeFirst = await readShadowTable(page, 'first', 'scores');
    await page.evaluate(() => { globalThis.__changes = []; });
    await typeInto('first', 'q', 0, 1, '3');
    const own = structuredClone(article.two_words);
    own.q[0][1] = 3;
    assertTable(await readShadowTable(page, 'first', 'scores'), referenceAttention(own).scores, 3, 'first: scores');
    assert.notDeepEqual(await readShadowTable(page, 'first', 'scores'), beforeFirst);
    assert.deepEqual(await snapshot([...pieces, 'second']), others, 'the model and the other explainer did not move');
    const targets = await page.evaluate(() => globalThis.__changes.map((change) => change.target));
    assert.ok(targets.length >= 1 && targets.every((target) => target === 'first'), JSON.stringify(targets));
    // Its reset button brings back the configured numbers.
    await page.locator('#first button[data-control="reset"]').click();
    assertTable(await readShadowTable(page, 'first', 'scores'), referenceAttention(article.two_words).scores, 3, 'first after reset');
    // reset() called from script also drops the message about a refused edit.
    await typeInto('first', 'q', 0, 1, '1e16');
    const message = () => page.evaluate(() => {
      const box = document.getElementById('first').shadowRoot.querySelector('.edit-message');
      return box.hidden ? null : box.textContent;
    });
    assert.match(await message(), /outside the allowed range/);
    await page.evaluate(() => document.getElementById('first').reset());
    assert.equal(await message(), null);
  });

  it('the arrows view: one arrow per visible pair, thickness by weight, backwards only under the causal mask', async () => {
    const readArrows = () => page.evaluate(() => [...document.getElementById('piece-arrows').shadowRoot
      .querySelectorAll('.arrow')].map((arrow) => ({
      from: Number(arrow.dataset.from),
      to: Number(arrow.dataset.to),
      width: Number(arrow.querySelector('.arrow-line').getAttribute('stroke-width')),
      title: arrow.querySelector('title').textContent,
      className: arrow.getAttribute('class'),
    })));
    const open = await readArrows();
    const ref = referenceAttention(input);
    assert.equal(open.length, 4, 'mask none: every pair');
    assert.ok(open.some((arrow) => arrow.to > arrow.from), 'without the mask an arrow goes forwards');
    await page.locator('#piece-grid select[data-control="mask"]').selectOption('causal');
    input.mask = 'causal';
    const causal = await readArrows();
    const refCausal = referenceAttention(input);
    assert.equal(causal.length, 3);
    for (const arrow of causal) {
      assert.ok(arrow.to <= arrow.from, `${arrow.title}: under the causal mask arrows go backwards or curl`);
      assert.match(arrow.className, arrow.to === arrow.from ? /self/ : /backward/);
      const expected = 0.75 + 7.25 * refCausal.weights[arrow.from][arrow.to];
      assert.ok(Math.abs(arrow.width - expected) < 0.011, `${arrow.title}: width ${arrow.width}, expected ${expected}`);
    }
    assert.ok(ref.weights.length === 2);
    const byWeight = [...causal].sort((a, b) => refCausal.weights[a.from][a.to] - refCausal.weights[b.from][b.to]);
    for (let n = 1; n < byWeight.length; n += 1) assert.ok(byWeight[n].width >= byWeight[n - 1].width);
  });

  it('properties mirror attributes, and setting one recomputes every piece', async () => {
    const state = await page.evaluate(async () => {
      const model = document.getElementById('cat');
      const second = document.getElementById('second');
      const step = document.getElementById('piece-scores');
      const result = {
        tokens: second.tokens, mask: second.mask, steps: second.steps, editable: second.editable,
        model: step.model, step: step.step,
      };
      // q set as well (to the value it shows): tokens alone would go to part three's trained head.
      model.q = model.q;
      model.tokens = ['le', 'chat'];
      await new Promise((resolve) => setTimeout(resolve, 0));
      result.renamed = [...document.getElementById('piece-scores').shadowRoot.querySelectorAll('tbody th')].map((th) => th.textContent);
      second.steps = ['out'];
      await new Promise((resolve) => setTimeout(resolve, 0));
      result.secondSteps = [...second.shadowRoot.querySelectorAll('[data-step]')].map((s) => s.dataset.step);
      result.stepsAttribute = second.getAttribute('steps');
      return result;
    });
    assert.deepEqual(state.tokens, ['a', 'b', 'c']);
    assert.equal(state.mask, 'none');
    assert.deepEqual(state.steps, ['scores', 'weights', 'out']);
    assert.equal(state.editable, false);
    assert.equal(state.model, 'cat');
    assert.equal(state.step, 'scores');
    assert.deepEqual(state.renamed, ['le', 'chat']);
    assert.deepEqual(state.secondSteps, ['out']);
    assert.equal(state.stepsAttribute, 'out');
  });

  it('a piece inside a model element shows that model; a piece without one shows the article', async () => {
    const inner = { tokens: ['x', 'y'], q: [[1, 0], [0, 1]], k: [[2, 0], [0, 2]], v: [[1, 1], [2, 2]] };
    assertTable(await readShadowTable(page, 'nested', 'weights'), referenceAttention(inner).weights, 4, 'nested');
    assertTable(await readShadowTable(page, 'standalone', 'scores'), referenceAttention(article.two_words).scores, 3, 'standalone');
  });

  it('model="id" is looked up in the piece\u2019s own root: a component\u2019s shadow root first', async () => {
    const shown = await page.evaluate(async () => {
      const wrapper = document.createElement('div');
      document.body.append(wrapper);
      const root = wrapper.attachShadow({ mode: 'open' });
      // The same id as the page's model, inside another tree.
      const model = document.createElement('attention-model');
      model.id = 'cat';
      model.setAttribute('tokens', 'one two');
      model.setAttribute('q', '[[1], [1]]');
      model.setAttribute('k', '[[1], [3]]');
      model.setAttribute('v', '[[1], [2]]');
      const step = document.createElement('attention-step');
      step.setAttribute('model', 'cat');
      step.setAttribute('step', 'weights');
      const outer = document.createElement('attention-step');
      outer.setAttribute('model', 'inner');   // only in the document: found through the host
      outer.setAttribute('step', 'scores');
      root.append(step, model, outer);
      for (let n = 0; n < 100 && (!step.trace || !outer.trace); n += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      return { tokens: step.trace?.tokens, outerTokens: outer.trace?.tokens, message: step.shadowRoot.querySelector('.message').hidden };
    });
    assert.deepEqual(shown.tokens, ['one', 'two'], 'the model of its own shadow root, not the page\u2019s #cat');
    assert.deepEqual(shown.outerTokens, ['x', 'y'], 'an id not in its root is found in the roots around it');
    assert.equal(shown.message, true);
  });

  it('a piece given its attributes and then placed draws once; changes made together, once more', async () => {
    const draws = await page.evaluate(async () => {
      const Step = customElements.get('attention-step');
      const { render } = Step.prototype;
      const piece = document.createElement('attention-step');
      let count = 0;
      Step.prototype.render = function countedRender() {
        if (this === piece) count += 1;
        return render.call(this);
      };
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      try {
        piece.setAttribute('model', 'cat');
        piece.setAttribute('step', 'weights');
        piece.setAttribute('tools', '');
        document.body.append(piece);
        const placed = count;
        await frame();
        const settled = count;
        piece.setAttribute('step', 'scores');
        piece.removeAttribute('tools');
        await frame();
        return { placed, settled, changed: count, tables: piece.shadowRoot.querySelectorAll('table').length };
      } finally {
        Step.prototype.render = render;
        piece.remove();
      }
    });
    assert.deepEqual(draws, { placed: 1, settled: 1, changed: 2, tables: 1 });
  });

  it('a model added after its pieces is picked up', async () => {
    const tokens = await page.evaluate(async () => {
      const piece = document.createElement('attention-step');
      piece.setAttribute('model', 'late');
      piece.setAttribute('step', 'scores');
      document.body.append(piece);
      const before = piece.shadowRoot.querySelector('.message').textContent;
      const model = document.createElement('attention-model');
      model.id = 'late';
      model.setAttribute('tokens', 'late comer');
      model.setAttribute('q', '[[1], [1]]');
      model.setAttribute('k', '[[1], [3]]');
      model.setAttribute('v', '[[1], [2]]');
      document.body.append(model);
      for (let n = 0; n < 100 && !piece.trace; n += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      return { before, tokens: piece.trace?.tokens, hidden: piece.shadowRoot.querySelector('.message').hidden };
    });
    assert.match(tokens.before, /model attribute: there is no <attention-model id="late">/);
    assert.deepEqual(tokens.tokens, ['late', 'comer']);
    assert.equal(tokens.hidden, true);
  });
});
