// Every table the page shows goes through here: its cells get names for screen readers and
// arrow-key movement, it scrolls inside its own box on a narrow screen, and it gets the
// "Copy table" menu. Shown again for a new trace, a table is patched in place (live-table.js).

import { labelCells, makeCellsNavigable } from './cell-navigation.js';
import { tableTools } from './table-tools.js';
import { element, fillSlot, scrollable, slot } from './page-slots.js';
import { buildTable, tableView } from './live-table.js';

export { buildTable } from './live-table.js';

/** @typedef {import('./live-table.js').TableSpec} TableSpec */

/**
 * A table whose number cells the arrow keys walk (the table one Tab stop), in a box that
 * scrolls sideways. The box is no Tab stop of its own: every number cell takes focus and
 * scrolls it into view. (Part two's tables walk only the cells with a working, so their boxes
 * keep their stop: a column without one could not be scrolled to otherwise.)
 * @param {Document} doc
 * @param {HTMLTableElement} table
 * @returns {HTMLElement} the box
 */
export function navigableScroller(doc, table) {
  makeCellsNavigable(table);
  const scroller = scrollable(doc, table);
  if (table.classList.contains('navigable')) scroller.removeAttribute('tabindex');
  return scroller;
}

/**
 * A built table as the page shows it: its cells named for screen readers and walked with the
 * arrow keys, in a box that scrolls sideways, with the "Copy table" menu.
 * @param {Document} doc
 * @param {HTMLTableElement} table
 * @param {{describe?: import('./cell-navigation.js').DescribeCell}} [options]
 * @returns {HTMLElement}
 */
export function presentTable(doc, table, { describe } = {}) {
  labelCells(table, describe);
  const scroller = navigableScroller(doc, table);
  const block = element(doc, 'div', 'table-block');
  block.append(scroller, tableTools(doc, table));
  return block;
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
