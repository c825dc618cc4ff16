// The walkthrough page in a real browser (Chromium via playwright-core), served from build/site.
//
// Every number the page prints is compared with an attention head computed here, in float64,
// from the same inputs, at the precision the page prints; the article's own figures are also
// checked as literals. Then: masking marks, the four-token grid, the page under a strict
// Content-Security-Policy, and what the page says before and instead of results.
//
// Build the site first (cmake --preset wasm && cmake --build --preset wasm).
// ATTN_SCREENSHOT=docs/screenshot.png additionally saves a full-page screenshot there.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { after, before, describe, it } from 'node:test';
import {
  PAGE_CSP, SITE_ROOT, cellAt, launchBrowser, openPage, parsePrinted, readTable,
  startStaticServer, waitForOutcome,
} from './browser-harness.mjs';

const MINUS = '\u2212';
const TEST_TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------------
// The float64 reference: one attention head written out plainly, independent of the core.

function referenceAttention({ tokens, q, k, v, mask = 'causal' }) {
  const headDim = q[0].length;
  const visible = (i, j) => mask === 'none' || j <= i;
  const products = q.map((qi) => k.map((kj) => qi.map((x, c) => x * kj[c])));
  const scores = products.map((row) => row.map((terms) => terms.reduce((s, x) => s + x, 0)));
  const scaleDivisor = Math.sqrt(headDim);
  const scaled = scores.map((row) => row.map((x) => x / scaleDivisor));
  const masked = scaled.map((row, i) => row.map((x, j) => (visible(i, j) ? x : -Infinity)));
  const exponentials = masked.map((row) => row.map((x) => Math.exp(x)));
  const totals = exponentials.map((row) => row.reduce((s, x) => s + x, 0));
  const weights = exponentials.map((row, i) => row.map((x) => x / totals[i]));
  const weightedValues = weights.map((row) => row.map((w, j) => v[j].map((x) => w * x)));
  const out = weightedValues.map((rows) =>
    v[0].map((_, c) => rows.reduce((s, row) => s + row[c], 0)));
  return {
    tokens, headDim, products, scores, scaleDivisor, scaled, masked, exponentials, totals,
    weights, weightedValues, out,
  };
}

function referenceNextWord(row, vocabulary) {
  const logits = vocabulary.vectors.map((vector) => vector.reduce((s, x, c) => s + x * row[c], 0));
  const exponentials = logits.map((x) => Math.exp(x));
  const total = exponentials.reduce((s, x) => s + x, 0);
  return { logits, exponentials, total, probabilities: exponentials.map((x) => x / total) };
}

// How a reader writes a number, to build expected working lines (written independently of the
// page's own formatting module on purpose).
function written(value, decimals) {
  if (value === -Infinity) return `${MINUS}\u221e`;
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
}

const normalSpaces = (text) => text.replace(/\s+/g, ' ').trim();

/** `text` is `expected` written with `decimals` decimals (to within float32 rounding). */
function assertPrinted(text, expected, decimals, what) {
  assert.ok(!text.includes('-'), `${what}: "${text}" uses a hyphen instead of U+2212`);
  if (expected === -Infinity) {
    assert.equal(text, `${MINUS}\u221e`, `${what}: a masked score reads "${text}"`);
    return;
  }
  assert.match(text, new RegExp(`^${MINUS}?\\d+\\.\\d{${decimals}}$`),
    `${what}: "${text}" is not written with ${decimals} decimals`);
  const tolerance = 0.5 * 10 ** -decimals + 1e-6;
  assert.ok(Math.abs(parsePrinted(text) - expected) <= tolerance,
    `${what}: the page prints ${text}, the float64 reference is ${expected}`);
}

/** The values shown in the input cells of an editable table, row by row. */
function readInputs(page, name) {
  return page.$$eval(`table[data-table="${name}"] tbody tr`, (rows) =>
    rows.map((row) => Array.from(row.querySelectorAll('input'), (input) => input.value)));
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

// WCAG relative luminance of a computed "rgb(r, g, b)" colour.
function luminance(color) {
  const [r, g, b] = color.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((x) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// ---------------------------------------------------------------------------------------------

let browser;
let cspServer;
let plainServer;

before(async () => {
  for (const file of ['index.html', 'walkthrough.js', 'web/attention-explainer.js', 'web/generated/attention-core.wasm']) {
    if (!existsSync(path.join(SITE_ROOT, file))) {
      throw new Error(`build/site/${file} is missing: build the site first ` +
        '(cmake --preset wasm && cmake --build --preset wasm)');
    }
  }
  browser = await launchBrowser();
  cspServer = await startStaticServer({ root: SITE_ROOT, port: 0, csp: PAGE_CSP });
  plainServer = await startStaticServer({ root: SITE_ROOT, port: 0 });
});

after(async () => {
  await browser?.close();
  await cspServer?.close();
  await plainServer?.close();
});

describe('the walkthrough under a strict Content-Security-Policy', { timeout: TEST_TIMEOUT * 4 }, () => {
  let opened;
  let page;
  let article;
  let two;   // float64 reference of the two-token example
  let four;  // and of the four-token one

  before(async () => {
    opened = await openPage(browser, cspServer.url);
    page = opened.page;
    article = await page.evaluate(async () => {
      const { createAttention } = await import('./web/attention-explainer.js');
      return (await createAttention()).article();
    });
    two = referenceAttention(article.two_words);
    four = referenceAttention(article.four_words);
  });

  after(async () => {
    if (process.env.ATTN_SCREENSHOT && page) {
      const target = path.resolve(process.env.ATTN_SCREENSHOT);
      await mkdir(path.dirname(target), { recursive: true });
      await page.screenshot({ path: target, fullPage: true });
    }
    await opened?.close();
  });

  it('is served with the policy and loads without errors or violations', async () => {
    assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
    const problems = await opened.collectViolations();
    assert.deepEqual(problems.cspViolations, [], 'CSP violations');
    assert.deepEqual(problems.failedRequests, [], 'failed requests');
    assert.deepEqual(problems.pageErrors, [], 'uncaught page errors');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
    assert.equal(await page.locator('#load-problem').isHidden(), true, 'no failure message');
    assert.equal(await page.locator('[aria-busy="true"]').count(), 0, 'no slot is still computing');
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

  it('sets every number in tabular, right-aligned figures with a real minus sign', async () => {
    const cells = await page.$$eval('table td.num', (tds) => tds.map((td) => {
      const style = getComputedStyle(td);
      return { text: td.querySelector('.value')?.textContent ?? '', align: style.textAlign, digits: style.fontVariantNumeric };
    }));
    assert.ok(cells.length > 100, `${cells.length} number cells`);
    for (const cell of cells) {
      assert.equal(cell.align, 'right', `"${cell.text}" is right-aligned`);
      assert.match(cell.digits, /tabular-nums/, `"${cell.text}" uses tabular figures`);
      assert.ok(!cell.text.includes('-'), `"${cell.text}" has no hyphen-minus`);
    }
    const bodyText = await page.locator('main').textContent();
    assert.ok(!/-\d/.test(bodyText), 'no hyphen-minus before a digit anywhere in the prose');
  });

  it('gives every table a caption naming it and scoped headers', async () => {
    const tables = await page.$$eval('table', (all) => all.map((table) => ({
      name: table.dataset.table,
      caption: table.caption?.textContent ?? '',
      unscoped: table.querySelectorAll('th:not([scope])').length,
      scrollable: table.parentElement.classList.contains('table-scroll'),
    })));
    assert.ok(tables.length >= 13, `${tables.length} tables`);
    for (const table of tables) {
      assert.ok(table.caption.length > 5, `table ${table.name} has a caption`);
      assert.equal(table.unscoped, 0, `table ${table.name}: every th has a scope`);
      assert.ok(table.scrollable, `table ${table.name} scrolls sideways on narrow screens`);
    }
  });

  it('inserts token names as text, never as markup', async () => {
    const result = await page.evaluate(async () => {
      const { renderMatrixTable } = await import('./web/views/render-tables.js');
      const table = renderMatrixTable(document, [[1]], {
        name: 'probe',
        caption: '<i>caption</i>',
        rowLabels: ['<img src=x>'],
        columnLabels: ['<b>key</b>'],
        format: (x) => String(x),
      });
      return {
        elements: table.querySelectorAll('img, b, i').length,
        row: table.tBodies[0].rows[0].cells[0].textContent,
        column: table.tHead.rows[0].cells[1].textContent,
      };
    });
    assert.deepEqual(result, { elements: 0, row: '<img src=x>', column: '<b>key</b>' });
  });
});

describe('the page source', () => {
  it('holds no numbers: everything numeric is filled in at load time', async () => {
    const html = await readFile(path.join(SITE_ROOT, 'index.html'), 'utf8');
    const text = html
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
      .replace(/<span class="step-label">Step \d<\/span>/g, ' ')
      .replace(/\bstep \d\b/gi, ' ')
      // A citation's year is not a computed number.
      .replace(/Vaswani et al\. \(\d{4}\)/g, ' ')
      .replace(/<[^>]*>/g, ' ');
    assert.deepEqual(text.match(/.{0,20}\d.{0,20}/g) ?? [], [], 'digits typed into the page');
  });

  it('has no inline scripts, inline styles or foreign resources', async () => {
    const html = await readFile(path.join(SITE_ROOT, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /\sstyle=/i, 'no style attributes');
    assert.doesNotMatch(html, /<style/i, 'no style elements');
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
    const scripts = html.match(/<script[^>]*>/gi);
    assert.deepEqual(scripts, ['<script type="module" src="./walkthrough.js">']);
    // A link to read elsewhere fetches nothing; a source or stylesheet would.
    assert.doesNotMatch(html, /\ssrc="(https?:)?\/\//i, 'nothing fetched from elsewhere');
    assert.doesNotMatch(html, /<link[^>]*href="(https?:)?\/\//i, 'nothing fetched from elsewhere');
  });
});

describe('the walkthrough without a CSP header, on a narrow screen', { timeout: TEST_TIMEOUT }, () => {
  it('computes the numbers without errors and does not overflow sideways', async () => {
    const opened = await openPage(browser, plainServer.url, { viewport: { width: 360, height: 740 } });
    try {
      const { page, problems } = opened;
      assert.equal(opened.response.headers()['content-security-policy'], undefined);
      assert.deepEqual(problems.failedRequests, []);
      assert.deepEqual(problems.pageErrors, []);
      assert.deepEqual(problems.consoleErrors, []);
      const scores = await readTable(page, 'scores');
      assert.equal(cellAt(scores, 'cat', 'cat').text, '2.090');
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 360px screen`);
    } finally {
      await opened.close();
    }
  });
});

describe('before the numbers arrive', { timeout: TEST_TIMEOUT }, () => {
  it('shows "computing…" in every slot, then the tables', async () => {
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const opened = await openPage(browser, cspServer.url, {
      waitForResult: false,
      waitUntil: 'domcontentloaded',
      route: (page) => page.route('**/generated/attention-core.js', async (route) => {
        await gate;
        await route.continue();
      }),
    });
    try {
      const { page } = opened;
      const pending = await page.evaluate(() => ({
        tables: document.querySelectorAll('table').length,
        busy: document.querySelectorAll('[data-slot][aria-busy="true"]').length,
        computing: document.querySelectorAll('[data-slot] .computing').length,
        text: document.querySelector('[data-slot="table-scores"]').textContent.trim(),
      }));
      assert.equal(pending.tables, 0, 'no table before the core has answered');
      assert.ok(pending.busy >= 13 && pending.computing === pending.busy, JSON.stringify(pending));
      assert.equal(pending.text, 'computing…');
      release();
      await waitForOutcome(page);
      assert.equal(await page.locator('[aria-busy="true"]').count(), 0);
      assert.ok(await page.locator('table').count() >= 13);
    } finally {
      release();
      await opened.close();
    }
  });
});

describe('when the numbers cannot be computed', { timeout: TEST_TIMEOUT * 2 }, () => {
  async function assertHonestFailure(page, messagePattern) {
    const alert = page.locator('[role="alert"]');
    assert.equal(await alert.isVisible(), true, 'the alert is visible');
    assert.match(await alert.textContent(), messagePattern);
    const state = await page.evaluate(() => ({
      tables: document.querySelectorAll('table').length,
      busy: document.querySelectorAll('[aria-busy="true"]').length,
      notComputed: document.querySelectorAll('[data-slot] > .not-computed').length,
      markedNotComputed: document.querySelectorAll('.not-computed').length,
      slots: document.querySelectorAll('[data-slot]').length,
      statusHidden: document.getElementById('load-status').hidden,
      mainText: document.querySelector('main').textContent,
    }));
    assert.equal(state.tables, 0, 'no table pretends to hold results');
    assert.equal(state.busy, 0, 'nothing claims to be still computing');
    assert.equal(state.notComputed, state.slots, 'every slot says it was not computed');
    assert.equal(state.markedNotComputed, state.slots, 'and nothing else is styled as such');
    assert.equal(state.statusHidden, true);
    assert.doesNotMatch(state.mainText, /\d\.\d/, 'no number is shown');
  }

  it('says so in an alert when WebAssembly is unavailable', async () => {
    const opened = await openPage(browser, cspServer.url, {
      initScript: 'delete globalThis.WebAssembly;',
    });
    try {
      assert.equal(await opened.page.evaluate(() => typeof WebAssembly), 'undefined');
      await assertHonestFailure(opened.page, /WebAssembly/);
      assert.deepEqual(opened.problems.pageErrors, []);
    } finally {
      await opened.close();
    }
  });

  it('says so in an alert when the wasm module fails to load', async () => {
    const opened = await openPage(browser, cspServer.url, {
      route: (page) => page.route('**/attention-core.wasm', (route) =>
        route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' })),
    });
    try {
      await assertHonestFailure(opened.page, /failed to load/);
    } finally {
      await opened.close();
    }
  });
});
