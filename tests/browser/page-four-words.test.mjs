// The walkthrough page's four-token example ("the cat sat on") in a real browser (Chromium via
// playwright-core), served from build/site under a strict Content-Security-Policy: the causal
// grid of weights (hatched mask, shades darker for larger weights, rows adding up to one) and the
// softmax of the rows the article works out. Every weight is compared with an attention head
// computed in float64 from the same inputs, at the precision the page prints.
//
// Build the site first (cmake --preset wasm && cmake --build --preset wasm).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrinted, readTable } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, assertPrinted, referenceAttention, withWalkthroughPage, written,
} from './page-harness.mjs';

// WCAG relative luminance of a computed "rgb(r, g, b)" colour.
function luminance(color) {
  const [r, g, b] = color.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((x) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('the walkthrough under a strict Content-Security-Policy', { timeout: TEST_TIMEOUT * 4 }, () => {
  let page;
  let article;
  let four;  // float64 reference of the four-token example
  withWalkthroughPage((shown, articleShown) => {
    page = shown;
    article = articleShown;
    four = referenceAttention(article.four_words);
  });

  it('draws the causal grid of the four-token sentence: hatched mask, shaded weights, rows of one', async () => {
    const grid = await readTable(page, 'grid');
    const tokens = article.four_words.tokens;
    assert.deepEqual(tokens, ['the', 'cat', 'sat', 'on']);
    assert.deepEqual(grid.columns, [...tokens, 'row sum']);
    assert.deepEqual(grid.rows.map((r) => r.label), tokens);
    const shadeColours = new Map();
    grid.rows.forEach((row, i) => {
      const cells = row.cells.slice(0, tokens.length);
      let printedSum = 0;
      cells.forEach((cell, j) => {
        const where = `grid ${row.label}/${tokens[j]}`;
        assertPrinted(cell.text, four.weights[i][j], 4, where);
        printedSum += parsePrinted(cell.text);
        if (j > i) {
          assert.equal(cell.masked, true, `${where} is marked masked`);
          assert.equal(cell.hiddenText, 'masked', `${where} says "masked" to screen readers`);
          assert.match(cell.backgroundImage, /repeating-linear-gradient/, `${where} is hatched`);
          assert.equal(parsePrinted(cell.text), 0, `${where} has weight 0`);
          assert.equal(cell.shade, null, `${where} is not shaded`);
        } else {
          assert.equal(cell.masked, false, `${where} is live`);
          assert.equal(cell.backgroundImage, 'none', `${where} is not hatched`);
          assert.equal(cell.shade, Math.min(4, Math.floor(four.weights[i][j] * 5)), `${where} shade`);
          shadeColours.set(cell.shade, cell.backgroundColor);
        }
      });
      assert.ok(Math.abs(printedSum - 1) <= 1e-4 * tokens.length / 2 + 1e-9,
        `the printed weights of ${row.label} add up to ${printedSum}`);
      assert.equal(row.cells.at(-1).text, '1.0000', `row sum of ${row.label}`);
    });
    const catRow = grid.rows[1].cells.slice(0, 2).map((c) => written(parsePrinted(c.text), 3));
    assert.deepEqual(catRow, ['0.784', '0.216']);

    // A darker shade for a larger weight, by lightness alone (so it survives greyscale).
    const levels = [...shadeColours.keys()].sort((a, b) => a - b);
    assert.ok(levels.length >= 3, `the grid uses several shades (${levels})`);
    for (let n = 1; n < levels.length; n += 1) {
      assert.ok(luminance(shadeColours.get(levels[n])) < luminance(shadeColours.get(levels[n - 1])),
        `shade ${levels[n]} is darker than shade ${levels[n - 1]}`);
    }
    const legend = await page.$$eval('[data-slot="grid-legend"] .legend-swatches li', (items) => items.map((li) => li.textContent));
    assert.equal(legend.length, 6, 'five weight bands and the masked swatch');
    assert.match(legend.at(-1), /masked/);

    const split = await page.locator('[data-fill="four-first-worked-split"]').textContent();
    assert.equal(split, ['0.784', '0.216'].join(' / '));
  });

  it('works out the softmax of the grid rows it names', async () => {
    const tokens = article.four_words.tokens;
    assert.ok(article.four_words_worked_rows.length > 0);
    for (const row of article.four_words_worked_rows) {
      const table = await readTable(page, `worked-row-${row}`);
      assert.ok(table, `worked row ${row}`);
      assert.match(table.caption, new RegExp(`the ${tokens[row]} row`));
      table.rows.forEach((r, j) => {
        const where = `worked row ${tokens[row]}→${tokens[j]}`;
        assertPrinted(r.cells[0].text, four.masked[row][j], 3, `${where} score`);
        assertPrinted(r.cells[1].text, four.exponentials[row][j], 4, `${where} e^x`);
        assertPrinted(r.cells[2].text, four.weights[row][j], 4, `${where} weight`);
        assert.equal(r.cells[0].masked, j > row, `${where} masking`);
      });
      assertPrinted(table.footer[0].cells[1].text, four.totals[row], 4, `total of row ${row}`);
      assert.equal(table.footer[0].cells[2].text, '1.0000');
    }
  });
});
