// The one text field of an editable Q, K or V table (web/views/cell-field.js), on an author's
// page (fixtures/far-pieces.html): the table prints its numbers, and its field moves into the
// cell a click or an arrow key reaches, named for that cell and holding its number; leaving puts
// the number back in print, the edit kept; the table is one stop of the Tab key both ways.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_TIMEOUT, THREE, withFixturePage } from './embed-harness.mjs';

const MINUS = '\u2212';

let page;
withFixturePage('far-pieces.html', (shown) => {
  page = shown.page;
});

// The near Q table as it stands: where its fields are, what each cell prints, what has focus.
function state() {
  return page.evaluate(() => {
    const root = document.getElementById('near').shadowRoot;
    const table = root.querySelector('table[data-table="q"]');
    const fields = [...table.querySelectorAll('input')];
    const active = root.activeElement;
    return {
      fields: fields.map((field) => ({ row: field.closest('td').dataset.row, col: field.closest('td').dataset.col,
        label: field.getAttribute('aria-label'), value: field.value })),
      printed: [...table.tBodies[0].rows].map((tr) => [...tr.querySelectorAll('td[data-col]')].map((td) => td.querySelector('.value').textContent)),
      focused: active ? { tag: active.localName, row: active.dataset.row ?? null, col: active.dataset.col ?? null } : null,
      inTable: table.contains(active),
    };
  });
}

const printedOf = (value) => String(value).replace('-', MINUS);

describe('the one text field of an editable table', { timeout: TEST_TIMEOUT }, () => {
  it('prints every number and has no field until a cell takes focus', async () => {
    const shown = await state();
    assert.deepEqual(shown.fields, []);
    assert.deepEqual(shown.printed, THREE.q.map((row) => row.map(printedOf)));
  });

  it('moves into the clicked cell, then with the arrow keys, one field in the table at a time', async () => {
    await page.locator('#near td[data-row="1"][data-col="2"]').click();
    let shown = await state();
    assert.deepEqual(shown.fields, [{ row: '1', col: '2', label: 'q2 of cat', value: `${MINUS}0.75` }]);
    assert.deepEqual(shown.focused, { tag: 'input', row: '1', col: '2' });
    await page.keyboard.press('ArrowDown');
    shown = await state();
    assert.deepEqual(shown.fields, [{ row: '2', col: '2', label: 'q2 of sat', value: '0.5' }]);
    assert.deepEqual(shown.focused, { tag: 'input', row: '2', col: '2' });
    assert.equal(shown.printed[1][2], `${MINUS}0.75`, 'the cell left prints its number again');
  });

  it('keeps a typed value when the reader leaves, and is one Tab stop both ways', async () => {
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('0.125');
    await page.keyboard.press('Tab');
    let shown = await state();
    assert.deepEqual(shown.fields, [], 'the field left with the focus');
    assert.equal(shown.inTable, false, 'Tab left the table');
    assert.equal(shown.printed[2][2], '0.125');
    assert.equal(await page.evaluate(() => document.getElementById('three').q[2][2]), 0.125);
    await page.keyboard.press('Shift+Tab');
    shown = await state();
    assert.deepEqual(shown.focused, { tag: 'input', row: '2', col: '2' }, 'Shift+Tab comes back to the cell last edited');
    await page.keyboard.press('Shift+Tab');
    shown = await state();
    assert.equal(shown.inTable, false, 'a second Shift+Tab leaves the table: its cells are no stops of their own');
    assert.deepEqual(shown.fields, []);
  });
});
