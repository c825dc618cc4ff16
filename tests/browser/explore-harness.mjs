// Shared plumbing for the explorable-page tests (tests/browser/explore-*.test.mjs): a float64
// attention head written out here with every mask and scale variant the page offers, readers
// for the page's editable cells, and one assertion that checks every downstream table of the
// walkthrough against that reference.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PAGE_CSP, SITE_ROOT, cellField, launchBrowser, openPage, parsePrinted, piecesDrawn, readTable, startStaticServer, twoFrames } from './browser-harness.mjs';

export { PAGE_CSP, SITE_ROOT, launchBrowser, openPage, parsePrinted, piecesDrawn, readTable, startStaticServer, twoFrames };

export const MINUS = '\u2212';
export const TEST_TIMEOUT = 120_000;

/** Fails early, with the fix, when the site has not been built. */
export function requireBuiltSite() {
  for (const file of ['index.html', 'walkthrough.js', 'web/attention-explainer.js', 'web/generated/attention-core.wasm']) {
    if (!existsSync(path.join(SITE_ROOT, file))) {
      throw new Error(`build/site/${file} is missing: build the site first (scripts/build)`);
    }
  }
}

/** A browser, and the built site served under the page's Content-Security-Policy. */
export async function startExploring() {
  requireBuiltSite();
  const browser = await launchBrowser();
  const server = await startStaticServer({ root: SITE_ROOT, port: 0, csp: PAGE_CSP });
  return {
    browser,
    server,
    /** Opens the walkthrough (with `hash`, e.g. "#mask=none") in a fresh context. */
    open: (hash = '', options = {}) => openPage(browser, `${server.url}${hash}`, options),
    async close() {
      await browser?.close();
      await server?.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The float64 reference: one attention head, every variant, independent of the core.

/**
 * @param {{tokens: string[], q: number[][], k: number[][], v: number[][],
 *          mask?: 'causal'|'none'|'causal_zero', scale?: 'sqrt_d'|'d'|'none'}} input
 */
export function referenceAttention({ tokens, q, k, v, mask = 'causal', scale = 'sqrt_d' }) {
  const headDim = q[0].length;
  const hidden = (i, j) => mask !== 'none' && j > i;
  const scores = q.map((qi) => k.map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0)));
  const divisor = { sqrt_d: Math.sqrt(headDim), d: headDim, none: 1 }[scale];
  const scaled = scores.map((row) => row.map((x) => x / divisor));
  // causal_zero: the FAQ's mistake, a hidden score becomes 0 and keeps its place in the softmax.
  const fill = mask === 'causal_zero' ? 0 : -Infinity;
  const masked = scaled.map((row, i) => row.map((x, j) => (hidden(i, j) ? fill : x)));
  const rowMax = masked.map((row) => Math.max(...row));
  const shifted = masked.map((row, i) => row.map((x) => Math.exp(x - rowMax[i])));
  const shiftedTotals = shifted.map((row) => row.reduce((s, x) => s + x, 0));
  const weights = shifted.map((row, i) => row.map((x) => x / shiftedTotals[i]));
  const exponentials = masked.map((row) => row.map((x) => Math.exp(x)));
  const totals = exponentials.map((row) => row.reduce((s, x) => s + x, 0));
  const weightedValues = weights.map((row) => row.map((w, j) => v[j].map((x) => w * x)));
  const out = weightedValues.map((rows) => v[0].map((_, c) => rows.reduce((s, row) => s + row[c], 0)));
  return { tokens, headDim, scores, divisor, scaled, masked, exponentials, totals, weights, weightedValues, out, hidden };
}

/** `text` is `expected` printed with `decimals` decimals, to within float32 arithmetic. */
export function assertPrinted(text, expected, decimals, what, { slack = 2e-5 } = {}) {
  assert.ok(!text.includes('-'), `${what}: "${text}" uses a hyphen instead of U+2212`);
  if (expected === -Infinity) {
    assert.equal(text, `${MINUS}\u221e`, `${what}: a masked score reads "${text}"`);
    return;
  }
  assert.match(text, new RegExp(`^${MINUS}?\\d+\\.\\d{${decimals}}$`), `${what}: "${text}" is not written with ${decimals} decimals`);
  const tolerance = 0.5 * 10 ** -decimals + slack * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(parsePrinted(text) - expected) <= tolerance,
    `${what}: the page prints ${text}, the float64 reference is ${expected}`);
}

/** Every body cell of a token × token table (extra columns left out) against `expected`. */
export function assertTokenTable(table, reference, expected, decimals, what) {
  assert.ok(table, `${what}: the table is on the page`);
  assert.deepEqual(table.rows.map((r) => r.label), reference.tokens, `${what}: row labels`);
  assert.deepEqual(table.columns.slice(0, reference.tokens.length), reference.tokens, `${what}: column labels`);
  table.rows.forEach((row, i) => {
    reference.tokens.forEach((_, j) => {
      assertPrinted(row.cells[j].text, expected[i][j], decimals, `${what} ${row.label}/${table.columns[j]}`);
    });
  });
}

/**
 * Every downstream table of the walkthrough, and the FAQ's live copies, against the float64
 * reference of `input`: scores, scaled, masked (with the mask's marks), the softmax of the last
 * row, the weights and their row sums, the mix and out of the last row, the live grid.
 */
export async function assertWalkthroughMatches(page, input) {
  const ref = referenceAttention(input);
  const last = ref.tokens.length - 1;
  assertTokenTable(await readTable(page, 'scores'), ref, ref.scores, 3, 'scores');
  assertTokenTable(await readTable(page, 'scaled'), ref, ref.scaled, 3, 'scaled');
  assertTokenTable(await readTable(page, 'faq-scaled'), ref, ref.scaled, 3, 'FAQ scaled');
  const masked = await readTable(page, 'masked');
  assertTokenTable(masked, ref, ref.masked, 3, 'masked');
  masked.rows.forEach((row, i) => row.cells.forEach((cell, j) => {
    const hidden = ref.hidden(i, j);
    assert.equal(cell.masked, hidden && input.mask !== 'causal_zero', `masked ${i}/${j}: hatched as −∞`);
  }));
  for (const name of ['weights', 'faq-weights', 'live-grid']) {
    const table = await readTable(page, name);
    assertTokenTable(table, ref, ref.weights, 4, name);
    table.rows.forEach((row) => assert.equal(row.cells.at(-1).text, '1.0000', `${name}: row sum of ${row.label}`));
  }
  const softmax = await readTable(page, 'softmax');
  ref.tokens.forEach((token, j) => {
    const [score, , weight] = softmax.rows[j].cells;
    assertPrinted(score.text, ref.masked[last][j], 3, `softmax score ${token}`);
    assertPrinted(weight.text, ref.weights[last][j], 4, `softmax weight ${token}`);
  });
  const mix = await readTable(page, 'mix');
  mix.rows.forEach((row, j) => row.cells.forEach((cell, c) =>
    assertPrinted(cell.text, ref.weightedValues[last][j][c], 4, `mix ${j}/${c}`)));
  mix.footer[0].cells.forEach((cell, c) => assertPrinted(cell.text, ref.out[last][c], 4, `out[${c}]`));
  return ref;
}

// ---------------------------------------------------------------------------------------------
// The page's controls.

/** The values of an editable table's cells (the field's text in the cell it is in), row by row, as numbers. */
export async function readInputs(page, matrix) {
  await piecesDrawn(page);
  return page.$$eval(`table[data-table="${matrix}"] tbody tr`, (rows) =>
    rows.map((row) => Array.from(row.querySelectorAll('td[data-col]'),
      (cell) => cell.querySelector('input')?.value ?? cell.querySelector('.value').textContent)))
    .then((rows) => rows.map((row) => row.map(parsePrinted)));
}

/** The page's example as it shows it: tokens and Q, K and V (read from the inputs). */
export async function readExample(page) {
  const tokens = await page.$$eval('.token-list .token-input', (inputs) => inputs.map((input) => input.value));
  return { tokens, q: await readInputs(page, 'q'), k: await readInputs(page, 'k'), v: await readInputs(page, 'v') };
}

/** The message the Q, K or V step (`matrix`) shows about an edit of its cells. */
export const editMessage = (page, matrix) => page.locator(`[data-slot="table-${matrix}"] .edit-message`);

/** The text field of cell [row][col] of q, k or v (browser-harness.mjs's cellField). */
export const cellInput = (page, matrix, row, col) => cellField(page, `table[data-table="${matrix}"]`, row, col);

/** The state the core draws new cells from for `seed`, split as the page splits it. */
export async function seededPool(page, seed) {
  const matrix = await page.evaluate(async (s) => {
    const { createAttention } = await import('./web/attention-explainer.js');
    return (await createAttention()).randomMatrix({ rows: 16, cols: 48, seed: s, min: -1, max: 1, decimals: 1 });
  }, seed);
  const block = (n) => matrix.map((row) => row.slice(16 * n, 16 * (n + 1)));
  return { q: block(0), k: block(1), v: block(2) };
}

/** The article's input, from the core. */
export function articleOf(page) {
  return page.evaluate(async () => {
    const { createAttention } = await import('./web/attention-explainer.js');
    return (await createAttention()).article();
  });
}

/** A snapshot of every walkthrough table's printed cells, to show that nothing changed. */
export async function snapshotTables(page) {
  await piecesDrawn(page);
  return page.$$eval('main table[data-table]', (tables) => tables.map((table) => [
    table.dataset.table,
    Array.from(table.querySelectorAll('td'), (td) => td.querySelector('input')?.value ?? td.querySelector('.value')?.textContent ?? ''),
  ]));
}
