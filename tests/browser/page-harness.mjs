// What the walkthrough page's tests (tests/browser/page-*.test.mjs) share: the built site, a
// browser and the servers the page is opened from; the article's numbers as the page's core
// gives them; a float64 attention head written out plainly, independent of the core; how a
// reader writes a number; and the check that a printed number is the reference's at the
// precision the page prints.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import {
  PAGE_CSP, SITE_ROOT, launchBrowser, openPage, parsePrinted, startStaticServer,
} from './browser-harness.mjs';

export const MINUS = '\u2212';
export const TEST_TIMEOUT = 60_000;

/**
 * A browser and the built site served under the page's Content-Security-Policy (`cspServer`)
 * and, with `plain`, without a policy (`plainServer`). Fails early, with the fix, when the site
 * has not been built.
 */
export async function startWalkthroughSite({ plain = false } = {}) {
  for (const file of ['index.html', 'walkthrough.js', 'web/attention-explainer.js', 'web/generated/attention-core.wasm']) {
    if (!existsSync(path.join(SITE_ROOT, file))) {
      throw new Error(`build/site/${file} is missing: build the site first ` +
        '(cmake --preset wasm && cmake --build --preset wasm)');
    }
  }
  const browser = await launchBrowser();
  const cspServer = await startStaticServer({ root: SITE_ROOT, port: 0, csp: PAGE_CSP });
  const plainServer = plain ? await startStaticServer({ root: SITE_ROOT, port: 0 }) : undefined;
  return {
    browser,
    cspServer,
    plainServer,
    async close() {
      await browser?.close();
      await cspServer?.close();
      await plainServer?.close();
    },
  };
}

/**
 * The hooks of a test file about the walkthrough under its policy: before its tests, the site
 * started and the page opened on it, handed to `shown` with the article's examples; after
 * them, both closed.
 * @param {(page: import('playwright-core').Page, article: object) => void} shown
 */
export function withWalkthroughPage(shown) {
  let site;
  let opened;
  before(async () => {
    site = await startWalkthroughSite();
    opened = await openPage(site.browser, site.cspServer.url);
    shown(opened.page, await readArticle(opened.page));
  });
  after(async () => {
    await opened?.close();
    await site?.close();
  });
}

/** The article's examples and vocabulary, as the core loaded by `page` gives them. */
export function readArticle(page) {
  return page.evaluate(async () => {
    const { createAttention } = await import('./web/attention-explainer.js');
    return (await createAttention()).article();
  });
}

// The float64 reference: one attention head written out plainly, independent of the core.

export function referenceAttention({ tokens, q, k, v, mask = 'causal' }) {
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

// How a reader writes a number, to build expected working lines (written independently of the
// page's own formatting module on purpose).
export function written(value, decimals) {
  if (value === -Infinity) return `${MINUS}\u221e`;
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
}

/** `text` is `expected` written with `decimals` decimals (to within float32 rounding). */
export function assertPrinted(text, expected, decimals, what) {
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
