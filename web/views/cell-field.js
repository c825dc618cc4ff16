// The editing field of an editable Q, K or V table. Such a table prints its numbers like every
// other table, and has one text field, which moves into the cell that takes focus (by the arrow
// keys, Tab or a click) and leaves it when focus goes elsewhere. A reader meets a text field in
// every cell they reach, as before; the page no longer keeps one field per number. Sixteen
// tokens of head_dim 16 made 768 fields, each a scrolling box of its own, and the browser
// walked all of them to paint any edit.
//
// The field carries what cell-editing.js reads: data-matrix, data-row and data-col of the cell
// it is in. The cell keeps its printed number under the field (hidden), so the table's patches
// (live-table.js) go on writing into it and the number is right when the field leaves.

import { element } from './page-slots.js';

const fields = new WeakMap();  // table -> its field

/**
 * Gives a built Q, K or V table its editing field. Cells are walked with the arrow keys
 * (cell-navigation.js); call this before makeCellsNavigable so that the field is in place when
 * the walk looks for the focused cell.
 * @param {Document} doc
 * @param {HTMLTableElement} table  built by renderMatrixTable, number cells with data-row/col
 * @param {string} matrix  'q', 'k' or 'v'
 */
export function makeEditable(doc, table, matrix) {
  table.classList.add('editable');
  table.dataset.matrix = matrix;
  for (const cell of table.querySelectorAll('tbody td[data-row][data-col]')) {
    cell.classList.add('editable-cell');
    // The printed number looks like the field it becomes, themed by the same ::part(input).
    cell.querySelector('.value')?.setAttribute('part', 'input');
  }
  const field = element(doc, 'input', 'cell-input');
  // A plain text field: a phone's decimal keypad often has no minus sign, and half the
  // article's numbers are negative.
  Object.assign(field, { type: 'text', spellcheck: false, autocomplete: 'off' });
  field.size = 7;
  field.dataset.matrix = matrix;
  field.setAttribute('part', 'input');
  fields.set(table, field);

  table.addEventListener('focusin', (event) => {
    const cell = event.target;
    if (cell instanceof Element && cell.matches('td.editable-cell')) enter(table, cell);
  });
  table.addEventListener('focusout', (event) => {
    // A window losing focus takes the field's focus with it and gives it back: the field stays.
    if (event.target === field && doc.hasFocus()) leave(field);
  });
}

// The token of a cell's row, as its header says; the number the cell prints.
const tokenOf = (cell) => cell.parentElement.cells[0].textContent.trim();
const printedIn = (cell) => cell.querySelector('.value')?.textContent ?? '';

function enter(table, cell) {
  const field = fields.get(table);
  if (field.parentElement === cell) {
    field.focus();
    return;
  }
  if (field.parentElement) leave(field);
  const { row, col } = cell.dataset;
  const matrix = field.dataset.matrix;
  Object.assign(field.dataset, { row, col });
  field.setAttribute('aria-label', `${matrix}${col} of ${tokenOf(cell)}`);
  field.removeAttribute('aria-invalid');
  field.removeAttribute('aria-describedby');
  field.value = printedIn(cell);
  field.tabIndex = 0;
  // The cell is no stop of its own while its field is: Shift+Tab leaves the table.
  cell.tabIndex = -1;
  cell.classList.add('editing');
  cell.append(field);
  field.focus();
  field.select();
}

// Takes the field out of its cell, which is then where the Tab key comes back to.
function leave(field) {
  const cell = field.parentElement;
  if (!cell) return;
  field.remove();
  cell.classList.remove('editing');
  cell.tabIndex = 0;
}

/**
 * After the table was patched for a new trace: the field, when it sits in a cell the reader is
 * not typing in, shows that cell's new number.
 * @param {HTMLTableElement} table
 * @param {Element | null} active  the focused element of the table's root
 */
export function refreshField(table, active) {
  const field = fields.get(table);
  const cell = field?.parentElement;
  if (!cell || field === active) return;
  field.value = printedIn(cell);
  field.removeAttribute('aria-invalid');
}
