// While a cell is blank its answer can be read nowhere else (docs/practice.md, "Where else an
// answer is printed"): for each kind, with one cell of it blank, the text of the page or the
// element (its text and accessible names, working panels included, after pointing at a cell
// whose working uses the blank's value) holds no printing of the value at the table's decimals
// outside the blank. The value is computed here in float64 (tests/support), never read from
// the page. The inputs the answer is worked from are left out of the search where the value
// is theirs by definition (a visible masked score is the scaled score; a running max is the
// tile's max or the max before). A solved blank shows its value in those places again.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, startExploring } from './explore-harness.mjs';
import { openHostPage, settlePage, startBrowserAndHost, stopBrowserAndHost } from './embed-harness.mjs';
import { blankF64, headStepsF64, printedCandidates, roundInputsF64 } from '../support/practice-f64.mjs';

// Every text a root shows and says: text nodes and aria-labels, into shadow roots, leaving out
// hidden and undrawn nodes, the blanks' own cells, solved cells and the selectors given.
function shownText(root, skip) {
  const texts = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) texts.push(child.nodeValue);
      if (child.nodeType !== 1) continue;
      if (child.matches(`td[data-blank], td.blank-solved, [hidden], script, style${skip ? `, ${skip}` : ''}`)) continue;
      // Not drawn at all (display: none), as a folded preview: nothing to read there.
      if (!child.checkVisibility()) continue;
      const label = child.getAttribute('aria-label');
      if (label) texts.push(label);
      if (child.shadowRoot) walk(child.shadowRoot);
      walk(child);
    }
  };
  walk(root);
  return texts.join('\n');
}

// A printed number as a whole number (not the digits of a longer one); digit groups may be
// separated by any space, as the bill prints them.
function printedPattern(text) {
  const escaped = text.replace(/[.]/gu, '\\.').replace(/\s/gu, '\\s?');
  return new RegExp(`(?<![\\d.\\u2212-])${escaped}(?![\\d])`, 'u');
}

function assertNotPrinted(text, candidates, what) {
  for (const candidate of candidates) {
    const match = text.match(printedPattern(candidate));
    assert.equal(match, null, `${what}: ${candidate} is printed: …${match ? JSON.stringify(text.slice(Math.max(0, match.index - 200), match.index + 20)) : ''}`);
  }
}

// Part one's kinds, all in the last row (the page works out the softmax and mix of that row),
// each with a cell to point at whose working uses the blank's value, and what to leave out.
const td = (table, row, col, extra = '') => `table[data-table="${table}"]${extra} tbody td.num[data-row="${row}"][data-col="${col}"]`;
const PAGE_CASES = [
  { id: 'scores:2.0', point: td('scaled', 2, 0) },
  { id: 'scaled:2.0', point: td('softmax', 0, 0, '[data-row="2"]') },
  { id: 'masked:2.1', point: td('softmax', 1, 1, '[data-row="2"]'), skip: 'table[data-table="scaled"], table[data-table="faq-scaled"]' },
  { id: 'exponentials:2.0', point: td('weights', 2, 0) },
  { id: 'totals:2', point: td('weights', 2, 1) },
  { id: 'weights:2.1', point: td('mix', 1, 0, '[data-row="2"]') },
  // Part one shows out as the mix table's footer (no out table): its working sums a column.
  // Components whose values no other cell of seed 7 prints (two of V's first row are equal).
  { id: 'mix:2.0.1', point: 'table[data-table="mix"][data-row="2"] tfoot td.num[data-col="1"]' },
  { id: 'out:2.3', point: td('mix', 0, 3, '[data-row="2"]') },
];

let explorer;
let host;
before(async () => {
  explorer = await startExploring();
  host = await startBrowserAndHost();
});
after(async () => {
  await explorer?.close();
  await stopBrowserAndHost(host?.browser, host?.server);
});

describe('no answer readable elsewhere while its cell is blank', { timeout: TEST_TIMEOUT * 3 }, () => {
  it('part one: every kind, in the tables, the labels and the working panels', async () => {
    const steps = headStepsF64(roundInputsF64(7, 'easy'));
    const { page, close } = await explorer.open(`#practice=${PAGE_CASES.map((c) => c.id).join(',')}&round=all&round_seed=7`);
    try {
      for (const { id, point, skip } of PAGE_CASES) {
        const { value, decimals } = blankF64(id, steps);
        await page.hover(point);
        const text = await page.evaluate(`(${shownText})(document.querySelector('main'), ${JSON.stringify(skip ?? '')})`);
        assertNotPrinted(text, printedCandidates(value, decimals), id);
      }
      // The placeholder says why, and a solved blank gives its value back to every place.
      assert.ok(await page.locator('table[data-table="mix"][data-row="2"] tbody tr:nth-child(2) th .blank-echo').count() === 1);
      assert.equal(await page.textContent('table[data-table="mix"][data-row="2"] tbody tr:nth-child(2) th .blank-echo .visually-hidden'),
        'hidden while you practise');
      const { value, decimals } = blankF64('weights:2.1', steps);
      const right = printedCandidates(value, decimals)[0];
      await page.fill('input.blank-answer[data-blank="weights:2.1"]', right);
      await page.press('input.blank-answer[data-blank="weights:2.1"]', 'Enter');
      assert.equal(await page.locator('input.blank-answer[data-blank="weights:2.1"]').count(), 0);
      const label = await page.textContent('table[data-table="mix"][data-row="2"] tbody tr:nth-child(2) th');
      assert.ok(printedCandidates(value, decimals).some((candidate) => label.startsWith(`${candidate} \u00d7 V[`)), label);
      // Practice off: nothing is hidden any more.
      await page.uncheck('#practice-toggle');
      assert.equal(await page.locator('.blank-echo').count(), 0);
    } finally {
      await close();
    }
  });

  it('part one: the note under a softmax row computed shifted by its largest score, while that score is blank', async () => {
    // Row 1's scaled scores (about 141 and 127) are past e^88.7, so its exponentials are taken
    // shifted by its largest score, which the note under the softmax table prints.
    const input = { tokens: ['the', 'cat'], q: [[1, 0], [20, 0]], k: [[10, 0], [9, 0]], v: [[1, 2], [3, 4]] };
    const steps = headStepsF64(input);
    const matrices = ['q', 'k', 'v'].map((name) => `&${name}=${encodeURIComponent(JSON.stringify(input[name]))}`).join('');
    const { page, close } = await explorer.open(`#tokens=the%20cat${matrices}&practice=masked:1.0`);
    try {
      const { value, decimals } = blankF64('masked:1.0', steps);
      assert.equal(value, Math.max(...steps.masked[1]), 'the blank is the row\u2019s largest score');
      const note = page.locator('[data-step="softmax"] [data-shift-note]');
      await note.waitFor();
      assert.match(await note.textContent(), /reduced by the row's largest score, \?hidden while you practise\./);
      // The scaled score is the masked one by definition: left out, as in the case above.
      const text = await page.evaluate(`(${shownText})(document.querySelector('main'), 'table[data-table="scaled"], table[data-table="faq-scaled"]')`);
      assertNotPrinted(text, printedCandidates(value, decimals), 'masked:1.0');
      // Solved, the note prints the score again.
      await page.fill('input.blank-answer[data-blank="masked:1.0"]', printedCandidates(value, decimals)[0]);
      await page.press('input.blank-answer[data-blank="masked:1.0"]', 'Enter');
      assert.match(await note.textContent(), new RegExp(`largest score, ${printedCandidates(value, decimals)[0].replace('.', '\\.')}\\.`, 'u'));
    } finally {
      await close();
    }
  });

  it('a hint shows another open blank\u2019s answer as "?" until that blank is solved', async () => {
    const steps = headStepsF64(roundInputsF64(7, 'easy'));
    const { page, close } = await explorer.open('#practice=exponentials:1.0,totals:1,weights:1.0&round=softmax&round_seed=7');
    try {
      const hints = 'td[data-blank="weights:1.0"] .blank-hints';
      for (let n = 0; n < 3; n += 1) {
        await page.click('td[data-blank="weights:1.0"] .blank-hint');
        const said = await page.textContent('.practice-announcer');
        for (const id of ['exponentials:1.0', 'totals:1']) {
          const { value, decimals } = blankF64(id, steps);
          assertNotPrinted(said, printedCandidates(value, decimals), `hint ${n + 1} announced, ${id}`);
        }
      }
      const shown = await page.textContent(hints);
      for (const id of ['exponentials:1.0', 'totals:1']) {
        const { value, decimals } = blankF64(id, steps);
        assertNotPrinted(shown, printedCandidates(value, decimals), `the hints of weights:1.0, ${id}`);
      }
      // Step 1 (e^x), step 2 (the total) and step 3 (both) each hide what is open.
      assert.equal(await page.locator(`${hints} .blank-echo`).count(), 4);
      assert.equal(await page.textContent(`${hints} li:first-child .blank-echo .visually-hidden`), 'hidden while you practise');
      // The last step still ends with the hinted blank's own answer.
      const own = blankF64('weights:1.0', steps);
      assert.ok(printedCandidates(own.value, own.decimals).some((text) => shown.includes(text)), shown);
      // Solving e^x puts it back in the other blank's hints; the total stays hidden.
      const e = blankF64('exponentials:1.0', steps);
      await page.fill('input.blank-answer[data-blank="exponentials:1.0"]', printedCandidates(e.value, e.decimals)[0]);
      await page.press('input.blank-answer[data-blank="exponentials:1.0"]', 'Enter');
      assert.equal(await page.locator('input.blank-answer[data-blank="exponentials:1.0"]').count(), 0);
      const after = await page.textContent(hints);
      assert.ok(printedCandidates(e.value, e.decimals).some((text) => after.includes(text)), after);
      assert.equal(await page.locator(`${hints} .blank-echo`).count(), 2);
    } finally {
      await close();
    }
  });

  it('the flash tile and the bill: the figure carried to the next tile, the presets and the workings', async () => {
    const { page, close } = await openHostPage(host.browser, host.server.fixture('practice.html'));
    try {
      await settlePage(page);
      const tiles = await page.evaluate(() => document.getElementById('flash').result);
      // A query's first computed tile that a later tile carries on from, worked here in float64.
      const divisor = Math.sqrt(tiles.head_dim);
      const computed = tiles.steps.map((step, index) => ({ step, index })).filter(({ step }) => !step.skipped);
      const { step: first, index: tile } = computed.find(({ step, index }) => computed
        .some((later) => later.index > index && later.step.row_begin === step.row_begin));
      const next = computed.find((later) => later.index > tile && later.step.row_begin === first.row_begin).index;
      const query = first.row_end - 1;
      const scores = [];
      for (let j = first.col_begin; j < first.col_end; j += 1) {
        scores.push(j > query ? -Infinity : tiles.q[query].reduce((s, x, c) => s + x * tiles.k[j][c], 0) / divisor);
      }
      const max = Math.max(...scores);
      const sum = scores.reduce((s, x) => s + Math.exp(x - max), 0);
      await page.evaluate(([t, q]) => document.getElementById('flash').setAttribute('practice', `flash-max:${t}.${q},flash-sum:${t}.${q}`), [tile, query]);
      await page.waitForFunction(() => document.getElementById('flash').shadowRoot.querySelectorAll('input.blank-answer').length === 2);
      const r = query - tiles.steps[next].row_begin;
      // The inputs the figures are worked from: this tile's tables and the ones before it.
      const inputs = Array.from({ length: tile + 1 }, (_, t) => `table[data-table^="tile-${t}-"]`).join(', ');
      for (const [what, value, column] of [['flash-max', max, 3], ['flash-sum', sum, 5]]) {
        await page.locator(`#flash ${td(`tile-${next}-running`, r, column)}`).hover();
        const text = await page.evaluate(`(${shownText})(document.getElementById('flash').shadowRoot, ${JSON.stringify(inputs)})`);
        assertNotPrinted(text, printedCandidates(value, 4), what);
      }

      // The bill: bytes per token from the model's shape, worked here; its working is the
      // bytes per sequence's.
      const model = await page.evaluate(() => document.getElementById('bill').result.model);
      const perToken = 2 * model.n_kv_heads * model.head_dim * model.dtype_bytes * model.layers;
      const cache = perToken * model.context_length * model.batch;
      const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/gu, ' ');
      await page.locator('#bill tr[data-key="bytes_per_sequence"] td[data-column="model"]').hover();
      const text = await page.evaluate(`(${shownText})(document.getElementById('bill').shadowRoot, '')`);
      assertNotPrinted(text, [grouped(perToken)], 'bill:bytes_per_token');
      assertNotPrinted(text, [grouped(cache)], 'bill:cache_bytes');
    } finally {
      await close();
    }
  });
});
