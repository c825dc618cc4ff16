// Shared plumbing for the browser tests: Chromium through playwright-core, the built site on a
// local static server, and readers that turn the page's tables back into plain data.

import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../scripts/launch-chromium.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';

export const SITE_ROOT = fileURLToPath(new URL('../../build/site/', import.meta.url));

/** The policy the page must work under: no inline scripts or styles, wasm allowed. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/** The WCAG 2 A/AA rule tags every page and element is checked against with axe-core. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The axe-core rules among those whose outcome depends on colours. A page switched to its other
 * colour scheme changes nothing but colours, so after a full check in one scheme these are the
 * rules to run in the other.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Headless Chromium as every browser test and benchmark starts it (scripts/launch-chromium.mjs). */
export function launchBrowser() {
  return launchChromium();
}

export { startStaticServer };

/**
 * Opens `url` in a fresh context and collects everything that went wrong on the way:
 * console errors, uncaught page errors, failed requests and Content-Security-Policy violations.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{initScript?: string, route?: (page: import('playwright-core').Page) => Promise<void>,
 *          viewport?: {width: number, height: number}, waitForResult?: boolean,
 *          waitUntil?: 'load' | 'domcontentloaded'}} [options]
 */
export async function openPage(browser, url, options = {}) {
  const {
    initScript, route, viewport = { width: 1100, height: 900 }, waitForResult = true,
    waitUntil = 'load',
  } = options;
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = { consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedRequests.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => problems.failedRequests.push(`failed ${request.url()}`));
  await page.addInitScript(() => {
    globalThis.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      globalThis.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  if (initScript) await page.addInitScript(initScript);
  if (route) await route(page);
  const response = await page.goto(url, { waitUntil });
  if (waitForResult) await waitForOutcome(page);
  return {
    page,
    response,
    problems,
    async collectViolations() {
      problems.cspViolations = await page.evaluate(() => globalThis.__cspViolations ?? []);
      return problems;
    },
    close: () => context.close(),
  };
}

/** Waits until the page has either filled in its numbers or said why it could not. */
export async function waitForOutcome(page) {
  await page.waitForFunction(() => {
    const status = document.getElementById('load-status');
    const problem = document.getElementById('load-problem');
    return status?.classList.contains('done') || (problem && !problem.hidden);
  }, undefined, { timeout: 30_000 });
}

/**
 * A table of the page as data: caption, column labels, body and footer rows. Each cell keeps
 * its printed value (the .value span), its masking marks and how it is drawn. The table may
 * sit in the document or in the open shadow root of an element the page is made of (the first
 * in document order, searching each root before the roots inside it).
 * @param {import('playwright-core').Page} page
 * @param {string} name  the table's data-table attribute
 */
export async function readTable(page, name) {
  await piecesDrawn(page);
  return page.evaluate((tableName) => {
    const selector = `table[data-table="${tableName}"]`;
    const find = (root) => {
      const found = root.querySelector(selector);
      if (found) return found;
      for (const host of root.querySelectorAll('*')) {
        const inside = host.shadowRoot && find(host.shadowRoot);
        if (inside) return inside;
      }
      return null;
    };
    const table = find(document);
    if (!table) return null;
    const readCell = (cell) => {
      const style = getComputedStyle(cell);
      return {
        tag: cell.tagName.toLowerCase(),
        text: cell.querySelector('.value')?.textContent ?? cell.textContent.trim(),
        fullText: cell.textContent,
        masked: cell.classList.contains('masked') && cell.dataset.masked === 'true',
        hiddenText: cell.querySelector('.visually-hidden')?.textContent.trim() ?? '',
        shade: cell.dataset.shade === undefined ? null : Number(cell.dataset.shade),
        backgroundColor: style.backgroundColor,
        backgroundImage: style.backgroundImage,
        textAlign: style.textAlign,
        fontVariantNumeric: style.fontVariantNumeric,
      };
    };
    const readRows = (section) => Array.from(section?.rows ?? [], (row) => ({
      label: row.cells[0].textContent,
      labelTag: row.cells[0].tagName.toLowerCase(),
      labelScope: row.cells[0].getAttribute('scope'),
      cells: Array.from(row.cells).slice(1).map(readCell),
    }));
    const headCells = Array.from(table.tHead.rows[0].cells).slice(1);
    return {
      caption: table.caption?.textContent ?? '',
      columns: headCells.map((cell) => cell.textContent),
      columnScopes: headCells.map((cell) => cell.getAttribute('scope')),
      rows: readRows(table.tBodies[0]),
      footer: readRows(table.tFoot),
    };
  }, name);
}

/** The cell of `table` in the row labelled `rowLabel` and the column labelled `columnLabel`. */
export function cellAt(table, rowLabel, columnLabel) {
  const row = table.rows.find((r) => r.label === rowLabel);
  const col = table.columns.indexOf(columnLabel);
  if (!row || col < 0) throw new Error(`no cell ${rowLabel}/${columnLabel} in "${table.caption}"`);
  return row.cells[col];
}

/** Parses a number as the page prints it: U+2212 minus, "−∞". */
export function parsePrinted(text) {
  const normal = text.trim().replace(/\u2212/g, '-');
  if (normal === '-\u221e') return -Infinity;
  if (!/^-?\d+(\.\d+)?$/.test(normal)) throw new Error(`not a printed number: "${text}"`);
  return Number(normal);
}

// What a test does with an editable Q, K or V cell, of the one field that moves into the cell
// that takes focus (web/views/cell-field.js).
const FIELD_READS = new Set(['inputValue', 'getAttribute']);

/**
 * The text field of cell [row][col] of an editable table, used like a Playwright locator of an
 * <input>. An action (fill, press, focus, …) first gives the cell focus when the field is not in
 * it, which moves the field there, as a reader's click or arrow key does. A read does not move
 * the field: inputValue() of a cell without the field is the number the cell prints, and
 * getAttribute() is null (no field is in the cell to carry it).
 * @param {import('playwright-core').Page} page
 * @param {string} table  a selector of the table, e.g. 'table[data-table="q"]' or '#piece-q'
 * @param {number} row
 * @param {number} col
 */
export function cellField(page, table, row, col) {
  const cell = page.locator(`${table} td[data-row="${row}"][data-col="${col}"]`).first();
  const field = cell.locator('input');
  return new Proxy({}, {
    get: (_, method) => async (...args) => {
      if (await field.count() === 0) {
        if (method === 'inputValue') return (await cell.locator('.value').textContent()).trim();
        if (FIELD_READS.has(method)) return null;
        await cell.focus();
      }
      return field[method](...args);
    },
  });
}

/**
 * Resolves after the page's next two animation frames: what the first one's observers found
 * (intersections, sections that came near the screen) is then laid out and drawn.
 * @param {import('playwright-core').Page} page
 */
export function twoFrames(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Waits until every element piece of the page shows its model's latest trace: after a reader's
 * edit of a cell, a piece far off screen draws it when it comes near or the browser is idle
 * (web/elements/draw-when-near.js, whose state the page keeps under a registered symbol).
 * @param {import('playwright-core').Page} page
 */
export function piecesDrawn(page) {
  return page.evaluate(() => document[Symbol.for('attention-by-hand.draw-when-near')]?.whenDrawn());
}

// The text shown across the page, shadow roots included.
export function allText(page) {
  return page.evaluate(() => {
    const parts = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
      }
      parts.push(root.textContent ?? [...root.childNodes].map((n) => n.textContent).join(''));
    };
    walk(document);
    return parts.join('\n');
  });
}
