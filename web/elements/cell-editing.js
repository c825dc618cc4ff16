// A reader's edits of the Q, K and V text fields of an editable step
// (<input data-matrix data-row data-col>), one behaviour wherever the step is shown: in an
// author's article or on the walkthrough page. A typed number goes to the model at once and
// every table showing it follows. Text that is not a finite number, or a number the core
// refuses, is refused on that cell with a message naming the cell, and the last good state
// stays on screen; leaving a refused cell (or pressing Escape) puts the good value back. While
// the reader types in one cell the model hears one edit ('push', then 'replace'), so a page
// that keeps a history gets one entry per edited cell, not one per keystroke.

import { parseNumberText } from './element-config.js';
import { quoteTyped } from '../state/quote-text.js';
import { formatEditable } from '../views/step-views.js';
import { largeNumbersNote } from '../views/step-tables.js';
import { quotedToken } from '../views/token-text.js';

const KEEPS = / The cell keeps .*$/u;

/** "q2 of “cat”": a cell as the messages name it. */
export const cellName = (matrix, col, token) => `${matrix}${col} of ${quotedToken(token)}`;

/** Why typed text is no number: empty, too large to be finite, or not a number at all. */
export function notANumber(text) {
  const trimmed = String(text).trim();
  if (trimmed === '') return 'An empty cell is not a number';
  const numeric = /^[-+\u2212\u2013]?(?:\d+[.,]?\d*|[.,]\d+)(?:[eE][+-]?\d+)?$/u.test(trimmed);
  return `${quoteTyped(trimmed)} is not a ${numeric ? 'finite ' : ''}number`;
}

/**
 * Listens for edits in `root` (a shadow root, or an element: events from a light-DOM frame pass
 * through the slot that shows it).
 * @param {EventTarget} root
 * @param {{model: () => import('./attention-model.js').AttentionModel | null,
 *          say: (text: string | null, options?: {kind?: 'refused' | 'note', input?: HTMLInputElement}) => void,
 *          message: () => HTMLElement}} host
 *        model: the model edited; say: shows (null: clears) the edit message, marking which
 *        cell it describes; message: the message element (its text, to say "back to")
 */
export function listenForCellEdits(root, host) {
  // The cell being edited, and whether its edit already reached the model.
  let editing = { input: null, recorded: false };

  const cellOf = (event) => {
    const input = event.target;
    if (!input?.matches?.('input[data-matrix]')) return null;
    return { input, matrix: input.dataset.matrix, row: Number(input.dataset.row), col: Number(input.dataset.col) };
  };
  const goodText = ({ matrix, row, col }) => formatEditable(host.model().trace[matrix][row][col]);
  const nameOf = ({ matrix, row, col }) => cellName(matrix, col, host.model()?.trace?.tokens[row] ?? String(row));

  function refuse(cell, text) {
    cell.input.setAttribute('aria-invalid', 'true');
    host.say(`${nameOf(cell)}: ${text} The cell keeps ${goodText(cell)} and nothing else changed.`,
      { kind: 'refused', input: cell.input });
  }

  root.addEventListener('input', (event) => {
    const cell = cellOf(event);
    const model = host.model();
    if (!cell || !model?.trace) return;
    const value = parseNumberText(cell.input.value);
    if (value === null) {
      refuse(cell, `${notANumber(cell.input.value)}, so it was not used.`);
      return;
    }
    const history = editing.input === cell.input && editing.recorded ? 'replace' : 'push';
    const problem = model.editCell(cell.matrix, cell.row, cell.col, value, { history });
    if (problem) {
      refuse(cell, `${problem.detail}.`);
      return;
    }
    editing = { input: cell.input, recorded: true };
    cell.input.removeAttribute('aria-invalid');
    cell.input.removeAttribute('aria-describedby');
    const note = largeNumbersNote(model.trace);
    host.say(note, { kind: 'note', input: note ? cell.input : undefined });
  });

  // Leaving a cell writes its value the way the tables write numbers ("0,25" becomes "0.25");
  // leaving a refused cell puts its good value back, and the message stays, saying so.
  root.addEventListener('change', (event) => {
    const cell = cellOf(event);
    if (!cell || !host.model()?.trace) return;
    cell.input.value = goodText(cell);
    if (cell.input.getAttribute('aria-invalid') !== 'true') return;
    cell.input.removeAttribute('aria-invalid');
    const refusal = host.message().textContent.replace(KEEPS, '');
    host.say(`${refusal} The cell is back to ${cell.input.value}.`, { kind: 'refused', input: cell.input });
  });

  root.addEventListener('keydown', (event) => {
    const cell = cellOf(event);
    if (event.key !== 'Escape' || !cell || !host.model()?.trace) return;
    cell.input.value = goodText(cell);
    cell.input.removeAttribute('aria-invalid');
    cell.input.removeAttribute('aria-describedby');
    host.say(null);
  });

  root.addEventListener('focusout', (event) => {
    if (cellOf(event)) editing = { input: null, recorded: false };
  });
}
