// Part three's training engine in Chromium: the steps run in a module Web Worker under the
// pages' strict CSP and reach Node's trainer's parameters bit for bit (the same digest at the
// same step, every step recorded once), the core's answers decoded into heap strings
// (heap-string-decoder.js); with no Worker the same engine trains on the page to
// the same digest; the worker starts on the source site and on an author's page in another
// folder (its URL comes from the module's own), where two trainers keep runs of their own, a
// trainer added by a script steps at once, and one played then paused before it has started
// stays paused;
// and the head report, scrubbed back to an earlier step, describes that step's parameters: its
// mean weight on the noun against float64 attention on a separately trained head's parameters
// of that step; scrubbed back past the snapshots the page keeps, the step shown is replayed in
// the worker from a checkpoint to Node's parameters of that step, bit for bit.
//
// Run after the wasm build: node --test tests/browser/training-worker.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { importExplainer } from '../support/site-module.mjs';
import { headWeightsF64 } from '../support/trainer-f64.mjs';

const TIMEOUT = 300_000;
let browser;
let server;
let attention;

before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT, csp: PAGE_CSP });
  attention = await (await importExplainer()).createAttention();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(url, { withoutWorker = false, route } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  if (withoutWorker) await page.addInitScript(() => { delete globalThis.Worker; });
  if (route) await route(page);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('attention-trainer')?.view, null, { timeout: 120_000 });
  return { page, errors, close: () => context.close() };
}

// Trains by single steps (or plays until `playTo`), then reads the run as the page holds it.
async function train(page, { steps = 0, playTo = 0 }) {
  return page.evaluate(async ({ steps, playTo }) => {
    const trainer = document.querySelector('attention-trainer');
    for (let n = 0; n < steps; n += 1) await trainer.stepOnce();
    if (playTo > 0) {
      trainer.play();
      await new Promise((resolve) => {
        const check = () => (trainer.run.latest.step >= playTo ? resolve() : setTimeout(check, 50));
        check();
      });
      await trainer.pause();
    }
    const { run } = trainer;
    return { inWorker: run.inWorker, step: run.latest.step, digest: run.state.parameter_digest, steps: run.history.map((h) => h.step) };
  }, { steps, playTo });
}

function nodeDigest(steps) {
  const trainer = attention.trainer({});
  try {
    trainer.step(steps);
    return trainer.state().parameter_digest;
  } finally {
    trainer.dispose();
  }
}

describe('training in a worker', { timeout: TIMEOUT }, () => {
  it('plays in a module worker under the strict CSP to Node\u2019s parameters, bit for bit', async () => {
    const { page, errors, close } = await open(`${server.url}training.html`);
    try {
      const run = await train(page, { playTo: 12 });
      assert.equal(run.inWorker, true, 'the steps ran in a worker');
      assert.deepEqual(run.steps, Array.from({ length: run.step + 1 }, (_, i) => i), 'every step once, in order');
      assert.equal(run.digest, nodeDigest(run.step));
      // The core's answers are decoded into heap strings (heap-string-decoder.js), not by the
      // platform's TextDecoder, whose strings' collection in the worker held up the page.
      const worker = page.workers().find((w) => w.url().endsWith('training-worker.js'));
      assert.equal(await worker.evaluate(() => /\[native code\]/u.test(String(globalThis.TextDecoder))), false,
        'the worker\u2019s TextDecoder is heap-string-decoder.js\u2019s');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('trains on the page, in slices, where there is no Worker, to the same parameters', async () => {
    const { page, errors, close } = await open(`${server.url}training.html`, { withoutWorker: true });
    try {
      const run = await train(page, { steps: 3 });
      assert.equal(run.inWorker, false);
      assert.equal(run.step, 3);
      assert.equal(run.digest, nodeDigest(3));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('starts its worker on the source site and on an author\u2019s page in another folder', async () => {
    const source = await startStaticServer({ source: true, csp: PAGE_CSP });
    try {
      const { page, errors, close } = await open(`${source.url}training.html`);
      try {
        const run = await train(page, { steps: 2 });
        assert.equal(run.inWorker, true);
        assert.equal(run.digest, nodeDigest(2));
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    } finally {
      await source.close();
    }
    const authorPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An article</title>
      <script type="module" src="/web/attention-training-elements.js"></script></head>
      <body><main><attention-trainer id="run" seed="2"></attention-trainer>
      <attention-trainer id="other"></attention-trainer></main></body></html>`;
    const route = (page) => page.route('**/articles/deep/trained.html', (r) => r.fulfill({
      contentType: 'text/html', headers: { 'Content-Security-Policy': PAGE_CSP }, body: authorPage,
    }));
    const { page, errors, close } = await open(`${server.url}articles/deep/trained.html`, { route });
    try {
      const run = await train(page, { steps: 1 });
      assert.equal(run.inWorker, true);
      const trainer = attention.trainer({ seed: 2 });
      trainer.step(1);
      assert.equal(run.digest, trainer.state().parameter_digest);
      trainer.dispose();
      // A second trainer on the page has a run of its own: neither disturbs the other.
      const both = await page.evaluate(async () => {
        await document.getElementById('other').stepOnce();
        await document.getElementById('other').stepOnce();
        return ['run', 'other'].map((id) => {
          const { run } = document.getElementById(id);
          return { step: run.latest.step, digest: run.state.parameter_digest };
        });
      });
      assert.deepEqual(both, [{ step: 1, digest: run.digest }, { step: 2, digest: nodeDigest(2) }]);
      // A trainer a script adds and steps at once: the step waits for its run to start.
      const added = await page.evaluate(async () => {
        const trainer = document.createElement('attention-trainer');
        document.querySelector('main').append(trainer);
        const before = trainer.run;
        await trainer.stepOnce();
        return { before, step: trainer.run.latest.step, digest: trainer.run.state.parameter_digest };
      });
      assert.deepEqual(added, { before: null, step: 1, digest: nodeDigest(1) });
      // Played and then paused before it has started: it stays paused once it has.
      const paused = await page.evaluate(async () => {
        const trainer = document.createElement('attention-trainer');
        document.querySelector('main').append(trainer);
        trainer.play();
        await trainer.pause();
        await trainer.ready;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { playing: trainer.playing, step: trainer.run.latest.step };
      });
      assert.deepEqual(paused, { playing: false, step: 0 });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('scrubs back past the snapshots the page keeps to that step\u2019s parameters, replayed in the worker', async () => {
    const { page, errors, close } = await open(`${server.url}training.html`);
    try {
      const shown = await page.evaluate(async () => {
        const { RECENT_SNAPSHOTS } = await import('./web/api/training-client.js');
        const trainer = document.getElementById('trainer');
        await trainer.run.trainTo(RECENT_SNAPSHOTS + 20);
        await trainer.stepOnce();
        const latest = trainer.run.latest.step;
        const held = trainer.run.snapshot(5) !== null;
        trainer.scrubTo(5);
        const label = trainer.shadowRoot.querySelector('.scrub span').textContent;
        await new Promise((resolve) => {
          const check = () => (trainer.view.step === 5 ? resolve() : setTimeout(check, 50));
          check();
        });
        return {
          latest, held, label, step: trainer.view.step, digest: trainer.view.digest, live: trainer.live,
          slider: trainer.shadowRoot.querySelector('input[type="range"]').value,
          grid: document.querySelector('attention-trained-grid').shadowRoot.querySelector('caption').textContent,
        };
      });
      assert.equal(shown.held, false, 'step 5 is no longer held on the page');
      assert.match(shown.label, /replaying the run to step 5/);
      assert.equal(shown.step, 5);
      assert.equal(shown.live, false);
      assert.equal(shown.slider, '5');
      assert.match(shown.grid, /at step 5:/);
      assert.equal(shown.digest, nodeDigest(5));
      assert.notEqual(shown.digest, nodeDigest(shown.latest));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('reports on the step the slider shows, with that step\u2019s parameters', async () => {
    const { page, errors, close } = await open(`${server.url}training.html`);
    try {
      await train(page, { steps: 6 });
      const shown = await page.evaluate(async () => {
        const trainer = document.getElementById('trainer');
        const report = document.querySelector('attention-head-report');
        trainer.scrubTo(2);
        await new Promise((resolve) => {
          const check = () => (report.step === 2 ? resolve() : setTimeout(check, 50));
          check();
        });
        return {
          step: trainer.view.step,
          report: report.report,
          status: report.shadowRoot.querySelector('[role="status"]').textContent,
          grid: document.querySelector('attention-trained-grid').shadowRoot.querySelector('caption').textContent,
        };
      });
      assert.equal(shown.step, 2);
      assert.match(shown.status, /^Measured at step 2,/);
      assert.match(shown.grid, /at step 2:/);

      // float64 attention on the parameters of step 2 of a separate run with the same seed.
      const trainer = attention.trainer({});
      trainer.step(2);
      const { parameters, vocabulary, corpus } = trainer.state();
      trainer.dispose();
      let total = 0;
      let counted = 0;
      for (const sentence of corpus.held_out) {
        const words = sentence.split(' ');
        const query = words.length - 2;
        const noun = words.indexOf('that') - 1;
        if (noun < 0 || noun >= query) continue;
        total += headWeightsF64(parameters, vocabulary, words)[query][noun];
        counted += 1;
      }
      assert.equal(shown.report.counted, counted);
      const expected = total / counted;
      assert.ok(Math.abs(shown.report.heads[0].meanWeight - expected) <= 1e-5,
        `mean weight on the noun at step 2: ${shown.report.heads[0].meanWeight} vs ${expected}`);
      // The latest step's report is another number: the report did follow the slider.
      const latest = await page.evaluate(async () => {
        const report = document.querySelector('attention-head-report');
        document.getElementById('trainer').scrubTo(6);
        await new Promise((resolve) => {
          const check = () => (report.step === 6 ? resolve() : setTimeout(check, 50));
          check();
        });
        return report.report.heads[0].meanWeight;
      });
      assert.notEqual(latest, shown.report.heads[0].meanWeight);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
});
