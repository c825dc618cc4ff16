// Pencil mode on part one, in Chromium: a teacher's link opens with its blanks on its round's
// seeded numbers (checked against the generator written again in tests/support and a float64
// reference, never against the page's own output); typed answers are judged right, rounded
// differently, off or refused; hints come a step at a time; the tally counts; the exercise is
// written back into the link; a malformed link is refused with its message and the page stays
// usable; and a round can be worked by keyboard alone, at 360 px, with axe-core finding nothing
// in light and dark while the blanks are shown.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { TEST_TIMEOUT, cellInput, readExample, referenceAttention, startExploring } from './explore-harness.mjs';
import { COLOUR_RULES, WCAG_TAGS, parsePrinted } from './browser-harness.mjs';
import { gridValues } from '../support/seeded-random.mjs';

let explorer;
before(async () => { explorer = await startExploring(); });
after(async () => { await explorer?.close(); });

const answerOf = (page, id) => page.locator(`input.blank-answer[data-blank="${id}"]`);
const verdictOf = (page, id) => page.locator(`td[data-blank="${id}"] .blank-verdict`).textContent();
const blankIds = (page) => page.$$eval('input.blank-answer', (inputs) => inputs.map((input) => input.dataset.blank));
const activeBlank = (page) => page.evaluate(() => document.activeElement?.dataset?.blank ?? null);
const announced = (page) => page.textContent('.practice-announcer');
const tallyText = (page) => page.textContent('.practice-tally');

async function answer(page, id, text) {
  await answerOf(page, id).fill(text);
  await answerOf(page, id).press('Enter');
}

// A round's numbers from the generator's definition: one row per token, q | k | v side by side.
function roundNumbers(seed, { tokens = 3, headDim = 4, min = -1, max = 1, decimals = 1 } = {}) {
  const drawn = gridValues(seed, tokens, 3 * headDim, { min, max, decimals });
  const block = (n) => drawn.map((row) => row.slice(n * headDim, (n + 1) * headDim));
  return { q: block(0), k: block(1), v: block(2) };
}

// The value to `decimals` decimals, as a reader rounds it by hand.
const rounded = (value, decimals) => (Math.round(value * 10 ** decimals) / 10 ** decimals).toFixed(decimals);

// Only the practice controls and the step with the blanks: the whole page is checked by
// explore-access.test.mjs, and axe's time grows with the page.
async function axeViolations(page, colorScheme) {
  await page.emulateMedia({ colorScheme });
  const axe = new AxeBuilder({ page }).include('#practice-controls').include('section[data-walk="score"]');
  const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe.withTags(WCAG_TAGS)).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
}

describe('pencil mode on part one', { timeout: TEST_TIMEOUT * 2 }, () => {
  it('opens a teacher\u2019s link with its blanks on its round\u2019s numbers, judges answers, hints and tallies', async () => {
    const link = '#practice=scores:2.1,weights:1.0,weights:2.2,totals:2&round=softmax&round_seed=7';
    const { page, collectViolations, close } = await explorer.open(link);
    try {
      const shown = await readExample(page);
      const drawn = roundNumbers(7);
      assert.deepEqual({ q: shown.q, k: shown.k, v: shown.v }, drawn, 'the round draws the seeded numbers');
      assert.equal(shown.tokens.length, 3);
      const ref = referenceAttention({ tokens: shown.tokens, ...drawn });
      assert.deepEqual((await blankIds(page)).sort(), ['scores:2.1', 'totals:2', 'weights:1.0', 'weights:2.2']);
      assert.equal(await page.isChecked('#practice-toggle'), true);
      assert.equal(await page.inputValue('.practice-round'), 'softmax');
      assert.match(await tallyText(page), /^Right at the first try: 0 of 4 \u00b7 hints used: 0/);
      // The blank hides its value and its name says which cell it is, not what it holds.
      const label = await answerOf(page, 'weights:1.0').getAttribute('aria-label');
      assert.equal(label, `Your answer: weight of \u201c${shown.tokens[1]}\u201d on \u201c${shown.tokens[0]}\u201d, row 2, column 1`);
      assert.equal(await page.locator('td[data-blank="weights:1.0"]').getAttribute('aria-label'), null);
      assert.equal(await page.locator('td[data-blank="weights:1.0"] .value').isVisible(), false);

      // Right: the float64 value to the four decimals the table prints.
      await answer(page, 'weights:1.0', rounded(ref.weights[1][0], 4));
      assert.equal(await answerOf(page, 'weights:1.0').count(), 0, 'a right answer closes the blank');
      const solved = page.locator('table[data-table="weights"] td[data-row="1"][data-col="0"]');
      assert.match(await solved.getAttribute('class'), /blank-solved/);
      assert.ok(Math.abs(parsePrinted(await solved.locator('.value').textContent()) - ref.weights[1][0]) <= 0.5e-4 + 1e-6);
      assert.match(await announced(page), /: Right: /);
      assert.equal(await activeBlank(page), 'weights:2.2', 'the focus moves to the next blank of the list');

      // Rounded differently: fewer decimals than the table prints, rounded to the nearest.
      const value = ref.weights[2][2];
      const fewer = Math.abs(Number(rounded(value, 2)) - value) > 1e-4 ? rounded(value, 2) : rounded(value, 1);
      await answer(page, 'weights:2.2', fewer);
      assert.match(await verdictOf(page, 'weights:2.2'), /^\u2248 Right, but rounded differently: you gave \d decimals? and the table prints 4/);
      // Off, too high by a quarter.
      await answer(page, 'weights:2.2', (Number(rounded(value, 4)) + 0.25).toFixed(4));
      const off = await verdictOf(page, 'weights:2.2');
      const by = /^\u2717 Off: too high by (\d\.\d{4})\.$/u.exec(off);
      assert.ok(by, off);
      assert.ok(Math.abs(Number(by[1]) - 0.25) <= 1e-4 + 1e-6, off);
      assert.equal(await answerOf(page, 'weights:2.2').getAttribute('aria-invalid'), 'true');
      assert.match(await announced(page), /Off: too high by/);

      // Refused: an expression is not an attempt.
      await answer(page, 'scores:2.1', '0.3*2');
      const refusal = await verdictOf(page, 'scores:2.1');
      assert.match(refusal, /^\? .*work it out and type the value/u);
      assert.match(await tallyText(page), /^Right at the first try: 1 of 4 \u00b7 hints used: 0 \u00b7 solved: 1 of 4 \u00b7 rounded differently at the first try: 1$/);

      // Hints: the working, one step at a time, the last with the core's score.
      const hint = page.locator('td[data-blank="scores:2.1"] .blank-hint');
      await hint.click();
      assert.equal(await page.locator('td[data-blank="scores:2.1"] .blank-hints li').count(), 1);
      assert.match(await announced(page), /^Hint 1 of 2 for score of /);
      await hint.click();
      const steps = await page.locator('td[data-blank="scores:2.1"] .blank-hints li').allTextContents();
      assert.equal(steps.length, 2);
      const shownScore = parsePrinted(/= (\S+)$/u.exec(steps[1])[1]);
      assert.ok(Math.abs(shownScore - ref.scores[2][1]) <= 0.5e-3 + 1e-6, steps[1]);
      assert.equal(await hint.isDisabled(), true);
      assert.equal(await hint.textContent(), 'No more hints');
      await answer(page, 'scores:2.1', rounded(ref.scores[2][1], 3));
      // Off: the row's total is not 0.
      await answer(page, 'totals:2', '0');
      assert.match(await verdictOf(page, 'totals:2'), /^\u2717 Off: too low by /);
      assert.equal(await tallyText(page),
        'Right at the first try: 1 of 4 \u00b7 hints used: 2 \u00b7 solved: 2 of 4 \u00b7 rounded differently at the first try: 1');

      // The link is the teacher's until the reader changes the exercise; then the page writes it.
      assert.equal(await page.evaluate(() => location.hash), link);
      await page.uncheck('#practice-toggle');
      assert.deepEqual(await blankIds(page), []);
      assert.equal(await page.locator('td.blank-solved').count(), 0);
      const plain = await page.evaluate(() => location.hash);
      assert.doesNotMatch(plain, /practice=|round=/u);
      assert.match(plain, /^#tokens=/u, 'without a round, the numbers are the page\u2019s own keys');
      await page.check('#practice-toggle');
      const last = shown.tokens.length - 1;
      const defaults = [`scores:${last}.0`, `scaled:${last}.0`, 'masked:0.1', `exponentials:${last}.0`, `totals:${last}`,
        `weights:${last}.0`, `mix:${last}.0.0`, `out:${last}.0`];
      assert.deepEqual((await blankIds(page)).sort(), [...defaults].sort());
      assert.equal(await page.evaluate(() => location.hash), `${plain}&practice=${defaults.join(',')}`);
      // The written link opens the same exercise.
      await page.evaluate(() => { location.hash = ''; });
      await page.evaluate((hash) => { location.hash = hash; }, `${plain}&practice=${defaults.join(',')}`);
      await page.waitForFunction(() => document.querySelectorAll('input.blank-answer').length === 8);
      assert.deepEqual((await collectViolations()).cspViolations, []);
    } finally {
      await close();
    }
  });

  it('shows the softmax and mix of every row a round\u2019s blanks are in, each one answerable', async () => {
    const { page, close } = await explorer.open('#round=softmax&round_seed=7');
    try {
      const shown = await readExample(page);
      const ref = referenceAttention({ tokens: shown.tokens, ...roundNumbers(7) });
      // Row by row, e^x, the row's total and the weights, leaving the cells the causal mask hides.
      const expected = [];
      for (let i = 0; i < shown.tokens.length; i += 1) {
        for (let j = 0; j <= i; j += 1) expected.push(`exponentials:${i}.${j}`);
        expected.push(`totals:${i}`);
        for (let j = 0; j <= i; j += 1) expected.push(`weights:${i}.${j}`);
      }
      assert.deepEqual((await blankIds(page)).sort(), [...expected].sort(), 'every blank of the round');
      assert.equal(await page.locator('table[data-table="softmax"]').count(), shown.tokens.length);
      assert.equal(await page.isHidden('.practice-message'), true);
      // A blank of the first row is answered on its own row's table.
      await answer(page, 'exponentials:0.0', rounded(ref.exponentials[0][0], 4));
      const solved = page.locator('table[data-table="softmax"][data-row="0"] td[data-row="0"][data-col="1"]');
      assert.match(await solved.getAttribute('class'), /blank-solved/);
      assert.equal(await activeBlank(page), 'totals:0', 'the focus follows the round\u2019s order, row by row');

      // The mix round: weight \u00d7 value and out of every row, out in each row's mix table.
      await page.selectOption('.practice-round', 'mix');
      const mixIds = await blankIds(page);
      const d = ref.headDim;
      assert.equal(mixIds.length, [0, 1, 2].reduce((n, i) => n + (i + 1) * d + d, 0));
      assert.ok(mixIds.includes('out:0.3') && mixIds.includes('mix:1.0.2'), mixIds.join());
      assert.equal(await page.locator('table[data-table="mix"]').count(), shown.tokens.length);
      // Ending practice takes the other rows' tables away again.
      await page.uncheck('#practice-toggle');
      assert.equal(await page.locator('table[data-table="mix"]').count(), 1);
      assert.equal(await page.locator('table[data-table="softmax"]').count(), 1);
      // A link naming a cell the page cannot show is refused, never laid in part.
      await page.evaluate(() => { location.hash = '#practice=weights:0.0,flash-max:0.0'; });
      await page.waitForFunction(() => !document.querySelector('.practice-message').hidden);
      assert.match(await page.textContent('.practice-message'), /flash-max:0\.0/u);
      assert.deepEqual(await blankIds(page), []);
    } finally {
      await close();
    }
  });

  it('refuses a malformed practice link with its message, and stays usable', async () => {
    const { page, problems, close } = await explorer.open('#round=softmax&round_seed=07');
    try {
      const message = await page.textContent('#link-problem');
      assert.match(message, /round_seed: "07" is not a whole number from 0 to 4294967295/);
      assert.equal(await page.isVisible('#link-problem'), true);
      assert.deepEqual(await blankIds(page), []);
      assert.equal(await page.isChecked('#practice-toggle'), false);
      assert.equal((await readExample(page)).tokens.join(' '), 'the cat', 'the article\u2019s example, filled in');
      await page.check('#practice-toggle');
      assert.equal((await blankIds(page)).length, 8, 'the switch still works');
      // A list past the example's shape is said in the practice controls.
      await page.evaluate(() => { location.hash = '#practice=weights:9.9'; });
      await page.waitForFunction(() => !document.querySelector('.practice-message').hidden);
      assert.match(await page.textContent('.practice-message'), /weights:9\.9 names no cell of this example/);
      assert.deepEqual(await blankIds(page), []);
      assert.deepEqual(problems.pageErrors, []);
    } finally {
      await close();
    }
  });

  it('works a round by keyboard alone, at 360 px, with no axe-core violation in light or dark', async () => {
    const { page, close } = await explorer.open('', { viewport: { width: 360, height: 740 } });
    try {
      await page.locator('#practice-toggle').focus();
      await page.keyboard.press('Space');
      assert.equal(await page.isChecked('#practice-toggle'), true);
      await page.selectOption('.practice-round', 'step1');
      assert.equal(await page.evaluate(() => location.hash), '#round=step1&round_seed=1&level=easy');
      const shown = await readExample(page);
      assert.deepEqual({ q: shown.q, k: shown.k, v: shown.v }, roundNumbers(1));
      const ref = referenceAttention({ tokens: shown.tokens, ...roundNumbers(1) });
      const order = Array.from({ length: 9 }, (_, n) => `scores:${Math.floor(n / 3)}.${n % 3}`);
      assert.deepEqual(await blankIds(page), order);
      assert.equal(await activeBlank(page), 'scores:0.0', 'a round starts at its first blank');

      // Type, Enter: right, and on to the next blank.
      await page.keyboard.type(rounded(ref.scores[0][0], 3));
      await page.keyboard.press('Enter');
      assert.equal(await activeBlank(page), 'scores:0.1');
      // The arrow keys leave a blank for the cell below; Tab reaches its Check and Hint buttons.
      await page.keyboard.press('ArrowDown');
      assert.equal(await activeBlank(page), 'scores:1.1');
      await page.keyboard.press('ArrowUp');
      assert.equal(await activeBlank(page), 'scores:0.1');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'blank-check');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'blank-hint');
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('td[data-blank="scores:0.1"] .blank-hints li').count(), 1);
      await page.keyboard.press('Tab');
      assert.equal(await activeBlank(page), 'scores:0.2', 'Tab goes on to the next blank');
      await page.keyboard.type('1/0');
      await page.keyboard.press('Enter');
      assert.match(await verdictOf(page, 'scores:0.2'), /^\? /u);

      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(widths.scroll <= widths.client, `scrollWidth ${widths.scroll} > ${widths.client}`);
      for (const colorScheme of ['light', 'dark']) {
        assert.deepEqual(await axeViolations(page, colorScheme), [], colorScheme);
      }

      // New numbers: the next seed, the same blanks, the tally again from nothing.
      await page.click('.practice-new');
      assert.equal(await page.evaluate(() => location.hash), '#round=step1&round_seed=2&level=easy');
      const next = await readExample(page);
      assert.deepEqual({ q: next.q, k: next.k, v: next.v }, roundNumbers(2));
      assert.deepEqual(await blankIds(page), order);
      assert.match(await tallyText(page), /^Right at the first try: 0 of 9 \u00b7 hints used: 0/);
      await page.selectOption('.practice-level', 'hard');
      const hard = await readExample(page);
      assert.deepEqual({ q: hard.q, k: hard.k, v: hard.v }, roundNumbers(2, { tokens: 4, min: -2, max: 2, decimals: 2 }));
      assert.equal((await blankIds(page)).length, 16);
      // Editing a number ends the round: its blanks stay, as a list, on the reader's numbers.
      await cellInput(page, 'q', 0, 0).fill('0.5');
      await page.waitForFunction(() => location.hash.includes('practice=') && !location.hash.includes('round='));
      assert.match(await page.evaluate(() => location.hash), /&practice=scores:0\.0,scores:0\.1,/u);
      assert.equal((await blankIds(page)).length, 16);
      assert.equal(await page.inputValue('.practice-round'), '');
    } finally {
      await close();
    }
  });
});
