// The table of bad inputs (tests/support/bad-inputs.mjs) in Chromium, through every way a page
// takes input: attributes of <attention-explainer> on a host page (fixtures/bad-inputs.html),
// the embed page's URL hash, and the walkthrough page's URL hash and editable cells. Each entry
// gives either numbers that match float64 or a message naming the attribute, field or cell at
// fault, and whatever else is on the page keeps working.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cellField, readTable } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, assertTable, openHostPage, readMessage, readShadowTable, referenceAttention,
  startBrowserAndHost, stopBrowserAndHost, waitForElements,
} from './embed-harness.mjs';
import { headF64 } from '../support/attention-f64.mjs';
import { BAD_INPUTS, CELL_BASE, attributeCase, checkTrace, rootOf } from '../support/bad-inputs.mjs';

const SUITE_TIMEOUT = 300_000;
const STEPS = 'weights,out';  // what each element shows: enough to check, small enough at 64 × 256
const PAGE_HASH_LIMIT = 32768;  // the walkthrough page's longest hash (web/page-state.js PAGE_LIMITS)
const PAGE_MAX = 16;            // its most tokens and largest head_dim

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const hashOf = (attributes, extra = {}) => Object.entries({ ...attributes, ...extra })
  .map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
const f32Input = (input) => ({ ...input, q: input.q.map((r) => r.map(Math.fround)), k: input.k.map((r) => r.map(Math.fround)), v: input.v.map((r) => r.map(Math.fround)) });

// An element's trace, without the T×T×d parts (not needed here, and large at 64 × 256).
function readTrace(target, id) {
  return target.evaluate((hostId) => {
    const trace = document.getElementById(hostId)?.trace;
    if (!trace) return null;
    const { tokens, token_count, head_dim, scores, scaled, weights, out, mask } = trace;
    return { tokens, token_count, head_dim, scores, scaled, weights, out, mask };
  }, id);
}

// The element `id` shows a message naming `attribute`, inside its own box, and no trace.
async function assertElementRefuses(target, id, attribute, what) {
  const message = await readMessage(target, id);
  assert.ok(message, `${what}: a message is shown`);
  const text = message.replace(/^<attention-[a-z-]+> not shown\. /u, '');
  assert.match(text, new RegExp(`^${escapeRegExp(attribute)} attribute[:,]`), `${what}: the message names the ${attribute} attribute: "${text.slice(0, 160)}"`);
  assert.ok(text.length < 300, `${what}: a short message (${text.length} characters)`);
  const layout = await target.evaluate((hostId) => {
    const host = document.getElementById(hostId);
    const box = host.getBoundingClientRect();
    const shown = host.shadowRoot.querySelector('.message:not(.edit-message)').getBoundingClientRect();
    return {
      inside: shown.top >= box.top && shown.bottom <= box.bottom && shown.left >= box.left && shown.right <= box.right,
      visible: shown.height > 0,
      // Tables of an earlier, good input may stay in the tree, hidden; none may be seen.
      tables: [...host.shadowRoot.querySelectorAll('table')].filter((t) => t.getClientRects().length > 0).length,
      trace: host.trace,
    };
  }, id);
  assert.ok(layout.inside && layout.visible, `${what}: the message is inside the element's box`);
  assert.equal(layout.tables, 0, `${what}: no table is shown`);
  assert.equal(layout.trace, null, `${what}: no trace`);
}

// The element `id` shows numbers that match float64: its trace, and its printed weights.
async function assertElementComputes(target, id, input, what) {
  assert.equal(await readMessage(target, id), null, `${what}: no message`);
  const trace = await readTrace(target, id);
  assert.ok(trace, `${what}: a trace`);
  checkTrace(trace, input, what);
  const weights = await readShadowTable(target, id, 'weights');
  assert.ok(weights, `${what}: the weights table is shown`);
  const reference = trace.scaled.map((row, i) => {
    const masked = row.map((x, j) => ((input.mask ?? 'causal') !== 'none' && j > i ? -Infinity : x));
    const max = Math.max(...masked);
    const e = masked.map((x) => Math.exp(x - max));
    const total = e.reduce((s, x) => s + x, 0);
    return e.map((x) => x / total);
  });
  assertTable({ ...weights, rows: weights.rows.map((row) => ({ ...row, cells: row.cells.slice(0, reference.length) })) },
    reference, 4, `${what}: printed weights`);
}

// Every entry that has an attribute form, with the outcome an element must show.
const attributeEntries = BAD_INPUTS.map((entry, n) => ({ entry, n, shown: attributeCase(entry) }))
  .filter(({ shown }) => !shown.skip);

describe('element attributes: every entry of the table', { timeout: SUITE_TIMEOUT }, () => {
  let opened;
  let page;

  before(async () => {
    opened = await openHostPage(browser, server.fixture('bad-inputs.html'));
    page = opened.page;
    await waitForElements(page);
  });
  after(() => opened?.close());

  for (const { entry, n, shown } of attributeEntries) {
    const { outcome } = shown;
    it(`${entry.name}: ${outcome === 'valid' ? 'numbers that match float64' : `a message naming the ${outcome.error} attribute`}`, async () => {
      const id = `entry-${n}`;
      await page.evaluate(([hostId, attributes, steps]) => {
        const el = document.createElement('attention-explainer');
        el.id = hostId;
        el.setAttribute('steps', steps);
        for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
        document.getElementById('entries').append(el);
      }, [id, shown.attributes, STEPS]);
      await page.waitForFunction((hostId) => {
        const el = document.getElementById(hostId);
        const message = el?.shadowRoot?.querySelector('.message:not(.edit-message)');
        return (message && !message.hidden) || (el?.trace && !el.shadowRoot.querySelector('.computing'));
      }, id, { timeout: 60_000 });
      if (outcome === 'valid') await assertElementComputes(page, id, entry.input, entry.name);
      else await assertElementRefuses(page, id, outcome.error, entry.name);
    });
  }

  it('with all of them on the page, the correct element still computes, and nothing threw', async () => {
    assert.equal(await readMessage(page, 'good'), null);
    const article = await page.evaluate(async () => {
      const { createAttention } = await import('../site/web/attention-explainer.js');
      return (await createAttention()).article();
    });
    assertTable(await readShadowTable(page, 'good', 'scores'), referenceAttention(article.two_words).scores, 3, 'good');
    // And it still follows a change.
    await page.evaluate(() => document.getElementById('good').setAttribute('mask', 'none'));
    await page.waitForFunction(() => document.getElementById('good').trace?.mask === 'none');
    assertTable(await readShadowTable(page, 'good', 'weights'),
      referenceAttention({ ...article.two_words, mask: 'none' }).weights, 4, 'good, mask none');
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.dialogs, []);
  });
});

describe('the embed page\u2019s URL hash: every entry of the table', { timeout: SUITE_TIMEOUT }, () => {
  let opened;
  let page;
  const RESET = { tokens: 'x y', q: '[[1, 0], [0, 1]]', k: '[[1, 0], [0, 1]]', v: '[[1, 2], [3, 4]]' };

  before(async () => {
    opened = await openHostPage(browser, `${server.url}site/embed.html#${hashOf(RESET)}`);
    page = opened.page;
    await waitForElements(page);
  });
  after(() => opened?.close());

  // Sets the hash, after a known good one in between, and waits until the explainer has either
  // a message or a trace of the new input.
  async function showHash(hash) {
    await page.evaluate((h) => { window.location.hash = h; }, hashOf(RESET));
    await page.waitForFunction(() => {
      const el = document.getElementById('embedded');
      return el.trace?.tokens.join(' ') === 'x y' && el.shadowRoot.querySelector('.message:not(.edit-message)').hidden;
    }, undefined, { timeout: 30_000 });
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForFunction(() => {
      const el = document.getElementById('embedded');
      const message = el.shadowRoot.querySelector('.message:not(.edit-message)');
      return !message.hidden || (el.trace && el.trace.tokens.join(' ') !== 'x y' && !el.shadowRoot.querySelector('.computing'));
    }, undefined, { timeout: 60_000 });
  }

  for (const { entry, shown } of attributeEntries) {
    const { outcome } = shown;
    it(`${entry.name}: ${outcome === 'valid' ? 'numbers that match float64' : `a message naming ${outcome.error}`}`, async () => {
      await showHash(hashOf(shown.attributes, { steps: STEPS }));
      if (outcome === 'valid') await assertElementComputes(page, 'embedded', entry.input, entry.name);
      else await assertElementRefuses(page, 'embedded', outcome.error, entry.name);
    });
  }

  it('nothing threw, no alert ran, and the page still follows its hash', async () => {
    // With q, k and v: tokens alone would go to part three's trained head (tokens-only.test.mjs).
    await showHash(hashOf({ tokens: 'the cat', mask: 'none', q: '[[1, 0], [0, 1]]', k: '[[1, 0], [0, 1]]', v: '[[1, 2], [3, 4]]' }));
    const trace = await readTrace(page, 'embedded');
    assert.deepEqual(trace.tokens, ['the', 'cat']);
    assert.equal(trace.mask, 'none');
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.dialogs, []);
  });
});

// What the walkthrough page must say for an entry given as its hash: it has limits of its own
// (16 tokens, head_dim 16, a 32 768-character hash) and refuses past them, naming them.
function pageExpectation(entry, shown, hash) {
  if (hash.length > PAGE_HASH_LIMIT) return { refuse: /characters long; the page reads at most 32768/u };
  const input = entry.input ?? {};
  const t = Array.isArray(input.tokens) ? input.tokens.length : null;
  const d = Array.isArray(input.q?.[0]) ? input.q[0].length : null;
  if (t > PAGE_MAX) return { refuse: /\(tokens: /u };
  if (d > PAGE_MAX) return { refuse: /\((head_dim|q\[0\]): /u };
  // The page checks its own range of head_dim (1 to 16) before the core sees the rows.
  if (d === 0) return { refuse: /\((head_dim|q\[0\]): /u };
  if (shown.outcome === 'valid') return { valid: true };
  return { refuse: new RegExp(`\\(${escapeRegExp(shown.outcome.error)}(\\[\\d+\\])*: `, 'u') };
}

// The weights table of the walkthrough page against float64's weights for `input`.
async function assertPageWeights(page, input, what) {
  const ref = headF64({ ...f32Input(input), mask: input.mask ?? 'causal' });
  const table = await readTable(page, 'weights');
  assert.deepEqual(table.rows.map((row) => row.label), input.tokens, `${what}: the tokens label the rows`);
  table.rows.forEach((row, i) => input.tokens.forEach((_, j) => {
    const printed = Number(row.cells[j].text.replace(/\u2212/gu, '-'));
    assert.ok(Math.abs(printed - ref.weights[i][j]) <= 0.5e-4 + 1e-5,
      `${what}: weights ${i}/${j} reads ${row.cells[j].text}, float64 says ${ref.weights[i][j]}`);
  }));
}

describe('the walkthrough page\u2019s URL hash: every entry of the table', { timeout: SUITE_TIMEOUT }, () => {
  let opened;
  let page;
  const RESET = { tokens: 'x y', q: '[[1,0],[0,1]]', k: '[[1,0],[0,1]]', v: '[[1,2],[3,4]]' };
  const tokensShown = () => page.$$eval('.token-list .token-input', (inputs) => inputs.map((input) => input.value).join(' '));

  before(async () => {
    opened = await openHostPage(browser, `${server.url}site/index.html#${hashOf(RESET)}`);
    page = opened.page;
    await page.waitForFunction(() => document.getElementById('load-status')?.classList.contains('done'), undefined, { timeout: 30_000 });
  });
  after(() => opened?.close());

  for (const { entry, shown } of attributeEntries) {
    it(`${entry.name}`, async () => {
      const hash = hashOf(shown.attributes);
      const expected = pageExpectation(entry, shown, hash);
      await page.evaluate((h) => { window.location.hash = h; }, hashOf(RESET));
      await page.waitForFunction(() => document.getElementById('link-problem').hidden &&
        [...document.querySelectorAll('.token-list .token-input')].map((i) => i.value).join(' ') === 'x y');
      const before = await readTable(page, 'weights');
      await page.evaluate((h) => { window.location.hash = h; }, hash);
      await page.waitForFunction(() => !document.getElementById('link-problem').hidden ||
        [...document.querySelectorAll('.token-list .token-input')].map((i) => i.value).join(' ') !== 'x y', undefined, { timeout: 60_000 });
      const message = page.locator('#link-problem');
      if (expected.valid) {
        assert.equal(await message.isVisible(), false, `${entry.name}: no message, got "${await message.textContent()}"`);
        await assertPageWeights(page, entry.input, entry.name);
      } else {
        assert.equal(await message.isVisible(), true, `${entry.name}: a message`);
        const text = await message.textContent();
        assert.match(text, /^The settings in this link could not be used \(/u);
        assert.match(text, expected.refuse, `${entry.name}: "${text.slice(0, 200)}" names the field`);
        assert.equal(await tokensShown(), 'x y', `${entry.name}: the page keeps what it showed`);
        assert.deepEqual(await readTable(page, 'weights'), before, `${entry.name}: the weights are untouched`);
      }
    });
  }

  it('nothing threw and no alert ran', () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.dialogs, []);
  });
});

describe('the walkthrough page\u2019s editable cells: every value entry of the table', { timeout: SUITE_TIMEOUT }, () => {
  let opened;
  let page;
  const baseAttributes = {
    tokens: CELL_BASE.tokens.join(' '),
    q: JSON.stringify(CELL_BASE.q), k: JSON.stringify(CELL_BASE.k), v: JSON.stringify(CELL_BASE.v),
  };
  const cell = (matrix, row, col) => cellField(page, `table[data-table="${matrix}"]`, row, col);

  before(async () => {
    opened = await openHostPage(browser, `${server.url}site/index.html#${hashOf(baseAttributes)}`);
    page = opened.page;
    await page.waitForFunction(() => document.getElementById('load-status')?.classList.contains('done'), undefined, { timeout: 30_000 });
    await assertPageWeights(page, CELL_BASE, 'the base state');
  });
  after(() => opened?.close());

  for (const entry of BAD_INPUTS.filter((e) => e.cell)) {
    const { matrix, row, col, text } = entry.cell;
    it(`${entry.name}: typed as "${text}" into ${matrix}[${row}][${col}]`, async () => {
      const before = await readTable(page, 'weights');
      const input = cell(matrix, row, col);
      await input.fill(text);
      const message = page.locator(`[data-slot="table-${matrix}"] .edit-message`);
      if (entry.outcome === 'valid') {
        await assertPageWeights(page, entry.input, entry.name);
        assert.equal(await input.getAttribute('aria-invalid'), null, `${entry.name}: the cell is not marked invalid`);
      } else {
        assert.equal(await message.isVisible(), true, `${entry.name}: a message`);
        const said = await message.textContent();
        const name = `${matrix}${col} of \u201c${CELL_BASE.tokens[row]}\u201d`;
        assert.ok(said.includes(name), `${entry.name}: "${said}" names the cell ${name}`);
        assert.equal(await input.getAttribute('aria-invalid'), 'true');
        assert.deepEqual(await readTable(page, 'weights'), before, `${entry.name}: the last good state stays`);
      }
      // Back to the base state.
      await input.fill(String(CELL_BASE[matrix][row][col]));
      await input.press('Tab');
      await assertPageWeights(page, CELL_BASE, `${entry.name}, undone`);
    });
  }

  it('nothing threw and no alert ran', () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.dialogs, []);
  });
});

describe('sanity', () => {
  it('the table has entries of every kind for the browser', () => {
    assert.ok(attributeEntries.length >= 30, `${attributeEntries.length} entries as attributes`);
    assert.ok(attributeEntries.some(({ shown }) => shown.outcome === 'valid'));
    assert.ok(BAD_INPUTS.filter((e) => e.cell).length >= 8);
    assert.ok(attributeEntries.every(({ shown }) => shown.outcome === 'valid' || rootOf(shown.outcome.error) === shown.outcome.error));
  });
});
