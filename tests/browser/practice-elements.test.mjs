// The `practice` attribute in Chromium, on a host page under the strict CSP: the cells it names
// are blanks inside the elements' shadow roots; answers are judged against a float64 reference
// computed here (right, rounded differently, off, refused); the mask's −∞ is the only right
// masked score; hints and the tally work; verdicts are announced; a bad attribute is said naming
// its item while the numbers are still shown; axe-core finds nothing in light and dark, and a
// 360 px screen does not scroll sideways.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, WCAG_TAGS, parsePrinted } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, openHostPage, settlePage, startBrowserAndHost, stopBrowserAndHost,
} from './embed-harness.mjs';
import { referenceAttention } from './explore-harness.mjs';

let browser;
let server;
before(async () => { ({ browser, server } = await startBrowserAndHost()); });
after(async () => { await stopBrowserAndHost(browser, server); });

// The fixture's own example (tests/browser/fixtures/practice.html).
const PENCIL = {
  tokens: ['I', 'am', 'here'],
  q: [[1, 0, 0.5], [0, 1, 0.5], [1, 1, 0]],
  k: [[0.5, 0, 1], [0, 1, -1], [1, -0.5, 0]],
  v: [[1, 2, 3], [-1, 0, 1], [0.5, 0.5, -0.5]],
};

// FlashAttention's running figures in float64 from the tiles' layout and the answer's q and k
// (its inputs): per tile in the order visited, per query, the max so far, the factor the sum
// carried in is rescaled by, and the sum of e^(score − max) so far.
function flashReference(f) {
  const divisor = Math.sqrt(f.head_dim);
  const max = Array(f.token_count).fill(-Infinity);
  const sum = Array(f.token_count).fill(0);
  return f.steps.map((step) => {
    if (step.skipped) return null;
    const figures = {};
    for (let i = step.row_begin; i < step.row_end; i += 1) {
      const scores = [];
      for (let j = step.col_begin; j < step.col_end; j += 1) {
        scores.push(f.mask === 'causal' && j > i ? -Infinity : f.q[i].reduce((s, x, c) => s + x * f.k[j][c], 0) / divisor);
      }
      const after = Math.max(max[i], ...scores);
      const rescale = max[i] === -Infinity ? 0 : Math.exp(max[i] - after);
      sum[i] = sum[i] * rescale + scores.reduce((s, x) => s + Math.exp(x - after), 0);
      max[i] = after;
      figures[i] = { max: after, rescale, sum: sum[i] };
    }
    return figures;
  });
}

const rounded = (value, decimals) => (Math.round(value * 10 ** decimals) / 10 ** decimals).toFixed(decimals);

describe('the practice attribute', { timeout: TEST_TIMEOUT * 2 }, () => {
  it('lays blanks in the elements, judges answers against the reference, and says a bad list', async () => {
    const { page, record, cspViolations, close } = await openHostPage(browser, server.fixture('practice.html'),
      { viewport: { width: 360, height: 740 } });
    try {
      await settlePage(page);
      // Pencil mode's code is a chunk of its own, fetched because this page's elements ask for it
      // (a page without `practice` never fetches it: embed-strict-csp).
      assert.ok(record.requests.some((url) => /\/attention-explainer-loaded-on-first-use-[A-Z0-9]+\.js$/u.test(url)),
        'the explainer bundle loaded pencil mode on first use');
      const inside = (id) => (selector) => page.locator(`#${id} ${selector}`);
      const pencil = inside('pencil');
      const ids = await pencil('input.blank-answer').evaluateAll((inputs) => inputs.map((input) => input.dataset.blank));
      const weights = Array.from({ length: 9 }, (_, n) => `weights:${Math.floor(n / 3)}.${n % 3}`);
      assert.deepEqual(ids, ['scores:1.0', 'scores:2.1', ...weights]);
      const ref = referenceAttention(PENCIL);
      const answer = async (id, text) => {
        await pencil(`input.blank-answer[data-blank="${id}"]`).fill(text);
        await pencil(`input.blank-answer[data-blank="${id}"]`).press('Enter');
      };
      const verdict = (id) => pencil(`td[data-blank="${id}"] .blank-verdict`).textContent();
      const announced = () => pencil('.practice-announcer').textContent();
      const active = () => page.evaluate(() => document.getElementById('pencil').shadowRoot.activeElement?.dataset.blank ?? null);

      // Right: the score to the three decimals the table prints; the value is shown again.
      await answer('scores:1.0', rounded(ref.scores[1][0], 3));
      const solved = pencil('table[data-table="scores"] td[data-row="1"][data-col="0"]');
      assert.match(await solved.getAttribute('class'), /blank-solved/);
      assert.ok(Math.abs(parsePrinted(await solved.locator('.value').textContent()) - ref.scores[1][0]) <= 0.5e-3 + 1e-6);
      assert.match(await announced(), /^score of \u201cam\u201d against \u201cI\u201d, row 2, column 1: Right: /);
      assert.equal(await active(), 'scores:2.1', 'the focus moves on to the next blank');

      // Rounded differently: a weight to two decimals where the table prints four.
      const w = ref.weights[2][1];
      assert.ok(Math.abs(Number(rounded(w, 2)) - w) > 1e-4, 'the example\u2019s weight has more than two decimals');
      await answer('weights:2.1', rounded(w, 2));
      assert.match(await verdict('weights:2.1'), /^\u2248 Right, but rounded differently: you gave 2 decimals and the table prints 4/);
      // Off: a tenth too low.
      await answer('weights:1.1', (Number(rounded(ref.weights[1][1], 4)) - 0.1).toFixed(4));
      const off = /^\u2717 Off: too low by (\d\.\d{4})\.$/u.exec(await verdict('weights:1.1'));
      assert.ok(off && Math.abs(Number(off[1]) - 0.1) <= 1e-4 + 1e-6, await verdict('weights:1.1'));
      // Refused: not a number, and not counted.
      await answer('weights:2.0', '1+2');
      assert.match(await verdict('weights:2.0'), /^\? .*work it out and type the value/u);
      assert.match(await announced(), /work it out/);
      // Three hint steps for a weight: e^x, the row's total, the division with the core's weight.
      const hint = pencil('td[data-blank="weights:2.0"] .blank-hint');
      for (let n = 0; n < 3; n += 1) await hint.click();
      const steps = await pencil('td[data-blank="weights:2.0"] .blank-hints li').allTextContents();
      assert.equal(steps.length, 3);
      assert.ok(Math.abs(parsePrinted(/= (\S+)$/u.exec(steps[2])[1]) - ref.weights[2][0]) <= 0.5e-4 + 1e-6, steps[2]);
      assert.equal(await hint.isDisabled(), true);
      assert.equal(await pencil('.practice-tally').textContent(),
        'Right at the first try: 1 of 11 \u00b7 hints used: 3 \u00b7 solved: 1 of 11 \u00b7 rounded differently at the first try: 1');

      // <attention-step>: the article's masked score of "the" against "cat" is −∞, and 0 is off
      // with the reason.
      const step = inside('step-masked');
      await step('input.blank-answer[data-blank="masked:0.1"]').fill('0');
      await step('input.blank-answer[data-blank="masked:0.1"]').press('Enter');
      assert.match(await step('td[data-blank="masked:0.1"] .blank-verdict').textContent(), /^\u2717 Off: the mask writes \u2212\u221e, not 0/);
      await step('input.blank-answer[data-blank="masked:0.1"]').fill('-inf');
      await step('input.blank-answer[data-blank="masked:0.1"]').press('Enter');
      assert.equal(await step('input.blank-answer').count(), 0);
      assert.equal(await step('td.blank-solved .value').textContent(), '\u2212\u221e');

      // Bad lists: the item named, the numbers shown without blanks.
      for (const [id, pattern] of [
        ['past', /^<attention-explainer> practice: weights:9\.0 names no cell of this example\. The numbers are shown without blanks\.$/],
        ['unknown', /^<attention-explainer> practice: "wieghts" is not a kind of cell; known: scores, .*The numbers are shown without blanks\.$/],
      ]) {
        assert.match(await inside(id)('.practice-message').textContent(), pattern, id);
        assert.equal(await inside(id)('input.blank-answer').count(), 0, id);
        const printed = await inside(id)('table[data-table="weights"] tbody td.num:not(.extra) .value').allTextContents();
        assert.equal(printed.length, 4, `${id}: the article's weights are shown`);
        assert.ok(printed.every((text) => text !== ''), id);
      }

      // <attention-flash-tiles practice>: the last computed tile's last query, by hand.
      const flash = inside('flash');
      const tiles = await page.evaluate(() => document.getElementById('flash').result);
      const tile = tiles.steps.findLastIndex((entry) => !entry.skipped);
      const query = tiles.steps[tile].row_end - 1;
      const expected = flashReference(tiles)[tile][query];
      const flashIds = await flash('input.blank-answer').evaluateAll((inputs) => inputs.map((input) => input.dataset.blank));
      assert.deepEqual(flashIds, ['flash-max', 'flash-rescale', 'flash-sum'].map((kind) => `${kind}:${tile}.${query}`));
      const flashAnswer = async (kind, text) => {
        await flash(`input.blank-answer[data-blank="${kind}:${tile}.${query}"]`).fill(text);
        await flash(`input.blank-answer[data-blank="${kind}:${tile}.${query}"]`).press('Enter');
        return flash(`td[data-blank="${kind}:${tile}.${query}"] .blank-verdict`).textContent().catch(() => null);
      };
      assert.match(await flashAnswer('flash-sum', (Number(rounded(expected.sum, 4)) + 0.5).toFixed(4)), /^✗ Off: too high by 0\.(4999|5000|5001)\.$/u);
      assert.match(await flashAnswer('flash-rescale', 'e^-1'), /^\? /u);
      await flash(`td[data-blank="flash-rescale:${tile}.${query}"] .blank-hint`).click();
      assert.equal(await flash(`td[data-blank="flash-rescale:${tile}.${query}"] .blank-hints li`).count(), 1);
      // Focusing a blank shows no working (it would give the answer).
      await flash(`input.blank-answer[data-blank="flash-max:${tile}.${query}"]`).focus();
      assert.doesNotMatch(await flash('.cell-working').first().textContent(), new RegExp(rounded(expected.max, 4).replace('.', '\\.')));
      await flashAnswer('flash-max', rounded(expected.max, 4));
      assert.equal(await flash(`input.blank-answer[data-blank="flash-max:${tile}.${query}"]`).count(), 0);
      assert.ok(Math.abs(parsePrinted(await flash('td.blank-solved .value').textContent()) - expected.max) <= 0.5e-4 + 1e-6);
      assert.equal(await flash('.practice-tally').textContent(), 'Right at the first try: 1 of 3 \u00b7 hints used: 1 \u00b7 solved: 1 of 3');

      // <attention-kv-bill practice>: exact whole bytes from the model's shape, worked here.
      const bill = inside('bill');
      const model = await page.evaluate(() => document.getElementById('bill').result.model);
      assert.equal(model.kv_bits, null);
      const perToken = 2 * model.n_kv_heads * model.head_dim * model.dtype_bytes * model.layers;
      const cache = perToken * model.context_length * model.batch;
      assert.deepEqual([model.context_length, model.batch], [2048, 4]);
      const billAnswer = async (line, text) => {
        await bill(`input.blank-answer[data-blank="bill:${line}"]`).fill(text);
        await bill(`input.blank-answer[data-blank="bill:${line}"]`).press('Enter');
        return bill(`td[data-blank="bill:${line}"] .blank-verdict`).textContent().catch(() => null);
      };
      assert.match(await billAnswer('cache_bytes', String(cache + 1)), /^\u2717 Off: too high by 1\.$/u, 'no slack for an exact count');
      assert.match(await billAnswer('cache_bytes', '64 MiB'), /^\? /u);
      await billAnswer('bytes_per_token', perToken.toLocaleString('en-US').replaceAll(',', ' '));
      assert.equal(await bill('input.blank-answer[data-blank="bill:bytes_per_token"]').count(), 0, 'grouped digits are right');
      assert.equal(parsePrinted((await bill('tr[data-key="bytes_per_token"] td[data-column="model"] .value').textContent()).replaceAll(/[\s,]/gu, '')), perToken);

      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(widths.scroll <= widths.client, `scrollWidth ${widths.scroll} > ${widths.client}`);
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        const axe = new AxeBuilder({ page });
        const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe.withTags(WCAG_TAGS)).analyze();
        assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`), [], colorScheme);
      }
      assert.deepEqual(await cspViolations(), []);
      assert.deepEqual(record.pageErrors, []);
      assert.deepEqual(record.errors, []);
    } finally {
      await close();
    }
  });
});
