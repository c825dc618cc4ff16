// <attention-heads> and <attention-head-dim-study> are defined when the first of them is in the
// page (web/elements/define-on-sight.js), from the code the module loads on first use: a page
// of explainers never fetches it (embed-strict-csp checks the whole download); one added later
// is defined and computes, with the properties set on it before; one inside an author's shadow
// root is defined once that root is handed to defineAttentionElements(); and a load that fails
// is said in the element's box.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, openHostPage, startBrowserAndHost, stopBrowserAndHost, waitForElements } from './embed-harness.mjs';

let browser;
let server;
before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

const FIRST_USE_CODE = /\/attention-explainer-loaded-on-first-use-[A-Z0-9]+\.js$/u;

describe('elements defined on sight', { timeout: TEST_TIMEOUT * 2 }, () => {
  it('are defined, their code fetched, only once one is on the page', async () => {
    const { page, record, close } = await openHostPage(browser, server.fixture('strict-csp.html'));
    try {
      await waitForElements(page);
      assert.deepEqual(await page.evaluate(() => [customElements.get('attention-heads'),
        customElements.get('attention-head-dim-study')].map((defined) => defined === undefined)), [true, true]);
      assert.ok(!record.requests.some((url) => FIRST_USE_CODE.test(url)), 'a page of explainers fetches no more');

      // Properties set before the element is defined are taken over when it upgrades.
      await page.evaluate(() => {
        const heads = document.createElement('attention-heads');
        heads.id = 'added';
        heads.tokens = ['a', 'b', 'c'];
        heads.heads = 2;
        document.body.append(heads);
      });
      await page.waitForFunction(() => document.getElementById('added').layer, undefined, { timeout: 30_000 });
      const layer = await page.evaluate(() => {
        const { tokens, n_heads: heads } = document.getElementById('added').layer;
        return { tokens, heads };
      });
      assert.deepEqual(layer, { tokens: ['a', 'b', 'c'], heads: 2 });
      assert.ok(record.requests.some((url) => FIRST_USE_CODE.test(url)), 'the code was fetched when one was added');

      // Inside a shadow root of the page's own, the document's watch does not see it; handed over,
      // it is defined and makes its study.
      await page.evaluate(() => {
        const host = document.createElement('div');
        host.id = 'component';
        host.attachShadow({ mode: 'open' }).innerHTML =
          '<attention-head-dim-study head-dims="2 4" samples="4"></attention-head-dim-study>';
        document.body.append(host);
      });
      await page.waitForTimeout(300);
      const study = () => page.evaluate(() => {
        const element = document.getElementById('component').shadowRoot.firstElementChild;
        return { upgraded: Boolean(element.shadowRoot), dims: element.study?.points.map((point) => point.head_dim) ?? null };
      });
      assert.deepEqual(await study(), { upgraded: false, dims: null });
      await page.evaluate(async () => {
        const { defineAttentionElements } = await import(new URL('../site/web/attention-explainer.js', location.href).href);
        defineAttentionElements(customElements, document.getElementById('component').shadowRoot);
      });
      await page.waitForFunction(() => document.getElementById('component').shadowRoot.firstElementChild.study,
        undefined, { timeout: 30_000 });
      assert.deepEqual(await study(), { upgraded: true, dims: [2, 4] });
      assert.deepEqual(record.pageErrors, []);
    } finally {
      await close();
    }
  });

  it('say in their box when their code cannot be loaded', async () => {
    const { page, close } = await openHostPage(browser, server.fixture('strict-csp.html'));
    try {
      await page.route(FIRST_USE_CODE, (route) => route.abort());
      await waitForElements(page);
      await page.evaluate(() => document.body.append(document.createElement('attention-heads')));
      await page.waitForFunction(() => document.querySelector('attention-heads').shadowRoot?.querySelector('[role="alert"]'),
        undefined, { timeout: 30_000 });
      const said = await page.evaluate(() => document.querySelector('attention-heads').shadowRoot.textContent);
      assert.match(said, /^<attention-heads> could not be loaded: /u);
    } finally {
      await close();
    }
  });
});
