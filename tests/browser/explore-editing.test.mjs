// Editing the walkthrough's example in Chromium: a cell, the tokens, head_dim, drawing new
// numbers and resetting. After every accepted change each downstream table must hold what a
// float64 head computed here gives for the new input; after every refused one the page must say
// so next to the control and every table must be exactly as it was.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  MINUS, TEST_TIMEOUT, articleOf, assertWalkthroughMatches, cellInput, editMessage, readExample, readInputs,
  readTable, seededPool, snapshotTables, startExploring,
} from './explore-harness.mjs';

let explorer;
before(async () => { explorer = await startExploring(); });
after(async () => { await explorer?.close(); });

const clone = (value) => structuredClone(value);

describe('editing a cell', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  let article;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
    article = await articleOf(page);
  });
  after(async () => opened?.close());

  it('changes every downstream table to the float64 values of the new input', async () => {
    await cellInput(page, 'k', 0, 1).fill('0.9');
    const input = clone(article.two_words);
    input.k[0][1] = 0.9;
    const ref = await assertWalkthroughMatches(page, input);
    // Step 1's worked dot products follow too.
    const result = await page.locator('.dot-product[data-key="the"] .result').textContent();
    assert.equal(result.replace(/\s+/g, ' ').trim(), `= ${ref.scores[1][0] < 0 ? MINUS : ''}${Math.abs(ref.scores[1][0]).toFixed(2)}`);
    assert.match(await page.locator('#verify-status').textContent(), /your own/);
    assert.deepEqual(opened.problems.pageErrors, []);
  });

  it('refuses text that is not a number or not finite, says so, and keeps the last good state', async () => {
    const before = await snapshotTables(page);
    const cell = cellInput(page, 'q', 1, 2);
    const good = await cell.inputValue();
    for (const [typed, pattern] of [
      ['abc', /q2 of “cat”: “abc” is not a number/],
      ['1e400', /q2 of “cat”: “1e400” is not a finite number/],
      ['NaN', /q2 of “cat”: “NaN” is not a number/],
      ['', /An empty cell is not a number/],
      ['1e16', /q2 of “cat”: is 1e16, outside the allowed range of ±1e15/],
      ['1e30', /q2 of “cat”: is 1e30, outside the allowed range of ±1e15/],
    ]) {
      await cell.fill(typed);
      const message = editMessage(page, 'q');
      assert.equal(await message.isVisible(), true, `a message for "${typed}"`);
      assert.match(await message.textContent(), pattern);
      assert.match(await message.textContent(), new RegExp(`keeps ${good.replace('.', '\\.')}`));
      assert.equal(await cell.getAttribute('aria-invalid'), 'true');
      assert.equal(await cell.getAttribute('aria-describedby'), await message.getAttribute('id'), 'the cell is described by the message');
      const now = await snapshotTables(page);
      // Everything but the cell being typed in is as it was.
      assert.deepEqual(now.map(([name, cells]) => [name, name === 'q' ? cells.filter((_, n) => n !== 6) : cells]),
        before.map(([name, cells]) => [name, name === 'q' ? cells.filter((_, n) => n !== 6) : cells]), `after "${typed}"`);
    }
    await cell.press('Tab');  // leaving the cell puts the good value back
    assert.equal(await cell.inputValue(), good);
    assert.equal(await cell.getAttribute('aria-invalid'), null);
    assert.match(await editMessage(page, 'q').textContent(), /back to/);
  });

  it('accepts a typed minus sign, a decimal comma and an exponent', async () => {
    const cell = cellInput(page, 'v', 1, 3);
    await cell.fill(`${MINUS}0,25`);
    await cell.press('Enter');  // the cell then writes the number the way the page does
    assert.equal(await cell.inputValue(), `${MINUS}0.25`);
    await cell.fill('2.5e-1');
    await cell.press('Enter');
    assert.equal(await cell.inputValue(), '0.25');
    const input = clone(article.two_words);
    input.k[0][1] = 0.9;
    input.v[1][3] = 0.25;
    await assertWalkthroughMatches(page, input);
  });

  it('keeps weights finite for a huge value, and says so', async () => {
    await cellInput(page, 'q', 1, 0).fill('1e6');
    const message = editMessage(page, 'q');
    assert.equal(await message.isVisible(), true);
    assert.match(await message.textContent(), /Large numbers: .*cat.* Every weight is still finite .*row sums 1\.0000/);
    const weights = await readTable(page, 'weights');
    for (const row of weights.rows) {
      assert.equal(row.cells.at(-1).text, '1.0000');
      for (const cell of row.cells) assert.match(cell.text, /^\d\.\d{4}$/, `weight ${cell.text} is finite, in [0, 1]`);
    }
    assert.equal(await page.locator('[data-shift-note]').isVisible(), true, "step 4 says the row was shifted");
  });
});

describe('tokens and head_dim', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  let article;
  let pool;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
    article = await articleOf(page);
    pool = await seededPool(page, 1);
  });
  after(async () => opened?.close());

  it('renames a token everywhere, and refuses an empty name', async () => {
    const name = page.locator('.token-input').nth(1);
    await name.fill('dog');
    const scores = await readTable(page, 'scores');
    assert.deepEqual(scores.columns, ['the', 'dog']);
    assert.deepEqual((await readTable(page, 'live-grid')).rows.map((r) => r.label), ['the', 'dog']);
    assert.equal(await page.locator('[data-fill="last-token"]').first().textContent(), 'dog');
    await name.fill('');
    assert.match(await page.locator('#controls-message').textContent(), /^token 2: .*The tables keep “dog”/);
    assert.deepEqual((await readTable(page, 'scores')).columns, ['the', 'dog']);
    await name.fill('<b>cat</b>');
    assert.deepEqual((await readTable(page, 'scores')).columns, ['the', '<b>cat</b>'], 'token text stays text');
    assert.equal(await page.locator('main table b').count(), 0);
    await name.fill('cat');
  });

  it('adds tokens up to sixteen, new rows from the seeded generator', async () => {
    const add = page.getByRole('button', { name: /^Add a token/ });
    for (let n = 2; n < 16; n += 1) await add.click();
    assert.equal(await add.isDisabled(), true, 'no seventeenth token');
    // Step 1 works out every dot product of the last row and says how many there are.
    assert.equal(await page.locator('.dot-product').count(), 16);
    assert.match(await page.locator('[data-fill="dot-products-intro"]').textContent(), /^are all 16 dot products of the last row, .* nearest first$/);
    const shown = await readExample(page);
    assert.equal(shown.tokens.length, 16);
    assert.deepEqual(shown.tokens.slice(0, 4), ['the', 'cat', 'sat', 'on']);
    for (const matrix of ['q', 'k', 'v']) {
      assert.deepEqual(shown[matrix].slice(0, 2).map((row) => row.map(Math.fround)), article.two_words[matrix].map((row) => row.map(Math.fround)));
      shown[matrix].slice(2).forEach((row, n) => assert.deepEqual(row, pool[matrix][n + 2].slice(0, 4), `${matrix} row ${n + 2}`));
    }
    await assertWalkthroughMatches(page, { ...shown, mask: 'causal', scale: 'sqrt_d' });
  });

  it('changes head_dim from 1 to 16, new columns from the generator, and refuses 0 and 17', async () => {
    const headDim = page.locator('.head-dim-input');
    await headDim.fill('16');
    await headDim.press('Enter');
    let shown = await readExample(page);
    assert.equal(shown.q[0].length, 16);
    shown.k.forEach((row, r) => assert.deepEqual(row.slice(4), pool.k[r].slice(4, 16), `k row ${r}`));
    await assertWalkthroughMatches(page, { ...shown, mask: 'causal', scale: 'sqrt_d' });
    assert.match(await page.locator('attention-next-word .note').textContent(), /runs only when head_dim is 4; it is 16 here/,
      'step 6 says it needs head_dim 4');

    const before = await snapshotTables(page);
    for (const bad of ['0', '17']) {
      await headDim.fill(bad);
      await headDim.press('Enter');
      assert.match(await page.locator('#controls-message').textContent(), new RegExp(`head_dim: “${bad}” is not a whole number from 1 to 16; it stays 16`));
      assert.deepEqual(await snapshotTables(page), before);
    }
    await headDim.fill('1');
    await headDim.press('Enter');
    shown = await readExample(page);
    assert.deepEqual(shown.q.map((row) => row.length), Array(16).fill(1));
    await assertWalkthroughMatches(page, { ...shown, mask: 'causal', scale: 'sqrt_d' });
  });

  it('removes tokens down to one', async () => {
    // The pieces placed for the tokens that go (worked dot products) leave without a word.
    const warnings = [];
    const onConsole = (message) => { if (message.type() === 'warning') warnings.push(message.text()); };
    page.on('console', onConsole);
    for (let n = 16; n > 1; n -= 1) await page.locator('.remove-token').first().click();
    page.off('console', onConsole);
    assert.deepEqual(warnings, []);
    assert.equal(await page.locator('attention-step .message:not(.edit-message):not([hidden]), attention-working .message:not(.edit-message):not([hidden])').count(), 0,
      'no piece says a token is missing');
    const shown = await readExample(page);
    assert.equal(shown.tokens.length, 1);
    assert.equal(await page.locator('.remove-token').first().isDisabled(), true, 'the last token stays');
    assert.equal(await page.locator('.dot-product').count(), 1);
    assert.equal(await page.locator('[data-fill="dot-products-intro"]').textContent(), 'is the one dot product of the last row, with its own key');
    await assertWalkthroughMatches(page, { ...shown, mask: 'causal', scale: 'sqrt_d' });
    assert.deepEqual((await readTable(page, 'weights')).rows[0].cells.map((c) => c.text), ['1.0000', '1.0000']);
  });
});

describe('drawing new numbers and resetting', { timeout: TEST_TIMEOUT }, () => {
  it('re-rolls every cell from the next seed, then resets to the article and its check', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const article = await articleOf(page);
      assert.match(await page.locator('#verify-status').textContent(), /all 77 numbers the article prints match/);
      await page.getByRole('button', { name: 'Draw new numbers' }).click();
      const pool = await seededPool(page, 2);
      const shown = await readExample(page);
      assert.equal(await page.locator('.seed-shown').textContent(), 'seed 2');
      for (const matrix of ['q', 'k', 'v']) assert.deepEqual(shown[matrix], pool[matrix].slice(0, 2).map((row) => row.slice(0, 4)));
      await assertWalkthroughMatches(page, { ...article.two_words, ...shown, mask: 'causal', scale: 'sqrt_d' });
      assert.match(await page.locator('#verify-status').textContent(), /your own/);

      // The same seed gives the same numbers: a second page drawing from seed 2 agrees.
      await page.getByRole('button', { name: 'Draw new numbers' }).click();
      assert.equal(await page.locator('.seed-shown').textContent(), 'seed 3');
      assert.notDeepEqual((await readExample(page)).q, shown.q);

      await page.getByRole('button', { name: 'Reset to the article' }).click();
      const reset = await readExample(page);
      for (const matrix of ['q', 'k', 'v']) {
        assert.deepEqual(reset[matrix].map((row) => row.map(Math.fround)), article.two_words[matrix].map((row) => row.map(Math.fround)));
      }
      assert.equal(await page.locator('.seed-shown').textContent(), 'seed 1');
      assert.match(await page.locator('#verify-status').textContent(), /all 77 numbers the article prints match/);
      const weights = await readTable(page, 'weights');
      assert.deepEqual(weights.rows[1].cells.slice(0, 2).map((c) => c.text), ['0.2799', '0.7201']);
    } finally {
      await opened.close();
    }
  });
});

describe('editing by keyboard alone', { timeout: TEST_TIMEOUT }, () => {
  it('reaches the Q table with Tab, moves with the arrow keys, types a value, and Escape undoes a bad one', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const article = await articleOf(page);
      await page.locator('.walk-toggle').focus();
      // Tab on from the toolbar until the first cell of Q has focus.
      let reached = false;
      for (let n = 0; n < 20 && !reached; n += 1) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => document.activeElement?.matches('table[data-table="q"] input'));
      }
      assert.ok(reached, 'Tab reaches the Q table');
      assert.deepEqual(await page.evaluate(() => ({ ...document.activeElement.dataset })), { matrix: 'q', row: '0', col: '0' });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');       // the caret to the end of the text,
      await page.keyboard.press('ArrowRight'); // so Right moves to the next cell
      assert.deepEqual(await page.evaluate(() => ({ ...document.activeElement.dataset })), { matrix: 'q', row: '1', col: '1' });
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('0.5');
      const input = clone(article.two_words);
      input.q[1][1] = 0.5;
      await assertWalkthroughMatches(page, input);

      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('x');
      assert.equal(await editMessage(page, 'q').isVisible(), true);
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.activeElement.value), '0.5');
      assert.equal(await editMessage(page, 'q').isVisible(), false);
      // The table is one Tab stop: Tab leaves it for the next control.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.closest('table')?.dataset.table ?? null), null);
      await assertWalkthroughMatches(page, input);
    } finally {
      await opened.close();
    }
  });
});
