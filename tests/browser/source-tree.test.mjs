// The source folders served as they are (scripts/serve --source: site/ at /, web/ at /web/)
// work like the production build: part one and part two compute every table, and part three
// takes a training step, with no failed request, no page error and no policy violation,
// loading the readable modules of web/ (and uPlot through web/vendor/, from node_modules/).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PAGE_CSP, launchBrowser, openPage, startStaticServer } from './browser-harness.mjs';
import { openSequel } from './sequel-harness.mjs';

const TIMEOUT = 240_000;
const glue = fileURLToPath(new URL('../../web/generated/attention-core.js', import.meta.url));

let browser;
let server;

before(async () => {
  assert.ok(existsSync(glue), `${glue} is missing: run the wasm build first (scripts/build)`);
  browser = await launchBrowser();
  server = await startStaticServer({ source: true, port: 0, csp: PAGE_CSP });
});

after(async () => {
  await server?.close();
  await browser?.close();
});

describe('the source folders, served as they are', { timeout: TIMEOUT }, () => {
  it('part one computes every table from the readable modules', async () => {
    const requests = [];
    const opened = await openPage(browser, `${server.url}index.html`, {
      route: (page) => page.on('request', (request) => requests.push(new URL(request.url()).pathname)),
    });
    try {
      const problems = await opened.collectViolations();
      assert.deepEqual(problems.failedRequests, []);
      assert.deepEqual(problems.pageErrors, []);
      assert.deepEqual(problems.cspViolations, []);
      assert.ok(await opened.page.locator('main table').count() >= 13);
      assert.ok(requests.includes('/web/api/attention-api.js'), 'the readable API module, not a bundle');
      assert.ok(requests.includes('/web/generated/attention-core.wasm'));
    } finally {
      await opened.close();
    }
  });

  it('part two computes every section', async () => {
    const opened = await openSequel(browser, server);
    try {
      assert.deepEqual(opened.record.pageErrors, []);
      assert.deepEqual(opened.record.failedRequests, []);
      assert.deepEqual(await opened.cspViolations(), []);
      const sections = await opened.page.locator('attention-kv-bill, attention-flash-tiles').count();
      assert.ok(sections >= 2, `${sections} sequel elements`);
    } finally {
      await opened.close();
    }
  });

  it('part three takes a training step, with uPlot from node_modules through web/vendor/', async () => {
    const requests = [];
    const opened = await openPage(browser, `${server.url}training.html`, {
      waitForResult: false,
      route: (page) => page.on('request', (request) => requests.push(new URL(request.url()).pathname)),
    });
    try {
      const { page } = opened;
      await page.waitForFunction(() => document.getElementById('trainer')?.view, null, { timeout: 120_000 });
      await page.evaluate(() => document.getElementById('trainer').stepOnce());
      assert.equal(await page.evaluate(() => document.getElementById('trainer').run.latest.step), 1);
      assert.ok(await page.evaluate(() => document.querySelector('attention-loss-curve').shadowRoot.querySelector('canvas') !== null), 'the curve is drawn');
      const problems = await opened.collectViolations();
      assert.deepEqual(problems.failedRequests, []);
      assert.deepEqual(problems.pageErrors, []);
      assert.deepEqual(problems.cspViolations, []);
      assert.ok(requests.includes('/web/vendor/uplot.js'));
      assert.ok(requests.includes('/node_modules/uplot/dist/uPlot.esm.js'));
    } finally {
      await opened.close();
    }
  });
});
