// The bill's curve on the sequel page: the table behind the plot holds one sequence's cache for
// each line, against the definition worked out here in float64 (global layers hold T tokens,
// local ones min(T, window)); each model's crossing of the memory left is named; the plot is drawn
// (uPlot's canvas) and can be taken away as SVG or PNG.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parsePrinted, readTable, TEST_TIMEOUT, useSequelPage,
} from './sequel-harness.mjs';

let page;
useSequelPage({ ready: (opened) => { page = opened; } });

// [bytes per token and layer, layers, local layers, window] from the published configurations.
const SHAPES = {
  'Llama 3 8B': [2 * 8 * 128 * 2, 32, 0, null],
  'Mistral 7B v0.1': [2 * 8 * 128 * 2, 32, 32, 4096],
  'Gemma 3 27B': [2 * 16 * 128 * 2, 62, 52, 1024],
  'DeepSeek-V3': [(512 + 64) * 2, 61, 0, null],
  'toy MHA layer': [2 * 4 * 4 * 4, 1, 0, null],
  'toy MQA layer': [2 * 1 * 4 * 4, 1, 0, null],
};
const sequence = ([perLayer, layers, local, window], T) => perLayer * ((layers - local) * T + local * Math.min(T, window ?? T));

describe('the bill\u2019s curve', () => {
  it('the table behind the plot, against the definition', { timeout: TEST_TIMEOUT }, async () => {
    const table = await readTable(page, 'kv-curve', 'kv-curve');
    assert.ok(table, 'the table is there');
    assert.equal(parsePrinted(table.rows[0].label), 16);
    assert.equal(parsePrinted(table.rows.at(-1).label), 2 ** 20);
    let checked = 0;
    for (const [name, shape] of Object.entries(SHAPES)) {
      const col = table.columns.indexOf(name);
      assert.ok(col >= 0, `a line for ${name}`);
      for (const row of table.rows) {
        if (row.cells[col] === '\u2014') continue;  // not a point of this line
        assert.equal(parsePrinted(row.cells[col]), sequence(shape, parsePrinted(row.label)), `${name} at ${row.label}`);
        checked += 1;
      }
    }
    assert.ok(checked > 300);
    const crossings = await page.evaluate(() => [...document.getElementById('kv-curve').shadowRoot.querySelectorAll('.crossings li')].map((li) => li.textContent));
    // Gemma 3 27B: ⌊(80 GiB − 54,018,004,480) / 8192 − 52 · 1024) / 10⌋ = 383,851 tokens (as the core's test works out).
    assert.ok(crossings.some((text) => text.startsWith('Gemma 3 27B') && text.includes('383\u202f851')), crossings.join(' | '));
  });

  // The curve in this same state (a fresh page, light scheme, 1100 px) is checked with axe-core,
  // every WCAG 2 A/AA rule, in sequel-curve-page.test.mjs ("follows a light and then a dark
  // scheme"), and inside the whole page in sequel-page.test.mjs: it is not checked a third time.
  it('draws the plot and offers it as SVG and PNG', { timeout: TEST_TIMEOUT }, async () => {
    const drawn = await page.evaluate(() => {
      const root = document.getElementById('kv-curve').shadowRoot;
      const canvas = root.querySelector('.uplot canvas');
      return { canvas: Boolean(canvas && canvas.width > 100), buttons: [...root.querySelectorAll('button[data-download]')].map((b) => b.dataset.download) };
    });
    assert.deepEqual(drawn, { canvas: true, buttons: ['svg', 'png'] });
  });
});
