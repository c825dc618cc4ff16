// build/site/embed.html inside iframes on another origin (tests/browser/fixtures/iframe-parent.html):
// one plain, one with sandbox="allow-scripts" (an opaque origin, so every module and the .wasm
// are fetched in CORS mode). Both render the explainer configured by the hash, post their
// height, and the parent-side snippet (site/embed-resize.js) sizes each iframe to it, again
// whenever it changes. The parent page runs under a strict policy that only adds frame-src.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, launchBrowser, startStaticServer } from './browser-harness.mjs';
import {
  SITE, TEST_TIMEOUT, assertTable, openHostPage, readShadowTable, referenceAttention, requireBuiltSite,
  startHostServer, waitForElements,
} from './embed-harness.mjs';

let browser;
let siteServer;
let hostServer;
let opened;
let page;

const INPUT = {
  tokens: ['we', 'embed', 'this'],
  q: [[1, 0], [0, 1], [1, 1]],
  k: [[1, 1], [0, 1], [1, 0]],
  v: [[1, 0], [0, 1], [0.5, 0.5]],
  mask: 'causal',
};
const HASH = `#tokens=${encodeURIComponent(INPUT.tokens.join(' '))}&q=${JSON.stringify(INPUT.q)}` +
  `&k=${JSON.stringify(INPUT.k)}&v=${JSON.stringify(INPUT.v)}&mask=causal`;

async function frameOf(id) {
  const handle = await page.$(`#${id}`);
  return handle.contentFrame();
}

// The iframe's height attribute once it equals the height its document reports.
async function settledHeight(id) {
  const frame = await frameOf(id);
  let reported = null;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    reported = await frame.evaluate(() => Number(document.documentElement.dataset.height ?? NaN));
    const attribute = await page.evaluate((frameId) => Number(document.getElementById(frameId).height), id);
    if (attribute === reported) return attribute;
    await page.waitForTimeout(50);
  }
  throw new Error(`#${id} never took the height its page reports (${reported})`);
}

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  // The embed on one origin, the host page on another, as in real use.
  siteServer = await startStaticServer({ root: SITE, port: 0, csp: PAGE_CSP });
  const siteOrigin = siteServer.url.replace(/\/$/, '');
  hostServer = await startHostServer({ csp: `default-src 'self'; script-src 'self'; style-src 'self'; frame-src ${siteOrigin}` });
  const src = `${siteServer.url}embed.html${HASH}`;
  opened = await openHostPage(browser, `${hostServer.fixture('iframe-parent.html')}?src=${encodeURIComponent(src)}`);
  page = opened.page;
  await page.waitForFunction(() => document.querySelectorAll('iframe').length === 2);
  for (const id of ['plain', 'sandboxed']) await waitForElements(await frameOf(id));
});

after(async () => {
  await opened?.close();
  await browser?.close();
  await hostServer?.close();
  await siteServer?.close();
});

describe('the embed page in iframes, plain and sandboxed', { timeout: TEST_TIMEOUT }, () => {
  it('loads in both without errors, failed requests or violations', async () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.failedRequests, []);
    assert.deepEqual(await opened.cspViolations(), []);
    const sandboxed = await frameOf('sandboxed');
    assert.equal(await sandboxed.evaluate(() => self.origin), 'null', 'the sandboxed embed has an opaque origin');
    assert.equal(await page.evaluate(() => document.getElementById('sandboxed').getAttribute('sandbox')), 'allow-scripts');
    const plain = await frameOf('plain');
    assert.equal(await plain.evaluate(() => self.origin), new URL(siteServer.url).origin);
  });

  it('shows the explainer configured by the hash, numbers matching float64', async () => {
    const ref = referenceAttention(INPUT);
    for (const id of ['plain', 'sandboxed']) {
      const frame = await frameOf(id);
      assertTable(await readShadowTable(frame, 'embedded', 'scores'), ref.scores, 3, `${id}: scores`);
      assertTable(await readShadowTable(frame, 'embedded', 'weights'), ref.weights, 4, `${id}: weights`);
      assertTable(await readShadowTable(frame, 'embedded', 'out'), ref.out, 4, `${id}: out`);
      const controls = await frame.evaluate(() => ({
        editable: document.getElementById('embedded').editable,
        controls: Boolean(document.getElementById('embedded').shadowRoot.querySelector('.controls')),
      }));
      assert.deepEqual(controls, { editable: true, controls: true }, `${id}: editable with controls by default`);
    }
  });

  it('each iframe takes the height its page reports, the whole page with no scrolling', async () => {
    for (const id of ['plain', 'sandboxed']) {
      const height = await settledHeight(id);
      assert.ok(height > 1000, `#${id} grew from 150px to ${height}px`);
      const frame = await frameOf(id);
      const scroll = await frame.evaluate(() => ({
        content: Math.ceil(document.documentElement.getBoundingClientRect().height),
        viewport: window.innerHeight,
      }));
      assert.ok(scroll.viewport >= scroll.content, `#${id}: the content (${scroll.content}px) fits the iframe (${scroll.viewport}px)`);
    }
  });

  it('resizes again when the embed\u2019s height changes (new hash: fewer steps, no controls)', async () => {
    for (const id of ['plain', 'sandboxed']) {
      const before = await settledHeight(id);
      const frame = await frameOf(id);
      await frame.evaluate(() => { window.location.hash = '#tokens=a%20b&q=[[1],[2]]&k=[[1],[1]]&v=[[1],[2]]&steps=weights&hide=controls,footer'; });
      await frame.waitForFunction(() => document.getElementById('embedded').trace?.tokens.join(' ') === 'a b');
      let after = before;
      for (let attempt = 0; attempt < 100 && after === before; attempt += 1) {
        await page.waitForTimeout(50);
        after = await settledHeight(id);
      }
      assert.ok(after < before / 3, `#${id} shrank from ${before}px to ${after}px`);
      const state = await frame.evaluate(() => ({
        steps: [...document.getElementById('embedded').shadowRoot.querySelectorAll('[data-step]')].map((s) => s.dataset.step),
        controls: Boolean(document.getElementById('embedded').shadowRoot.querySelector('.controls')),
        footer: document.querySelector('[data-embed-footer]').hidden,
      }));
      assert.deepEqual(state, { steps: ['weights'], controls: false, footer: true });
    }
  });

  it('ignores height messages from anything but its own iframes', async () => {
    const heights = await page.evaluate(async () => {
      const before = [...document.querySelectorAll('iframe')].map((frame) => frame.height);
      window.postMessage({ type: 'attention-by-hand:height', height: 5 }, '*');
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { before, after: [...document.querySelectorAll('iframe')].map((frame) => frame.height) };
    });
    assert.deepEqual(heights.after, heights.before);
  });
});

describe('the documented parent snippet', () => {
  it('on the authors\u2019 page for the iframe is the code of embed-resize.js the test above runs', async () => {
    const authors = await readFile(path.join(SITE, 'authors-iframe.html'), 'utf8');
    const snippet = /<pre[^>]*id="snippet-resize"[^>]*><code>([\s\S]*?)<\/code><\/pre>/.exec(authors);
    assert.ok(snippet, 'authors-iframe.html has a <pre id="snippet-resize">');
    const unescape = (html) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const code = (await readFile(path.join(SITE, 'embed-resize.js'), 'utf8'))
      .split('\n').filter((line) => !line.startsWith('//')).join('\n').trim();
    assert.ok(unescape(snippet[1]).includes(code), 'the snippet contains the tested code');
  });
});
