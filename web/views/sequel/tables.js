// The table builders every sequel view uses: a matrix of the core's numbers (render-tables.js's
// table, with workings on its cells and arrow-key movement), a table of figures with a unit or
// a word in a cell (the bill), groups of tables that share a working panel, and small text
// pieces. Everything is built with the `doc` given; every number arrives computed.

import { fixed, formatFixed, formatProduct } from '../format.js';
import { element } from '../page-slots.js';
import { renderMatrixTable, renderScrollable } from '../render-tables.js';
import { WorkingRegistry } from './working.js';
import { makeCellsNavigable } from '../cell-navigation.js';

/** Decimals as the sequel prints them: inputs and projections at 3, shares and outputs at 4. */
export const SEQUEL_DECIMALS = Object.freeze({ matrix: 3, weight: 4, out: 4 });

export const WORKING_HINT = 'Point at a number underlined with dots, or move to it with the arrow keys, to see how it was worked out.';

export { fixed };
export const labels = (prefix, count) => Array.from({ length: count }, (_, c) => `${prefix}${c}`);

/** Marks a table for ::part styling and wraps it in a box that scrolls on a narrow screen. */
export function scrollable(doc, table) {
  table.setAttribute('part', 'table');
  table.caption?.setAttribute('part', 'caption');
  return renderScrollable(doc, table, table.caption?.textContent ?? 'table');
}

/**
 * A matrix table (renderMatrixTable's options) whose body cells may carry a working.
 * @param {Document} doc
 * @param {WorkingRegistry | null} registry
 * @param {ArrayLike<ArrayLike<number>>} matrix
 * @param {import('../render-tables.js').MatrixTableOptions & {
 *          working?: (row: number, col: number) => import('./working.js').Working | null}} options
 */
export function matrixBlock(doc, registry, matrix, options) {
  const { working, ...tableOptions } = options;
  const table = renderMatrixTable(doc, matrix, tableOptions);
  if (working && registry) {
    for (const cell of table.querySelectorAll('tbody td[data-row][data-col]')) {
      const row = Number(cell.dataset.row);
      const col = Number(cell.dataset.col);
      registry.register(cell, () => working(row, col), `${options.name}/${row}/${col}`);
    }
  }
  makeCellsNavigable(table, { cells: 'td.has-working, td input' });
  return scrollable(doc, table);
}

/**
 * @typedef {object} FigureCell
 * @property {string} text          the printed figure or word
 * @property {string} [unit]        a second line in the cell ("1.00 GiB")
 * @property {boolean} [number]     right-aligned figure (default true)
 * @property {string} [className]
 * @property {string} [hidden]      read by screen readers after the text
 * @property {() => import('./working.js').Working | null} [working]
 * @property {Node} [node]          shown instead of the text (a link)
 *
 * @typedef {object} FigureRow
 * @property {string} label
 * @property {string} key           names the row (data-key) for the page and tests
 * @property {FigureCell[]} cells
 */

/**
 * A table of figures: one row per quantity, one column per subject (a model, a variant).
 * @param {Document} doc
 * @param {WorkingRegistry | null} registry
 * @param {{name: string, caption: string, corner: string, columns: string[], rows: FigureRow[],
 *          columnKeys?: string[], className?: string}} options
 */
export function figureTable(doc, registry, { name, caption, corner, columns, rows, columnKeys, className }) {
  const table = element(doc, 'table', ['matrix', 'figures', className].filter(Boolean).join(' '));
  table.dataset.table = name;
  table.append(element(doc, 'caption', undefined, caption));
  const head = element(doc, 'thead');
  const headRow = element(doc, 'tr');
  const corner_ = element(doc, 'th', 'corner', corner);
  corner_.scope = 'col';
  headRow.append(corner_);
  columns.forEach((label, index) => {
    const th = element(doc, 'th', undefined, label);
    th.scope = 'col';
    if (columnKeys) th.dataset.key = columnKeys[index];
    headRow.append(th);
  });
  head.append(headRow);
  const body = element(doc, 'tbody');
  rows.forEach((row, rowIndex) => {
    const tr = element(doc, 'tr');
    tr.dataset.key = row.key;
    const th = element(doc, 'th', undefined, row.label);
    th.scope = 'row';
    tr.append(th);
    row.cells.forEach((cell, col) => {
      const td = element(doc, 'td', [cell.number === false ? 'text' : 'num', cell.className].filter(Boolean).join(' '));
      td.dataset.row = String(rowIndex);
      td.dataset.col = String(col);
      if (columnKeys) td.dataset.column = columnKeys[col];
      if (cell.node) {
        td.append(cell.node);
      } else {
        td.append(element(doc, 'span', 'value', cell.text));
      }
      if (cell.unit) td.append(element(doc, 'span', 'unit', cell.unit));
      if (cell.hidden) td.append(element(doc, 'span', 'visually-hidden', cell.hidden));
      if (cell.working && registry) registry.register(td, cell.working, `${name}/${row.key}/${col}`);
      tr.append(td);
    });
    body.append(tr);
  });
  table.append(head, body);
  makeCellsNavigable(table, { cells: 'td.has-working, td input' });
  return scrollable(doc, table);
}

/**
 * A group of tables sharing one working panel: a title, the tables side by side (wrapping),
 * then the panel.
 * @param {Document} doc
 * @param {{title?: string | Node[], className?: string, key?: string, tables: Node[], notes?: Node[], working?: boolean}} options
 */
export function tableGroup(doc, { title, className = 'part', key, tables, notes = [], working = true }) {
  const group = element(doc, 'div', [className, working ? 'working-host' : ''].filter(Boolean).join(' '));
  if (key) group.dataset.part = key;
  if (title) {
    const heading = element(doc, 'p', 'part-title');
    heading.append(...[title].flat());
    group.append(heading);
  }
  group.append(...notes);
  const row = element(doc, 'div', 'tables');
  row.append(...tables);
  group.append(row);
  if (working) group.append(WorkingRegistry.panel(doc, WORKING_HINT));
  return group;
}

/** A paragraph of text pieces (strings and nodes). */
export function paragraph(doc, className, ...parts) {
  const p = element(doc, 'p', className);
  p.append(...parts);
  return p;
}

/** "0, 1 and 2". */
export function listWords(items) {
  const words = items.map(String);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * The working of a row times a column: the factors side by side, then the core's result (the
 * products are not listed: the core keeps only their sum).
 */
export function dotWorking(title, row, column, result, decimals = SEQUEL_DECIMALS.matrix, resultDecimals = SEQUEL_DECIMALS.matrix) {
  const factors = row.map((value, c) => formatProduct(value, column[c], decimals)).join(' + ');
  return { title, lines: [factors, formatFixed(result, resultDecimals)] };
}
