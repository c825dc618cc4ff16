// The FAQ computed, several heads, and the working of a cell, in Chromium. The mask and scale
// variants are checked against the float64 head of explore-harness.mjs (masking with 0 must
// put weight on later words); the head_dim demonstration and the four-head layer against what
// the module's API returns for the same request, as the page prints it; the working of a cell
// against the trace's own numbers and the cells it names.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { estimateText, estimateValue } from '../support/estimate-text.mjs';
import { cellField } from './browser-harness.mjs';
import {
  MINUS, TEST_TIMEOUT, articleOf, assertPrinted, assertWalkthroughMatches, parsePrinted, readTable,
  startExploring,
} from './explore-harness.mjs';

let explorer;
before(async () => { explorer = await startExploring(); });
after(async () => { await explorer?.close(); });

const choose = (page, where, kind, value) => page.locator(`${where} fieldset[data-choice="${kind}"] input[value="${value}"]`).check();
const faqLab = (kind) => `.faq-lab[data-lab="${kind}"]`;

// The page's way of writing a number, written out again here for the API's figures.
const written = (value, decimals) => {
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
};
const compact = (value) => written(value, 3).replace(/\.?0+$/, '');

describe('the FAQ\'s masks and scales, on the example', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  let article;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
    article = await articleOf(page);
  });
  after(async () => opened?.close());

  it('masks with 0 instead of −∞ and so leaks weight onto later tokens', async () => {
    await choose(page, faqLab('mask'), 'mask', 'causal_zero');
    const ref = await assertWalkthroughMatches(page, { ...article.two_words, mask: 'causal_zero' });
    const grid = await readTable(page, 'live-grid');
    const leaked = grid.rows[0].cells[1];
    assert.ok(parsePrinted(leaked.text) > 0.1, `the weighs ${leaked.text} on cat, a later word`);
    assertPrinted(leaked.text, ref.weights[0][1], 4, 'the → cat');
    assert.match(leaked.fullText, /hidden, set to 0/, 'screen readers hear that the cell was hidden with 0');
    const masked = await readTable(page, 'masked');
    assert.equal(masked.rows[0].cells[1].text, '0.000');
    assert.match(masked.caption, /0 \(not −∞\)/);
    assert.equal(await page.locator('[data-when-mask="causal_zero"]').first().isVisible(), true);
    assert.match(await page.locator('[data-fill="leak"]').textContent(),
      new RegExp(`^the, the first token, gives ${leaked.text} to cat, a word that comes after it\\.$`));
    assert.deepEqual(await page.$$eval('[data-slot="faq-arrows"] g.arrow.forward', (gs) => gs.map((g) => [g.dataset.from, g.dataset.to])),
      [['0', '1']], 'an arrow runs forward from the to cat');
    // The toolbar's control and the walkthrough follow the FAQ's.
    assert.equal(await page.locator('.explore-controls input[value="causal_zero"]').isChecked(), true);
  });

  it('shows no mask as in BERT: nothing hidden, arrows both ways', async () => {
    await choose(page, faqLab('mask'), 'mask', 'none');
    const ref = await assertWalkthroughMatches(page, { ...article.two_words, mask: 'none' });
    const masked = await readTable(page, 'masked');
    assert.ok(masked.rows.every((row) => row.cells.every((cell) => !cell.masked)));
    assertPrinted((await readTable(page, 'weights')).rows[0].cells[1].text, ref.weights[0][1], 4, 'the → cat');
    assert.equal(await page.locator('[data-slot="faq-arrows"] g.arrow').count(), 4);
    await choose(page, faqLab('mask'), 'mask', 'causal');
    assert.equal(await page.locator('[data-slot="faq-arrows"] g.arrow.forward').count(), 0, 'causal: nothing forward');
    await assertWalkthroughMatches(page, article.two_words);
  });

  it('divides the scores by d_k, or not at all, and the scaled tables follow', async () => {
    for (const [scale, divisor] of [['d', 4], ['none', 1], ['sqrt_d', 2]]) {
      await choose(page, faqLab('scale'), 'scale', scale);
      const ref = await assertWalkthroughMatches(page, { ...article.two_words, scale });
      assert.equal(ref.divisor, divisor);
      const scaled = await readTable(page, 'scaled');
      assert.match(scaled.caption, new RegExp(`÷\u00a0${{ d: 'dₖ = 4', none: '1 \\(unscaled\\)', sqrt_d: '√dₖ = 2' }[scale]}$`));
      assert.equal(await page.locator(`[data-when-scale="${scale}"]`).isVisible(), true);
      assert.equal(await page.locator('[data-fill="scale-divisor"]').first().textContent(), String(divisor));
    }
    assert.equal(cellText(await readTable(page, 'scaled'), 1, 1), '1.045');
  });
});

const cellText = (table, row, col) => table.rows[row].cells[col].text;

describe('the head_dim demonstration', { timeout: TEST_TIMEOUT }, () => {
  it('prints the core\'s study, raw scores about 5–6× wider at 128 than at 4, and follows ÷ d_k', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      for (const scale of ['sqrt_d', 'd']) {
        if (scale === 'd') await choose(page, '[data-slot="head-dim-study"]', 'study-scale', 'd');
        const study = await page.evaluate(async (s) => {
          const { createAttention } = await import('./web/attention-explainer.js');
          return (await createAttention()).headDimStudy({
            head_dims: [1, 2, 4, 8, 16, 32, 64, 128], tokens: 8, samples: 256, seed: 1, mask: 'none', scale: s,
          });
        }, scale);
        const table = await readTable(page, 'head-dim-study');
        assert.deepEqual(table.rows.map((r) => r.label), study.points.map((p) => String(p.head_dim)));
        assert.deepEqual(table.columns, ['÷', 'raw spread', 'scaled spread', 'largest weight, raw', 'largest weight, scaled',
          'entropy, raw', 'entropy, scaled', 'gradient, raw', 'gradient, scaled']);
        study.points.forEach((p, r) => {
          // Each figure with its standard error over the 256 samples, to the digits it supports.
          const estimate = (figures, name) => estimateText(figures[name], figures[`${name}_standard_error`]);
          assert.deepEqual(table.rows[r].cells.map((c) => c.text), [
            compact(p.scale_divisor), estimate(p, 'raw_score_spread'), estimate(p, 'scaled_score_spread'),
            estimate(p.unscaled, 'mean_largest_weight'), estimate(p.scaled, 'mean_largest_weight'),
            estimate(p.unscaled, 'mean_entropy'), estimate(p.scaled, 'mean_entropy'),
            estimate(p.unscaled, 'gradient_norm'), estimate(p.scaled, 'gradient_norm'),
          ], `head_dim ${p.head_dim}`);
          for (const error of [p.raw_score_spread_standard_error, p.unscaled.mean_largest_weight_standard_error]) {
            assert.ok(error > 0 && Number.isFinite(error), `head_dim ${p.head_dim}: a standard error of ${error}`);
          }
        });
        const fill = async (name) => page.locator(`[data-fill="${name}"]`).first().textContent();
        assert.equal(await fill('study-from'), '4');
        assert.equal(await fill('study-to'), '128');
        const { comparison } = study;
        assert.equal(await fill('study-raw-ratio'), estimateText(comparison.raw_spread_ratio, comparison.raw_spread_ratio_standard_error));
        const ratio = estimateValue(await fill('study-raw-ratio'));
        assert.ok(ratio >= 5 && ratio <= 6, `raw scores ${ratio}× wider at 128 than at 4`);
        assert.equal(await fill('study-expected-ratio'), '5.66');
        const at128 = study.points.at(-1);
        const quoted = (figures, name) => estimateText(figures[name], figures[`${name}_standard_error`]);
        assert.equal(await fill('study-largest-raw'), quoted(at128.unscaled, 'mean_largest_weight'));
        assert.equal(await fill('study-gradient-raw'), quoted(at128.unscaled, 'gradient_norm'));
        assert.equal(await fill('study-largest-scaled'), quoted(at128.scaled, 'mean_largest_weight'));
        // What the demonstration is for: unscaled, the softmax saturates and the gradient shrinks.
        assert.ok(at128.unscaled.mean_largest_weight > 0.85 && at128.unscaled.gradient_norm < 0.5 * study.points[2].unscaled.gradient_norm);
        if (scale === 'sqrt_d') {
          assert.ok(Math.abs(at128.scaled.mean_largest_weight - study.points[2].scaled.mean_largest_weight) < 0.05, 'scaled stays put');
        } else {
          assert.ok(at128.scaled.mean_entropy > 2.0, '÷ d_k flattens every row towards ln 8');
        }
      }
    } finally {
      await opened.close();
    }
  });
});

describe('more than one head', { timeout: TEST_TIMEOUT }, () => {
  it('shows the core\'s four-head layer of width 16 over the page\'s tokens, head by head', async () => {
    const opened = await explorer.open('#mask=none&seed=5');
    try {
      const { page } = opened;
      await page.getByRole('button', { name: /^Add a token/ }).click();
      const tokens = await page.$$eval('.token-input', (inputs) => inputs.map((i) => i.value));
      const layer = await page.evaluate(async (t) => {
        const { createAttention } = await import('./web/attention-explainer.js');
        return (await createAttention()).multiHead({ tokens: t, d_model: 16, n_heads: 4, seed: 5, mask: 'none', scale: 'sqrt_d' });
      }, tokens);
      assert.equal(layer.head_dim, 4);
      const matches = async (name, matrix, decimals) => {
        const table = await readTable(page, name);
        assert.ok(table, `table ${name}`);
        assert.equal(table.rows.length, matrix.length, `${name} rows`);
        table.rows.forEach((row, r) => assert.deepEqual(row.cells.slice(0, matrix[r].length).map((c) => c.text),
          matrix[r].map((x) => written(x, decimals)), `${name} row ${r}`));
      };
      // The weight matrices are drawn when their disclosure first opens.
      assert.equal(await page.locator('table[data-table="heads-1-wq"]').count(), 0);
      await page.$$eval('.head-card details, details.heads-wo', (all) => all.forEach((d) => { d.open = true; }));
      await page.locator('table[data-table="heads-wo"]').waitFor();
      await page.locator('table[data-table="heads-4-k"]').waitFor();
      await matches('heads-x', layer.x, 3);
      assert.equal(await page.locator('.head-card').count(), 4);
      for (const [h, head] of layer.heads.entries()) {
        await matches(`heads-${h + 1}-wq`, head.w_q, 3);
        await matches(`heads-${h + 1}-wv`, head.w_v, 3);
        await matches(`heads-${h + 1}-k`, head.trace.k, 3);
        await matches(`heads-${h + 1}-weights`, head.trace.weights, 4);
        await matches(`heads-${h + 1}-out`, head.trace.out, 4);
      }
      await matches('heads-concat', layer.concat, 4);
      await matches('heads-wo', layer.w_o, 3);
      await matches('heads-out', layer.out, 4);
      assert.equal(await page.locator('[data-fill="heads-d-model"]').textContent(), '16');
      assert.equal(await page.locator('[data-fill="heads-count"]').textContent(), '4');
      // Side by side on a wide screen: the first two cards share a row.
      const [a, b] = await page.$$eval('.head-card', (cards) => cards.slice(0, 2).map((c) => c.getBoundingClientRect().top));
      assert.equal(a, b, 'the heads stand side by side');
    } finally {
      await opened.close();
    }
  });
});

describe('the working of a cell', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
  });
  after(async () => opened?.close());

  // The working's lines, each with its spacing tidied, joined by a space.
  const working = (slot) => page.locator(`section:has([data-slot="${slot}"]) .cell-working`).evaluate((panel) =>
    Array.from(panel.querySelectorAll('p'), (p) => p.textContent.replace(/\s+/g, ' ').trim()).join(' '));
  const highlighted = () => page.$$eval('.source-cell', (cells) => cells.map((td) =>
    `${td.closest('table').dataset.table}[${td.dataset.row ?? '*'}][${td.dataset.col ?? '*'}]`));

  it('works out a score term by term when the pointer is on it, and marks q and k', async () => {
    await page.locator('table[data-table="scores"] td[data-row="1"][data-col="0"]').hover();
    assert.equal(await working('table-scores'),
      `qcat · kthe = (1.100 × ${MINUS}0.400) + (${MINUS}0.800 × ${MINUS}0.300) + (0.200 × 0.200) + (0.300 × 1.200) = ${MINUS}0.44 + 0.24 + 0.04 + 0.36 = 0.200`);
    assert.deepEqual((await highlighted()).sort(), ['k[0][0]', 'k[0][1]', 'k[0][2]', 'k[0][3]', 'q[1][0]', 'q[1][1]', 'q[1][2]', 'q[1][3]']);
  });

  it('explains −∞ and works out a weight as e^x ÷ total, reached by the keyboard', async () => {
    await page.locator('table[data-table="masked"] td[data-row="0"][data-col="1"]').focus();
    assert.match(await working('table-masked'), /−∞: cat comes after the, which may not look at it/);
    assert.deepEqual(await highlighted(), ['scaled[0][1]']);

    await page.locator('table[data-table="weights"] td[data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'weight of cat on the: 0.2799');
    assert.equal(await working('table-weights'), 'weight of cat on the = e^0.100 ÷ 3.9486 = 1.1052 ÷ 3.9486 = 0.2799');
    assert.deepEqual((await highlighted()).sort(), ['masked[1][0]', 'masked[1][1]']);
    await page.keyboard.press('End');
    assert.equal(await working('table-weights'), 'row sum of cat = 0.2799 + 0.7201 = 1.0000');
    assert.ok((await highlighted()).every((name) => name.startsWith('weights[1][')), 'the row it adds up, in its own table');
  });

  it('works out a weight of the article\'s four-token grid from that example\'s own trace', async () => {
    const cell = page.locator('table[data-table="grid"] td[data-row="1"][data-col="0"]');
    const printed = await cell.locator('.value').textContent();
    await cell.hover();
    const text = await page.locator('section[aria-labelledby="grid-heading"] > .cell-working').evaluate((panel) =>
      Array.from(panel.querySelectorAll('p'), (p) => p.textContent.replace(/\s+/g, ' ').trim()).join(' '));
    assert.match(text, new RegExp(`^weight of cat on the = e\\^\\d\\.\\d{3} ÷ \\d\\.\\d{4} = .* = ${printed}$`));
    assert.match(printed, /^0\.78\d\d$/, 'the article\'s 0.784');
    assert.deepEqual(await highlighted(), [], 'nothing of the reader\'s example is marked as its source');
    // Its row sum adds up its own row: that row of the grid is marked, nothing else.
    await page.locator('table[data-table="grid"] td.extra[data-row="1"]').hover();
    const marked = await highlighted();
    assert.ok(marked.length > 0 && marked.every((name) => name.startsWith('grid[1][')), `the grid's own row: ${marked}`);
  });

  it('works out the mix and out[cat], and follows an edit', async () => {
    await page.locator('table[data-table="mix"] tfoot td[data-col="0"]').hover();
    assert.equal(await working('table-mix'), `out[cat], component 0: the column added up = ${MINUS}0.1399 + 0.8641 = 0.7242`);
    await page.locator('table[data-table="mix"] tbody td[data-row="0"][data-col="0"]').hover();
    assert.equal(await working('table-mix'), `weight of cat on the × v0 of the = 0.2799 × ${MINUS}0.500 = ${MINUS}0.1399`);
    assert.deepEqual((await highlighted()).sort(), ['v[0][0]', 'weights[1][0]']);
    await cellField(page, 'table[data-table="v"]', 0, 0).fill('1');
    assert.equal(await working('table-mix'), 'weight of cat on the × v0 of the = 0.2799 × 1.000 = 0.2799', 'the working follows the edit');
  });
});
