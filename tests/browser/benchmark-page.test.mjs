// The benchmark page (benchmark.html) drawing a real result document: a tiny run of
// bench/run-node.mjs (not a measurement) is served in place of benchmark-results-node.json.
// The page draws a chart and a table per head_dim and the trace table, every figure from the
// document; with no document it says how to make one, without a single failed request or
// console error (it reads the index the build writes, benchmark-index.json, and asks only for
// the documents it names); its sections share the header's left edge; and at 360 px the page
// itself never scrolls sideways (long implementation ids wrap, tables scroll in their own boxes).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  TEST_TIMEOUT, requireBuiltSite, startBrowserAndHost, stopBrowserAndHost,
} from './embed-harness.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let browser;
let server;
let directory;
let doc;
let docText;

before(async () => {
  requireBuiltSite();  // the smoke run needs the built module too
  directory = await mkdtemp(path.join(os.tmpdir(), 'attention-bench-page-'));
  const out = path.join(directory, 'results.json');
  await promisify(execFile)(process.execPath, [
    'bench/run-node.mjs', '--sizes', '4,64', '--d', '64', '--reps', '1',
    '--only', 'ours:attend__wasmsimd,plain-js', '--out', out,
  ], { cwd: REPO, timeout: 120_000 });
  docText = await readFile(out, 'utf8');
  doc = JSON.parse(docText);
  ({ browser, server } = await startBrowserAndHost());
}, { timeout: 180_000 });

after(async () => {
  await stopBrowserAndHost(browser, server);
  if (directory) await rm(directory, { recursive: true, force: true });
});

// Opens benchmark.html with the node results answered by `body` (null: no results, and an
// index that names none, as a fresh build writes it). Records every console error and every
// response that failed, so that a test can ask that there were none.
async function openBenchmark(viewport, body) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  const consoleErrors = [];
  const failedResponses = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('response', (response) => { if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`); });
  page.on('requestfailed', (request) => failedResponses.push(`failed ${request.url()}`));
  await page.route('**/benchmark-index.json', (route) => route.fulfill({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({
      schema: 'attention-by-hand/benchmark-index@1',
      runs: body === null ? [] : [{ file: 'benchmark-results-node.json', where: 'Node' }],
    }),
  }));
  await page.route('**/benchmark-results-*.json', (route) => {
    const isNode = route.request().url().endsWith('benchmark-results-node.json');
    return isNode && body !== null
      ? route.fulfill({ status: 200, contentType: 'application/json', body })
      : route.fulfill({ status: 404, body: '' });
  });
  await page.goto(new URL('site/benchmark.html', server.url).href);
  await page.waitForFunction(() => {
    const status = document.getElementById('load-status');
    return status.classList.contains('done') || !document.getElementById('load-problem').hidden;
  }, undefined, { timeout: 30_000 });
  return { page, context, errors, consoleErrors, failedResponses };
}

describe('benchmark.html', { timeout: TEST_TIMEOUT }, () => {
  it('draws the document: a chart and a table per head_dim, figures from the document', async () => {
    const { page, context, errors } = await openBenchmark({ width: 1100, height: 900 }, docText);
    try {
      assert.match(await page.locator('#load-status').textContent(), /benchmark-results-node\.json/);
      const dims = [...new Set(doc.results.map((r) => r.d))];
      assert.equal(await page.locator('svg.bench-chart').count(), dims.length);
      const tableText = await page.locator('table.bench-table').first().textContent();
      for (const id of new Set(doc.results.map((r) => r.implementation))) assert.ok(tableText.includes(id), id);
      // One of the document's figures, as the report writes it, appears in the table.
      const row = doc.results.find((r) => r.status === 'ok' && r.t === 64);
      assert.ok(tableText.includes(row.useful_gflops.toFixed(2)), `${row.implementation}: ${row.useful_gflops}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('says how to make results when there are none, with no failed request or console error', async () => {
    const { page, context, consoleErrors, failedResponses } = await openBenchmark({ width: 1100, height: 900 }, null);
    try {
      assert.match(await page.locator('#load-problem').textContent(), /No benchmark results here yet\. Run scripts\/bench/);
      assert.equal(await page.locator('svg.bench-chart').count(), 0);
      assert.deepEqual(failedResponses, []);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await context.close();
    }
  });

  it('puts "What is measured" and the results in the column of the header', async () => {
    const { page, context } = await openBenchmark({ width: 1280, height: 900 }, docText);
    try {
      const left = (selector) => page.locator(selector).evaluate((node) => node.getBoundingClientRect().left);
      const header = await left('.page-header h1');
      for (const selector of ['#how-heading', '.bench-run h2', '#load-status', '.page-footer p']) {
        const edge = await left(selector);
        assert.ok(Math.abs(edge - header) <= 1, `${selector} starts at ${edge} px, the header's heading at ${header} px`);
      }
    } finally {
      await context.close();
    }
  });

  it('never scrolls sideways at 360 px', async () => {
    const { page, context } = await openBenchmark({ width: 360, height: 740 }, docText);
    try {
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(widths.scroll <= widths.client, `scrollWidth ${widths.scroll} > ${widths.client}`);
    } finally {
      await context.close();
    }
  });
});
