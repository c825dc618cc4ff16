// Part two's elements on a host page of our own, served with the strict policy
// default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self':
// one module script registers them; they load the core's full build and nothing from outside the
// site's folder, draw in open shadow roots styled by adopted stylesheets, show the figures their
// attributes ask for (checked against a float64 reference and the bill computed by hand), report
// an author's mistake in their own box and on the console, and follow a changed attribute with
// an attention-change event.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openHostPage, startHostServer } from './embed-harness.mjs';
import {
  PAGE_CSP, TEST_TIMEOUT, billReference, figure, launchBrowser, parsePrinted, readTable, requireBuiltSite,
} from './sequel-harness.mjs';

let browser;
let server;
let opened;
let page;

const IDS = ['bill', 'tiles', 'mqa', 'latent', 'quant', 'bad-groups', 'bad-variant'];

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startHostServer({ csp: PAGE_CSP });
  opened = await openHostPage(browser, server.fixture('sequel-embed.html'));
  page = opened.page;
  await page.waitForFunction((ids) => ids.every((id) => {
    const element = document.getElementById(id);
    return element && (element.result || element.problem);
  }), IDS, { timeout: 90_000 });
});

after(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

describe('part two\u2019s elements embedded in a page with a strict policy', () => {
  it('run without violations or errors, and load only the site\u2019s own files', { timeout: TEST_TIMEOUT }, async () => {
    assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
    assert.deepEqual(await opened.cspViolations(), []);
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.failedRequests, []);
    const outside = opened.record.requests.filter((url) => !url.startsWith(`${server.url}site/`));
    assert.deepEqual(outside, [server.fixture('sequel-embed.html')]);
    const files = opened.record.requests.map((url) => url.slice(url.lastIndexOf('/') + 1));
    assert.ok(files.includes('attention-core.wasm'), 'the full build of the core');
    assert.ok(!files.includes('attention-core-embed.wasm'), 'not the walkthrough\u2019s small build');
    assert.ok(!files.includes('attention-explainer.js'), 'not the walkthrough\u2019s bundle');
  });

  it('draw in open shadow roots styled by adopted stylesheets', { timeout: TEST_TIMEOUT }, async () => {
    const roots = await page.evaluate((ids) => ids.map((id) => {
      const root = document.getElementById(id).shadowRoot;
      return [root.mode, root.adoptedStyleSheets.length, root.querySelectorAll('style, link').length];
    }), IDS);
    for (const root of roots) assert.deepEqual(root, ['open', 2, 0]);
    assert.equal(await page.evaluate(() => document.querySelectorAll('style').length), 0);
  });

  it('<attention-kv-bill>: Falcon 7B at 2048 tokens, a batch of 4, beside the toy MQA layer', { timeout: TEST_TIMEOUT }, async () => {
    const compare = await readTable(page, 'bill', 'bill-compare');
    assert.deepEqual(compare.columns, ['toy MQA layer', 'Falcon 7B']);
    const falcon = billReference({
      layers: figure(compare, 'layers', 1), nKvHeads: 1, headDim: 64, dtypeBytes: 2,
      parameters: figure(compare, 'parameters', 1), weightBytes: 2, context: 2048, batch: 4,
    });
    assert.equal(figure(compare, 'bytes_per_token_per_layer', 1), 256);
    assert.equal(figure(compare, 'bytes_per_sequence', 1), falcon.perSequence);
    assert.equal(figure(compare, 'cache_bytes', 1), falcon.cache);
    assert.equal(figure(compare, 'concurrent_sequences', 1), falcon.concurrent);
    assert.equal(figure(compare, 'bytes_per_token_per_layer', 0), 2 * 1 * 4 * 4, 'the toy MQA layer');
    // Only the comparison is shown by default.
    assert.equal(await readTable(page, 'bill', 'bill-presets'), null);
    assert.equal(await readTable(page, 'bill', 'bill-variants'), null);
    // A changed attribute recomputes and fires attention-change.
    const batch = await page.evaluate(() => new Promise((resolve) => {
      const bill = document.getElementById('bill');
      bill.addEventListener('attention-change', (event) => resolve(event.detail.result.model.batch), { once: true });
      bill.setAttribute('batch', '8');
    }));
    assert.equal(batch, 8);
    assert.equal(figure(await readTable(page, 'bill', 'bill-compare'), 'cache_bytes', 1), falcon.perSequence * 8);
  });

  it('<attention-flash-tiles>: five tokens in 3 × 1 tiles, two skipped, tiled printed as untiled', { timeout: TEST_TIMEOUT }, async () => {
    const map = await readTable(page, 'tiles', 'tile-map');
    assert.deepEqual(map.rows.map((row) => row.label), ['we', 'tile', 'the', 'scores', 'now']);
    const skipped = map.rows.map((row) => row.skipped.map((flag) => (flag ? 1 : 0)).join(''));
    assert.deepEqual(skipped, ['00011', '00011', '00011', '00000', '00000']);
    const cards = await page.evaluate(() => [...document.getElementById('tiles').shadowRoot.querySelectorAll('.step-card')]
      .map((card) => card.dataset.skipped));
    assert.equal(cards.length, 10);
    assert.equal(cards.filter((flag) => flag === 'true').length, 2);
    const tiled = await readTable(page, 'tiles', 'flash-out');
    const untiled = await readTable(page, 'tiles', 'flash-untiled');
    assert.deepEqual(tiled.rows.map((row) => row.cells), untiled.rows.map((row) => row.cells));
    for (const row of tiled.rows) for (const cell of row.cells) assert.match(cell, /^\u2212?\d+\.\d{4}$/);
  });

  it('<attention-variant>: MQA\u2019s sharing and cache only, and a latent of four', { timeout: TEST_TIMEOUT }, async () => {
    const sharing = await readTable(page, 'mqa', 'sharing');
    assert.deepEqual(sharing.rows.map((row) => parsePrinted(row.cells[0])), [0, 0, 0, 0]);
    assert.ok(await readTable(page, 'mqa', 'cache-k-0'));
    assert.equal(await readTable(page, 'mqa', 'cache-k-1'), null);
    // One K/V head: the sentence speaks of one key table and one value table, not "these 1".
    const cacheNote = await page.locator('#mqa').evaluate((host) =>
      host.shadowRoot.querySelector('[data-part="cache"] .note').textContent);
    assert.match(cacheNote, /^While generating, only this key table and this value table are kept: \d+ numbers per token\./u);
    assert.equal(await readTable(page, 'mqa', 'q-0'), null, 'show leaves the heads out');
    assert.equal(figure(await readTable(page, 'mqa', 'bill'), 'bytes_per_token_per_layer'), 32);
    const latent = await readTable(page, 'latent', 'latent');
    assert.deepEqual(latent.columns, ['c0', 'c1', 'c2', 'c3']);
    assert.ok(await readTable(page, 'latent', 'out-3'));
  });

  it('<attention-quantised-cache>: 4 and 2 bits without the rotation, the 2-bit tables shown', { timeout: TEST_TIMEOUT }, async () => {
    const levels = await readTable(page, 'quant', 'quant-levels');
    assert.deepEqual(levels.rows.map((row) => row.label), ['4 bits', '2 bits']);
    assert.match(levels.caption, /^Rotation off/);
    assert.equal(await readTable(page, 'quant', 'quant-r'), null, 'no rotation, no rotation table');
    const codes = await readTable(page, 'quant', 'quant-k-codes');
    for (const row of codes.rows) for (const code of row.cells.slice(0, -1)) assert.ok(['\u22121', '0', '1'].includes(code), `a 2-bit code is −1, 0 or 1: ${code}`);
  });

  it('says what is wrong with an attribute in the element\u2019s box and on the console', { timeout: TEST_TIMEOUT }, async () => {
    const problems = await page.evaluate(() => ['bad-groups', 'bad-variant'].map((id) => {
      const element = document.getElementById(id);
      const message = element.shadowRoot.querySelector('.message');
      return [element.problem, message.hidden, message.getAttribute('role'), element.result];
    }));
    assert.deepEqual(problems[0], ['n-kv-heads attribute: must divide n-heads (4) into groups of equal size; 3 does not', false, 'alert', null]);
    assert.match(problems[1][0], /^n-kv-heads attribute: applies to variant="gqa" only/);
    assert.equal(opened.record.warnings.length, 2);
    assert.ok(opened.record.warnings.some((text) => text.startsWith('<attention-variant id="bad-groups">: n-kv-heads attribute')));
    // Fixing the attribute brings the element back.
    await page.evaluate(() => document.getElementById('bad-groups').setAttribute('n-kv-heads', '2'));
    await page.waitForFunction(() => document.getElementById('bad-groups').result !== null);
    assert.equal(await page.evaluate(() => document.getElementById('bad-groups').problem), null);
  });
});
