// Pieces far from the screen draw a model's new trace a moment later (fixtures/far-pieces.html,
// web/elements/draw-when-near.js): an edit redraws at once the pieces on or near the screen,
// while one many screens below keeps what it showed until the browser is idle, it comes near,
// or the page prints; whenPiecesDrawn() resolves once every piece shows the latest trace. The
// numbers against a float64 reference.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TEST_TIMEOUT, assertTable, readShadowTable, referenceAttention, THREE, withFixturePage,
} from './embed-harness.mjs';
import { twoFrames } from './browser-harness.mjs';

let page;
withFixturePage('far-pieces.html', (shown) => {
  page = shown.page;
});

// Types `text` into Q cell [row][col] of the near piece (its one field) and reads, in the same
// task, the weights the near and far pieces print: what a reader's frame would show. With
// `print`, then fires `beforeprint` and reads the far piece's weights again (`farPrinted`).
function editAndRead(row, col, text, { print = false } = {}) {
  return page.evaluate(([r, c, typed, printing]) => {
    const near = document.getElementById('near').shadowRoot;
    near.querySelector(`td[data-row="${r}"][data-col="${c}"]`).focus();
    const field = near.querySelector('input[data-matrix="q"]');
    field.value = typed;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const weights = (id) => [...document.getElementById(id).shadowRoot.querySelectorAll('table[data-table="weights"] tbody tr')]
      .map((tr) => [...tr.querySelectorAll('td[data-col]:not(.row-sum)')].map((td) => td.querySelector('.value').textContent));
    const shown = { near: weights('near-weights'), far: weights('far') };
    if (printing) {
      window.dispatchEvent(new Event('beforeprint'));
      shown.farPrinted = weights('far');
    }
    return shown;
  }, [row, col, text, print]);
}

// Rows of printed weights as assertTable reads a table.
const asTable = (rows) => ({ rows: rows.map((cells, i) => ({ label: THREE.tokens[i], cells })), columns: THREE.tokens });

// Two frames: the intersection observer has reported where every piece is.
const frames = () => twoFrames(page);

const drawn = () => page.evaluate(async () => (await import('../site/web/attention-explainer.js')).whenPiecesDrawn());

describe('pieces near and far from the screen', { timeout: TEST_TIMEOUT }, () => {
  it('an edit redraws the pieces on screen at once and the far one when the browser is idle', async () => {
    await frames();
    const before = (await readShadowTable(page, 'far', 'weights')).rows.map((row) => row.cells.slice(0, 3));
    const edited = { ...THREE, q: THREE.q.map((row, i) => (i === 2 ? [row[0], 3, row[2]] : row)) };
    const reference = referenceAttention(edited);
    const shown = await editAndRead(2, 1, '3');
    assertTable(asTable(shown.near), reference.weights, 4, 'near weights, in the edit\u2019s task');
    assert.deepEqual(shown.far, before, 'the far piece still shows the trace before the edit');
    await drawn();
    assertTable(await readShadowTable(page, 'far', 'weights'), reference.weights, 4, 'far weights once drawn');
  });

  it('printing draws every piece first', async () => {
    await frames();
    const edited = { ...THREE, q: THREE.q.map((row, i) => (i === 2 ? [row[0], -1.5, row[2]] : row)) };
    const reference = referenceAttention(edited);
    const shown = await editAndRead(2, 1, '-1.5', { print: true });
    assert.notDeepEqual(shown.far, shown.near, 'the far piece is behind');
    assertTable(asTable(shown.farPrinted), reference.weights, 4, 'far weights right after beforeprint');
  });

  it('a piece scrolled near draws the latest trace, and one taken off the page is not waited for', async () => {
    await frames();
    const edited = { ...THREE, q: THREE.q.map((row, i) => (i === 2 ? [row[0], 0.5, row[2]] : row)) };
    await editAndRead(2, 1, '0.5');
    await page.evaluate(() => document.getElementById('far').scrollIntoView());
    await frames();
    assertTable(await readShadowTable(page, 'far', 'weights'), referenceAttention(edited).weights, 4, 'far weights on screen');
    await page.evaluate(() => window.scrollTo(0, 0));
    await frames();
    await editAndRead(2, 1, '0.25');
    const settled = await page.evaluate(async () => {
      document.getElementById('far').remove();
      const { whenPiecesDrawn } = await import('../site/web/attention-explainer.js');
      return Promise.race([whenPiecesDrawn().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
    });
    assert.equal(settled, true, 'whenPiecesDrawn() resolves without the removed piece');
  });
});
