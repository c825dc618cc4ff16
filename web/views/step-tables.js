// The walkthrough's tables as specs (table-block.js's TableSpec: the matrix, its labels and
// formats), one builder per step, read from the core's trace. The walkthrough page and the
// embeddable elements both draw them from here, so a step's table reads the same wherever it
// is shown. No number is computed here: the captions, labels and formats are chosen, the
// values are the trace's (the "row sum" columns are the core's weight_sums).

import { describeTokenPair } from './cell-navigation.js';
import { DECIMALS, fixed, formatCompact, formatFixed } from './format.js';
import { renderShadeLegend } from './render-tables.js';
import { tokenText } from './token-text.js';

export const SHADE_LEVELS = 5;

export const isMaskedScore = (value) => value === -Infinity;

/** Column labels for the components of a vector: q0, q1, … */
export const componentLabels = (letter, count) => Array.from({ length: count }, (_, c) => `${letter}${c}`);

/**
 * Whether the mask hid cell (i, j) with a number a softmax still weighs (0 instead of −∞, the
 * FAQ's mistake). The trace's `hidden` says which cells the mask hid, whatever the mask is
 * called; the cell itself holds an ordinary 0, so its value alone cannot tell.
 */
export const isZeroedByMask = (trace, i, j) => Boolean(trace.hidden[i]?.[j]) && !isMaskedScore(trace.masked[i][j]);

/** Whether the mask hid any cell of the trace with 0 (the legend then explains the pattern). */
export const hasZeroedCells = (trace) => trace.hidden.some((row, i) => row.some((_, j) => isZeroedByMask(trace, i, j)));

// The cells of a trace's token × token table that the mask hid with 0, if it did.
const zeroedCells = (trace) => (hasZeroedCells(trace) ? (i, j) => isZeroedByMask(trace, i, j) : undefined);

/**
 * What the mask wrote into the cells it hid, as the trace says (its `hidden` cells): −∞, 0, or
 * undefined when it hid none. The page and the elements read this, never a rule such as j > i.
 */
export function hiddenScore(trace) {
  for (let i = 0; i < trace.hidden.length; i += 1) {
    const j = trace.hidden[i].indexOf(true);
    if (j >= 0) return trace.masked[i][j];
  }
  return undefined;
}

/** "−∞ where a token may not look", "0 (not −∞) …" or "nothing hidden …", from the trace. */
export function maskSummary(trace) {
  const written = hiddenScore(trace);
  if (written === undefined) return 'nothing hidden, every token sees every token';
  return `${isMaskedScore(written) ? '\u2212\u221e' : `${formatCompact(written, 3)} (not \u2212\u221e)`} where a token may not look`;
}

/** The caption of a scaled table: what the scores were divided by. */
export function scaledCaption(trace, prefix) {
  return `${prefix}scores \u00f7\u00a0${scaleSummary(trace)}`;
}

/** What the scores were divided by, as the captions write it: "√dₖ = 2", "dₖ = 4", "1 (unscaled)". */
export function scaleSummary(trace) {
  const divisor = formatCompact(trace.scale_divisor, 3);
  return { sqrt_d: `\u221ad\u2096 = ${divisor}`, d: `d\u2096 = ${divisor}`, none: `${divisor} (unscaled)` }[trace.scale] ?? divisor;
}

/**
 * The caption of a masked table: what the mask wrote where a token may not look, as the trace
 * says (its hidden cells and what they hold), whatever the mask is called.
 */
export function maskedCaption(trace, prefix) {
  return `${prefix}${maskSummary(trace)}`;
}

/** Why a row's exponentials were taken after subtracting its largest score. */
export function shiftNote(trace, row) {
  return `The exponentials of this row would not fit in a 32-bit float as they are, so every ` +
    `score was first reduced by the row's largest score, ${formatFixed(trace.row_max[row], DECIMALS.matrix)}. ` +
    `That shrinks the exponentials and their total by the same factor and leaves the weights unchanged.`;
}

/**
 * A token × token table of the trace (scores, scaled, masked).
 * @returns {import('./live-table.js').TableSpec}
 */
export function tokenMatrixTable(trace, matrix, { name, caption, masked = false }) {
  return {
    matrix,
    options: {
      name,
      caption,
      corner: 'query \u2193 key \u2192',
      rowLabels: trace.tokens,
      columnLabels: trace.tokens,
      format: fixed(DECIMALS.matrix),
      isMasked: masked ? (i, j) => isMaskedScore(trace.masked[i][j]) : undefined,
    },
    zeroed: masked ? zeroedCells(trace) : undefined,
  };
}

/**
 * The weights, every row, with the core's row sums; shaded like the grid when asked.
 * @returns {import('./live-table.js').TableSpec}
 */
export function weightsTable(trace, { name, caption, className, shade = false }) {
  const options = {
    name,
    caption,
    className,
    corner: 'query \u2193 key \u2192',
    rowLabels: trace.tokens,
    columnLabels: trace.tokens,
    format: fixed(DECIMALS.softmax),
    isMasked: (i, j) => isMaskedScore(trace.masked[i][j]),
    shade: shade ? { levels: SHADE_LEVELS, weight: (i, j) => trace.weights[i][j] } : undefined,
    extraColumns: [{
      label: 'row sum',
      values: trace.weight_sums,
      format: fixed(DECIMALS.softmax),
      className: 'row-sum',
    }],
  };
  return { matrix: trace.weights, options, zeroed: zeroedCells(trace) };
}

/**
 * One row's softmax laid out as a table: for each key token its score x, e^x and the weight
 * e^x ÷ total, then the total of the exponentials and the sum of the weights.
 * @returns {import('./live-table.js').TableSpec}
 */
export function softmaxTable(trace, row, {
  name = 'softmax',
  caption = `Step 4 \u00b7 softmax of the ${tokenText(trace.tokens[row])} row: weight = e\u02e3 \u00f7 total`,
} = {}) {
  const shifted = Boolean(trace.row_shifted[row]);
  const rows = trace.tokens.map((_, j) => [
    trace.masked[row][j],
    trace.exponentials[row][j],
    trace.weights[row][j],
  ]);
  const options = {
    name,
    caption,
    className: 'softmax',
    corner: 'key',
    rowLabels: trace.tokens,
    columnLabels: [
      'score x',
      shifted ? 'e^(x \u2212 max)' : 'e\u02e3',
      'weight',
    ],
    format: [fixed(DECIMALS.matrix), fixed(DECIMALS.softmax), fixed(DECIMALS.softmax)],
    isMasked: (j) => isMaskedScore(trace.masked[row][j]),
    footerRows: [{
      label: 'total',
      values: [null, trace.row_totals[row], trace.weight_sums[row]],
      format: fixed(DECIMALS.softmax),
    }],
  };
  return { matrix: rows, options, dataset: { row: String(row), query: trace.tokens[row] } };
}

/**
 * Step 5 for one row: each value vector times its weight, and their sum, the head's output.
 * @returns {import('./live-table.js').TableSpec}
 */
export function mixTable(trace, row) {
  const weightOf = (j) => formatFixed(trace.weights[row][j], DECIMALS.softmax);
  return { matrix: trace.weighted_values[row], dataset: { row: String(row) }, liveRowLabels: true, options: {
    name: 'mix',
    caption: `Step 5 \u00b7 mix: weight \u00d7 value for the ${tokenText(trace.tokens[row])} row`,
    className: 'mix',
    corner: 'weight \u00d7 value',
    rowLabels: trace.tokens.map((token, j) => `${weightOf(j)} \u00d7 V[${tokenText(token)}]`),
    columnLabels: componentLabels('v', trace.head_dim),
    format: fixed(DECIMALS.softmax),
    isMasked: (j) => isMaskedScore(trace.masked[row][j]),
    footerRows: [{
      label: `out[${tokenText(trace.tokens[row])}]`,
      values: trace.out[row],
      format: fixed(DECIMALS.softmax),
    }],
  } };
}

/**
 * The head's output for every token.
 * @returns {import('./live-table.js').TableSpec}
 */
export function outTable(trace) {
  return { matrix: trace.out, options: {
    name: 'out',
    caption: 'Step 5 \u00b7 out: the head\u2019s output',
    corner: 'token',
    rowLabels: trace.tokens,
    columnLabels: componentLabels('out', trace.head_dim),
    format: fixed(DECIMALS.softmax),
  } };
}

/** The key to a shaded grid, with the hatched swatch for masked cells. */
export function shadeLegend(doc) {
  return renderShadeLegend(doc, {
    levels: SHADE_LEVELS,
    decimals: 1,
    title: 'Shading of a live cell by its weight',
    maskedLabel: 'masked, weight 0',
  });
}

// What each table's cells say to a screen reader ("weight of cat on the: 0.2799").
export const describeScore = describeTokenPair('score', 'against');
export const describeScaled = describeTokenPair('scaled score', 'against');
export const describeMasked = describeTokenPair('masked score', 'against');
export const describeWeight = describeTokenPair('weight', 'on');
export const describeMix = ({ row, column, text, note }) => `${column} of ${row}: ${text}${note}`;

/** The softmax table's cells, named for the row it works out (its data-query). */
export function describeSoftmax({ row, column, text, note, footer }, table) {
  const token = table.dataset.query;
  return footer ? `${row} of the ${token} row, ${column}: ${text}` : `${column} of ${token} on ${row}: ${text}${note}`;
}

/**
 * What an edit's message adds when the reader's numbers are so large that a row's e^x would
 * overflow (1e6, say): the weights are still finite, and the core's row sums show it. Null
 * otherwise.
 */
export function largeNumbersNote(trace) {
  const rows = trace.tokens.map((_, i) => i).filter((i) => trace.row_shifted[i]);
  if (rows.length === 0) return null;
  return `Large numbers: the scores of ${rows.map((i) => tokenText(trace.tokens[i])).join(', ')} are too large ` +
    'for e\u02e3 in a 32-bit float, so the core subtracted each such row\u2019s largest score first. ' +
    'Every weight is still finite and each row still adds up to one (row sums ' +
    `${rows.map((i) => formatFixed(trace.weight_sums[i], 4)).join(', ')}).`;
}
