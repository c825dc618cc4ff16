// <attention-head-dim-study> on an author's page (fixtures/head-dim-study.html): the table is the
// core's headDimStudy() for the element's attributes, its divisors and the expected spread
// ratio against float64 (√d_k, d_k, √(to/from)), every entropy within ln(tokens); the reader's
// choice of d_k sets `scale` and fires attention-change with the new study; a list that is not
// whole numbers and a sample count over the core's limit are each named in the element's box.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TEST_TIMEOUT, readMessage, readShadowTable, withFixturePage,
} from './embed-harness.mjs';
import { estimateText } from '../support/estimate-text.mjs';

const REQUEST = { head_dims: [4, 16, 64], samples: 32, seed: 3 };  // the #small element's attributes

let page;
withFixturePage('head-dim-study.html', (shown) => {
  page = shown.page;
});

// What the core answers for the request, asked directly, for the printed table to be read against.
const coreStudy = (scale) => page.evaluate(async ([request, s]) => {
  const { createAttention } = await import('../site/web/attention-explainer.js');
  return (await createAttention()).headDimStudy({ ...request, scale: s });
}, [REQUEST, scale]);

async function assertStudyShown(scale) {
  const table = await readShadowTable(page, 'small', 'head-dim-study');
  const study = await coreStudy(scale);
  assert.deepEqual(table.rows.map((row) => row.label), ['4', '16', '64']);
  const divisor = (d) => (scale === 'd' ? d : Math.sqrt(d));
  table.rows.forEach((row, r) => {
    const d = REQUEST.head_dims[r];
    assert.ok(Math.abs(Number(row.cells[0]) - divisor(d)) <= 5e-4, `÷ at head_dim ${d}: ${row.cells[0]} against ${divisor(d)}`);
    const point = study.points[r];
    // Each figure with its standard error over the 32 samples, to the digits it supports.
    const estimate = (figures, name) => estimateText(figures[name], figures[`${name}_standard_error`]);
    assert.deepEqual(row.cells.slice(1), [
      estimate(point, 'raw_score_spread'), estimate(point, 'scaled_score_spread'),
      estimate(point.unscaled, 'mean_largest_weight'), estimate(point.scaled, 'mean_largest_weight'),
      estimate(point.unscaled, 'mean_entropy'), estimate(point.scaled, 'mean_entropy'),
      estimate(point.unscaled, 'gradient_norm'), estimate(point.scaled, 'gradient_norm'),
    ], `head_dim ${d}`);
    for (const entropy of [point.unscaled.mean_entropy, point.scaled.mean_entropy]) {
      assert.ok(entropy >= 0 && entropy <= Math.log(8) + 1e-6, `an entropy of ${entropy} nats over 8 tokens`);
    }
  });
  assert.ok(table.caption.includes(scale === 'd' ? '\u00f7 d\u2096;' : '\u00f7 \u221ad\u2096;'), table.caption);
  assert.ok(table.caption.endsWith('\u00b1 one standard error over the samples'), table.caption);
  const shown = await page.evaluate(() => document.getElementById('small').study);
  assert.equal(shown.scale, scale);
  assert.ok(Math.abs(shown.comparison.expected_raw_spread_ratio - Math.sqrt(64 / 4)) <= 1e-9,
    `expected ratio ${shown.comparison.expected_raw_spread_ratio} against √(64 / 4)`);
}

describe('<attention-head-dim-study>', { timeout: TEST_TIMEOUT }, () => {
  it('prints the core\u2019s study for its attributes, with √d_k as the divisor by default', async () => {
    await assertStudyShown('sqrt_d');
  });

  it('lets the reader divide by d_k instead: scale is set and attention-change carries the new study', async () => {
    const changed = page.evaluate(() => new Promise((resolve) => {
      const study = document.getElementById('small');
      study.addEventListener('attention-change', ({ detail }) => resolve({
        scale: detail.study.scale, result: detail.result === study.study && detail.study === study.study, problem: detail.problem,
      }), { once: true });
    }));
    await page.locator('#small fieldset[data-choice="study-scale"] input[value="d"]').check();
    assert.deepEqual(await changed, { scale: 'd', result: true, problem: null }, 'the event’s result is the study shown');
    assert.equal(await page.evaluate(() => document.getElementById('small').scale), 'd');
    await assertStudyShown('d');
  });

  it('names a head-dims entry that is not a whole number, and a sample count over the core\u2019s limit', async () => {
    assert.match(await readMessage(page, 'bad-list'), /head-dims attribute: "x" is not a whole number/);
    assert.match(await readMessage(page, 'too-many'), /samples attribute: .*1024/);
    assert.equal(await page.evaluate(() => document.getElementById('too-many').study), null);
  });
});
