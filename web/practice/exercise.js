// An exercise as a practice link fixes it: which cells are blank, how an answer to one is
// checked, and its answer key. A link's own blank list wins; without one, a round's blanks in
// the round's order. The answer key is
// what a teacher prints on request: each blank's value as the table prints it and, when asked,
// the working a hint would reveal. Pure functions over the core's answers; nothing computed here.

import { cellId } from '../state/practice-hash.js';
import { judgeAnswer } from './answer-judge.js';
import { readAnswer } from './answer-reader.js';
import { BILL_LINES, cellTable, cellValue, expandBlanks, hintSteps, practiceKind } from './practice-cells.js';
import { roundBlanks } from './rounds.js';
import { formatFixed } from '../views/format.js';

/**
 * The blanks of an exercise, in the order a reader works them.
 * @param {import('../state/practice-hash.js').PracticeSettings} settings  parsePracticeHash's
 * @param {import('./practice-cells.js').SourceAnswers} answers  the core's answers the cells come from
 * @returns {{kind: string, index: (number|string)[]}[]}
 */
export function exerciseBlanks(settings, answers) {
  if (settings.blanks !== undefined) return expandBlanks(settings.blanks, answers);
  if (settings.round !== undefined) {
    if (!answers?.trace) throw new RangeError(`round ${settings.round} needs the answer of run() (answers.trace)`);
    return roundBlanks(settings.round, answers.trace);
  }
  return [];
}

/**
 * The answer key: per blank, its name (the practice grammar), the table it is in, the value as
 * printed, and (with `working`) the hint's steps in order.
 * @param {{kind: string, index: (number|string)[]}[]} cells
 * @param {import('./practice-cells.js').SourceAnswers} answers
 * @param {{working?: boolean}} [options]
 * @returns {{id: string, table: string, answer: string, working?: string[]}[]}
 */
export function answerKey(cells, answers, { working = true } = {}) {
  return cells.map((cell) => {
    const entry = {
      id: cellId(cell),
      table: cellTable(cell),
      answer: formatFixed(cellValue(cell, answers), practiceKind(cell.kind).decimals),
    };
    if (working) entry.working = hintSteps(cell, answers).map((step) => step.text);
    return entry;
  });
}

/**
 * One typed answer to one blank, read and judged with the kind's printed decimals: readAnswer's
 * refusal ({ ok: false, reason, message }) for text that is not a number (never an attempt), or
 * judgeAnswer's verdict with ok: true.
 * @param {string} text
 * @param {{kind: string, index: (number|string)[]}} cell
 * @param {import('./practice-cells.js').SourceAnswers} answers
 */
export function checkAnswer(text, cell, answers) {
  const { decimals, exact } = practiceKind(cell.kind) ?? {};
  const value = cellValue(cell, answers);  // names an unknown kind or a cell outside the answer
  const read = readAnswer(text);
  if (!read.ok) return read;
  return { ok: true, ...judgeAnswer(read, value, decimals, { exact }) };
}

/**
 * The blanks a page sets when pencil mode is switched on without a list: one cell of each
 * step, in the order of the steps, in the last token's row (the row the walkthrough works out,
 * so every one is on its tables): its score, scaled score, e^x and weight against the first
 * token, the row's total, the first component of its weight × value on the first token and of
 * out; and for the mask, the first cell the mask hides (its −∞ is the point), else the last
 * row's first.
 * @param {object} trace  run()'s answer
 * @returns {{kind: string, index: number[]}[]}
 */
export function defaultBlankItems(trace) {
  const last = trace.token_count - 1;
  const row = trace.hidden.findIndex((cells) => cells.includes(true));
  const hidden = row >= 0 ? [row, trace.hidden[row].indexOf(true)] : [last, 0];
  return [
    { kind: 'scores', index: [last, 0] },
    { kind: 'scaled', index: [last, 0] },
    { kind: 'masked', index: hidden },
    { kind: 'exponentials', index: [last, 0] },
    { kind: 'totals', index: [last] },
    { kind: 'weights', index: [last, 0] },
    { kind: 'mix', index: [last, 0, 0] },
    { kind: 'out', index: [last, 0] },
  ];
}

/**
 * The blanks a FlashAttention tile element sets for an empty `practice` attribute: the running
 * max, the rescale and the running sum of the last query of the last tile computed (the tile
 * where the most was carried in, so the rescale has work to do).
 * @param {object} flash  flashTiles()' answer
 * @returns {{kind: string, index: number[]}[]}
 */
export function defaultFlashItems(flash) {
  const tile = flash.steps.findLastIndex((step) => !step.skipped);
  if (tile < 0) return [];
  const query = flash.steps[tile].row_end - 1;
  return ['flash-max', 'flash-rescale', 'flash-sum'].map((kind) => ({ kind, index: [tile, query] }));
}

/** The blanks a bill element sets for an empty `practice` attribute: every line, in order. */
export const defaultBillItems = () => BILL_LINES.map((line) => ({ kind: 'bill', index: [line] }));
