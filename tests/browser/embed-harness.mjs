// Shared plumbing for the embedding tests: host pages of our own (tests/browser/fixtures) served
// next to the built site, the way an author's site would hold a copy of it; a float64
// reference; and readers that look into the elements' open shadow roots (the tests may search
// the page; the components themselves never do).

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The assembled site: build/site, or the folder ATTN_SITE_DIR names (as for tests/web). */
export const SITE = path.resolve(process.env.ATTN_SITE_DIR ?? SITE_ROOT);
export const TEST_TIMEOUT = 90_000;
const MINUS = '\u2212';

/** Fails early, with the fix, when the site has not been built. */
export function requireBuiltSite() {
  for (const file of ['web/attention-explainer.js', 'web/generated/attention-core.wasm', 'embed.html', 'embed-resize.js']) {
    if (!existsSync(path.join(SITE, file))) {
      throw new Error(`${path.join(SITE, file)} is missing: build the site first (scripts/build)`);
    }
  }
}

/**
 * Serves a folder holding `site/` (the built site) and `fixtures/` (the host pages), as an
 * author's server would hold both. Options are startStaticServer's.
 * @param {{csp?: string}} [options]
 */
export async function startHostServer(options = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'attention-embed-'));
  await symlink(SITE, path.join(root, 'site'), 'dir');
  await symlink(FIXTURES, path.join(root, 'fixtures'), 'dir');
  const server = await startStaticServer({ root, port: 0, ...options });
  return {
    ...server,
    fixture: (name) => `${server.url}fixtures/${name}`,
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a fresh context, recording console messages, page errors, failed requests,
 * every requested URL and dialogs (an alert() would be one).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
export async function openHostPage(browser, url, { viewport = { width: 1100, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const record = { console: [], warnings: [], errors: [], pageErrors: [], failedRequests: [], requests: [], dialogs: [] };
  page.on('console', (message) => {
    record.console.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'warning') record.warnings.push(message.text());
    if (message.type() === 'error') record.errors.push(message.text());
  });
  page.on('pageerror', (error) => record.pageErrors.push(error.message));
  page.on('request', (request) => record.requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400) record.failedRequests.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => record.failedRequests.push(`failed ${request.url()}`));
  page.on('dialog', (dialog) => {
    record.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  await page.addInitScript(() => {
    globalThis.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      globalThis.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const response = await page.goto(url);
  return {
    page,
    response,
    record,
    cspViolations: () => page.evaluate(() => globalThis.__cspViolations),
    close: () => context.close(),
  };
}

/**
 * Waits until every attention-* element of the document (or of `frame`) has either a trace on
 * screen or a message in its box, and nothing still says "computing…".
 * @param {import('playwright-core').Page | import('playwright-core').Frame} target
 */
export async function waitForElements(target) {
  try {
    await target.waitForFunction(() => {
      const elements = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('attention-'));
      return elements.length > 0 && elements.every((el) => {
        if (!el.shadowRoot) return false;
        // The element's frame: in its shadow root, or its light child with `light-dom`.
        const root = el.shadowRoot.querySelector('.frame') ? el.shadowRoot : el;
        const message = root.querySelector('.message:not(.edit-message)');
        // A status (the trained head still training, for tokens alone) is not the outcome yet.
        if (message && !message.hidden) return message.getAttribute('role') !== 'status';
        // <attention-heads> shows a layer, <attention-head-dim-study> a study, the others a trace.
        return (el.layer ?? el.study ?? el.trace) !== null && !root.querySelector('.computing');
      });
    }, undefined, { timeout: 30_000 });
  } catch (error) {
    // A timeout alone does not say which element is stuck, nor where: name each one's state.
    const states = await target.evaluate(() => [...document.querySelectorAll('*')]
      .filter((el) => el.localName.startsWith('attention-'))
      .map((el) => {
        const root = el.shadowRoot;
        const message = root?.querySelector('.message:not(.edit-message)');
        return `<${el.localName}${el.id ? ` id="${el.id}"` : ''}>: ${!root ? 'no shadow root (not upgraded)'
          : `trace ${el.trace === null ? 'null' : 'set'}, ${root.querySelector('.computing') ? '"computing" shown' : 'nothing computing'}, ` +
            `message ${message && !message.hidden ? `"${message.textContent}" (${message.getAttribute('role')})` : 'none'}`}`;
      })).catch((reason) => [`(the document could not be read: ${reason.message})`]);
    error.message += `\nthe elements when it gave up (${target.url()}, ready state ${await target.evaluate(() => document.readyState).catch(() => '?')}):\n  ${states.join('\n  ') || 'none on the page'}`;
    throw error;
  }
}

/**
 * What most browser test files start with: the built site checked, Chromium launched and the
 * host server started (under the pages' strict CSP unless `options` say otherwise).
 * @returns {Promise<{browser: import('playwright-core').Browser, server: object}>}
 */
export async function startBrowserAndHost(options = { csp: PAGE_CSP }) {
  requireBuiltSite();
  return { browser: await launchBrowser(), server: await startHostServer(options) };
}

/** And what they end with. */
export async function stopBrowserAndHost(browser, server) {
  await browser?.close();
  await server?.close();
}

/**
 * The hooks of a test file about one fixture page: before its tests, Chromium, the host server
 * and `fixture` opened with its elements settled, handed to `opened`; after them, all closed.
 * @param {string} fixture  a file of tests/browser/fixtures
 * @param {(opened: Awaited<ReturnType<typeof openHostPage>>) => void} opened
 */
export function withFixturePage(fixture, opened) {
  let browser;
  let server;
  let page;
  before(async () => {
    ({ browser, server } = await startBrowserAndHost());
    page = await openHostPage(browser, server.fixture(fixture));
    await waitForElements(page.page);
    opened(page);
  });
  after(async () => {
    await page?.close();
    await stopBrowserAndHost(browser, server);
  });
}

/**
 * Waits until a site page has done its work: the walkthrough's status, or every element's
 * outcome; then scrolls to the end so that everything lazy has loaded.
 * @param {import('playwright-core').Page} page
 */
export async function settlePage(page) {
  await page.waitForLoadState('load');
  if (await page.locator('#load-status').count()) {
    await page.waitForFunction(() => document.getElementById('load-status').classList.contains('done'), undefined, { timeout: 30_000 });
  }
  const hasElements = await page.evaluate(() => [...document.querySelectorAll('*')].some((el) => el.localName.startsWith('attention-')));
  if (hasElements) await waitForElements(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForLoadState('networkidle');
}

/**
 * A table inside an element's shadow root as rows of printed text (an editable cell gives its
 * input's value). Null when the element shows no such table.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} target
 * @param {string} hostId
 * @param {string} name  the table's data-table
 * @param {{light?: boolean}} [options]  light: the table is in the element's light children
 *        (an element with `light-dom`) instead
 */
export function readShadowTable(target, hostId, name, { light = false } = {}) {
  return target.evaluate(async ([id, tableName, inLight]) => {
    // Pieces far off screen draw a reader's edit a moment later (web/elements/draw-when-near.js).
    await document[Symbol.for('attention-by-hand.draw-when-near')]?.whenDrawn();
    const host = document.getElementById(id);
    const table = (inLight ? host : host?.shadowRoot)?.querySelector(`table[data-table="${tableName}"]`);
    if (!table) return null;
    const cellText = (cell) => cell.querySelector('input')?.value ?? cell.querySelector('.value')?.textContent ?? cell.textContent;
    const rows = (section) => Array.from(section?.rows ?? [], (row) => ({
      label: row.cells[0].textContent,
      cells: Array.from(row.cells).slice(1).map(cellText),
      masked: Array.from(row.cells).slice(1).map((cell) => cell.dataset.masked === 'true'),
    }));
    return {
      caption: table.caption?.textContent ?? '',
      columns: Array.from(table.tHead.rows[0].cells).slice(1).map((cell) => cell.textContent),
      rows: rows(table.tBodies[0]),
      footer: rows(table.tFoot),
    };
  }, [hostId, name, light]);
}

/** The visible message in an element's box, or null. */
export function readMessage(target, hostId) {
  return target.evaluate((id) => {
    const message = document.getElementById(id)?.shadowRoot?.querySelector('.message:not(.edit-message)');
    return message && !message.hidden ? message.textContent : null;
  }, hostId);
}

/** The three-token example the fixtures' <attention-model id="three"> is configured with. */
export const THREE = Object.freeze({
  tokens: ['the', 'cat', 'sat'],
  q: [[0.5, -1.25, 2], [1.5, 0.25, -0.75], [-2, 1, 0.5]],
  k: [[1, 0.5, -0.5], [-0.25, 2, 1], [0.75, -1.5, 0.25]],
  v: [[1, 0, 0.5], [0, 1, -1], [0.5, -0.5, 2]],
});

// ---------------------------------------------------------------------------------------------
// The float64 reference: one attention head written out plainly, independent of the core.

export function referenceAttention({ tokens, q, k, v, mask = 'causal' }) {
  const headDim = q[0].length;
  const visible = (i, j) => mask === 'none' || j <= i;
  const scores = q.map((qi) => k.map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0)));
  const scaled = scores.map((row) => row.map((x) => x / Math.sqrt(headDim)));
  const masked = scaled.map((row, i) => row.map((x, j) => (visible(i, j) ? x : -Infinity)));
  const exponentials = masked.map((row) => row.map((x) => Math.exp(x)));
  const totals = exponentials.map((row) => row.reduce((s, x) => s + x, 0));
  const weights = exponentials.map((row, i) => row.map((x) => x / totals[i]));
  const out = weights.map((row) => v[0].map((_, c) => row.reduce((s, w, j) => s + w * v[j][c], 0)));
  return { tokens, scores, scaled, masked, exponentials, totals, weights, out };
}

/** Parses a number as the elements print it: U+2212 minus, "−∞". */
export function parsePrinted(text) {
  const normal = text.trim().replace(/\u2212/g, '-');
  if (normal === '-\u221e') return -Infinity;
  if (!/^-?\d+(\.\d+)?$/.test(normal)) throw new Error(`not a printed number: "${text}"`);
  return Number(normal);
}

/** `text` is `expected` written with `decimals` decimals (to within float32 rounding). */
export function assertPrinted(text, expected, decimals, what) {
  assert.ok(!text.includes('-'), `${what}: "${text}" uses a hyphen instead of U+2212`);
  if (expected === -Infinity) {
    assert.equal(text, `${MINUS}\u221e`, `${what}: a masked score reads "${text}"`);
    return;
  }
  assert.match(text, new RegExp(`^${MINUS}?\\d+\\.\\d{${decimals}}$`), `${what}: "${text}" has not ${decimals} decimals`);
  const tolerance = 0.5 * 10 ** -decimals + 1e-6;
  assert.ok(Math.abs(parsePrinted(text) - expected) <= tolerance,
    `${what}: the element prints ${text}, the float64 reference is ${expected}`);
}

/** Every body cell of a table against a reference matrix. */
export function assertTable(table, expected, decimals, what) {
  assert.ok(table, `${what}: the table is shown`);
  assert.equal(table.rows.length, expected.length, `${what}: row count`);
  table.rows.forEach((row, i) => {
    expected[i].forEach((value, j) => assertPrinted(row.cells[j], value, decimals, `${what} ${row.label}/${table.columns[j]}`));
  });
}
