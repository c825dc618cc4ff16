// The site's own pages for authors: the example article (one model through its prose, plus an
// explainer of its own), the two authors' pages with their live demos, the iframe embed's page
// of snippets, and the embed page on a narrow screen. All under the strict policy, without errors
// or warnings.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, PAGE_CSP, cellField, launchBrowser, startStaticServer } from './browser-harness.mjs';
import {
  SITE, TEST_TIMEOUT, assertTable, openHostPage, readShadowTable, referenceAttention, requireBuiltSite,
  waitForElements,
} from './embed-harness.mjs';

let browser;
let server;

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE, port: 0, csp: PAGE_CSP });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function assertClean(opened) {
  assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
  assert.deepEqual(await opened.cspViolations(), []);
  assert.deepEqual(opened.record.pageErrors, []);
  assert.deepEqual(opened.record.errors, []);
  assert.deepEqual(opened.record.warnings, []);
  assert.deepEqual(opened.record.failedRequests, []);
}

describe('example-article.html', { timeout: TEST_TIMEOUT }, () => {
  it('types no numbers for its shared model: it shows the core\u2019s article example', async () => {
    const html = await readFile(path.join(SITE, 'example-article.html'), 'utf8');
    assert.match(html, /<attention-model id="cat"><\/attention-model>/);
    assert.doesNotMatch(html, /<(script|style)[^>]*>[^<]/, 'no inline script or style');
    assert.doesNotMatch(html, /\sstyle=/);
  });

  it('loads cleanly, and an edit in its first table reaches the grid and the arrows at the end', async () => {
    const opened = await openHostPage(browser, `${server.url}example-article.html`);
    try {
      const { page } = opened;
      await waitForElements(page);
      await assertClean(opened);
      const ids = await page.evaluate(() => {
        const all = [...document.querySelectorAll('attention-step, attention-working, attention-arrows, attention-mask-grid')];
        all.forEach((el, n) => { el.id ||= `piece-${n}`; });
        return {
          pieces: all.map((el) => el.id),
          grid: document.querySelector('attention-mask-grid').id,
          arrows: document.querySelector('attention-arrows').id,
          explainer: (document.querySelector('attention-explainer').id ||= 'own'),
        };
      });
      assert.ok(ids.pieces.length >= 10, `${ids.pieces.length} pieces in the prose`);
      const article = await page.evaluate(async () => {
        const { createAttention } = await import('./web/attention-explainer.js');
        return (await createAttention()).article();
      });
      const explainerBefore = await readShadowTable(page, ids.explainer, 'weights');
      const input = structuredClone(article.two_words);
      input.q[1][1] = 1.5;
      const cell = cellField(page, 'attention-step[step="q"]', 1, 1);
      await cell.fill('1.5');
      await cell.press('Enter');
      const ref = referenceAttention(input);
      assertTable(await readShadowTable(page, ids.grid, 'grid'), ref.weights, 4, 'grid after the edit');
      const widths = await page.evaluate((id) => [...document.getElementById(id).shadowRoot.querySelectorAll('.arrow')]
        .map((arrow) => [Number(arrow.dataset.from), Number(arrow.dataset.to), Number(arrow.querySelector('.arrow-line').getAttribute('stroke-width'))]), ids.arrows);
      for (const [from, to, width] of widths) {
        assert.ok(Math.abs(width - (0.75 + 7.25 * ref.weights[from][to])) < 0.011, `arrow ${from}→${to}`);
      }
      assert.deepEqual(await readShadowTable(page, ids.explainer, 'weights'), explainerBefore, 'the separate example did not move');
    } finally {
      await opened.close();
    }
  });
});

describe('authors.html', { timeout: TEST_TIMEOUT }, () => {
  it('loads cleanly and its live demos render', async () => {
    const opened = await openHostPage(browser, `${server.url}authors.html`);
    try {
      await waitForElements(opened.page);
      await assertClean(opened);
      const demos = await opened.page.evaluate(() => [...document.querySelectorAll('.demo > *')]
        .map((el) => ({ tag: el.localName, traced: el.trace !== null })));
      assert.ok(demos.length >= 3);
      assert.ok(demos.every((demo) => demo.traced), JSON.stringify(demos));
    } finally {
      await opened.close();
    }
  });
});

describe('authors-sequel.html', { timeout: TEST_TIMEOUT }, () => {
  it('loads cleanly and its live bill shows the core\u2019s figures for Llama 3 8B', async () => {
    const opened = await openHostPage(browser, `${server.url}authors-sequel.html`);
    try {
      const { page } = opened;
      await page.waitForFunction(() => document.querySelector('.demo > attention-kv-bill')?.result != null, undefined, { timeout: 30_000 });
      await assertClean(opened);
      const bill = await page.evaluate(() => {
        const element = document.querySelector('.demo > attention-kv-bill');
        return { problem: element.problem, model: element.result.model, tables: element.shadowRoot.querySelectorAll('table').length };
      });
      assert.equal(bill.problem, null);
      assert.ok(bill.tables >= 1, 'the bill is drawn as a table');
      // Llama 3 8B's published shape: 32 layers, 8 K/V heads of 128 numbers, 2 bytes each, K and V.
      assert.equal(bill.model.bytes_per_token, 2 * 32 * 8 * 128 * 2);
      assert.equal(bill.model.bytes_per_sequence, 2 * 32 * 8 * 128 * 2 * 32768);
    } finally {
      await opened.close();
    }
  });
});

describe('the two authors\u2019 pages in axe-core', { timeout: TEST_TIMEOUT * 2 }, () => {
  for (const name of ['authors.html', 'authors-sequel.html']) {
    it(`${name}: no WCAG 2 A/AA violation in light, none of the colour rules in dark`, async () => {
      const opened = await openHostPage(browser, `${server.url}${name}`);
      try {
        const { page } = opened;
        await waitForElements(page);
        await page.waitForFunction(() => [...document.querySelectorAll('.demo > *')].every((el) => (el.result ?? el.trace) != null), undefined, { timeout: 30_000 });
        const violations = async (colorScheme) => {
          await page.emulateMedia({ colorScheme });
          const axe = new AxeBuilder({ page });
          const results = await (colorScheme === 'light' ? axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']) : axe.withRules(COLOUR_RULES)).analyze();
          assert.ok(results.passes.length >= 1, `${name}: axe ran its checks (${colorScheme})`);
          return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
        };
        assert.deepEqual(await violations('light'), [], `${name} (light)`);
        assert.deepEqual(await violations('dark'), [], `${name} (dark)`);
      } finally {
        await opened.close();
      }
    });
  }
});

describe('authors-iframe.html', { timeout: TEST_TIMEOUT }, () => {
  it('loads cleanly, and has no WCAG 2 A/AA violation in light, none of the colour rules in dark', async () => {
    const opened = await openHostPage(browser, `${server.url}authors-iframe.html`);
    try {
      const { page } = opened;
      await page.waitForLoadState('load');
      await assertClean(opened);
      assert.ok(await page.locator('#iframe pre#snippet-resize').count() === 1, 'the iframe embed\u2019s section with its snippet');
      const violations = async (colorScheme) => {
        await page.emulateMedia({ colorScheme });
        const axe = new AxeBuilder({ page });
        const results = await (colorScheme === 'light' ? axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']) : axe.withRules(COLOUR_RULES)).analyze();
        assert.ok(results.passes.length >= 1, `axe ran its checks (${colorScheme})`);
        return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
      };
      assert.deepEqual(await violations('light'), [], 'light');
      assert.deepEqual(await violations('dark'), [], 'dark');
    } finally {
      await opened.close();
    }
  });
});

describe('embed.html on a narrow screen', { timeout: TEST_TIMEOUT }, () => {
  it('scrolls wide tables inside their own box, never the page sideways', async () => {
    const opened = await openHostPage(browser, `${server.url}embed.html#tokens=one%20two%20three%20four%20five%20six`
      + '&q=[[1],[2],[3],[4],[5],[6]]&k=[[1],[1],[1],[1],[1],[1]]&v=[[1],[2],[3],[4],[5],[6]]', { viewport: { width: 360, height: 740 } });
    try {
      await waitForElements(opened.page);
      await assertClean(opened);
      const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    } finally {
      await opened.close();
    }
  });
});
