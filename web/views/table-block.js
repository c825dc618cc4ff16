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
 * A built table as the page shows it: its cells named for screen readers and walked with the
 * arrow keys, in a box that scrolls sideways, with the "Copy table" menu unless `tools` is false.
 * @param {Document} doc
 * @param {HTMLTableElement} table
 * @param {{describe?: import('./cell-navigation.js').DescribeCell, tools?: boolean}} [options]
 * @returns {HTMLElement}
 */
export function presentTable(doc, table, { describe, tools = true } = {}) {
  labelCells(table, describe);
  makeCellsNavigable(table);
  const scroller = scrollable(doc, table);
  // The cells take focus and scroll the box as the keyboard moves; the box itself need not.
  if (table.classList.contains('navigable')) scroller.removeAttribute('tabindex');
  const block = element(doc, 'div', 'table-block');
  block.append(scroller);
  if (tools) block.append(tableTools(doc, table));
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
  // The text node's data, not textContent: no node is replaced, so only the text is laid out.
  if (value.firstChild?.nodeType === 3 && value.childNodes.length === 1) value.firstChild.data = text;
  else value.textContent = text;
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
 * One table shown again and again for new traces: built the first time and whenever its shape
 * changes, otherwise patched in place (only the cells whose text or shade changed are touched,
 * and the focused cell keeps its focus).
 * @param {Document} doc
 * @param {{describe?: import('./cell-navigation.js').DescribeCell,
 *          present?: (table: HTMLTableElement) => Node[]}} [options]
 *        present: what shows a freshly built table (by default presentTable's block)
 */
export function tableView(doc, { describe, present = (table) => [presentTable(doc, table, { describe })] } = {}) {
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

/**
 * A slot of the page that shows one table at a time and updates it in place when it can.
 * @param {Document} doc
 * @param {string} name  the slot
 * @param {{describe?: import('./cell-navigation.js').DescribeCell,
 *          after?: (table: HTMLTableElement) => Node[]}} [options]
 *        after: what follows the table in the slot (download buttons), made with the table
 *        that stays on screen
 */
export function tableSlot(doc, name, { describe, after = () => [] } = {}) {
  const view = tableView(doc, { describe, present: (table) => [presentTable(doc, table, { describe }), ...after(table)] });
  return {
    /**
     * Shows the table `spec` describes: patched into the one on screen, or built in its place.
     * @param {TableSpec} spec
     * @returns {HTMLTableElement}
     */
    show(spec) {
      const onScreen = view.table !== null && slot(doc, name).contains(view.table);
      const nodes = view.show(spec, { onScreen });
      if (nodes) fillSlot(doc, name, ...nodes);
      return view.table;
    },
  };
}
