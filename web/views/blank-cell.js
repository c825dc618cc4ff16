// One computed cell of a table turned into a blank of pencil mode: where the cell is (the
// tables are the views' own, step-tables.js, found by their data-table names), what it is
// called, and the input, buttons, verdict and hint list it holds while it is blank. The cell's
// printed value stays in the page, hidden, under its .value span, so that live-table.js keeps
// patching it in place; a solved blank shows it again. Nothing is judged or computed here:
// practice-view.js asks the practice modules and tells this one what to show.

import { element } from './page-slots.js';
import { quotedToken } from './token-text.js';

// The softmax and mix tables work one query's row (their data-row); the other kinds sit in a
// token × token table, the out table, or a flash tile's running figures.
function cellIn(root, table, selector) {
  return root.querySelector(`table[data-table="${table}"]${selector}`);
}

// The columns of a FlashAttention tile's running figures (flash-view.js's RUNNING_COLUMNS:
// tile max, m before, m after, rescale, l before, l after) that hold each kind.
const FLASH_COLUMNS = Object.freeze({ 'flash-max': 2, 'flash-rescale': 3, 'flash-sum': 5 });

/**
 * The table cell (<td>) that shows `cell` in `root` (a document, a shadow root or a fragment),
 * or null when no table there shows it (the page works the softmax and the mix of one row only).
 * @param {Document | ShadowRoot | DocumentFragment | Element} root
 * @param {{kind: string, index: (number|string)[]}} cell
 * @param {import('../practice/practice-cells.js').SourceAnswers} [answers]  the flash kinds
 *        need flashTiles()' answer: a tile's table has a row per query of that tile
 * @returns {HTMLTableCellElement | null}
 */
export function findCell(root, { kind, index }, answers = {}) {
  const [a, b, c] = index;
  const at = (row, col) => `tbody td.num[data-row="${row}"][data-col="${col}"]:not(.extra)`;
  switch (kind) {
    case 'scores': case 'scaled': case 'masked': case 'weights':
      return cellIn(root, kind, ` ${at(a, b)}`);
    case 'exponentials': return cellIn(root, 'softmax', `[data-row="${a}"] ${at(b, 1)}`);
    case 'totals': return cellIn(root, 'softmax', `[data-row="${a}"] tfoot td.num[data-col="1"]`);
    case 'mix': return cellIn(root, 'mix', `[data-row="${a}"] ${at(b, c)}`);
    case 'out': return cellIn(root, 'out', ` ${at(a, b)}`) ?? cellIn(root, 'mix', `[data-row="${a}"] tfoot td.num[data-col="${b}"]`);
    case 'flash-max': case 'flash-rescale': case 'flash-sum': {
      const step = answers.flash?.steps?.[a];
      if (!step || step.skipped) return null;
      return cellIn(root, `tile-${a}-running`, ` ${at(b - step.row_begin, FLASH_COLUMNS[kind])}`);
    }
    // The bill's line in the model's column of <attention-kv-bill>'s comparison.
    case 'bill': return cellIn(root, 'bill-compare', ` tr[data-key="${a}"] td.num[data-column="model"]`);
    default: return null;
  }
}


/**
 * What a blank is called, for its input's accessible name and the announcements: what the
 * value is, between which tokens, and where it sits ("weight of “cat” on “the”, row 2,
 * column 1"). Positions are counted from 1 for readers; the practice grammar counts from 0.
 * @param {{kind: string, index: (number|string)[]}} cell
 * @param {string[]} tokens  the trace's tokens (the flash tile's, for the flash kinds)
 */
export function describeBlank({ kind, index }, tokens = []) {
  const [a, b, c] = index;
  const token = (i) => quotedToken(tokens[i] ?? `token ${Number(i) + 1}`);
  const where = `row ${Number(a) + 1}, column ${Number(b) + 1}`;
  switch (kind) {
    case 'scores': return `score of ${token(a)} against ${token(b)}, ${where}`;
    case 'scaled': return `scaled score of ${token(a)} against ${token(b)}, ${where}`;
    case 'masked': return `masked score of ${token(a)} against ${token(b)}, ${where}`;
    case 'exponentials': return `e^x of ${token(a)} against ${token(b)}, row ${Number(a) + 1}`;
    case 'totals': return `total of the e^x in the row of ${token(a)}, row ${Number(a) + 1}`;
    case 'weights': return `weight of ${token(a)} on ${token(b)}, ${where}`;
    case 'mix': return `weight \u00d7 value of ${token(a)} on ${token(b)}, component ${c}`;
    case 'out': return `out of ${token(a)}, component ${b}`;
    case 'flash-max': return `running max of ${token(b)} after tile ${a}`;
    case 'flash-rescale': return `rescale of ${token(b)} at tile ${a}`;
    case 'flash-sum': return `running sum of ${token(b)} after tile ${a}`;
    case 'bill': return `bill line ${String(a).replaceAll('_', ' ')}`;
    default: return `${kind} ${index.join('.')}`;
  }
}

/** The signs a verdict is shown with, beside its words: never colour alone. */
export const VERDICT_SIGNS = Object.freeze({ right: '\u2713', rounded: '\u2248', off: '\u2717', refused: '?' });

let blankCount = 0;  // gives every blank's verdict its own id, for aria-describedby

// The cell's own marks that would give the answer away while it is blank (a masked cell's
// hatching and its " masked" note).
const TELLING_CLASSES = ['masked', 'zeroed', 'selected-cell', 'source-cell'];

function button(doc, className, text, label, onClick) {
  const node = element(doc, 'button', className, text);
  node.type = 'button';
  node.setAttribute('aria-label', label);
  node.addEventListener('click', onClick);
  return node;
}

/**
 * Turns a table cell into a blank: its contents hidden, an input labelled with `name`, a Check
 * and a Hint button, a verdict line and the hints revealed so far.
 * @param {HTMLTableCellElement} td
 * @param {{id: string, name: string, text?: string, verdict?: {kind: string, text: string} | null,
 *          hints?: string[], hintsLeft?: boolean, onCheck: (text: string) => void,
 *          onHint: () => void}} options
 * @returns {{input: HTMLInputElement, showVerdict: Function, showHints: Function}}
 */
export function openBlank(td, { id, name, text = '', verdict = null, hints = [], hintsLeft = true, onCheck, onHint }) {
  const doc = td.ownerDocument;
  closeBlank(td, { solved: false });
  td.dataset.blank = id;
  const removed = TELLING_CLASSES.filter((className) => td.classList.contains(className));
  td.dataset.blankClasses = removed.join(' ');
  td.classList.remove(...removed);
  td.classList.add('blank');
  const label = td.getAttribute('aria-label');
  if (label !== null) td.dataset.blankLabel = label;
  td.removeAttribute('aria-label');
  for (const child of td.children) child.hidden = true;

  blankCount += 1;
  const verdictId = `blank-verdict-${blankCount}`;
  const box = element(doc, 'div', 'blank-box');
  const input = element(doc, 'input', 'blank-answer');
  Object.assign(input, { type: 'text', value: text, autocomplete: 'off', spellcheck: false, size: 7 });
  input.setAttribute('inputmode', 'text');
  input.setAttribute('aria-label', `Your answer: ${name}`);
  input.setAttribute('aria-describedby', verdictId);
  input.dataset.blank = id;
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onCheck(input.value);
  });
  const hint = button(doc, 'blank-hint', 'Hint', `Hint for ${name}`, () => onHint());
  const row = element(doc, 'div', 'blank-row');
  row.append(input, button(doc, 'blank-check', 'Check', `Check ${name}`, () => onCheck(input.value)), hint);
  const verdictLine = element(doc, 'p', 'blank-verdict');
  verdictLine.id = verdictId;
  const hintList = element(doc, 'ol', 'blank-hints');
  box.append(row, verdictLine, hintList);
  td.append(box);

  const view = {
    input,
    hintList,
    /** Shows a verdict ({kind: right|rounded|off|refused, text}), or none. */
    showVerdict(shown) {
      verdictLine.replaceChildren();
      verdictLine.hidden = !shown;
      if (!shown) {
        delete verdictLine.dataset.verdict;
        input.removeAttribute('aria-invalid');
        return;
      }
      verdictLine.dataset.verdict = shown.kind;
      const sign = element(doc, 'span', 'blank-sign', VERDICT_SIGNS[shown.kind]);
      sign.setAttribute('aria-hidden', 'true');
      verdictLine.append(sign, ' ', shown.text);
      if (shown.kind === 'refused' || shown.kind === 'off') input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    /** Shows the hint steps revealed so far; `more`: whether another is left. */
    showHints(steps, more) {
      hintList.replaceChildren(...steps.map((step) => element(doc, 'li', undefined, step)));
      hintList.hidden = steps.length === 0;
      hint.disabled = !more;
      hint.textContent = more ? (steps.length === 0 ? 'Hint' : 'Next hint') : 'No more hints';
    },
  };
  view.showVerdict(verdict);
  view.showHints(hints, hintsLeft);
  return view;
}

/**
 * Gives a blank cell its contents back: its value, its marks and its name. With `solved`, it
 * is marked as worked out by the reader (a sign and words, not colour alone).
 * @param {HTMLTableCellElement} td
 * @param {{solved?: boolean}} [options]
 */
export function closeBlank(td, { solved = false } = {}) {
  td.querySelector(':scope > .blank-box')?.remove();
  td.querySelector(':scope > .blank-solved-mark')?.remove();
  if (td.dataset.blank !== undefined) {
    for (const child of td.children) child.hidden = false;
    td.classList.remove('blank');
    const classes = td.dataset.blankClasses?.split(' ').filter(Boolean) ?? [];
    td.classList.add(...classes.filter((name) => name === 'masked' || name === 'zeroed'));
    if (td.dataset.blankLabel !== undefined) td.setAttribute('aria-label', td.dataset.blankLabel);
    delete td.dataset.blank;
    delete td.dataset.blankClasses;
    delete td.dataset.blankLabel;
  }
  td.classList.toggle('blank-solved', solved);
  if (solved) {
    const doc = td.ownerDocument;
    const mark = element(doc, 'span', 'blank-solved-mark', ` ${VERDICT_SIGNS.right}`);
    mark.setAttribute('aria-hidden', 'true');
    td.append(mark);
    const label = td.getAttribute('aria-label');
    if (label !== null && !label.endsWith(', worked out by you')) td.setAttribute('aria-label', `${label}, worked out by you`);
  }
}
