// A table kept on screen across traces. Tables are described first (a TableSpec: the matrix
// and renderMatrixTable's options) and built only when needed. A table shown again with the
// same shape (caption, labels, masked cells) is updated in place: only the cells whose printed
// value or shade changed are touched. A reader's edit changes a row or a column of most tables;
// not rebuilding thousands of cells is what keeps an edit near one frame at sixteen tokens, and
// it keeps focus and scrolling. The page (table-block.js) and the elements (step-views.js) both
// show their tables through here; nothing here adds the page's menus, so the elements' bundle
// stays small.

import { labelCells } from './cell-navigation.js';
import { shadeLevel } from './format.js';
import { renderMatrixTable, visuallyHidden } from './render-tables.js';

/**
 * @typedef {object} TableSpec
 * @property {ArrayLike<ArrayLike<number>>} matrix
 * @property {import('./render-tables.js').MatrixTableOptions} options
 * @property {(row: number, col: number) => boolean} [zeroed]
 *           cells the mask hid (the trace's `hidden`) by writing 0 instead of −∞
 * @property {Record<string, string>} [dataset]  data attributes of the table
 * @property {boolean} [liveRowLabels]  the row labels carry numbers too (the mix's
 *           "0.2799 × V[the]"), so they are updated in place like the cells
 */

/**
 * Builds the table a spec describes, with the cells hidden with 0 marked as hidden (by pattern,
 * and by name for screen readers).
 * @param {Document} doc
 * @param {TableSpec} spec
 * @returns {HTMLTableElement}
 */
export function buildTable(doc, { matrix, options, zeroed, dataset = {} }) {
  const table = renderMatrixTable(doc, matrix, options);
  Object.assign(table.dataset, dataset);
  if (zeroed) {
    for (const cell of table.querySelectorAll('tbody td[data-row][data-col]:not(.extra)')) {
      if (zeroed(Number(cell.dataset.row), Number(cell.dataset.col))) {
        cell.classList.add('zeroed');
        cell.dataset.zeroed = 'true';
        cell.append(visuallyHidden(doc, ' hidden, set to 0'));
      }
    }
  }
  return table;
}

// Everything about a table but its numbers and shades.
function shapeOf({ matrix, options, zeroed, dataset = {}, liveRowLabels = false }) {
  const { caption, name, columnLabels, corner = '', isMasked, extraColumns = [], footerRows = [], className } = options;
  const rowLabels = liveRowLabels ? options.rowLabels.length : options.rowLabels;
  const marks = Array.from(matrix, (row, i) => Array.from(row, (_, j) =>
    (isMasked?.(i, j) ? 'm' : zeroed?.(i, j) ? 'z' : '.')).join('')).join('/');
  return JSON.stringify([name, className, caption, corner, rowLabels, columnLabels, extraColumns.map((e) => e.label),
    footerRows.map((f) => [f.label, f.values.map((v) => v === null || v === undefined)]), marks, dataset,
    Boolean(options.shade)]);
}

const formatterOf = (format, col) => (Array.isArray(format) ? format[col] : format);

// What patchTable knows of a table it patched before: its cells, and the text and shade it
// last wrote into each, so that an edit compares strings instead of reading back thousands of
// cells from the page.
const known = new WeakMap();  // table -> {body, foot: {cell, text, value?, format?}[][], shades: (number|null)[][]}

function knownCells(table) {
  let cells = known.get(table);
  if (!cells) {
    const read = (rows) => Array.from(rows, (tr) => Array.from(tr.cells, (cell) => ({
      cell, text: (cell.firstElementChild ?? cell).textContent,
    })));
    cells = {
      body: read(table.tBodies[0].rows),
      foot: read(table.tFoot?.rows ?? []),
      shades: Array.from(table.tBodies[0].rows, (tr) => Array.from(tr.cells, (cell) => cell.dataset.shade ?? null)),
    };
    known.set(table, cells);
  }
  return cells;
}

// The text of `value` in a cell through `format`, or null when the cell already shows that
// very number through a format that says its text depends on nothing else (format.js's fixed):
// an edit changes one row or column of most tables, and writing out the other numbers again
// was most of the time an edit spent in the tables.
function freshText(entry, format, value, row, col) {
  const key = format.sameTextFor;
  if (key !== undefined && entry.format === key && Object.is(entry.value, value)) return null;
  entry.format = key;
  entry.value = value;
  return format(value, row, col);
}

// Writes a new value into a number cell built by renderMatrixTable; true if it changed.
function setValue(entry, text) {
  if (entry.text === text) return false;
  entry.text = text;
  const value = entry.cell.firstElementChild;  // renderMatrixTable's .value span comes first
  if (!value) return false;
  // The text node's data, not textContent: no node is replaced, so only the text is laid out.
  if (value.firstChild?.nodeType === 3 && value.childNodes.length === 1) value.firstChild.data = text;
  else value.textContent = text;
  return true;
}

function setShade(cell, shades, level) {
  const before = shades[cell.cellIndex];
  if (before === String(level)) return;
  cell.classList.remove(`shade-${before}`);
  cell.classList.add(`shade-${level}`);
  cell.dataset.shade = String(level);
  shades[cell.cellIndex] = String(level);
}

// Brings a table on screen up to a spec of the same shape, cell by cell; only the cells that
// changed are renamed for screen readers.
function patchTable(table, { matrix, options, liveRowLabels }, describe) {
  const { format, isMasked, shade, extraColumns = [], footerRows = [] } = options;
  const { body, foot, shades } = knownCells(table);
  const changed = new Set();
  const update = (entry) => (text) => {
    if (text !== null && setValue(entry, text)) changed.add(entry.cell);
  };
  Array.from(matrix).forEach((values, row) => {
    const cells = body[row];
    const relabelRow = liveRowLabels && cells[0].text !== options.rowLabels[row];
    if (relabelRow) {
      cells[0].text = options.rowLabels[row];
      cells[0].cell.textContent = options.rowLabels[row];
    }
    Array.from(values).forEach((value, col) => {
      const entry = cells[col + 1];
      update(entry)(freshText(entry, formatterOf(format, col), value, row, col));
      if (relabelRow) changed.add(entry.cell);
      if (shade && !isMasked?.(row, col)) setShade(entry.cell, shades[row], shadeLevel(shade.weight(row, col), shade.levels));
    });
    extraColumns.forEach((extra, n) => {
      const entry = cells[values.length + 1 + n];
      update(entry)(freshText(entry, extra.format, extra.values[row]));
    });
  });
  footerRows.forEach((footer, r) => {
    footer.values.forEach((value, col) => {
      if (value !== null && value !== undefined) update(foot[r][col + 1])(freshText(foot[r][col + 1], footer.format, value));
    });
  });
  labelCells(table, describe, changed);
}

/**
 * One table shown again and again for new traces: built the first time and whenever its shape
 * changes, otherwise patched in place (only the cells whose text or shade changed are touched,
 * and the focused cell keeps its focus).
 * @param {Document} doc
 * @param {{describe?: import('./cell-navigation.js').DescribeCell,
 *          present: (table: HTMLTableElement) => Node[]}} options
 *        describe: the cells' names (patched cells are renamed); present: what shows a freshly
 *        built table (table-block.js's presentTable, or an element's own box)
 */
export function tableView(doc, { describe, present }) {
  let shown = null;
  let shape = null;
  return {
    /** The table on screen, or null before the first show(). */
    get table() {
      return shown;
    },
    /**
     * Brings the table up to `spec`. Returns the nodes to put on screen when it had to be
     * built, or null when the table already on screen was patched.
     * @param {TableSpec} spec
     * @param {{onScreen?: boolean}} [options]  onScreen: false when the table shown before was
     *        taken off screen, so it must be built again
     * @returns {Node[] | null}
     */
    show(spec, { onScreen = true } = {}) {
      const freshShape = shapeOf(spec);
      if (shown && onScreen && freshShape === shape) {
        patchTable(shown, spec, describe);
        return null;
      }
      shown = buildTable(doc, spec);
      shape = freshShape;
      return present(shown);
    },
  };
}
