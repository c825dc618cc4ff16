// Part one's choice of where Q, K and V come from, in Chromium under the strict CSP: "the
// trained head on my sentence" trains the default run in the training worker and part one's
// weights table then shows what float64 gives on that head's Q and K (trained separately in
// the page, same seed and steps); a token outside the trained vocabulary is refused with the vocabulary, the article's
// numbers stay; "the article's numbers" goes back.
//
// Run after the wasm build: node --test tests/browser/part-one-source.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { headF64 } from '../support/attention-f64.mjs';

const TIMEOUT = 300_000;
let browser;
let server;

before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT, csp: PAGE_CSP });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash = '') {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}index.html${hash}`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.getElementById('load-status').classList.contains('done'), null, { timeout: 120_000 });
  return { page, errors, close: () => context.close() };
}

const weightsTable = (page) => page.evaluate(() => [...document.querySelectorAll('[data-slot="table-weights"] tbody tr')]
  .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));

describe('part one: where Q, K and V come from', { timeout: TIMEOUT }, () => {
  it('the trained head on the reader\u2019s tokens, then the article\u2019s numbers again', async () => {
    const { page, errors, close } = await open();
    try {
      const article = await weightsTable(page);
      await page.getByRole('radio', { name: 'the trained head on my sentence' }).check();
      const status = page.locator('[data-slot="explore-source"] [role="status"]');
      await status.filter({ hasText: 'now come from the trained head' }).waitFor({ timeout: TIMEOUT });
      // The steps ran in the training worker, not on the page's thread.
      assert.ok(page.workers().some((worker) => worker.url().endsWith('training-worker.js')),
        `workers: ${page.workers().map((worker) => worker.url()).join(', ') || 'none'}`);
      const reference = await page.evaluate(async () => {
        const { createAttention } = await import('./web/attention-explainer.js');
        const trainer = (await createAttention()).trainer();
        trainer.step(trainer.state().default_steps);
        const { q, k, v } = trainer.attend(['the', 'cat']).heads[0].trace;
        trainer.dispose();
        return { q, k, v };
      });
      const expected = headF64(reference).weights;
      const shown = await weightsTable(page);
      expected.forEach((row, i) => row.forEach((w, j) => {
        if (j <= i) assert.ok(Math.abs(Number(shown[i][j]) - w) <= 0.00005 + 1e-6, `row ${i + 1}, column ${j + 1}: ${shown[i][j]} vs ${w}`);
      }));
      assert.notDeepEqual(shown, article, 'the trained head gives other weights than the article');
      await page.getByRole('radio', { name: 'the article\u2019s numbers' }).check();
      assert.deepEqual(await weightsTable(page), article);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('refuses a token the trained model does not know, showing its vocabulary, and changes nothing', async () => {
    // With q, k and v: a link with tokens alone would go to the trained head at once (below).
    const { page, close } = await open('#tokens=the%20cta&q=[[1,0],[0,1]]&k=[[1,0],[0,1]]&v=[[1,2],[3,4]]');
    try {
      const before = await weightsTable(page);
      // A click, not check(): the refusal puts the choice back on the article's numbers.
      await page.getByRole('radio', { name: 'the trained head on my sentence' }).click();
      const message = page.locator('[data-slot="explore-source"] .control-message').first();
      await message.filter({ hasText: 'cta' }).waitFor();
      const text = await message.textContent();
      assert.match(text, /"cta" is not in the vocabulary of 38 words; nearest: cat/);
      assert.match(text, /knows these words: .*purrs/);
      assert.equal(await page.getByRole('radio', { name: 'the article\u2019s numbers' }).isChecked(), true);
      assert.deepEqual(await weightsTable(page), before);
    } finally {
      await close();
    }
  });
});
