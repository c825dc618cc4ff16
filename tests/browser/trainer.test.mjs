// attention.trainer() in Chromium: the same seed and steps give bit-identical parameters (the
// same digest, the same loss) in the page as in Node, for the default model and for two heads.
//
// Run after the wasm build: node --test tests/browser/trainer.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SITE_ROOT, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { importExplainer } from '../support/site-module.mjs';
import { parameterDigest } from '../support/trainer-f64.mjs';

const RUNS = [
  { options: { seed: 1 }, steps: 100 },
  { options: { seed: 4, n_heads: 2, learning_rate: 0.03 }, steps: 60 },
];

let browser;
let server;
let page;

before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT });
  page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}authors.html`, { waitUntil: 'load' });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// The run's step result, loss and digest, with the digest recomputed from the JSON parameters.
function summary(trainer, steps) {
  const result = trainer.step(steps);
  const state = trainer.state();
  trainer.dispose();
  return { result, loss: state.loss, digest: state.parameter_digest, parameters: state.parameters };
}

describe('trainer() in Chromium', { timeout: 120_000 }, () => {
  for (const { options, steps } of RUNS) {
    it(`gives Node's parameters bit for bit: ${JSON.stringify(options)}, ${steps} steps`, async () => {
      const inPage = await page.evaluate(async ({ options, steps }) => {
        const { createAttention } = await import('./web/attention-explainer.js');
        const trainer = (await createAttention()).trainer(options);
        const result = trainer.step(steps);
        const state = trainer.state();
        trainer.dispose();
        return { result, loss: state.loss, digest: state.parameter_digest, parameters: state.parameters };
      }, { options, steps });

      const { createAttention } = await importExplainer();
      const inNode = summary((await createAttention()).trainer(options), steps);
      assert.equal(inPage.result.diverged, false);
      assert.deepEqual(inPage.result, inNode.result);
      assert.equal(inPage.digest, inNode.digest);
      // The digest covers every bit: recomputed here from the page's own numbers.
      assert.equal(parameterDigest(inPage.parameters), inNode.digest);
      assert.equal(inPage.loss, inNode.loss);
    });
  }
});
