// Shared plumbing for the sequel page's tests: the built site on a static server under the
// strict policy, the page opened and waited for, readers for the tables inside the elements'
// shadow roots (the token-vector table of <attention-layer-inputs> among them), and a float64
// reference written out plainly here, independent of the core: matrix products, one attention
// head, FlashAttention's running quantities tile by tile, the quantiser, and the bill's arithmetic.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before } from 'node:test';
import path from 'node:path';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer, twoFrames } from './browser-harness.mjs';

export { PAGE_CSP, launchBrowser };
export const SITE = path.resolve(process.env.ATTN_SITE_DIR ?? SITE_ROOT);
/** Per test: generous, because the browser suites run side by side on a shared machine. */
export const TEST_TIMEOUT = 240_000;
/** An axe-core run over the whole page (hundreds of tables) takes longest. */
export const AXE_TIMEOUT = 480_000;
const MINUS = '\u2212';

/** Fails early, with the fix, when the site has not been built. */
export function requireBuiltSite() {
  for (const file of ['sequel.html', 'sequel.js', 'web/attention-sequel-elements.js', 'web/generated/attention-core.wasm']) {
    if (!existsSync(path.join(SITE, file))) throw new Error(`${path.join(SITE, file)} is missing: build the site first (scripts/build)`);
  }
}

/** The built site on a random port, every HTML page sent with the strict policy. */
export function startSiteServer(options = {}) {
  return startStaticServer({ root: SITE, port: 0, csp: PAGE_CSP, ...options });
}

/**
 * Opens sequel.html (with `hash`) and waits until every section has computed. Records console
 * errors and warnings, page errors, failed requests and policy violations.
 */
export async function openSequel(browser, server, { hash = '', viewport = { width: 1100, height: 900 }, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const record = { errors: [], warnings: [], pageErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') record.errors.push(message.text());
    if (message.type() === 'warning') record.warnings.push(message.text());
  });
  page.on('pageerror', (error) => record.pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) record.failedRequests.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => record.failedRequests.push(`failed ${request.url()}`));
  await page.addInitScript(() => {
    globalThis.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      globalThis.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const response = await page.goto(`${server.url}sequel.html${hash}`);
  await waitForSequel(page);
  return {
    page,
    response,
    record,
    cspViolations: () => page.evaluate(() => globalThis.__cspViolations),
    close: () => context.close(),
  };
}

/**
 * The set-up every sequel test file shares: before its tests, the built site checked, a browser
 * and a server started and (unless `open` is false) sequel.html opened with `options`
 * (openSequel's) and `ready(page)` awaited; after them, all closed again. Returns a handle whose
 * members are filled in by then: {browser, server, opened, page}.
 * @param {{open?: boolean, ready?: (page: import('playwright-core').Page) => Promise<void>}} [options]
 */
export function useSequelPage({ open = true, ready, ...options } = {}) {
  const sequel = { browser: null, server: null, opened: null, page: null };
  before(async () => {
    requireBuiltSite();
    sequel.browser = await launchBrowser();
    sequel.server = await startSiteServer();
    if (!open) return;
    sequel.opened = await openSequel(sequel.browser, sequel.server, options);
    sequel.page = sequel.opened.page;
    await ready?.(sequel.page);
  });
  after(async () => {
    await sequel.opened?.close();
    await sequel.browser?.close();
    await sequel.server?.close();
  });
  return sequel;
}

/** Waits until the page says every section was computed (or why not). */
export async function waitForSequel(page) {
  await page.waitForFunction(() => {
    const status = document.getElementById('load-status');
    const problem = document.getElementById('load-problem');
    return status?.classList.contains('done') || (problem && !problem.hidden);
  }, undefined, { timeout: 90_000 });
}

/** Waits until the element has computed since `before` (a count of its attention-change events). */
export async function settle(page) {
  // Elements draw in a microtask after an attribute changes; two animation frames are plenty.
  await twoFrames(page);
}

/**
 * A table inside an element's shadow root (or the page's own, with hostId null), as printed:
 * column labels and keys, rows with their label, key and cell texts (an input gives its value).
 */
export function readTable(target, hostId, name) {
  return target.evaluate(([id, tableName]) => {
    const root = id === null ? document : document.getElementById(id)?.shadowRoot;
    const table = root?.querySelector(`table[data-table="${tableName}"]`);
    if (!table) return null;
    const cellText = (cell) => cell.querySelector('input')?.value ?? cell.querySelector('.value')?.textContent ?? cell.textContent.trim();
    const headCells = Array.from(table.tHead.rows[0].cells).slice(1);
    return {
      caption: table.caption?.textContent ?? '',
      columns: headCells.map((cell) => cell.textContent),
      columnKeys: headCells.map((cell) => cell.dataset.key ?? null),
      rows: Array.from(table.tBodies[0].rows, (row) => ({
        label: row.cells[0].textContent,
        key: row.dataset.key ?? null,
        cells: Array.from(row.cells).slice(1).map(cellText),
        units: Array.from(row.cells).slice(1).map((cell) => cell.querySelector('.unit')?.textContent ?? null),
        masked: Array.from(row.cells).slice(1).map((cell) => cell.dataset.masked === 'true'),
        skipped: Array.from(row.cells).slice(1).map((cell) => cell.dataset.skipped === 'true'),
      })),
    };
  }, [hostId, name]);
}

/** Parses a number as printed: U+2212 minus, "−∞", digit groups split by narrow spaces. */
export function parsePrinted(text) {
  const normal = text.trim().replace(/\u2212/g, '-').replace(/[\u202f\u2009 ]/g, '');
  if (normal === '-\u221e') return -Infinity;
  if (!/^-?\d+(\.\d+)?$/.test(normal)) throw new Error(`not a printed number: "${text}"`);
  return Number(normal);
}

/** Parses a figure printed to a few significant digits: "0.0433" or "5.96 × 10⁻⁸". */
export function parseSignificant(text) {
  const superscripts = '\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';
  const match = /^(\u2212?[\d.]+)(?: \u00d7 10(.+))?$/u.exec(text.trim());
  if (!match) throw new Error(`not a printed figure: "${text}"`);
  const mantissa = Number(match[1].replace('\u2212', '-'));
  if (!match[2]) return mantissa;
  const exponent = Number([...match[2]].map((ch) => '-0123456789'[superscripts.indexOf(ch)]).join(''));
  return mantissa * 10 ** exponent;
}

/** A printed table's body as numbers. */
export const numbers = (table) => table.rows.map((row) => row.cells.map(parsePrinted));

/** `text` is `expected` written with `decimals` decimals (to within float32 rounding). */
export function assertPrinted(text, expected, decimals, what) {
  assert.ok(!text.includes('-'), `${what}: "${text}" uses a hyphen instead of U+2212`);
  if (expected === -Infinity) {
    assert.equal(text, `${MINUS}\u221e`, `${what}: a hidden score reads "${text}"`);
    return;
  }
  assert.match(text, new RegExp(`^${MINUS}?\\d+\\.\\d{${decimals}}$`), `${what}: "${text}" has not ${decimals} decimals`);
  const tolerance = 0.5 * 10 ** -decimals + 2e-6 * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(parsePrinted(text) - expected) <= tolerance, `${what}: the page prints ${text}, the float64 reference is ${expected}`);
}

/** Every body cell of a printed table against a reference matrix. */
export function assertTable(table, expected, decimals, what) {
  assert.ok(table, `${what}: the table is shown`);
  assert.equal(table.rows.length, expected.length, `${what}: row count`);
  table.rows.forEach((row, i) => {
    assert.equal(row.cells.length, expected[i].length, `${what}: columns of row ${row.label}`);
    expected[i].forEach((value, j) => assertPrinted(row.cells[j], value, decimals, `${what} ${row.label}/${table.columns[j]}`));
  });
}

/** The cell of a figure table (the bill) by row key and column index, as a whole number. */
export function figure(table, key, col = 0) {
  const row = table.rows.find((r) => r.key === key);
  assert.ok(row, `${table.caption}: a row "${key}"`);
  return parsePrinted(row.cells[col]);
}

// ---------------------------------------------------------------------------------------------
// The float64 reference.

export const matmul = (a, b) => a.map((row) => b[0].map((_, c) => row.reduce((sum, x, k) => sum + x * b[k][c], 0)));
export const columns = (m, from, to) => m.map((row) => row.slice(from, to));

/** One attention head: scores ÷ √d, causal or no mask, softmax, weighted values. */
export function attentionHead(q, k, v, mask = 'causal') {
  const d = q[0].length;
  const visible = (i, j) => mask === 'none' || j <= i;
  const scaled = q.map((qi) => k.map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0) / Math.sqrt(d)));
  const masked = scaled.map((row, i) => row.map((x, j) => (visible(i, j) ? x : -Infinity)));
  const weights = masked.map((row) => {
    const max = Math.max(...row);
    const e = row.map((x) => Math.exp(x - max));
    const total = e.reduce((s, x) => s + x, 0);
    return e.map((x) => x / total);
  });
  const out = weights.map((row) => v[0].map((_, c) => row.reduce((s, w, j) => s + w * v[j][c], 0)));
  return { scaled, masked, weights, out };
}

/**
 * FlashAttention's forward pass written out in float64, tile by tile in the order the page
 * shows them: for each tile, per query row, tile max, m before and after, rescale, l before
 * and after, and the partial output; skipped tiles (wholly hidden by the causal mask) marked.
 */
export function flashReference(q, k, v, blockRows, blockCols, mask = 'causal') {
  const t = q.length;
  const d = q[0].length;
  const steps = [];
  const m = Array(t).fill(-Infinity);
  const l = Array(t).fill(0);
  const o = q.map(() => Array(d).fill(0));
  for (let r0 = 0; r0 < t; r0 += blockRows) {
    const r1 = Math.min(t, r0 + blockRows);
    for (let c0 = 0; c0 < t; c0 += blockCols) {
      const c1 = Math.min(t, c0 + blockCols);
      const skipped = mask === 'causal' && c0 > r1 - 1;
      const step = { rows: [r0, r1], cols: [c0, c1], skipped };
      steps.push(step);
      if (skipped) continue;
      step.running = [];
      step.out = [];
      for (let i = r0; i < r1; i += 1) {
        const scores = [];
        for (let j = c0; j < c1; j += 1) {
          scores.push(mask === 'causal' && j > i ? -Infinity : q[i].reduce((s, x, c) => s + x * k[j][c], 0) / Math.sqrt(d));
        }
        const tileMax = Math.max(...scores);
        const before = m[i];
        const after = Math.max(before, tileMax);
        const rescale = before === -Infinity ? 0 : Math.exp(before - after);
        const e = scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - after)));
        const sumBefore = l[i];
        l[i] = sumBefore * rescale + e.reduce((s, x) => s + x, 0);
        for (let c = 0; c < d; c += 1) o[i][c] = o[i][c] * rescale + e.reduce((s, p, n) => s + p * v[c0 + n][c], 0);
        m[i] = after;
        step.running.push([tileMax, before, after, rescale, sumBefore, l[i]]);
        step.out.push([...o[i]]);
      }
    }
  }
  return { steps, out: o.map((row, i) => row.map((x) => x / l[i])) };
}

/** The quantiser of quantised_cache.h: codes of one table of rows after y = x · R. */
export function quantiseRows(rows, rotation, bits) {
  const levels = 2 ** (bits - 1) - 1;
  const rotated = matmul(rows, rotation);
  return rotated.map((y) => {
    const scale = Math.max(...y.map(Math.abs)) / levels;
    return { scale, codes: y.map((value) => (scale === 0 ? 0 : Math.round(value / scale))) };
  });
}

/** The bill of kv_bill.h, by hand. */
export function billReference({ latent, layers, nKvHeads, headDim, dLatent, ropeDim, dtypeBytes, kvBits, scaleBytes = 4,
  parameters, weightBytes, context, batch = 1, gpuGib = 80, window = null, localLayers = 0 }) {
  let perTokenPerLayer;
  if (latent) {
    perTokenPerLayer = kvBits ? Math.ceil(((dLatent + ropeDim) * kvBits) / 8) + scaleBytes : (dLatent + ropeDim) * dtypeBytes;
  } else {
    perTokenPerLayer = kvBits ? 2 * nKvHeads * (Math.ceil((headDim * kvBits) / 8) + scaleBytes) : 2 * nKvHeads * headDim * dtypeBytes;
  }
  const perToken = perTokenPerLayer * layers;
  // A layer with a sliding window caches at most `window` tokens; the others the whole context.
  const local = window === null ? 0 : localLayers;
  const perSequence = perTokenPerLayer * ((layers - local) * context + local * Math.min(context, window ?? context));
  const gpu = gpuGib * 2 ** 30;
  const weights = parameters * weightBytes;
  return {
    perTokenPerLayer, perToken, perSequence, cache: perSequence * batch, weights, gpu,
    fits: weights + perSequence * batch <= gpu,
    concurrent: weights > gpu ? 0 : Math.floor((gpu - weights) / perSequence),
  };
}

/** Opens the folded parts (the projection tables) of these elements, which draw them on opening. */
export async function unfold(page, hostIds) {
  await page.evaluate((ids) => Promise.all(ids.flatMap((id) => [...document.getElementById(id).shadowRoot.querySelectorAll('details')]
    .filter((details) => !details.open)
    .map((details) => new Promise((resolve) => {
      details.addEventListener('toggle', () => resolve(), { once: true });
      details.open = true;
    })))), hostIds);
}

/** The page's token vectors, as typed in the X table of its <attention-layer-inputs>. */
export async function readX(page) {
  const table = await readTable(page, 'layer-inputs', 'x');
  return numbers(table);
}

/** A weight table of an element, printed on its two-decimal grid (exact for the seeded weights). */
export async function readWeights(page, hostId, name) {
  const table = await readTable(page, hostId, name);
  assert.ok(table, `${hostId}: weight table ${name}`);
  return numbers(table);
}
