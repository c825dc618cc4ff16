// Pointing at a computed cell, or moving to it with the keyboard, shows under its table how
// the core got that number (cell-workings.js) and highlights the cells it was computed from.
// One behaviour for part one's page and for the elements: `container` is where cells are
// pointed at (the page's <main>, or an element's body in its shadow root), and the caller says
// where a cell's working goes and which trace it belongs to (a page may show several: the
// reader's example and the article's own four-token one).

import { hideOpenAnswers } from './blank-echoes.js';
import { WORKINGS, cellOf } from './cell-workings.js';
import { element } from './page-slots.js';

/** What a working panel says before a cell is chosen. */
export const WORKING_HINT = 'Point at a number in a table of this step, or move to it with the arrow keys, to see how it was worked out.';

/** An empty working panel: the hint, read out politely when a working replaces it. */
export function workingPanel(doc) {
  const panel = element(doc, 'div', 'cell-working');
  panel.setAttribute('aria-live', 'polite');
  panel.setAttribute('part', 'working');
  panel.append(element(doc, 'p', 'cell-working-hint', WORKING_HINT));
  return panel;
}

/**
 * @param {Element} container  where cells are pointed at; its cells are highlighted
 * @param {{trace: (td: HTMLTableCellElement) => object | null,
 *          panelFor: (td: HTMLTableCellElement) => Element | null}} options
 *        trace: the trace a cell shows (null: none to work from); panelFor: the panel a cell's
 *        working goes to (null: none)
 */
export function showWorkingsOnPoint(container, { trace, panelFor }) {
  const doc = container.ownerDocument;
  let selected = null;  // {cell, panel}

  function clearHighlights() {
    for (const node of container.querySelectorAll('.source-cell, .selected-cell')) node.classList.remove('source-cell', 'selected-cell');
  }

  // Marks the cells a working read: those of the tables named in `sources` that show the same
  // trace as the pointed cell (a table of another example is no source of it); a source named
  // as the pointed cell's own table is that table only.
  function highlight(sources, td, shown) {
    clearHighlights();
    td?.classList.add('selected-cell');
    const own = td?.closest('table[data-table]') ?? null;
    for (const [table, row, col] of sources) {
      const rows = row === null ? '' : `[data-row="${row}"]`;
      const cols = col === null ? '' : `[data-col="${col}"]`;
      const tables = own?.dataset.table === table ? [own] : container.querySelectorAll(`table[data-table="${table}"]`);
      for (const cell of [...tables].flatMap((found) => [...found.querySelectorAll(`td${rows}${cols}`)])) {
        if ((!cell.closest('tfoot') || row === null) && trace(cell) === shown) cell.classList.add('source-cell');
      }
    }
  }

  function show(td) {
    const found = cellOf(td);
    const shown = found && trace(td);
    if (!shown) return;
    const panel = panelFor(td);
    const working = panel && WORKINGS[found.kind](doc, shown, found.cell);
    if (!working) return;
    working.node.classList.add('cell-working-body');
    panel.replaceChildren(working.node);
    hideOpenAnswers(panel);
    highlight(working.sources, td, shown);
    selected = { cell: found.cell, panel };
  }

  // The pointer counts when it moves onto a cell, not when the page scrolls a cell under a
  // pointer standing still (which would undo what the keyboard just chose); a tap focuses.
  let pointed = null;
  const onPoint = (event) => {
    const td = event.target.closest?.('td.num');
    // A blank of pencil mode keeps its working to itself: its hints reveal it step by step.
    if (!td || !container.contains(td) || td.dataset.blank !== undefined) return;
    if (event.type === 'pointermove') {
      if (td === pointed) return;
      pointed = td;
    }
    show(td);
  };
  container.addEventListener('pointermove', onPoint);
  container.addEventListener('focusin', onPoint);

  return {
    /** Tables were redrawn: show the selected cell's working again with the new numbers. */
    refresh() {
      if (!selected) return;
      const { cell, panel } = selected;
      const table = container.querySelector(`table[data-table="${cell.table}"]`);
      const section = cell.footer ? 'tfoot' : 'tbody';
      const rowPart = cell.row === null ? '' : `[data-row="${cell.row}"]`;
      const colPart = cell.col === null ? '' : `[data-col="${cell.col}"]`;
      const extraPart = cell.extra ? '.extra' : '';
      const td = table?.querySelector(`${section} td.num${rowPart}${colPart}${extraPart}`);
      if (td && (table.dataset.row === undefined || Number(table.dataset.row) === cell.tableRow)) {
        show(td);
      } else {
        clearHighlights();
        panel.replaceChildren(element(doc, 'p', 'cell-working-hint', WORKING_HINT));
        selected = null;
      }
    },
  };
}
