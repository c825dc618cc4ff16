// <attention-explainer> on a host page of our own served with the strict policy
// default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self':
// it loads without violations, downloads nothing but the module's own files (exactly the files
// scripts/bench-size counts), styles itself through an adopted stylesheet in an open shadow
// root, shows the article's example without attributes and an author's numbers (and scale) with them,
// every number matching a float64 reference.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { moduleGraph } from '../../scripts/bench-size.mjs';
import { PAGE_CSP, launchBrowser } from './browser-harness.mjs';
import {
  SITE, TEST_TIMEOUT, assertTable, openHostPage, readShadowTable, referenceAttention, requireBuiltSite,
  startHostServer, waitForElements,
} from './embed-harness.mjs';
import { referenceAttention as referenceWithScale } from './explore-harness.mjs';

let browser;
let server;
let opened;
let article;

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startHostServer({ csp: PAGE_CSP });
  opened = await openHostPage(browser, server.fixture('strict-csp.html'));
  await waitForElements(opened.page);
  article = await opened.page.evaluate(async () => {
    const { createAttention } = await import('../site/web/attention-explainer.js');
    return (await createAttention({ build: 'embed' })).article();  // the build the elements load
  });
});

after(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

describe('an explainer on a page with a strict Content-Security-Policy', { timeout: TEST_TIMEOUT }, () => {
  it('is served with the policy and runs without violations or errors', async () => {
    assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
    assert.deepEqual(await opened.cspViolations(), []);
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.deepEqual(opened.record.failedRequests, []);
    assert.deepEqual(opened.record.warnings, []);
  });

  it('requests nothing but the page, its icon and the module\u2019s own files', async () => {
    const { files } = await moduleGraph(path.join(SITE, 'web'));
    const siteFiles = opened.record.requests
      .filter((url) => url.startsWith(`${server.url}site/`))
      .map((url) => url.slice(`${server.url}site/`.length));
    const others = opened.record.requests.filter((url) => !url.startsWith(`${server.url}site/`));
    assert.deepEqual(others, [server.fixture('strict-csp.html')], 'no request outside the site folder');
    assert.deepEqual([...new Set(siteFiles)].filter((name) => name !== 'favicon.svg').sort(),
      files.map((name) => `web/${name}`).sort(),
      'the module graph scripts/bench-size measures is what the browser downloads');
  });

  it('renders into an open shadow root styled by an adopted stylesheet, with no <style>', async () => {
    const styling = await opened.page.evaluate(() => {
      const host = document.getElementById('article-example');
      const root = host.shadowRoot;
      const cell = root.querySelector('table[data-table="scores"] td.num');
      return {
        mode: root.mode,
        adopted: root.adoptedStyleSheets.length,
        ruleCount: root.adoptedStyleSheets[0]?.cssRules.length ?? 0,
        styleElements: root.querySelectorAll('style, link').length + document.querySelectorAll('style').length,
        cellAlign: getComputedStyle(cell).textAlign,
        digits: getComputedStyle(cell).fontVariantNumeric,
        collapse: getComputedStyle(cell.closest('table')).borderCollapse,
        lightDomChildren: host.children.length,
      };
    });
    assert.equal(styling.mode, 'open');
    assert.equal(styling.adopted, 1);
    assert.ok(styling.ruleCount > 30, `${styling.ruleCount} rules applied`);
    assert.equal(styling.styleElements, 0);
    assert.equal(styling.cellAlign, 'right', 'the adopted sheet is in force under style-src \'self\'');
    assert.match(styling.digits, /tabular-nums/);
    assert.equal(styling.collapse, 'collapse');
    assert.equal(styling.lightDomChildren, 0, 'nothing is added to the host page\u2019s DOM');
  });

  it('without attributes shows the article\u2019s example, every step matching float64', async () => {
    const { page } = opened;
    const input = article.two_words;
    const ref = referenceAttention(input);
    const steps = await page.evaluate(() => [...document.getElementById('article-example').shadowRoot
      .querySelectorAll('[data-step]')].map((section) => section.dataset.step));
    assert.deepEqual(steps, ['q', 'k', 'v', 'scores', 'scaled', 'masked', 'softmax', 'weights', 'mix', 'out']);
    for (const name of ['q', 'k', 'v']) {
      assertTable(await readShadowTable(page, 'article-example', name), input[name], 3, name);
    }
    assertTable(await readShadowTable(page, 'article-example', 'scores'), ref.scores, 3, 'scores');
    assertTable(await readShadowTable(page, 'article-example', 'scaled'), ref.scaled, 3, 'scaled');
    assertTable(await readShadowTable(page, 'article-example', 'masked'), ref.masked, 3, 'masked');
    const weights = await readShadowTable(page, 'article-example', 'weights');
    assertTable(weights, ref.weights, 4, 'weights');
    assert.deepEqual(weights.rows.map((row) => row.masked.slice(0, 2)), [[false, true], [false, false]]);
    assertTable(await readShadowTable(page, 'article-example', 'out'), ref.out, 4, 'out');
    const softmax = await readShadowTable(page, 'article-example', 'softmax');
    assert.match(softmax.caption, /the cat row/);
    assert.deepEqual(softmax.rows.map((row) => row.cells[2]), ['0.2799', '0.7201'], 'the article\u2019s 28 % and 72 %');
    assert.equal(softmax.footer[0].cells[1], '3.9486');
    const mix = await readShadowTable(page, 'article-example', 'mix');
    assert.deepEqual(mix.footer[0].cells, ['0.7242', '\u22120.3280', '\u22120.1160', '\u22120.1242']);
  });

  it('scale="d" divides the scores by d_k, and the weights follow, as float64 does', async () => {
    const { page } = opened;
    const ref = referenceWithScale({ ...article.two_words, scale: 'd' });
    const shown = await page.evaluate(() => {
      const el = document.getElementById('by-d');
      return { scale: el.scale, traceScale: el.trace.scale, caption: el.shadowRoot.querySelector('table[data-table="scaled"] caption').textContent };
    });
    assert.deepEqual([shown.scale, shown.traceScale], ['d', 'd']);
    const headDim = article.two_words.q[0].length;
    assert.equal(shown.caption, `Step 2 \u00b7 scaled: scores \u00f7\u00a0d\u2096 = ${headDim}`);
    assertTable(await readShadowTable(page, 'by-d', 'scaled'), ref.scaled, 3, 'scaled by d');
    assertTable(await readShadowTable(page, 'by-d', 'weights'), ref.weights, 4, 'weights after scaling by d');
  });

  it('with attributes shows the author\u2019s numbers, only the steps listed, and the trace', async () => {
    const { page } = opened;
    const input = {
      tokens: ['I', 'am', 'here'],
      q: [[1, 0, 0.5], [0, 1, 0.5], [1, 1, 0]],
      k: [[0.5, 0, 1], [0, 1, -1], [1, -0.5, 0]],
      v: [[1, 2, 3], [-1, 0, 1], [0.5, 0.5, -0.5]],
      mask: 'none',
    };
    const ref = referenceAttention(input);
    const shown = await page.evaluate(() => {
      const el = document.getElementById('own');
      return {
        steps: [...el.shadowRoot.querySelectorAll('[data-step]')].map((s) => s.dataset.step),
        tokens: el.tokens,
        mask: el.mask,
        stepsProperty: el.steps,
        traceKeys: Object.keys(el.trace).sort(),
        weights: el.trace.weights,
        masked: el.shadowRoot.querySelectorAll('td[data-masked="true"]').length,
      };
    });
    assert.deepEqual(shown.steps, ['scores', 'masked', 'weights', 'out']);
    assert.deepEqual(shown.stepsProperty, ['scores', 'masked', 'weights', 'out']);
    assert.deepEqual(shown.tokens, input.tokens);
    assert.equal(shown.mask, 'none');
    assert.equal(shown.masked, 0, 'no mask, nothing hatched');
    const runKeys = await page.evaluate(async (value) => {
      const { createAttention } = await import('../site/web/attention-explainer.js');
      return Object.keys((await createAttention({ build: 'embed' })).run(value)).sort();
    }, input);
    assert.deepEqual(shown.traceKeys, runKeys, 'trace has the shape run() returns');
    shown.weights.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - ref.weights[i][j]) < 1e-6)));
    assertTable(await readShadowTable(page, 'own', 'scores'), ref.scores, 3, 'scores');
    assertTable(await readShadowTable(page, 'own', 'weights'), ref.weights, 4, 'weights');
    assertTable(await readShadowTable(page, 'own', 'out'), ref.out, 4, 'out');
  });
});
