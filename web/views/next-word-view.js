// Step 6 of the walkthrough, the demonstration that follows attention: one token's output
// scored against a toy vocabulary (each word's vector · out, then the softmax of step 4). The
// numbers are the core's (scoreNextWord); this lays out the vocabulary's vectors and the
// scores as two tables, kept on screen by live-table.js, so a new answer of the same shape
// updates the cells in place.

import { DECIMALS, fixed } from './format.js';
import { tableView } from './live-table.js';
import { componentLabels } from './step-tables.js';
import { presentTable } from './table-block.js';
import { tokenText } from './token-text.js';

/** The vocabulary's vectors as a table spec. */
export function vocabularyTable(vocabulary) {
  return { matrix: vocabulary.vectors, options: {
    name: 'vocabulary',
    caption: 'Step 6 \u00b7 demonstration: the toy vocabulary\u2019s vectors',
    corner: 'word',
    rowLabels: vocabulary.words,
    columnLabels: componentLabels('x', vocabulary.vectors[0].length),
    format: fixed(DECIMALS.matrix),
  } };
}

/**
 * The scores of the output of token `row` against each word, as a table spec.
 * @param {object} trace
 * @param {number} row
 * @param {object} scored  what scoreNextWord(trace.out[row]) returned
 */
export function nextWordTable(trace, row, scored) {
  const rows = scored.words.map((_, w) => [scored.logits[w], scored.exponentials[w], scored.probabilities[w]]);
  return { matrix: rows, options: {
    name: 'next-word',
    caption: `Step 6 \u00b7 demonstration: out[${tokenText(trace.tokens[row])}] scored against each word`,
    className: 'softmax',
    corner: 'word',
    rowLabels: scored.words,
    columnLabels: [
      'score x = out \u00b7 word',
      scored.shifted ? 'e^(x \u2212 max)' : 'e\u02e3',
      'probability',
    ],
    format: [fixed(DECIMALS.matrix), fixed(DECIMALS.softmax), fixed(DECIMALS.softmax)],
    footerRows: [{
      label: 'total',
      values: [null, scored.total, scored.probability_sum],
      format: fixed(DECIMALS.softmax),
    }],
  } };
}

/** Why the scores' exponentials were shifted, when they were. */
export const SHIFTED_NOTE = 'These exponentials were taken after subtracting the largest score, so that none of them ' +
  'overflows; the probabilities are unchanged by it.';

/**
 * The two tables, shown again and again: show() returns the blocks to place, the same nodes as
 * last time when the shapes are unchanged (their cells patched).
 * @param {Document} doc
 */
export function nextWordView(doc) {
  const tables = [tableView(doc, { present: (table) => [presentTable(doc, table)] }),
    tableView(doc, { present: (table) => [presentTable(doc, table)] })];
  const blocks = [null, null];
  return {
    /**
     * @param {object} trace
     * @param {{words: string[], vectors: number[][]}} vocabulary
     * @param {object} scored  scoreNextWord's answer for trace.out[row]
     * @param {number} row
     * @returns {Node[]}
     */
    show(trace, vocabulary, scored, row) {
      [vocabularyTable(vocabulary), nextWordTable(trace, row, scored)].forEach((spec, n) => {
        const nodes = tables[n].show(spec);
        if (nodes) [blocks[n]] = nodes;
      });
      return blocks;
    },
  };
}
