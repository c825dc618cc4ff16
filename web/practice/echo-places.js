// Where else a blank's answer is printed. A value feeds later places: a weight is printed again
// as the softmax table's weight column and in the mix table's row labels, a tile's running max
// is the next tile's "m before", and every working panel prints the numbers it works with.
// While a cell is blank those places must not give its answer away, so each kind names them
// here (the table of docs/practice.md, "Where else an answer is printed"), as selectors into
// the tables the views draw (their data-table names), and the text the answer is printed as.
// A place is masked only where it prints that text: an input printed beside it with another
// value, or a place that holds another number, is left as it is. No DOM here: strings only.

import { DECIMALS, formatFixed } from '../views/format.js';
import { formatCount } from '../views/sequel-format.js';
import { cellValue, practiceKind } from './practice-cells.js';

/** Working panels (pointing at a cell shows how it was worked out) print any cell's value. */
export const WORKING_PANELS = '.cell-working';

const table = (name, extra = '') => `table[data-table="${name}"]${extra}`;
const bodyCell = (row, col) => `tbody td.num[data-row="${row}"][data-col="${col}"]:not(.extra)`;
const softmaxOf = (row) => table('softmax', `[data-row="${row}"]`);

// The computed tiles after `tile` that hold query `query`, in order.
function laterTiles(flash, tile, query) {
  return flash.steps
    .map((step, index) => ({ step, index }))
    .filter(({ step, index }) => index > tile && !step.skipped && query >= step.row_begin && query < step.row_end);
}

// A running figure carried on: the next tile that holds the query prints it as its "before"
// column; after the query's last tile it is the final m or l.
function carriedOn(flash, [tile, query], beforeColumn, finalColumn) {
  const next = laterTiles(flash, tile, query)[0];
  if (next) return [`${table(`tile-${next.index}-running`)} ${bodyCell(query - next.step.row_begin, beforeColumn)}`];
  return [`${table('flash-final')} ${bodyCell(query, finalColumn)}`];
}

/**
 * The cells of other kinds that print the same quantity as `cell` by definition: a visible
 * masked score is the scaled score the mask let through. Where such a cell prints the same
 * text as the blank's answer it gives the answer away; the page masks it (echoPlaces) and a
 * worksheet prints a "?" there (web/practice/worksheet.js).
 * @param {{kind: string, index: (number|string)[]}} cell
 * @returns {{kind: string, index: (number|string)[]}[]}
 */
export function echoCells({ kind, index }) {
  return kind === 'scaled' ? [{ kind: 'masked', index }] : [];
}

/**
 * The places, other than its own cell and the working panels, where the page or an element
 * prints the same quantity as `cell`: CSS selectors, to look up in the root the blank is in.
 * @param {{kind: string, index: (number|string)[]}} cell
 * @param {import('./practice-cells.js').SourceAnswers} answers
 * @returns {string[]}
 */
export function echoPlaces({ kind, index }, answers) {
  const [a, b] = index;
  switch (kind) {
    // The mask lets a visible scaled score through unchanged: the masked table and the
    // softmax table's x column print it again.
    // The FAQ's lab shows the reader's scaled scores again.
    case 'scaled': return [
      ...echoCells({ kind, index }).flatMap((echo) => [`${table(echo.kind)} ${bodyCell(a, b)}`, ...echoPlaces(echo, answers)]),
      `${table('faq-scaled')} ${bodyCell(a, b)}`,
    ];
    // A row whose exponentials were taken shifted by its largest score says that score under
    // the softmax table (step-views.js): the largest visible masked score, printed again.
    case 'masked': return [`${softmaxOf(a)} ${bodyCell(b, 0)}`, `[data-step="softmax"]:has(> * ${softmaxOf(a)}) > [data-shift-note]`];
    // The weights table and the softmax table's weight column show the same weight (either
    // can be the blank), as do the shaded grids and the FAQ's lab; the mix table writes it
    // into its row label ("0.2799 × V[the]"), which its cells' names repeat.
    case 'weights': return [
      ...['weights', 'grid', 'live-grid', 'faq-weights'].map((name) => `${table(name)} ${bodyCell(a, b)}`),
      `${softmaxOf(a)} ${bodyCell(b, 2)}`,
      `${table('mix', `[data-row="${a}"]`)} tbody tr:nth-child(${Number(b) + 1})`,
    ];
    // out is the out table's cell and the mix table's footer.
    case 'out': return [`${table('out')} ${bodyCell(a, b)}`, `${table('mix', `[data-row="${a}"]`)} tfoot td.num[data-col="${b}"]`];
    case 'flash-max': return carriedOn(answers.flash, index, 1, 0);
    case 'flash-sum': return carriedOn(answers.flash, index, 4, 1);
    // A bill line of a published model is printed again in the presets' table, on its row.
    case 'bill': return answers.bill?.preset ? [`${table('bill-presets')} tbody tr[data-key="${answers.bill.preset}"] td.num`] : [];
    // scores, exponentials, totals, mix and flash-rescale are printed in their own cell only
    // (and in the working panels).
    default: return [];
  }
}

/**
 * The answer of `cell` as the page prints it: as its table does, and for the bill's whole
 * bytes also without the digits grouped, as the core's own workings write them.
 * @param {{kind: string, index: (number|string)[]}} cell
 * @param {import('./practice-cells.js').SourceAnswers} answers
 * @returns {string[]}
 */
export function printedAnswers(cell, answers) {
  const value = cellValue(cell, answers);
  const kind = practiceKind(cell.kind);
  return kind.source === 'bill' ? [...new Set([formatCount(value), String(value)])] : [formatFixed(value, kind.decimals ?? DECIMALS.softmax)];
}
