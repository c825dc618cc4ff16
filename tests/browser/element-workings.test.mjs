// Two of the elements part one is made of, on an author's page (fixtures/workings.html):
// <attention-step workings> shows how a pointed-at or focused cell was worked out, under its
// table, with the cell marked and the cells of the same table it came from highlighted (the
// numbers against a float64 reference); without the attribute there is no panel. And
// <attention-next-word>: one token's output scored against the core's toy vocabulary, against a
// float64 reference of vocabulary · out and its softmax; a sentence instead for a head_dim the
// vocabulary has not; a bad row named.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TEST_TIMEOUT, assertPrinted, readMessage, readShadowTable, referenceAttention, THREE, withFixturePage,
} from './embed-harness.mjs';

let page;
withFixturePage('workings.html', (shown) => {
  page = shown.page;
});

// The working panel of element `id`: its text, the working's result, and the marked cells.
function panelOf(id) {
  return page.evaluate((hostId) => {
    const root = document.getElementById(hostId).shadowRoot;
    const panel = root.querySelector('.cell-working');
    const cellName = (td) => `${td.closest('table').dataset.table}/${td.closest('tfoot') ? 'foot' : td.dataset.row}/${td.dataset.col}`;
    return panel && {
      text: panel.textContent,
      lines: [...panel.querySelectorAll('.working-line')].map((line) => line.textContent),
      result: panel.querySelector('strong.value')?.textContent ?? null,
      selected: [...root.querySelectorAll('td.selected-cell')].map(cellName),
      sources: [...root.querySelectorAll('td.source-cell')].map(cellName),
    };
  }, id);
}

describe('<attention-step workings>', { timeout: TEST_TIMEOUT }, () => {
  it('says what to do before a cell is chosen; a step without the attribute has no panel', async () => {
    assert.match((await panelOf('scores')).text, /Point at a number/);
    assert.equal(await panelOf('plain'), null);
  });

  it('works out a pointed-at score as the dot product, term by term', async () => {
    const ref = referenceAttention(THREE);
    await page.locator('#scores td.num[data-row="1"][data-col="0"]').hover();
    await page.waitForFunction(() => !document.getElementById('scores').shadowRoot.querySelector('.cell-working-hint'));
    const panel = await panelOf('scores');
    assertPrinted(panel.result, ref.scores[1][0], 3, 'the worked score cat · the');
    // The second line adds up the products, component by component.
    const products = panel.lines[1].replace(/^=\s*/u, '').split(/\s+\+\s+/u).map((term) => term.trim());
    assert.equal(products.length, THREE.q[1].length, `one product per component: ${panel.lines[1]}`);
    products.forEach((text, c) => assertPrinted(text, THREE.q[1][c] * THREE.k[0][c], 2, `product ${c}`));
    assert.deepEqual(panel.selected, ['scores/1/0']);
    assert.deepEqual(panel.sources, [], 'q and k are not in this element: nothing else is marked');
  });

  it('works out a weight of a focused cell as e^x ÷ total, and marks the cells of its table it came from', async () => {
    const ref = referenceAttention(THREE);
    const last = 2;
    await page.locator('#softmax td.num[data-row="0"][data-col="2"]').focus();
    await page.waitForFunction(() => !document.getElementById('softmax').shadowRoot.querySelector('.cell-working-hint'));
    const panel = await panelOf('softmax');
    assertPrinted(panel.result, ref.weights[last][0], 4, 'the worked weight of sat on the');
    assert.deepEqual(panel.selected, ['softmax/0/2']);
    assert.ok(panel.sources.includes('softmax/0/1'), `its e^x is marked: ${panel.sources}`);
    assert.ok(panel.sources.includes('softmax/foot/1'), `the total is marked: ${panel.sources}`);
    // The arrow keys move on, and the working follows.
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.getElementById('softmax').shadowRoot.querySelector('td.selected-cell')?.dataset.row === '1');
    assertPrinted((await panelOf('softmax')).result, ref.weights[last][1], 4, 'the worked weight of sat on cat');
  });

  it('works the selected cell out again for the new numbers after the model changes', async () => {
    const q = THREE.q.map((row) => [...row]);
    q[2][0] = 1;
    await page.evaluate((rows) => { document.getElementById('three').q = rows; }, q);
    const ref = referenceAttention({ ...THREE, q });
    await page.waitForFunction((expected) => {
      const text = document.getElementById('softmax').shadowRoot.querySelector('.cell-working strong.value')?.textContent;
      return text !== undefined && Math.abs(Number(text) - expected) < 1e-4;
    }, ref.weights[2][1]);
    assertPrinted((await panelOf('softmax')).result, ref.weights[2][1], 4, 'the worked weight after the change');
  });
});

// vocabulary · out, e^(x − max) and the probabilities, in float64.
function referenceNextWord(out, vocabulary) {
  const logits = vocabulary.vectors.map((vector) => vector.reduce((s, x, c) => s + x * out[c], 0));
  const max = Math.max(...logits);
  const exponentials = logits.map((x) => Math.exp(x - max));
  const total = exponentials.reduce((a, b) => a + b, 0);
  return { logits, probabilities: exponentials.map((x) => x / total) };
}

describe('<attention-next-word>', { timeout: TEST_TIMEOUT }, () => {
  it('scores the last token\u2019s output, or row\u2019s, against the vocabulary, as a float64 reference does', async () => {
    const article = await page.evaluate(async () => {
      const { createAttention } = await import('../site/web/attention-explainer.js');
      return (await createAttention({ build: 'embed' })).article();
    });
    const ref = referenceAttention(article.two_words);
    for (const [id, row] of [['next', 1], ['next-first', 0]]) {
      const expected = referenceNextWord(ref.out[row], article.vocabulary);
      const table = await readShadowTable(page, id, 'next-word');
      assert.match(table.caption, new RegExp(`out\\[${article.two_words.tokens[row]}\\]`));
      assert.deepEqual(table.rows.map((r) => r.label), article.vocabulary.words);
      table.rows.forEach((r, w) => {
        assertPrinted(r.cells[0], expected.logits[w], 3, `${id}: score of ${r.label}`);
        assertPrinted(r.cells[2], expected.probabilities[w], 4, `${id}: probability of ${r.label}`);
      });
      const scored = await page.evaluate((hostId) => document.getElementById(hostId).scored, id);
      const top = expected.probabilities.indexOf(Math.max(...expected.probabilities));
      assert.equal(scored.most_likely, top, `${id}: the most likely word`);
      const vocabulary = await readShadowTable(page, id, 'vocabulary');
      vocabulary.rows.forEach((r, w) => r.cells.forEach((text, c) =>
        assertPrinted(text, article.vocabulary.vectors[w][c], 3, `${id}: vector of ${r.label}`)));
    }
  });

  it('says why it scores nothing for a head of another width, and names a bad row', async () => {
    const note = await page.evaluate(() => document.getElementById('next-wide').shadowRoot.querySelector('.note')?.textContent);
    assert.match(note, /vectors have 4 numbers, so this demonstration runs only when head_dim is 4; it is 3 here/);
    assert.equal(await page.evaluate(() => document.getElementById('next-wide').scored), null);
    assert.equal(await readShadowTable(page, 'next-wide', 'next-word'), null);
    assert.match(await readMessage(page, 'next-bad-row'), /row attribute: .*7/);
  });
});
