// Pencil mode on the sequel page, in Chromium under the strict policy: the "Practise" switches
// above the FlashAttention tile and the bill set the elements' `practice` attribute to the
// documented defaults; an answer right and one off on each are judged against figures worked
// here in float64 (the tile's running max and sum from its q and k; the bill's bytes from the
// model's shape), announced, and tallied; the exercise goes into the link after the page's own
// keys and a fresh page opened with it shows the same blanks; a malformed exercise is said
// where the page says other refused links; axe-core finds nothing in the two sections in light
// and dark; a 360 px screen does not scroll sideways.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, WCAG_TAGS } from './browser-harness.mjs';
import { openSequel, settle, TEST_TIMEOUT, useSequelPage } from './sequel-harness.mjs';

const sequel = useSequelPage({ open: false });
const NARROW = { width: 360, height: 740 };

// The running max and sum of one query after one tile, from the tiles' layout and q and k.
function runningFigures(f, tile, query) {
  const divisor = Math.sqrt(f.head_dim);
  let max = -Infinity;
  let sum = 0;
  for (const step of f.steps.slice(0, tile + 1)) {
    if (step.skipped || query < step.row_begin || query >= step.row_end) continue;
    const scores = [];
    for (let j = step.col_begin; j < step.col_end; j += 1) {
      scores.push(f.mask === 'causal' && j > query ? -Infinity : f.q[query].reduce((s, x, c) => s + x * f.k[j][c], 0) / divisor);
    }
    const after = Math.max(max, ...scores);
    sum = (max === -Infinity ? 0 : sum * Math.exp(max - after)) + scores.reduce((s, x) => s + Math.exp(x - after), 0);
    max = after;
  }
  return { max, sum };
}

const rounded = (value, decimals) => (Math.round(value * 10 ** decimals) / 10 ** decimals).toFixed(decimals);
const inside = (page, host) => (selector) => page.locator(`#${host} ${selector}`);
const blankIds = (page, host) => inside(page, host)('input.blank-answer').evaluateAll((inputs) => inputs.map((input) => input.dataset.blank));

async function answer(page, host, id, text) {
  const at = inside(page, host);
  await at(`input.blank-answer[data-blank="${id}"]`).fill(text);
  await at(`input.blank-answer[data-blank="${id}"]`).press('Enter');
  return at(`td[data-blank="${id}"] .blank-verdict`).textContent().catch(() => null);
}

describe('pencil mode on the sequel page', () => {
  it('switches the tile and the bill to practice, judges, announces, tallies and keeps it in the link', { timeout: TEST_TIMEOUT * 2 }, async () => {
    const opened = await openSequel(sequel.browser, sequel.server, { viewport: NARROW });
    const { page } = opened;
    let link;
    let flashIds;
    try {
      assert.equal(await page.getByLabel(/Practise: work out the last tile/u).count(), 1, 'a labelled switch');
      await page.check('#flash-practice');
      await settle(page);
      assert.equal(await page.getAttribute('#flash-tiles', 'practice'), '', 'the documented default');
      const tiles = await page.evaluate(() => document.getElementById('flash-tiles').result);
      const tile = tiles.steps.findLastIndex((step) => !step.skipped);
      const query = tiles.steps[tile].row_end - 1;
      flashIds = ['flash-max', 'flash-rescale', 'flash-sum'].map((kind) => `${kind}:${tile}.${query}`);
      assert.deepEqual(await blankIds(page, 'flash-tiles'), flashIds);
      const expected = runningFigures(tiles, tile, query);
      const flash = inside(page, 'flash-tiles');
      assert.match(await answer(page, 'flash-tiles', flashIds[2], (Number(rounded(expected.sum, 4)) + 0.5).toFixed(4)),
        /^\u2717 Off: too high by 0\.(4999|5000|5001)\.$/u);
      assert.match(await flash('.practice-announcer').textContent(), /^running sum of .* Off: too high by 0\.5/u);
      await answer(page, 'flash-tiles', flashIds[0], rounded(expected.max, 4));
      assert.equal(await flash(`input.blank-answer[data-blank="${flashIds[0]}"]`).count(), 0, 'a right answer closes the blank');
      assert.match(await flash('.practice-announcer').textContent(), /^running max of .*: Right: /u);
      assert.equal(await flash('.practice-tally').textContent(), 'Right at the first try: 1 of 3 \u00b7 hints used: 0 \u00b7 solved: 1 of 3');

      await page.check('#bill-practice');
      await settle(page);
      const bill = inside(page, 'kv-bill');
      assert.deepEqual(await blankIds(page, 'kv-bill'),
        ['bytes_per_token_per_layer', 'bytes_per_token', 'bytes_per_sequence', 'cache_bytes'].map((line) => `bill:${line}`));
      const model = await page.evaluate(() => document.getElementById('kv-bill').result.model);
      assert.equal(model.kv_bits, null, 'an unquantised cache: the formula below holds');
      const perToken = 2 * model.n_kv_heads * model.head_dim * model.dtype_bytes * model.layers;
      const cache = perToken * model.context_length * model.batch;
      assert.match(await answer(page, 'kv-bill', 'bill:cache_bytes', String(cache - 1)), /^\u2717 Off: too low by 1\.$/u);
      assert.match(await bill('.practice-announcer').textContent(), /^bill line cache bytes: Off: too low by 1/u);
      await answer(page, 'kv-bill', 'bill:bytes_per_token', String(perToken));
      assert.equal(await bill('input.blank-answer[data-blank="bill:bytes_per_token"]').count(), 0);
      assert.match(await bill('.practice-announcer').textContent(), /^bill line bytes per token: Right: /u);
      assert.equal(await bill('.practice-tally').textContent(), 'Right at the first try: 1 of 4 \u00b7 hints used: 0 \u00b7 solved: 1 of 4');

      link = await page.evaluate(() => location.hash);
      assert.equal(link, `#practice=${[...flashIds, 'bill:bytes_per_token_per_layer', 'bill:bytes_per_token',
        'bill:bytes_per_sequence', 'bill:cache_bytes'].join(',')}`);

      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(widths.scroll <= widths.client, `scrollWidth ${widths.scroll} > ${widths.client}`);
      // The two sections only: the whole page is checked by sequel-page.test.mjs.
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        const axe = new AxeBuilder({ page }).include('#flash-tiles').include('#kv-bill').include('.practice-switch');
        const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe.withTags(WCAG_TAGS)).analyze();
        assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`), [], colorScheme);
      }
      assert.deepEqual(await opened.cspViolations(), []);
      assert.deepEqual(opened.record.pageErrors, []);
      assert.deepEqual(opened.record.errors, []);

      await page.uncheck('#bill-practice');
      await settle(page);
      assert.equal(await page.getAttribute('#kv-bill', 'practice'), null);
      assert.equal(await page.evaluate(() => location.hash), `#practice=${flashIds.join(',')}`);
    } finally {
      await opened.close();
    }

    // The link round trip, after a key of the page's own.
    const again = await openSequel(sequel.browser, sequel.server, { hash: `#flash.block-rows=2&${link.slice(1)}` });
    try {
      assert.equal(await again.page.isChecked('#flash-practice'), true);
      assert.equal(await again.page.isChecked('#bill-practice'), true);
      await settle(again.page);
      const tiles = await again.page.evaluate(() => document.getElementById('flash-tiles').result);
      assert.equal(tiles.block_rows, 2, 'the page\u2019s own key still applies');
      assert.equal((await blankIds(again.page, 'kv-bill')).length, 4);
      assert.equal(await again.page.evaluate(() => location.hash), `#flash.block-rows=2&${link.slice(1)}`);
    } finally {
      await again.close();
    }
  });

  it('refuses a malformed exercise with its message and leaves the page working', { timeout: TEST_TIMEOUT }, async () => {
    for (const [hash, pattern] of [
      ['#practice=weights:1.0&seed=4', /^Part of this link could not be used \(practice: weights is a cell of part one; /u],
      ['#round=softmax&round_seed=07', /^Part of this link could not be used \(round_seed: "07" is not a whole number from 0 to 4294967295\)/u],
    ]) {
      const opened = await openSequel(sequel.browser, sequel.server, { hash });
      try {
        assert.match(await opened.page.textContent('#link-problem'), pattern, hash);
        assert.equal(await opened.page.isChecked('#flash-practice'), false);
        assert.equal(await opened.page.getAttribute('#flash-tiles', 'practice'), null);
        assert.equal(await opened.page.evaluate(() => document.getElementById('flash-tiles').problem), null);
        assert.deepEqual(opened.record.pageErrors, []);
      } finally {
        await opened.close();
      }
    }
  });
});
