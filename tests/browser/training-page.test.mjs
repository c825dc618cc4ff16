// Part three in Chromium, under the pages' strict CSP: train, pause, one step, scrub back, the
// reader's own sentence (and an unknown word, a sentence over 16 words, a learning rate that is
// not a positive finite number, a diverging step: each refused with a message, nothing else
// changed), the grid's weights against float64 from the trace's Q and K, axe-core with no
// WCAG 2 A/AA violation in light and dark, and no sideways scrolling at 360 px; the link into
// part one, whose walkthrough then runs on the trained head's Q, K and V.
//
// Run after the wasm build: node --test tests/browser/training-page.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { headF64 } from '../support/attention-f64.mjs';

const TIMEOUT = 240_000;
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

async function open({ width = 1100, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(`${server.url}training.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.getElementById('trainer')?.view, null, { timeout: 120_000 });
  return { page, errors, close: () => context.close() };
}

// In the page: the trainer's shadow root's controls.
const inTrainer = (page, fn, arg) => page.evaluate(fn, arg);
const click = (page, text) => page.locator('attention-trainer').getByRole('button', { name: text, exact: true }).click();
const message = (page) => inTrainer(page, () => {
  const node = document.getElementById('trainer').shadowRoot.querySelector('.message');
  return node.hidden ? null : node.textContent;
});
// The engine answers pause and single steps asynchronously: wait until it has.
const settled = (page) => page.waitForFunction(() => !document.getElementById('trainer').busy, null, { timeout: 120_000 });
const shownStep = (page) => inTrainer(page, () => document.getElementById('trainer').view.step);
const latestStep = (page) => inTrainer(page, () => document.getElementById('trainer').run.latest.step);

describe('the training page', { timeout: TIMEOUT }, () => {
  it('trains, pauses, steps once and scrubs back; the pieces follow the step shown', async () => {
    const { page, errors, close } = await open();
    try {
      await click(page, 'Train');
      await page.waitForFunction(() => document.getElementById('trainer').run.latest.step >= 3, null, { timeout: 120_000 });
      await click(page, 'Pause');
      await settled(page);
      const paused = await latestStep(page);
      await page.waitForTimeout(500);
      assert.equal(await latestStep(page), paused, 'no step after Pause');
      const announced = page.evaluate(() => new Promise((resolve) => {
        const trainer = document.getElementById('trainer');
        trainer.addEventListener('attention-change', ({ detail }) => resolve({
          step: detail.result?.step, same: detail.result === detail.view, problem: detail.problem, live: detail.live,
        }), { once: true });
      }));
      await click(page, 'One step');
      await settled(page);
      assert.equal(await latestStep(page), paused + 1);
      assert.deepEqual(await announced, { step: paused + 1, same: true, problem: null, live: true },
        'attention-change carries the step shown as detail.result (and detail.view), and no problem');
      const history = await inTrainer(page, () => document.getElementById('trainer').run.history.map((h) => h.step));
      assert.deepEqual(history, Array.from({ length: paused + 2 }, (_, i) => i), 'every step recorded once');

      // Scrub with the keyboard: Home goes to step 0, then one to the right.
      const slider = page.locator('attention-trainer').getByRole('slider');
      await slider.focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      assert.equal(await shownStep(page), 1);
      const shown = await page.evaluate(() => {
        const root = (name) => document.querySelector(name).shadowRoot;
        return {
          status: root('attention-trainer').querySelector('.scrub span').textContent,
          curve: root('attention-loss-curve').querySelector('.curve-summary').textContent,
          grid: root('attention-trained-grid').querySelector('caption').textContent,
          weights: root('attention-trained-weights').querySelector('canvas').getAttribute('aria-label'),
          loss: document.getElementById('trainer').view.loss,
        };
      });
      assert.match(shown.status, new RegExp(`^Step shown: 1 of ${paused + 1}$`));
      assert.ok(shown.curve.startsWith(`Loss at step 1: training ${shown.loss.toFixed(3)}`), shown.curve);
      assert.match(shown.grid, /at step 1:/);
      assert.match(shown.weights, /^W_Q at step 1: 16 by 16 weights/);
      await page.keyboard.press('End');
      assert.equal(await shownStep(page), paused + 1);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('shows the reader\u2019s sentence with the weights a float64 head gives on the same Q and K', async () => {
    const { page, errors, close } = await open();
    try {
      const field = page.locator('attention-trainer').getByLabel('Your sentence');
      await field.fill('a dog that hid by the big wall barks');
      await field.press('Enter');
      await page.waitForFunction(() => document.getElementById('trainer').run.sentence.length === 9);
      const { printed, trace, headers } = await page.evaluate(() => {
        const root = document.querySelector('attention-trained-grid').shadowRoot;
        const rows = [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
        const { layer } = document.getElementById('trainer').view;
        return {
          printed: rows,
          trace: { q: layer.heads[0].trace.q, k: layer.heads[0].trace.k, v: layer.heads[0].trace.v },
          headers: [...root.querySelectorAll('thead th')].map((th) => th.textContent),
        };
      });
      assert.deepEqual(headers, ['1 a', '2 dog', '3 that', '4 hid', '5 by', '6 the', '7 big', '8 wall', '9 barks']);
      const weights = headF64(trace).weights;
      weights.forEach((row, i) => row.forEach((w, j) => {
        if (j > i) assert.equal(printed[i][j], '\u2014');
        // Printed to two decimals: within half a unit of the last place, plus float32 rounding.
        else assert.ok(Math.abs(Number(printed[i][j]) - w) <= 0.005 + 1e-6, `row ${i + 1}, column ${j + 1}: ${printed[i][j]} vs ${w}`);
      }));
      assert.deepEqual(errors, []);

      // Part one's walkthrough on the trained head: the link carries this step's Q, K and V,
      // and part one's weights table shows what float64 gives on them.
      await page.locator('#part-one-link').click();
      await page.waitForFunction(() => document.getElementById('load-status')?.classList.contains('done'), null, { timeout: 120_000 });
      assert.equal(await page.evaluate(() => document.getElementById('link-problem').hidden), true, 'part one took the link');
      const lastRow = await page.evaluate(() => {
        const row = [...document.querySelectorAll('[data-slot="table-weights"] tbody tr')].at(-1);
        return { word: row.querySelector('th').textContent.trim(), cells: [...row.querySelectorAll('td')].map((td) => td.textContent.trim()) };
      });
      assert.equal(lastRow.word, 'barks');
      weights.at(-1).forEach((w, j) => {
        assert.ok(Math.abs(Number(lastRow.cells[j]) - w) <= 0.00005 + 1e-6, `part one, barks → column ${j + 1}: ${lastRow.cells[j]} vs ${w}`);
      });
    } finally {
      await close();
    }
  });

  it('refuses bad input with a message and changes nothing; a diverging step keeps the last good weights', async () => {
    const { page, close } = await open();
    try {
      const before = await inTrainer(page, () => {
        const { run } = document.getElementById('trainer');
        return { sentence: run.sentence.join(' '), digest: run.state.parameter_digest, step: run.latest.step };
      });
      const field = page.locator('attention-trainer').getByLabel('Your sentence');
      await field.fill('the cta that sat');
      await field.press('Enter');
      await page.waitForFunction(() => !document.getElementById('trainer').shadowRoot.querySelector('.message').hidden);
      assert.match(await message(page), /^Sentence, word 2: "cta" is not in the vocabulary of 38 words; nearest: cat/);
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await inTrainer(page, () => document.getElementById('trainer').shadowRoot.querySelector('details').open), true, 'the vocabulary is shown');
      await field.fill(Array(17).fill('cat').join(' '));
      await field.press('Enter');
      assert.match(await message(page), /has 17 words, more than the model's 16 positions/);
      assert.equal(await inTrainer(page, () => document.getElementById('trainer').run.sentence.join(' ')), before.sentence);

      const rate = page.locator('attention-trainer').getByLabel('Learning rate');
      for (const bad of ['abc', '0', '-1']) {
        await rate.fill(bad);
        await rate.press('Tab');
        assert.match(await message(page), new RegExp(`^Learning rate: must be a positive finite number, got "${bad}"`));
        assert.equal(await rate.getAttribute('aria-invalid'), 'true');
      }
      assert.equal(await inTrainer(page, () => document.getElementById('trainer').run.options.learning_rate), undefined);

      await rate.fill('1e6');
      await rate.press('Tab');
      assert.equal(await message(page), null);
      await click(page, 'One step');
      await settled(page);
      assert.match(await message(page), /diverged.*kept the parameters of step 0/);
      const afterStep = await inTrainer(page, () => {
        const { run } = document.getElementById('trainer');
        return { digest: run.state.parameter_digest, step: run.latest.step };
      });
      assert.deepEqual(afterStep, { digest: before.digest, step: before.step });
    } finally {
      await close();
    }
  });

  for (const colorScheme of ['light', 'dark']) {
    it(`has no WCAG 2 A/AA violation in ${colorScheme} mode, after training, and fits 360 px`, async () => {
      const { page, close } = await open({ width: 360, colorScheme });
      try {
        await click(page, 'One step');
        await click(page, 'One step');
        await page.waitForFunction(() => document.querySelector('attention-head-report').report, null, { timeout: 120_000 });
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 360 px`);
      } finally {
        await close();
      }
    });
  }
});
