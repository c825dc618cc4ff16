// Tokens alone, in Chromium under the strict CSP: a part-one link that gives tokens but no q,
// k or v, and an <attention-explainer> with only a tokens attribute, say that the trained head
// is training (part three's default run, seed 1, 200 steps, trained in the worker), then show
// Q, K and V equal to a float64
// forward (x = E[w] + P[t], x·W_Q, x·W_K, x·W_V) of a head trained separately in Node with the
// same seed and steps (within 1e-5 for the numbers behind the tables; within half a unit of
// the last printed digit plus 1e-6 for what the tables print); a word outside the vocabulary is refused with the nearest words, and the
// page keeps the article's example.
//
// Run after the wasm build: node --test tests/browser/tokens-only.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { importExplainer } from '../support/site-module.mjs';
import { headProjectionsF64 } from '../support/trainer-f64.mjs';

const TIMEOUT = 300_000;
const EXACT = 1e-5;
const WORDS = ['a', 'dog', 'that', 'hid', 'by', 'the', 'wall'];
let browser;
let server;
let trained;

before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT, csp: PAGE_CSP });
  const trainer = (await (await importExplainer()).createAttention()).trainer({ seed: 1 });
  trainer.step(trainer.state().default_steps);
  trained = trainer.state();
  trainer.dispose();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(url, route) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (route) await route(page);
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, close: () => context.close() };
}

// `shown`: numbers, or printed text (a real minus sign read as "-"); a printed number is held
// within half a unit of its last digit (plus 1e-6), a number within EXACT.
function assertClose(shown, expected, what) {
  assert.equal(shown.length, expected.length, `${what}: rows`);
  expected.forEach((row, i) => row.forEach((value, c) => {
    const cell = shown[i][c];
    const text = typeof cell === 'string' ? cell.replace('\u2212', '-') : null;
    const tolerance = text === null ? EXACT : 0.5 * 10 ** -((text.split('.')[1] ?? '').length) + 1e-6;
    const number = text === null ? cell : Number(text);
    assert.ok(Math.abs(number - value) <= tolerance, `${what}[${i}][${c}]: ${cell} vs ${value} (within ${tolerance})`);
  }));
}

// The printed numbers of part one's Q, K and V tables (an editable cell gives its input's value).
const pageTables = (page) => page.evaluate(() => Object.fromEntries(['q', 'k', 'v'].map((name) => [name,
  [...document.querySelectorAll(`[data-slot="table-${name}"] tbody tr`)].map((tr) => [...tr.querySelectorAll('td')]
    .map((td) => td.querySelector('input')?.value ?? td.textContent.trim()))])));

describe('tokens alone, through the trained head', { timeout: TIMEOUT }, () => {
  it('a part-one link with tokens only shows the trained head\u2019s Q, K and V', async () => {
    const { page, errors, close } = await open(`${server.url}index.html#tokens=${encodeURIComponent(WORDS.join(' '))}`);
    try {
      const message = page.locator('#link-problem');
      await message.filter({ hasText: /Training the head these tokens use .*step \d+ of 200/ }).waitFor({ timeout: TIMEOUT });
      await message.filter({ hasText: 'This link gives tokens only' }).waitFor({ timeout: TIMEOUT });
      assert.match(await message.textContent(), /trained head on them \(seed 1, 200 steps\)/);
      const shown = await pageTables(page);
      const expected = headProjectionsF64(trained.parameters, trained.vocabulary, WORDS);
      for (const name of ['q', 'k', 'v']) assertClose(shown[name], expected[name], name);
      assert.match(page.url(), /#tokens=a%20dog%20that%20hid%20by%20the%20wall$/, 'the address keeps the link');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('a part-one link with a word outside the vocabulary is refused with the nearest words', async () => {
    const { page, errors, close } = await open(`${server.url}index.html#tokens=the%20dgo%20sat`);
    try {
      const message = page.locator('#link-problem');
      await message.filter({ hasText: 'dgo' }).waitFor({ timeout: TIMEOUT });
      assert.match(await message.textContent(), /could not be used \(tokens\[1\]: "dgo" is not in the vocabulary of 38 words; nearest: dog, /);
      assert.match(await message.textContent(), /shows the article\u2019s example instead/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('an element with only tokens says it is training, then shows the trained head', async () => {
    const authorPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An article</title>
      <script type="module" src="/web/attention-explainer.js"></script></head><body><main>
      <attention-explainer id="only-tokens" tokens="${WORDS.join(' ')}" steps="q,k,v"></attention-explainer>
      <attention-explainer id="unknown" tokens="the dgo"></attention-explainer></main></body></html>`;
    const route = (page) => page.route('**/articles/tokens.html', (r) => r.fulfill({
      contentType: 'text/html', headers: { 'Content-Security-Policy': PAGE_CSP }, body: authorPage,
    }));
    const { page, errors, close } = await open(`${server.url}articles/tokens.html`, route);
    try {
      const status = page.locator('#only-tokens').locator('[role="status"]').filter({ hasText: /Training the head these tokens use/ });
      await status.first().waitFor({ timeout: TIMEOUT });
      await page.waitForFunction(() => document.getElementById('only-tokens').trace, null, { timeout: TIMEOUT });
      const expected = headProjectionsF64(trained.parameters, trained.vocabulary, WORDS);
      const { q, k, v } = await page.evaluate(() => document.getElementById('only-tokens').trace);
      for (const [name, numbers] of Object.entries({ q, k, v })) assertClose(numbers, expected[name], name);
      const shown = await page.evaluate(() => Object.fromEntries(['q', 'k', 'v'].map((name) => {
        const table = document.getElementById('only-tokens').shadowRoot.querySelector(`table[data-table="${name}"]`);
        return [name, [...table.tBodies[0].rows].map((row) => [...row.cells].slice(1)
          .map((cell) => cell.querySelector('input')?.value ?? cell.querySelector('.value')?.textContent ?? cell.textContent))];
      })));
      for (const name of ['q', 'k', 'v']) assertClose(shown[name], expected[name], `printed ${name}`);

      await page.waitForFunction(() => {
        const message = document.getElementById('unknown').shadowRoot.querySelector('.message:not(.edit-message)');
        return message && !message.hidden && message.getAttribute('role') === 'alert';
      }, null, { timeout: TIMEOUT });
      const refused = await page.evaluate(() => document.getElementById('unknown').shadowRoot.querySelector('.message').textContent);
      assert.match(refused, /tokens attribute, token 2: "dgo" is not in the vocabulary of 38 words; nearest: dog, /);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
});
