// The working behind a cell of the sequel's tables: pointing at a cell, or moving to it with the
// keyboard, shows under its group of tables how the core got that number (the bill's formula
// with its figures, a tile's rescale factor, a code of the quantised cache). The numbers in a
// working are the core's; a working only lays them out, with the `doc` it was given.
//
// Each table is one stop of the Tab key; inside it the arrow keys move between the cells that
// have a working (cell-navigation.js, walking `td.has-working` and inputs), so a page of many
// tables does not become hundreds of stops.

import { hideOpenAnswers } from '../blank-echoes.js';

/**
 * @typedef {object} Working
 * @property {string} title          what the cell is, e.g. "bytes per token per layer, Llama 3 8B"
 * @property {(string|Node)[]} lines each line starts with "=" when shown
 */

/** A working block: the title, then one "= …" line per step, the last one in bold. */
export function renderWorkingBlock(doc, { title, lines }) {
  const block = doc.createElement('div');
  block.className = 'working';
  block.setAttribute('part', 'working');
  const heading = doc.createElement('p');
  heading.className = 'working-title';
  heading.textContent = title;
  block.append(heading);
  lines.forEach((line, index) => {
    const p = doc.createElement('p');
    p.className = 'working-line';
    const equals = doc.createElement('span');
    equals.className = 'equals';
    equals.textContent = '=';
    const body = doc.createElement(index === lines.length - 1 ? 'strong' : 'span');
    body.className = 'term';
    body.append(line);
    p.append(equals, ' ', body);
    block.append(p);
  });
  return block;
}

/**
 * What one element's tables register their workings with, and the behaviour that shows them.
 * `container` is the element's body (inside its shadow root); each group of tables that shares
 * a working panel is marked with the class `working-host` and holds one `.cell-working` panel.
 */
export class WorkingRegistry {
  #workings = new WeakMap();  // td -> () => Working
  #container;
  #selected = null;           // {host, key} of the cell last shown, to show it again after a redraw

  /** @param {HTMLElement} container */
  constructor(container) {
    this.#container = container;
    const show = (event) => {
      const cell = event.target.closest?.('td');
      // A blank of pencil mode keeps its working to itself: its hints reveal it step by step.
      if (cell && cell.dataset.blank === undefined && this.#workings.has(cell)) this.#show(cell);
    };
    container.addEventListener('mouseover', show);
    container.addEventListener('focusin', show);
  }

  /**
   * Gives `cell` a working, computed when it is first shown.
   * @param {HTMLTableCellElement} cell
   * @param {() => Working | Node | null} working
   * @param {string} key  names the cell across redraws (e.g. "bill/model/bytes_per_token")
   */
  register(cell, working, key) {
    this.#workings.set(cell, working);
    cell.dataset.working = key;
    cell.classList.add('has-working');
  }

  /** A panel for the workings of the cells inside `host`. */
  static panel(doc, hint) {
    const panel = doc.createElement('div');
    panel.className = 'cell-working';
    panel.setAttribute('aria-live', 'polite');
    const p = doc.createElement('p');
    p.className = 'cell-working-hint';
    p.textContent = hint;
    panel.append(p);
    return panel;
  }

  #show(cell) {
    const host = cell.closest('.working-host');
    const panel = host?.querySelector(':scope > .cell-working');
    const working = this.#workings.get(cell)?.();
    if (!panel || !working) return;
    // A working is {title, lines}, or a node already laid out (element-views.js's renderWorking).
    panel.replaceChildren(typeof working.nodeType === 'number' ? working : renderWorkingBlock(cell.ownerDocument, working));
    hideOpenAnswers(panel);
    for (const node of this.#container.querySelectorAll('td.selected-cell')) node.classList.remove('selected-cell');
    cell.classList.add('selected-cell');
    this.#selected = cell.dataset.working;
  }

  /** After a redraw: shows the working of the cell that was selected, if it is still there. */
  restore() {
    if (!this.#selected) return;
    const cell = [...this.#container.querySelectorAll('td[data-working]')]
      .find((node) => node.dataset.working === this.#selected);
    if (cell && this.#workings.has(cell)) this.#show(cell);
    else this.#selected = null;
  }
}
