// Builds the walkthrough's tables as real HTML tables from a matrix, its row and column labels
// and a formatter. Renderers only build elements with the `doc` they are given: they never look
// anything up in a page, and labels always go in as text (textContent), never as markup.
// The values arrive computed; a renderer only decides how a cell looks.

import { shadeBands, shadeLevel } from './format.js';
import { element } from './page-slots.js';

/**
 * @typedef {object} ExtraColumn  a column after the matrix, one value per row (e.g. a row sum)
 * @property {string} label
 * @property {number[]} values
 * @property {(value: number) => string} format
 * @property {string} [className]
 *
 * @typedef {object} FooterRow  a row under the matrix (e.g. a total); null leaves a cell empty
 * @property {string} label
 * @property {(number|null)[]} values  one per matrix column, then one per extra column
 * @property {(value: number) => string} format
 *
 * @typedef {object} MatrixTableOptions
 * @property {string} caption      names the step, e.g. "Step 1 · scores: q · k"
 * @property {string} name         data-table attribute, a stable handle for the page and tests
 * @property {string[]} rowLabels
 * @property {string[]} columnLabels
 * @property {((value: number, row: number, col: number) => string) | ((value: number) => string)[]} format
 *           one formatter for every cell, or one per column
 * @property {string} [corner]     text of the header cell above the row labels
 * @property {(row: number, col: number) => boolean} [isMasked]  cells the mask removed
 * @property {{levels: number, weight: (row: number, col: number) => number}} [shade]
 *           shades live cells by weight on a ramp of `levels` bands
 * @property {ExtraColumn[]} [extraColumns]
 * @property {FooterRow[]} [footerRows]
 * @property {string} [className]
 */

// Sets a node's attributes (a header's scope, a region's role and label) and returns it.
function withAttributes(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/**
 * A span read by screen readers but not shown, e.g. "masked" next to a −∞.
 * @param {Document} doc
 * @param {string} text
 */
export function visuallyHidden(doc, text) {
  return element(doc, 'span', 'visually-hidden', text);
}

function numberCell(doc, text, { row, col, className } = {}) {
  const cell = element(doc, 'td', className ? `num ${className}` : 'num');
  if (row !== undefined) cell.dataset.row = String(row);
  if (col !== undefined) cell.dataset.col = String(col);
  cell.append(element(doc, 'span', 'value', text));
  return cell;
}

function cellFormatter(format, col) {
  if (Array.isArray(format)) {
    const columnFormat = format[col];
    if (typeof columnFormat !== 'function') throw new TypeError(`no formatter for column ${col}`);
    return columnFormat;
  }
  return format;
}

/**
 * A <table> of `matrix` (rows × columns) with a caption, column and row headers, and the
 * options' masking, shading, extra columns and footer rows.
 * @param {Document} doc
 * @param {ArrayLike<ArrayLike<number>>} matrix
 * @param {MatrixTableOptions} options
 * @returns {HTMLTableElement}
 */
export function renderMatrixTable(doc, matrix, options) {
  const {
    caption, name, rowLabels, columnLabels, format, corner = '',
    isMasked, shade, extraColumns = [], footerRows = [], className,
  } = options;
  if (matrix.length !== rowLabels.length) {
    throw new RangeError(`${name}: ${matrix.length} rows but ${rowLabels.length} row labels`);
  }

  const table = element(doc, 'table', ['matrix', className].filter(Boolean).join(' '));
  table.dataset.table = name;
  table.append(element(doc, 'caption', undefined, caption));

  const head = element(doc, 'thead');
  const headRow = element(doc, 'tr');
  headRow.append(withAttributes(element(doc, 'th', 'corner', corner), { scope: 'col' }));
  for (const label of columnLabels) {
    headRow.append(withAttributes(element(doc, 'th', undefined, label), { scope: 'col' }));
  }
  for (const extra of extraColumns) {
    headRow.append(withAttributes(element(doc, 'th', ['extra', extra.className].filter(Boolean).join(' '), extra.label), { scope: 'col' }));
  }
  head.append(headRow);
  table.append(head);

  const body = element(doc, 'tbody');
  Array.from(matrix).forEach((values, row) => {
    if (values.length !== columnLabels.length) {
      throw new RangeError(`${name}: row ${row} has ${values.length} values for ${columnLabels.length} columns`);
    }
    const tr = element(doc, 'tr');
    tr.append(withAttributes(element(doc, 'th', undefined, rowLabels[row]), { scope: 'row' }));
    Array.from(values).forEach((value, col) => {
      const cell = numberCell(doc, cellFormatter(format, col)(value, row, col), { row, col });
      if (isMasked?.(row, col)) {
        cell.classList.add('masked');
        cell.dataset.masked = 'true';
        cell.append(visuallyHidden(doc, ' masked'));
      } else if (shade) {
        const level = shadeLevel(shade.weight(row, col), shade.levels);
        cell.classList.add('shaded', `shade-${level}`);
        cell.dataset.shade = String(level);
      }
      tr.append(cell);
    });
    for (const extra of extraColumns) {
      tr.append(numberCell(doc, extra.format(extra.values[row]), {
        row,
        className: ['extra', extra.className].filter(Boolean).join(' '),
      }));
    }
    body.append(tr);
  });
  table.append(body);

  if (footerRows.length > 0) {
    const foot = element(doc, 'tfoot');
    for (const footer of footerRows) {
      const tr = element(doc, 'tr');
      tr.append(withAttributes(element(doc, 'th', undefined, footer.label), { scope: 'row' }));
      footer.values.forEach((value, col) => {
        tr.append(value === null || value === undefined
          ? element(doc, 'td')
          : numberCell(doc, footer.format(value), { col }));
      });
      foot.append(tr);
    }
    table.append(foot);
  }
  return table;
}

/**
 * Wraps a table so that it scrolls sideways on a narrow screen instead of overflowing the
 * page; the wrapper can take keyboard focus so that the scrolling works without a pointer.
 * @param {Document} doc
 * @param {HTMLTableElement} table
 * @param {string} label  what the region holds, for screen readers
 */
export function renderScrollable(doc, table, label) {
  const wrapper = withAttributes(element(doc, 'div', 'table-scroll'), { role: 'region', tabindex: '0', 'aria-label': label });
  wrapper.append(table);
  return wrapper;
}

/**
 * The key to a shaded grid: one swatch per band of the ramp, with its range written out, and
 * the hatched swatch for masked cells.
 * @param {Document} doc
 * @param {{levels: number, decimals?: number, title: string, maskedLabel: string}} options
 */
export function renderShadeLegend(doc, { levels, decimals = 1, title, maskedLabel }) {
  const figure = element(doc, 'figure', 'legend');
  figure.append(element(doc, 'figcaption', undefined, title));
  const list = element(doc, 'ul', 'legend-swatches');
  for (const band of shadeBands(levels, decimals)) {
    const item = element(doc, 'li');
    item.append(
      withAttributes(element(doc, 'span', `swatch shaded shade-${band.level}`), { 'aria-hidden': 'true' }),
      element(doc, 'span', 'swatch-label', `${band.from}\u2013${band.to}`),
    );
    list.append(item);
  }
  const masked = element(doc, 'li');
  masked.append(
    withAttributes(element(doc, 'span', 'swatch masked'), { 'aria-hidden': 'true' }),
    element(doc, 'span', 'swatch-label', maskedLabel),
  );
  list.append(masked);
  figure.append(list);
  return figure;
}
