// Every table the page shows goes through here: its cells get names for screen readers and
// arrow-key movement, it scrolls inside its own box on a narrow screen, and it gets the
// "Copy table" menu.
//
// Tables are described first (a TableSpec: the matrix and renderMatrixTable's options) and
// built only when needed. A table shown again with the same shape (caption, labels, masked
// cells) is updated in place: only the cells whose printed value or shade changed are touched.
// A reader's edit changes a row or a column of most tables; not rebuilding thousands of cells
// is what keeps an edit near one frame at sixteen tokens, and it keeps focus and scrolling.

import { labelCells, makeCellsNavigable } from './cell-navigation.js';
import { tableTools } from './table-tools.js';
import { shadeLevel } from './format.js';
import { element, fillSlot, scrollable, slot } from './page-slots.js';
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

/**
 * @param {Document} doc
 * @param {HTMLTableElement} table
 * @param {{describe?: import('./cell-navigation.js').DescribeCell}} [options]
 * @returns {HTMLElement}
 */
export function presentTable(doc, table, { describe } = {}) {
  labelCells(table, describe);
  makeCellsNavigable(table);
  const scroller = scrollable(doc, table);
  // The cells take focus and scroll the box as the keyboard moves; the box itself need not.
  if (table.classList.contains('navigable')) scroller.removeAttribute('tabindex');
  const block = element(doc, 'div', 'table-block');
  block.append(scroller, tableTools(doc, table));
  return block;
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

// Writes a new value into a number cell built by renderMatrixTable; true if it changed.
function setValue(cell, text) {
  const value = cell.firstElementChild;  // renderMatrixTable's .value span comes first
  if (!value || value.textContent === text) return false;
  value.textContent = text;
  return true;
}

function setShade(cell, level) {
  if (cell.dataset.shade === String(level)) return;
  cell.classList.remove(`shade-${cell.dataset.shade}`);
  cell.classList.add(`shade-${level}`);
  cell.dataset.shade = String(level);
}

// Brings a table on screen up to a spec of the same shape, cell by cell; only the cells that
// changed are renamed for screen readers.
function patchTable(table, { matrix, options, liveRowLabels }, describe) {
  const { format, isMasked, shade, extraColumns = [], footerRows = [] } = options;
  const bodyRows = table.tBodies[0].rows;
  const changed = new Set();
  const update = (cell, text) => {
    if (setValue(cell, text)) changed.add(cell);
  };
  Array.from(matrix).forEach((values, row) => {
    const cells = bodyRows[row].cells;
    const relabelRow = liveRowLabels && cells[0].textContent !== options.rowLabels[row];
    if (relabelRow) cells[0].textContent = options.rowLabels[row];
    Array.from(values).forEach((value, col) => {
      const cell = cells[col + 1];
      update(cell, formatterOf(format, col)(value, row, col));
      if (relabelRow) changed.add(cell);
      if (shade && !isMasked?.(row, col)) setShade(cell, shadeLevel(shade.weight(row, col), shade.levels));
    });
    extraColumns.forEach((extra, n) => update(cells[values.length + 1 + n], extra.format(extra.values[row])));
  });
  footerRows.forEach((footer, r) => {
    const cells = table.tFoot.rows[r].cells;
    footer.values.forEach((value, col) => {
      if (value !== null && value !== undefined) update(cells[col + 1], footer.format(value));
    });
  });
  labelCells(table, describe, changed);
}

/**
 * A slot that shows one table at a time and updates it in place when it can.
 * @param {Document} doc
 * @param {string} name  the slot
 * @param {{describe?: import('./cell-navigation.js').DescribeCell,
 *          after?: (table: HTMLTableElement) => Node[]}} [options]
 *        after: what follows the table in the slot (download buttons), made with the table
 *        that stays on screen
 */
export function tableSlot(doc, name, { describe, after = () => [] } = {}) {
  let shown = null;
  let shape = null;
  return {
    /**
     * Shows the table `spec` describes: patched into the one on screen, or built in its place.
     * @param {TableSpec} spec
     * @returns {HTMLTableElement}
     */
    show(spec) {
      const freshShape = shapeOf(spec);
      if (shown && freshShape === shape && slot(doc, name).contains(shown)) {
        patchTable(shown, spec, describe);
        return shown;
      }
      const table = buildTable(doc, spec);
      fillSlot(doc, name, presentTable(doc, table, { describe }), ...after(table));
      shown = table;
      shape = freshShape;
      return shown;
    },
  };
}
