// The walkthrough page's two-token example ("the cat") in a real browser (Chromium via
// playwright-core), served from build/site under a strict Content-Security-Policy, step by step:
// Q, K and V as editable cells, the dot products worked factor by factor, the scores, scaled and
// masked (steps 1 to 3), the softmax and the weights (step 4), the mix into out[cat] (step 5) and
// the next-word demonstration (step 6). Every number the page prints is compared with an
// attention head computed in float64 from the same inputs, at the precision the page prints; the
// article's own figures are also checked as literals.
//
// Build the site first (cmake --preset wasm && cmake --build --preset wasm).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellAt, parsePrinted, readTable } from './browser-harness.mjs';
import {
  MINUS, TEST_TIMEOUT, assertPrinted, referenceAttention, withWalkthroughPage, written,
} from './page-harness.mjs';

function referenceNextWord(row, vocabulary) {
  const logits = vocabulary.vectors.map((vector) => vector.reduce((s, x, c) => s + x * row[c], 0));
  const exponentials = logits.map((x) => Math.exp(x));
  const total = exponentials.reduce((s, x) => s + x, 0);
  return { logits, exponentials, total, probabilities: exponentials.map((x) => x / total) };
}

const normalSpaces = (text) => text.replace(/\s+/g, ' ').trim();

/** The values shown in the input cells of an editable table, row by row. */
function readInputs(page, name) {
  return page.$$eval(`table[data-table="${name}"] tbody tr`, (rows) =>
    rows.map((row) => Array.from(row.querySelectorAll('td[data-col]'),
      (cell) => cell.querySelector('input')?.value ?? cell.querySelector('.value').textContent)));
}

/** Every body cell of a token × token table against the reference matrix. */
function assertMatrix(table, labels, expected, decimals, what) {
  assert.deepEqual(table.rows.map((r) => r.label), labels, `${what}: row labels`);
  table.rows.forEach((row, i) => {
    assert.equal(row.cells.length, expected[i].length, `${what}: row ${row.label} cell count`);
    row.cells.forEach((cell, j) => {
      assertPrinted(cell.text, expected[i][j], decimals, `${what} ${row.label}/${table.columns[j]}`);
    });
  });
}

describe('the walkthrough under a strict Content-Security-Policy', { timeout: TEST_TIMEOUT * 4 }, () => {
  let page;
  let article;
  let two;   // float64 reference of the two-token example
  withWalkthroughPage((shown, articleShown) => {
    page = shown;
    article = articleShown;
    two = referenceAttention(article.two_words);
  });

  it('shows Q, K and V as editable cells holding the article\'s numbers exactly', async () => {
    const { tokens, q, k, v } = article.two_words;
    for (const [name, matrix, letter] of [['q', q, 'q'], ['k', k, 'k'], ['v', v, 'v']]) {
      const table = await readTable(page, name);
      assert.ok(table, `table ${name}`);
      assert.deepEqual(table.columns, matrix[0].map((_, c) => `${letter}${c}`));
      assert.deepEqual(table.rows.map((r) => r.label), tokens, `${name} row labels`);
      const shown = await readInputs(page, name);
      assert.equal(shown.length, matrix.length, `${name}: one row of inputs per token`);
      shown.forEach((row, i) => row.forEach((text, c) => {
        assert.ok(!text.includes('-'), `${name}[${i}][${c}]: "${text}" uses a hyphen instead of U+2212`);
        // The core works in float32: the cell holds the article's number as that float.
        assert.equal(Math.fround(parsePrinted(text)), Math.fround(matrix[i][c]), `${name}[${i}][${c}] shows "${text}"`);
      }));
    }
    assert.deepEqual((await readInputs(page, 'q'))[1], ['1.1', `${MINUS}0.8`, '0.2', '0.3'], "the article's q_cat");
  });

  it('works out both dot products of the last token, factor by factor', async () => {
    const workings = await page.$$eval('.dot-product', (blocks) => blocks.map((block) => ({
      query: block.dataset.query,
      key: block.dataset.key,
      factors: block.querySelector('.factors').textContent,
      products: block.querySelector('.products').textContent,
      result: block.querySelector('.result').textContent,
    })));
    const last = two.tokens.length - 1;
    assert.deepEqual(workings.map((w) => [w.query, w.key]), [['cat', 'cat'], ['cat', 'the']]);
    assert.match(await page.locator('[data-fill="dot-products-intro"]').textContent(), /^are both dot products of the last row, first with its own key, then with the other token/);
    for (const working of workings) {
      const j = two.tokens.indexOf(working.key);
      const expectedFactors = two.products[last][j].map((_, c) =>
        `(${written(article.two_words.q[last][c], 3)} \u00d7 ${written(article.two_words.k[j][c], 3)})`);
      assert.equal(normalSpaces(working.factors), `= ${expectedFactors.join(' + ')}`);
      // "= 1.76 + 0.56 − 0.08 − 0.15": read the signed terms back and compare each one.
      const line = normalSpaces(working.products);
      const terms = line.replace(/^= /, '').split(/ (?=[+\u2212] )/).map((term) =>
        parsePrinted(term.replace(/^\+ /, '').replace(/^\u2212 /, MINUS)));
      terms.forEach((term, c) => {
        assert.ok(Math.abs(term - two.products[last][j][c]) <= 0.005 + 1e-6,
          `product ${c} of cat·${working.key}: ${term} vs ${two.products[last][j][c]}`);
      });
      assertPrinted(normalSpaces(working.result).replace(/^= /, ''), two.scores[last][j], 2,
        `q_cat · k_${working.key}`);
    }
    assert.equal(normalSpaces(workings[0].products), `= 1.76 + 0.56 ${MINUS} 0.08 ${MINUS} 0.15`);
    assert.equal(normalSpaces(workings[0].result), '= 2.09');
    assert.equal(normalSpaces(workings[1].products), `= ${MINUS}0.44 + 0.24 + 0.04 + 0.36`);
    assert.equal(normalSpaces(workings[1].result), '= 0.20');
  });

  it('fills steps 1 to 3 from the trace: scores, scaled by √d_k, masked', async () => {
    const scores = await readTable(page, 'scores');
    assert.match(scores.caption, /^Step 1 · scores/);
    assertMatrix(scores, two.tokens, two.scores, 3, 'scores');
    assert.equal(cellAt(scores, 'cat', 'cat').text, '2.090');
    assert.equal(cellAt(scores, 'cat', 'the').text, '0.200');

    const scaled = await readTable(page, 'scaled');
    assert.match(scaled.caption, /^Step 2 · scaled/);
    assertMatrix(scaled, two.tokens, two.scaled, 3, 'scaled');
    assert.equal(cellAt(scaled, 'cat', 'cat').text, '1.045');
    assert.equal(await page.locator('[data-fill="scale-divisor"]').first().textContent(),
      String(two.scaleDivisor));
    assert.equal(await page.locator('[data-fill="head-dim"]').first().textContent(),
      String(two.headDim));

    const masked = await readTable(page, 'masked');
    assert.match(masked.caption, /^Step 3 · masked/);
    assertMatrix(masked, two.tokens, two.masked, 3, 'masked');
    const hidden = cellAt(masked, 'the', 'cat');
    assert.equal(hidden.text, `${MINUS}\u221e`);
    assert.equal(hidden.masked, true, 'the masked cell carries class and data-masked');
    assert.equal(hidden.hiddenText, 'masked', 'screen readers hear "masked"');
    assert.match(hidden.backgroundImage, /repeating-linear-gradient/, 'the masked cell is hatched');
    for (const [row, col] of [['the', 'the'], ['cat', 'the'], ['cat', 'cat']]) {
      assert.equal(cellAt(masked, row, col).masked, false, `${row}/${col} is not masked`);
      assert.equal(cellAt(masked, row, col).backgroundImage, 'none', `${row}/${col} is not hatched`);
    }
  });

  it('works out the softmax of the last row and quotes its percentages', async () => {
    const softmax = await readTable(page, 'softmax');
    assert.match(softmax.caption, /^Step 4 · softmax of the cat row/);
    const last = two.tokens.length - 1;
    two.tokens.forEach((token, j) => {
      const [score, exponential, weight] = softmax.rows[j].cells;
      assert.equal(softmax.rows[j].label, token);
      assertPrinted(score.text, two.masked[last][j], 3, `score of cat→${token}`);
      assertPrinted(exponential.text, two.exponentials[last][j], 4, `e^x of cat→${token}`);
      assertPrinted(weight.text, two.weights[last][j], 4, `weight of cat→${token}`);
    });
    assert.deepEqual(softmax.rows.map((r) => r.cells.slice(1).map((c) => c.text)),
      [['1.1052', '0.2799'], ['2.8434', '0.7201']], "the article's exponentials and weights");
    const [total] = softmax.footer;
    assert.equal(total.label, 'total');
    assertPrinted(total.cells[1].text, two.totals[last], 4, 'total of the exponentials');
    assert.equal(total.cells[1].text, '3.9486');
    assert.equal(total.cells[2].text, '1.0000', 'the weights add up to one');

    const percents = await page.$$eval('[data-fill="percent-self"], [data-fill="percent-other"]',
      (spans) => spans.map((s) => [s.dataset.fill, s.textContent]));
    const expectPercent = (x) => `${Math.round(x * 100)}\u202f%`;
    for (const [fill, text] of percents) {
      const expected = fill === 'percent-self' ? two.weights[last][last] : two.weights[last][0];
      assert.equal(text, expectPercent(expected), fill);
    }
    assert.ok(percents.some(([, text]) => text === '72\u202f%'));
    assert.ok(percents.some(([, text]) => text === '28\u202f%'));
  });

  it('shows every row of weights summing to one, masked weights exactly zero', async () => {
    const weights = await readTable(page, 'weights');
    assert.match(weights.caption, /^Step 4 · weights/);
    assert.equal(weights.columns.at(-1), 'row sum');
    weights.rows.forEach((row, i) => {
      const cells = row.cells.slice(0, -1);
      cells.forEach((cell, j) => assertPrinted(cell.text, two.weights[i][j], 4, `weight ${i}/${j}`));
      assert.equal(row.cells.at(-1).text, '1.0000', `row sum of ${row.label}`);
    });
    const maskedWeight = cellAt(weights, 'the', 'cat');
    assert.equal(maskedWeight.masked, true);
    assert.equal(maskedWeight.text, '0.0000');
  });

  it('mixes the values into out[cat] and says how cat walked in and out', async () => {
    const mix = await readTable(page, 'mix');
    assert.match(mix.caption, /^Step 5 · mix/);
    const last = two.tokens.length - 1;
    assert.deepEqual(mix.rows.map((r) => r.label),
      ['0.2799 \u00d7 V[the]', '0.7201 \u00d7 V[cat]']);
    mix.rows.forEach((row, j) => row.cells.forEach((cell, c) =>
      assertPrinted(cell.text, two.weightedValues[last][j][c], 4, `weighted value ${j}/${c}`)));
    assert.deepEqual(mix.rows[0].cells.map((c) => c.text),
      [`${MINUS}0.1399`, `${MINUS}0.1120`, '0.0280', '0.3079']);
    const [out] = mix.footer;
    assert.equal(out.label, 'out[cat]');
    out.cells.forEach((cell, c) => assertPrinted(cell.text, two.out[last][c], 4, `out[cat][${c}]`));
    assert.deepEqual(out.cells.map((c) => c.text),
      ['0.7242', `${MINUS}0.3280`, `${MINUS}0.1160`, `${MINUS}0.1242`]);

    const vectorText = (values) => `[${values.map((x) => written(x, 3)).join(', ')}]`;
    assert.equal(await page.locator('[data-fill="value-in"]').textContent(),
      vectorText(article.two_words.v[last]));
    assert.equal(await page.locator('[data-fill="value-out"]').textContent(),
      vectorText(two.out[last]));
    assert.equal(await page.locator('[data-fill="value-out"]').textContent(),
      `[0.724, ${MINUS}0.328, ${MINUS}0.116, ${MINUS}0.124]`);
  });

  it('labels step 6 as a demonstration and scores out[cat] against the vocabulary', async () => {
    const heading = await page.locator('#step-demo-heading').textContent();
    assert.match(heading, /demonstration, not attention/i);
    const last = two.tokens.length - 1;
    const expected = referenceNextWord(two.out[last], article.vocabulary);
    const table = await readTable(page, 'next-word');
    assert.match(table.caption, /demonstration/);
    assert.deepEqual(table.rows.map((r) => r.label), article.vocabulary.words);
    table.rows.forEach((row, w) => {
      assertPrinted(row.cells[0].text, expected.logits[w], 3, `logit of ${row.label}`);
      assertPrinted(row.cells[1].text, expected.exponentials[w], 4, `e^x of ${row.label}`);
      assertPrinted(row.cells[2].text, expected.probabilities[w], 4, `probability of ${row.label}`);
    });
    assertPrinted(table.footer[0].cells[1].text, expected.total, 4, 'total');
    assert.equal(table.footer[0].cells[2].text, '1.0000');
    assert.equal(await page.locator('[data-fill="top-word"]').textContent(), 'sat');
    assert.equal(await page.locator('[data-fill="top-percent"]').textContent(),
      `${Math.round(expected.probabilities[0] * 100)}\u202f%`);
    assert.equal(await page.locator('[data-fill="top-percent"]').textContent(), '55\u202f%');
  });
});
