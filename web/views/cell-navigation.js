// What a table's cells say to a screen reader, and how a keyboard moves between them.
//
// Each number cell gets a name that says what it is, not only where it is: "weight of cat on
// the: 0.2799". And each table is one stop of the Tab key: inside it the arrow keys move from
// cell to cell (a roving tabindex), so sixteen tokens' worth of cells do not make hundreds of
// Tab stops, and focusing a cell is what shows its working (explore-working.js).

/**
 * @callback DescribeCell
 * @param {{row: string, column: string, text: string, note: string, footer: boolean}} cell
 *        note: what the mask did to the cell (", masked"), or ''
 * @param {HTMLTableElement} table  the table the cell is in
 * @returns {string}
 */

/** "q0 of cat: 1.100"; footer cells: "total, e^x: 3.9486". */
export const describeByHeaders = ({ row, column, text, note, footer }) =>
  `${footer ? `${row}, ${column}` : `${column} of ${row}`}: ${text}${note}`;

/**
 * Describers for a token × token table: "score of cat against the: 0.200".
 * @param {string} what  e.g. "score", "scaled score"
 * @param {string} relation  e.g. "against", "on"
 */
export const describeTokenPair = (what, relation) => ({ row, column, text, note, footer }) => {
  if (footer || column === 'row sum') return describeByHeaders({ row, column, text, note, footer });
  return `${what} of ${row} ${relation} ${column}: ${text}${note}`;
};

// What the mask did to a cell, as the end of its name.
function maskNote(cell) {
  if (cell.dataset.masked === 'true') return ', masked';
  if (cell.dataset.zeroed === 'true') return ', hidden by the mask with 0 instead of minus infinity';
  return '';
}

// A number cell's .value span: renderMatrixTable puts it first, so it is looked for there first.
function valueOf(cell) {
  const first = cell.firstElementChild;
  return first?.classList.contains('value') ? first : cell.querySelector('.value');
}

/**
 * Names the number cells of `table` for screen readers: every one, or those in `only`.
 * @param {HTMLTableElement} table
 * @param {DescribeCell} [describe]
 * @param {Set<HTMLTableCellElement> | null} [only]  the cells whose text changed
 */
export function labelCells(table, describe = describeByHeaders, only = null) {
  if (only?.size === 0) return;
  const columns = Array.from(table.tHead.rows[0].cells, (cell) => cell.textContent.trim());
  const cells = only ?? table.querySelectorAll('tbody td, tfoot td');
  // Each row's header is read once, not once for each of its cells: a table of sixteen tokens
  // names 256 cells and more.
  const rowNames = new Map();
  const rowName = (tr) => {
    if (!rowNames.has(tr)) rowNames.set(tr, tr.cells[0].textContent.trim());
    return rowNames.get(tr);
  };
  for (const cell of cells) {
    const value = cell.cellIndex === 0 ? null : valueOf(cell);
    if (!value) continue;
    // A blank of pencil mode: its input is named instead, and the cell must not say the answer.
    if (cell.dataset.blank !== undefined) continue;
    const label = describe({
      row: rowName(cell.parentElement),
      column: columns[cell.cellIndex] ?? '',
      text: value.textContent.trim(),
      note: maskNote(cell),
      footer: cell.parentElement.parentElement.tagName === 'TFOOT',
    }, table);
    if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
  }
}

// The cells of a table the keyboard visits, as rows of focusable elements: the inputs of an
// editable table or of pencil mode's blanks, otherwise its body's number cells.
// The cells the keys walk, row by row (rows without one left out, so rows may differ in length).
function focusGrid(table, cells) {
  return Array.from(table.tBodies[0]?.rows ?? [], (tr) =>
    Array.from(tr.querySelectorAll(cells)).filter((node) => node.tagName === 'INPUT' || !node.querySelector('input')))
    .filter((row) => row.length > 0);
}

// A blank's input is always its own Tab stop (a reader tabs from blank to blank); the other
// cells share the table's one stop.
const isRoving = (node) => !node.classList.contains('blank-answer');

/**
 * Makes `table` one Tab stop whose cells the arrow keys move between. In an editable table
 * Left and Right move only when the caret is already at the start or end of the text, so that
 * they still move the caret inside a number. The cells are looked up at each key, so blanks
 * laid on the table later are walked too. Up and Down keep the column, or go to the last cell
 * of a shorter row.
 * @param {HTMLTableElement} table
 * @param {{cells?: string}} [options]  cells: which cells are walked (a selector; by default
 *        every number and every input; the sequel's tables walk the cells with a working)
 */
export function makeCellsNavigable(table, { cells = 'td input, td.num' } = {}) {
  const first = focusGrid(table, cells).flat();
  if (first.length === 0) return;
  for (const node of first) if (isRoving(node)) node.tabIndex = -1;
  const start = first.find(isRoving);
  if (start) start.tabIndex = 0;
  table.classList.add('navigable');

  const moveTo = (from, to) => {
    if (isRoving(from)) from.tabIndex = -1;
    if (isRoving(to)) to.tabIndex = 0;
    to.focus();
    if (to.tagName === 'INPUT') to.select();
  };
  table.addEventListener('focusin', (event) => {
    // The last cell visited is where Tab comes back to.
    const all = focusGrid(table, cells).flat();
    if (!all.includes(event.target) || !isRoving(event.target)) return;
    for (const node of all) if (isRoving(node)) node.tabIndex = node === event.target ? 0 : -1;
  });
  table.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const grid = focusGrid(table, cells);
    let position = null;
    for (let r = 0; r < grid.length && !position; r += 1) {
      const c = grid[r].indexOf(event.target);
      if (c >= 0) position = [r, c];
    }
    if (!position) return;
    const [r, c] = position;
    const target = event.target;
    const isInput = target.tagName === 'INPUT';
    const atStart = !isInput || (target.selectionStart === 0 && target.selectionEnd === 0);
    const atEnd = !isInput || (target.selectionStart === target.value.length && target.selectionEnd === target.value.length);
    let next = null;
    switch (event.key) {
      case 'ArrowUp': next = grid[r - 1]?.[Math.min(c, (grid[r - 1]?.length ?? 1) - 1)]; break;
      case 'ArrowDown': next = grid[r + 1]?.[Math.min(c, (grid[r + 1]?.length ?? 1) - 1)]; break;
      case 'ArrowLeft': if (atStart) next = grid[r][c - 1]; break;
      case 'ArrowRight': if (atEnd) next = grid[r][c + 1]; break;
      case 'Home': if (!isInput) next = grid[r][0]; break;
      case 'End': if (!isInput) next = grid[r].at(-1); break;
      default: return;
    }
    if (next) {
      event.preventDefault();
      moveTo(target, next);
    }
  });
}
