// The Q, K and V tables as the reader's inputs: every cell is a text field. A typed number goes
// to the core at once and every table downstream follows; text that is not a finite number, or
// a number the core refuses, is refused on that cell with a message, and the last good state
// stays on screen. While the reader types in one cell the history gets one entry for the
// whole edit, not one per keystroke.

import { parseNumberText } from '../web/elements/element-config.js';
import { formatEditable } from '../web/views/step-views.js';
import { formatFixed } from '../web/views/format.js';
import { element, fillSlot } from '../web/views/page-slots.js';
import { componentLabels } from '../web/views/step-tables.js';
import { withCell } from '../web/state/page-state.js';
import { renderMatrixTable } from '../web/views/render-tables.js';
import { presentTable } from '../web/views/table-block.js';

const CAPTIONS = {
  q: 'Q \u00b7 queries: what each token is looking for',
  k: 'K \u00b7 keys: what each token offers to be found by',
  v: 'V \u00b7 values: what each token hands over',
};
const MATRICES = ['q', 'k', 'v'];

const cellName = (matrix, col, token) => `${matrix}${col} of ${token}`;

// "q[1][3]: is 1e30, outside the allowed range of ±1e15" -> "is 1e30, outside the allowed range of ±1e15"
const withoutPath = (message) => message.replace(/^[a-z_]+(?:\[\d+\])*: /u, '');

/**
 * What the page says when the reader's numbers are so large that a row's e^x would overflow
 * (1e6, say): the weights are still finite, and the core's row sums show it. Null otherwise.
 */
export function largeNumbersNote(trace) {
  const rows = trace.tokens.map((_, i) => i).filter((i) => trace.row_shifted[i]);
  if (rows.length === 0) return null;
  return `Large numbers: the scores of ${rows.map((i) => trace.tokens[i]).join(', ')} are too large ` +
    'for e\u02e3 in a 32-bit float, so the core subtracted each such row\u2019s largest score first. ' +
    'Every weight is still finite and each row still adds up to one (row sums ' +
    `${rows.map((i) => formatFixed(trace.weight_sums[i], 4)).join(', ')}).`;
}

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 */
export function createInputTables(doc, session) {
  let shape = null;
  /** @type {Record<string, {table: HTMLTableElement, message: HTMLElement}>} */
  let views = {};
  // The cell being edited, and whether its edit already has a history entry.
  let editing = { input: null, recorded: false };

  const say = (matrix, text, kind) => {
    const { message } = views[matrix];
    message.textContent = text ?? '';
    message.hidden = !text;
    message.dataset.kind = kind ?? '';
  };

  const goodText = (input) => {
    const { matrix, row, col } = input.dataset;
    return formatEditable(session.state[matrix][Number(row)][Number(col)]);
  };

  function refuse(input, text) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', views[input.dataset.matrix].message.id);
    say(input.dataset.matrix, text, 'refused');
  }

  function accept(input) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    say(input.dataset.matrix, largeNumbersNote(session.trace), 'note');
  }

  function onInput(event) {
    const input = event.target;
    if (!input.matches('input[data-matrix]')) return;
    const { matrix } = input.dataset;
    const row = Number(input.dataset.row);
    const col = Number(input.dataset.col);
    const name = cellName(matrix, col, session.state.tokens[row]);
    const value = parseNumberText(input.value);
    if (value === null) {
      const shown = input.value.trim() === '' ? 'An empty cell' : `\u201c${input.value.trim().slice(0, 24)}\u201d`;
      refuse(input, `${name}: ${shown} is not a finite number, so it was not used. The cell keeps ` +
        `${goodText(input)} and nothing else changed.`);
      return;
    }
    const history = editing.input === input && editing.recorded ? 'replace' : 'push';
    const problem = session.propose(withCell(session.state, matrix, row, col, value), { history, origin: 'cell' });
    if (problem) {
      refuse(input, `${name}: ${withoutPath(problem)}. The cell keeps ${goodText(input)} and nothing else changed.`);
      return;
    }
    editing = { input, recorded: true };
    accept(input);
  }

  // Leaving a cell writes its value the way the page writes numbers ("0,25" becomes "0.25");
  // leaving a refused cell puts its good value back, and the message stays, saying so.
  function onChange(event) {
    const input = event.target;
    if (!input.matches('input[data-matrix]')) return;
    if (input.getAttribute('aria-invalid') !== 'true') {
      input.value = goodText(input);
      return;
    }
    input.value = goodText(input);
    input.removeAttribute('aria-invalid');
    const { message } = views[input.dataset.matrix];
    message.textContent = `${message.textContent.replace(/ The cell keeps .*$/u, '')} The cell is back to ${input.value}.`;
  }

  function onKeydown(event) {
    const input = event.target;
    if (event.key !== 'Escape' || !input.matches('input[data-matrix]')) return;
    input.value = goodText(input);
    input.removeAttribute('aria-invalid');
    say(input.dataset.matrix, null);
  }

  function build(trace) {
    views = {};
    for (const matrix of MATRICES) {
      const table = renderMatrixTable(doc, trace[matrix], {
        name: matrix,
        caption: CAPTIONS[matrix],
        corner: 'token',
        rowLabels: trace.tokens,
        columnLabels: componentLabels(matrix, trace.head_dim),
        format: (value) => formatEditable(value),
      });
      table.classList.add('editable');
      for (const cell of table.querySelectorAll('td[data-row][data-col]')) {
        const input = element(doc, 'input', 'cell-input');
        // A plain text field: a phone's decimal keypad often has no minus sign, and half the
        // article's numbers are negative.
        Object.assign(input, { type: 'text', spellcheck: false, autocomplete: 'off' });
        input.size = 6;
        input.dataset.matrix = matrix;
        input.dataset.row = cell.dataset.row;
        input.dataset.col = cell.dataset.col;
        cell.replaceChildren(input);
      }
      const message = element(doc, 'p', 'edit-message');
      message.id = `edit-message-${matrix}`;
      message.setAttribute('aria-live', 'polite');
      message.hidden = true;
      views[matrix] = { table, message };
      const block = presentTable(doc, table);
      block.append(message);
      fillSlot(doc, `table-${matrix}`, block);
    }
  }

  // Values, token names and labels brought up to date in place, so that the cell being typed
  // in keeps its focus and its text.
  let labelled = null;  // the tokens the row headers and the cells' names were written for
  function refresh(trace) {
    const active = doc.activeElement;
    const relabel = labelled === null || labelled.length !== trace.tokens.length ||
      labelled.some((token, i) => token !== trace.tokens[i]);
    labelled = [...trace.tokens];
    for (const matrix of MATRICES) {
      const { table } = views[matrix];
      if (relabel) {
        Array.from(table.tBodies[0].rows).forEach((tr, row) => {
          tr.cells[0].textContent = trace.tokens[row];
        });
      }
      for (const input of table.querySelectorAll('input[data-matrix]')) {
        const row = Number(input.dataset.row);
        const col = Number(input.dataset.col);
        if (relabel) input.setAttribute('aria-label', cellName(matrix, col, trace.tokens[row]));
        if (input === active) continue;
        const text = formatEditable(trace[matrix][row][col]);
        if (input.value !== text) input.value = text;
        if (input.hasAttribute('aria-invalid')) input.removeAttribute('aria-invalid');
      }
    }
  }

  return {
    /**
     * Shows the session's trace: new tables when the shape changed, else values in place.
     * After an edit of one cell there is nothing to bring up to date: that cell holds what the
     * reader typed, and no other input changed.
     */
    render(trace, origin) {
      const key = `${trace.token_count}\u00d7${trace.head_dim}`;
      if (key !== shape) {
        build(trace);
        shape = key;
        labelled = null;
        for (const { table } of Object.values(views)) {
          table.addEventListener('input', onInput);
          table.addEventListener('change', onChange);
          table.addEventListener('keydown', onKeydown);
          table.addEventListener('focusout', () => { editing = { input: null, recorded: false }; });
        }
      } else if (origin === 'cell') {
        return;
      }
      refresh(trace);
      // A change from elsewhere (reset, a link, back) ends any refusal shown on a cell.
      if (doc.activeElement?.dataset?.matrix === undefined) {
        for (const matrix of MATRICES) if (views[matrix].message.dataset.kind === 'refused') say(matrix, null);
      }
    },
  };
}
