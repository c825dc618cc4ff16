// No network, no HTML from text. (1) The site's pages, opened with every request intercepted,
// ask for nothing but the site's own files: same origin, files that exist in the site folder.
// (2) Markup fed through every text path (tokens and values as attributes, as properties from
// run()'s output, the embed page's hash, the walkthrough page's hash, token fields and cells,
// and the messages that quote bad text) is shown as text: no element is made from it, no
// script runs, nothing is fetched for it.

import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allText, cellField } from './browser-harness.mjs';
import {
  SITE, TEST_TIMEOUT, openHostPage, settlePage, startBrowserAndHost, stopBrowserAndHost,
  waitForElements,
} from './embed-harness.mjs';
import { MARKUP } from '../support/bad-inputs.mjs';

const PAGES = ['index.html', 'sequel.html', 'training.html', 'embed.html', 'example-article.html', 'authors.html', 'authors-sequel.html', 'authors-iframe.html'];
// Pages of prose and snippets only: no element on them, so no core to load.
const WITHOUT_CORE = ['authors-iframe.html'];
const SCRIPT_MARKUP = '<script>alert(2)</script>';
const BOLD = '<b>cat</b>';
const ALL_STEPS = 'q,k,v,scores,scaled,masked,softmax,weights,mix,out,grid,arrows';

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

describe('no network: only the site\u2019s own files are requested', { timeout: TEST_TIMEOUT }, () => {
  for (const name of PAGES) {
    it(name, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const siteBase = new URL('site/', server.url);
      const allowed = [];
      const refused = [];
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        const own = url.origin === siteBase.origin && url.pathname.startsWith(siteBase.pathname);
        const file = own ? path.join(SITE, decodeURIComponent(url.pathname.slice(siteBase.pathname.length))) : null;
        if (own && file.startsWith(SITE) && existsSync(file) && statSync(file).isFile()) {
          allowed.push(url.pathname);
          return route.continue();
        }
        refused.push(url.href);
        return route.abort('blockedbyclient');
      });
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(new URL(name, siteBase).href);
        await settlePage(page);
        assert.deepEqual(refused, [], `${name} asked for something that is not one of the site's files`);
        const loadedCore = allowed.some((p) => p.endsWith('.wasm'));
        assert.equal(loadedCore, !WITHOUT_CORE.includes(name), `${name}: the core was ${loadedCore ? '' : 'not '}loaded (${allowed.join(', ')})`);
        assert.deepEqual(errors, []);
        console.log(`${name}: ${allowed.length} requests, all for the site's own files`);
      } finally {
        await context.close();
      }
    });
  }
});

// Every element of the document and of every open shadow root in it, by tag name.
function countTags(page) {
  return page.evaluate(() => {
    const counts = {};
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        counts[el.localName] = (counts[el.localName] ?? 0) + 1;
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return counts;
  });
}

// After markup went through a page: nothing made from it, nothing run, nothing fetched.
async function assertNoMarkupEffects(opened, what, scripts = 1) {
  await opened.page.waitForTimeout(300);  // an onerror would have fired by now
  const tags = await countTags(opened.page);
  assert.equal(tags.img ?? 0, 0, `${what}: no <img>`);
  assert.equal(tags.b ?? 0, 0, `${what}: no <b>`);
  assert.equal(tags.script ?? 0, scripts, `${what}: only the page's own <script>`);
  assert.deepEqual(opened.record.dialogs, [], `${what}: no alert ran`);
  assert.deepEqual(opened.record.pageErrors, [], `${what}: nothing threw`);
  assert.ok(!opened.record.requests.some((url) => new URL(url).pathname.endsWith('/x')), `${what}: nothing fetched for src=x`);
}

describe('no HTML from text: markup through every text path', { timeout: TEST_TIMEOUT }, () => {
  it('element attributes, properties from run()\u2019s output, and the messages that quote them', async () => {
    const opened = await openHostPage(browser, server.fixture('bad-inputs.html'));
    try {
      const { page } = opened;
      await waitForElements(page);
      await page.evaluate(async ([markup, script, bold, steps]) => {
        const tokens = JSON.stringify([markup, bold, script]);
        const add = (id, attributes) => {
          const el = document.createElement(id.startsWith('piece') ? 'attention-arrows' : 'attention-explainer');
          el.id = id;
          for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
          document.getElementById('entries').append(el);
          return el;
        };
        // Tokens as attributes, every step, editable, with controls.
        const rows = '[[1, 0], [0, 1], [1, 1]]';
        add('as-attributes', { tokens, q: rows, k: rows, v: '[[1, 2], [3, 4], [5, 6]]', steps, editable: '', controls: '' });
        // Markup where numbers and names belong: each refused with a message quoting it.
        add('markup-q', { q: markup });
        add('markup-mask', { mask: markup });
        add('markup-steps', { steps: markup });
        add('markup-row', { row: markup });
        add('markup-tokens-json', { tokens: `[${markup}]` });
        // run()'s output handed to an element as properties.
        const { createAttention } = await import('../site/web/attention-explainer.js');
        const trace = (await createAttention()).run({
          tokens: [markup, bold, script], q: [[1, 0], [0, 1], [1, 1]], k: [[1, 0], [0, 1], [1, 1]], v: [[1, 2], [3, 4], [5, 6]],
        });
        const el = add('as-properties', { steps });
        el.tokens = trace.tokens;
        el.q = trace.q;
        el.k = trace.k;
        el.v = trace.v;
      }, [MARKUP, SCRIPT_MARKUP, BOLD, ALL_STEPS]);
      await waitForElements(page);
      for (const id of ['as-attributes', 'as-properties']) {
        const tokens = await page.evaluate((hostId) => document.getElementById(hostId).trace?.tokens, id);
        assert.deepEqual(tokens, [MARKUP, BOLD, SCRIPT_MARKUP], `#${id} computed with the markup as token text`);
      }
      const messages = await page.evaluate(() => ['markup-q', 'markup-mask', 'markup-steps', 'markup-row', 'markup-tokens-json']
        .map((id) => document.getElementById(id).shadowRoot.querySelector('.message').textContent));
      messages.forEach((text, n) => assert.match(text, /attribute/, `message ${n}: ${text}`));
      const text = await allText(page);
      assert.ok(text.includes(MARKUP) && text.includes(SCRIPT_MARKUP), 'the markup is shown, as text');
      // Edit a cell with markup: refused, quoted as text.
      await cellField(page, '#as-attributes table[data-table="q"]', 0, 0).fill(MARKUP);
      await assertNoMarkupEffects(opened, 'attributes and properties');
    } finally {
      await opened.close();
    }
  });

  it('the embed page\u2019s hash: tokens, values, mask and unknown keys', async () => {
    const hashes = [
      `#tokens=${encodeURIComponent(JSON.stringify([MARKUP, BOLD, SCRIPT_MARKUP]))}&q=[[1,0],[0,1],[1,1]]&k=[[1,0],[0,1],[1,1]]&v=[[1,2],[3,4],[5,6]]&steps=${ALL_STEPS}`,
      `#q=${encodeURIComponent(MARKUP)}`,
      `#mask=${encodeURIComponent(MARKUP)}`,
      `#${encodeURIComponent(MARKUP)}=1&hide=${encodeURIComponent(SCRIPT_MARKUP)}`,
    ];
    const opened = await openHostPage(browser, `${server.url}site/embed.html${hashes[0]}`);
    try {
      const { page } = opened;
      await waitForElements(page);
      assert.deepEqual(await page.evaluate(() => document.getElementById('embedded').trace.tokens), [MARKUP, BOLD, SCRIPT_MARKUP]);
      for (const hash of hashes.slice(1)) {
        await page.evaluate((h) => { window.location.hash = h; }, hash);
        await page.waitForTimeout(150);
        await waitForElements(page);
      }
      assert.match(await page.locator('[data-embed-notes]').textContent(), /unknown key/);
      await assertNoMarkupEffects(opened, 'embed hash');
    } finally {
      await opened.close();
    }
  });

  it('the walkthrough page: its hash, a token field, a cell', async () => {
    const tokens = encodeURIComponent(JSON.stringify([MARKUP, SCRIPT_MARKUP]));
    // With q, k and v: tokens alone would go to part three's trained head, which knows neither.
    const values = '&q=[[1,0],[0,1]]&k=[[1,0],[0,1]]&v=[[1,2],[3,4]]';
    const opened = await openHostPage(browser, `${server.url}site/index.html#tokens=${tokens}${values}`);
    try {
      const { page } = opened;
      await page.waitForFunction(() => document.getElementById('load-status')?.classList.contains('done'), undefined, { timeout: 30_000 });
      assert.deepEqual(await page.$$eval('.token-list .token-input', (inputs) => inputs.map((i) => i.value)), [MARKUP, SCRIPT_MARKUP]);
      const scripts = (await countTags(page)).script ?? 0;  // the page's own
      await page.locator('.token-input').nth(1).fill(BOLD);
      await cellField(page, 'table[data-table="q"]', 0, 0).fill(MARKUP);
      assert.match(await page.locator('[data-slot="table-q"] .edit-message').textContent(), /is not a number, so it was not used/);
      await page.evaluate((h) => { window.location.hash = h; }, `#mask=${encodeURIComponent(MARKUP)}`);
      await page.waitForFunction(() => !document.getElementById('link-problem').hidden);
      assert.match(await page.locator('#link-problem').textContent(), /mask/);
      assert.ok((await allText(page)).includes(BOLD), 'the renamed token is shown as text');
      await assertNoMarkupEffects(opened, 'walkthrough page', scripts);
    } finally {
      await opened.close();
    }
  });
});
