// What <attention-layer-inputs> draws: the tokens and seed fields, the "Back to the seeded
// vectors" button, and the token vectors X as a table of
// fields (one Tab stop, the arrow keys between its fields). Every number arrives computed (the
// core's X, seeded or the reader's own); a redraw of the same shape writes the numbers into the
// fields already there, so that the field a reader has just left, and the one they moved to,
// keep their place and focus.

import { makeCellsNavigable } from '../cell-navigation.js';
import { element } from '../page-slots.js';
import { renderMatrixTable } from '../render-tables.js';
import { scrollable, labels } from './tables.js';
import { counted, formatCompact } from '../format.js';

/** A token vector's number as its field shows it (and as a refusal says the cell keeps it). */
export const formatVectorValue = (value) => formatCompact(value, 6);

/**
 * The fields and the button: built once, filled by the element.
 * @param {Document} doc
 */
export function renderLayerFields(doc) {
  const fields = element(doc, 'div', 'controls layer-fields');
  fields.setAttribute('part', 'controls');
  const field = (text, attributes) => {
    const label = element(doc, 'label');
    const input = element(doc, 'input');
    for (const [name, value] of Object.entries(attributes)) input.setAttribute(name, value);
    input.setAttribute('part', 'input');
    label.append(element(doc, 'span', undefined, text), ' ', input);
    fields.append(label);
    return input;
  };
  const tokens = field('Tokens', { type: 'text', 'data-control': 'tokens', autocomplete: 'off', spellcheck: 'false', class: 'wide' });
  const seed = field('Seed', { type: 'number', 'data-control': 'seed', min: '0', step: '1', inputmode: 'numeric', autocomplete: 'off' });
  const reset = element(doc, 'button', undefined, 'Back to the seeded vectors');
  reset.type = 'button';
  reset.dataset.control = 'reset';
  fields.append(reset);
  return { fields, tokens, seed, reset };
}

const caption = (layer, edited) =>
  `X \u00b7 the token vectors, ${counted(layer.d_model, 'number', 'numbers')} each${edited ? ' (edited)' : ` (seed ${layer.seed})`}`;

/**
 * X as a table of text fields, one per number, each labelled "x2 of the" for a screen reader.
 * @param {Document} doc
 * @param {{x: number[][], tokens: string[], d_model: number, seed: number}} layer
 * @param {boolean} edited  the reader's own vectors, not the seeded ones
 */
export function renderVectorTable(doc, layer, edited) {
  const table = renderMatrixTable(doc, layer.x, {
    name: 'x',
    caption: caption(layer, edited),
    corner: 'token',
    rowLabels: layer.tokens,
    columnLabels: labels('x', layer.d_model),
    format: formatVectorValue,
    className: 'editable',
  });
  for (const cell of table.querySelectorAll('td[data-row][data-col]')) {
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const input = element(doc, 'input', 'cell-input');
    Object.assign(input, { type: 'text', inputMode: 'decimal', spellcheck: false, autocomplete: 'off', size: 5 });
    input.value = formatVectorValue(layer.x[row][col]);
    input.dataset.row = String(row);
    input.dataset.col = String(col);
    input.setAttribute('aria-label', `x${col} of ${layer.tokens[row]}`);
    input.setAttribute('part', 'input');
    cell.replaceChildren(input);
  }
  // One Tab stop, the arrow keys between the fields: as part one's Q, K and V tables.
  makeCellsNavigable(table);
  return scrollable(doc, table);
}

/**
 * Writes a layer's X into a table drawn for the same tokens and width; false (nothing written)
 * when the shape or the tokens differ and the table must be drawn again.
 * @param {ParentNode} holder  where renderVectorTable's table is
 */
export function updateVectorTable(holder, layer, edited) {
  const table = holder.querySelector('table[data-table="x"]');
  if (!table) return false;
  const rows = [...table.tBodies[0].rows];
  const sameShape = rows.length === layer.tokens.length
    && rows.every((row, r) => row.cells[0].textContent === layer.tokens[r] && row.cells.length - 1 === layer.d_model);
  if (!sameShape) return false;
  for (const input of table.querySelectorAll('input[data-row][data-col]')) {
    input.value = formatVectorValue(layer.x[Number(input.dataset.row)][Number(input.dataset.col)]);
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
  table.caption.textContent = caption(layer, edited);
  return true;
}
