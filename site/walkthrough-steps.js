// The walkthrough's steps 1 to 6 and the four-token grid, drawn from the core's traces. Called
// again whenever the reader changes the example. No number is computed here that the core
// owns: the page formats the trace. (The "row sum" columns are the core's weight_sums.)

import {
  DECIMALS, fixed, formatCompact, formatFixed, formatPercent, formatVector,
} from '../web/views/format.js';
import { describeTokenPair } from '../web/views/cell-navigation.js';
import {
  componentLabels, fillSlot, fillText, paragraph, showVariant,
} from '../web/views/page-slots.js';
import { renderShadeLegend } from '../web/views/render-tables.js';
import { renderDotProduct } from '../web/views/render-working.js';
import { buildTable, presentTable, tableSlot } from '../web/views/table-block.js';
import { maskSummary } from '../web/views/step-views.js';

export const SHADE_LEVELS = 5;

export const isMaskedScore = (value) => value === -Infinity;

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
 * Ties each sign of a worked sum to the number after it ("− 0.08" with a no-break space), so a
 * long sum wraps between terms, never inside one.
 * @param {HTMLElement} working
 */
export function keepSignsWithNumbers(working) {
  for (const terms of working.querySelectorAll('.terms')) {
    terms.textContent = terms.textContent.replace(/([+\u2212]) /gu, '$1\u00a0');
  }
  return working;
}

/**
 * A token × token table of the trace (scores, scaled, masked), as a spec (table-block.js).
 * @returns {import('../web/views/table-block.js').TableSpec}
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
 * @returns {import('../web/views/table-block.js').TableSpec}
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

/** The key to a shaded grid, with the hatched swatch for masked cells. */
export function shadeLegend(doc) {
  return renderShadeLegend(doc, {
    levels: SHADE_LEVELS,
    decimals: 1,
    title: 'Shading of a live cell by its weight',
    maskedLabel: 'masked, weight 0',
  });
}

export const describeScore = describeTokenPair('score', 'against');
const describeScaled = describeTokenPair('scaled score', 'against');
const describeMasked = describeTokenPair('masked score', 'against');
export const describeWeight = describeTokenPair('weight', 'on');

// One row's softmax laid out as a table: for each key token its score x, e^x and the weight
// e^x ÷ total, then the total of the exponentials and the sum of the weights.
function softmaxTable(trace, row, { name, caption }) {
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

function softmaxDescriber(token) {
  return ({ row, column, text, note, footer }) => (footer
    ? `${row} of the ${token} row, ${column}: ${text}`
    : `${column} of ${token} on ${row}: ${text}${note}`);
}

function shiftNote(trace, row) {
  return `The exponentials of this row would not fit in a 32-bit float as they are, so every ` +
    `score was first reduced by the row's largest score, ${formatFixed(trace.row_max[row], DECIMALS.matrix)}. ` +
    `That shrinks the exponentials and their total by the same factor and leaves the weights unchanged.`;
}

// ---------------------------------------------------------------------------------------------
// The example's prose and steps 1 to 5.

// What the worked dot products of step 1 are, in the order renderScores shows them.
function dotProductsIntro(tokenCount) {
  if (tokenCount === 1) return 'is the one dot product of the last row, with its own key';
  if (tokenCount === 2) return 'are both dot products of the last row, first with its own key, then with the other token\u2019s';
  return `are all ${tokenCount} dot products of the last row, first with its own key, then with the keys of the tokens before it, nearest first`;
}

function renderProse(doc, trace) {
  const last = trace.token_count - 1;
  fillText(doc, 'two-sentence', trace.tokens.join(' '));
  fillText(doc, 'head-dim', String(trace.head_dim));
  fillText(doc, 'first-token', trace.tokens[0]);
  fillText(doc, 'second-token', trace.tokens[1] ?? trace.tokens[0]);
  fillText(doc, 'last-token', trace.tokens[last]);
  fillText(doc, 'dot-products-intro', dotProductsIntro(trace.token_count));
  showVariant(doc, 'mask', trace.mask);
  showVariant(doc, 'scale', trace.scale);
  // One token has no later token to hide: the usual example sentence would name it twice.
  showVariant(doc, 'tokens', trace.token_count === 1 ? 'one' : 'many');
}

// Replaces the worked dot products that changed, and only those.
function showWorkings(doc, workings) {
  const target = doc.querySelector('[data-slot="dot-products"]');
  const shown = Array.from(target.querySelectorAll(':scope > .dot-product'));
  if (shown.length !== workings.length) {
    fillSlot(doc, 'dot-products', ...workings);
    return;
  }
  shown.forEach((old, n) => {
    if (old.textContent !== workings[n].textContent || old.dataset.key !== workings[n].dataset.key) old.replaceWith(workings[n]);
  });
}

function renderScores(doc, trace, slots) {
  const last = trace.token_count - 1;
  // The last token against itself first, then against the tokens before it.
  const keyOrder = [last, ...Array.from({ length: last }, (_, n) => last - 1 - n)];
  showWorkings(doc, keyOrder.map((j) => keepSignsWithNumbers(renderDotProduct(doc, {
    queryToken: trace.tokens[last],
    keyToken: trace.tokens[j],
    query: trace.q[last],
    key: trace.k[j],
    products: trace.score_terms[last][j],
    score: trace.scores[last][j],
    decimals: { factor: DECIMALS.factor, product: DECIMALS.product, score: DECIMALS.workedScore },
  }))));
  fillText(doc, 'score-self', formatFixed(trace.scores[last][last], DECIMALS.workedScore));
  fillText(doc, 'score-other', formatFixed(trace.scores[last][0], DECIMALS.workedScore));
  slots.scores.show(tokenMatrixTable(trace, trace.scores, {
    name: 'scores', caption: 'Step 1 \u00b7 scores: q \u00b7 k',
  }));
}

/** The caption of a scaled table: what the scores were divided by. */
export function scaledCaption(trace, prefix) {
  const divisor = formatCompact(trace.scale_divisor, 3);
  const by = { sqrt_d: `\u221ad\u2096 = ${divisor}`, d: `d\u2096 = ${divisor}`, none: `${divisor} (unscaled)` }[trace.scale] ?? divisor;
  return `${prefix}scores \u00f7\u00a0${by}`;
}

function renderScale(doc, trace, slots) {
  fillText(doc, 'scale-divisor', formatCompact(trace.scale_divisor, 3));
  slots.scaled.show(tokenMatrixTable(trace, trace.scaled, {
    name: 'scaled', caption: scaledCaption(trace, 'Step 2 \u00b7 scaled: '),
  }));
}

/**
 * The caption of a masked table: what the mask wrote where a token may not look, as the trace
 * says (its hidden cells and what they hold), whatever the mask is called.
 */
export function maskedCaption(trace, prefix) {
  return `${prefix}${maskSummary(trace)}`;
}

function renderMask(doc, trace, slots) {
  slots.masked.show(tokenMatrixTable(trace, trace.masked, {
    name: 'masked', caption: maskedCaption(trace, 'Step 3 \u00b7 masked: '), masked: true,
  }));
}

function renderSoftmax(doc, trace, slots) {
  const last = trace.token_count - 1;
  const lastToken = trace.tokens[last];
  slots.softmax.show(softmaxTable(trace, last, {
    name: 'softmax',
    caption: `Step 4 \u00b7 softmax of the ${lastToken} row: weight = e\u02e3 \u00f7 total`,
  }));
  const note = doc.querySelector('[data-shift-note]');
  note.hidden = !trace.row_shifted[last];
  note.textContent = trace.row_shifted[last] ? shiftNote(trace, last) : '';
  fillText(doc, 'percent-self', formatPercent(trace.weights[last][last]));
  fillText(doc, 'percent-other', formatPercent(trace.weights[last][0]));
  slots.weights.show(weightsTable(trace, {
    name: 'weights', caption: 'Step 4 \u00b7 weights: softmax of every row',
  }));
}

function renderMix(doc, trace, slots) {
  const last = trace.token_count - 1;
  const weightOf = (j) => formatFixed(trace.weights[last][j], DECIMALS.softmax);
  slots.mix.show({ matrix: trace.weighted_values[last], dataset: { row: String(last) }, liveRowLabels: true, options: {
    name: 'mix',
    caption: `Step 5 \u00b7 mix: weight \u00d7 value for the ${trace.tokens[last]} row`,
    className: 'mix',
    corner: 'weight \u00d7 value',
    rowLabels: trace.tokens.map((token, j) => `${weightOf(j)} \u00d7 V[${token}]`),
    columnLabels: componentLabels('v', trace.head_dim),
    format: fixed(DECIMALS.softmax),
    isMasked: (j) => isMaskedScore(trace.masked[last][j]),
    footerRows: [{
      label: `out[${trace.tokens[last]}]`,
      values: trace.out[last],
      format: fixed(DECIMALS.softmax),
    }],
  } });
  fillText(doc, 'value-in', formatVector(trace.v[last], DECIMALS.vector));
  fillText(doc, 'value-out', formatVector(trace.out[last], DECIMALS.vector));
}

// Step 6, the demonstration: the toy vocabulary has vectors of its own width, so it runs only
// when the head has that width.
function renderDemonstration(doc, attention, trace, vocabulary, slots) {
  const width = vocabulary.vectors[0].length;
  fillText(doc, 'vocabulary-width', String(width));
  fillText(doc, 'vocabulary-size', String(vocabulary.words.length));
  const runs = trace.head_dim === width;
  showVariant(doc, 'demo', runs ? 'on' : 'off');
  const demoNote = doc.querySelector('[data-demo-shift-note]');
  if (!runs) {
    fillSlot(doc, 'table-vocabulary');
    fillSlot(doc, 'table-next-word');
    demoNote.hidden = true;
    return;
  }
  const last = trace.token_count - 1;
  const scored = attention.scoreNextWord(trace.out[last]);
  slots.vocabulary.show({ matrix: vocabulary.vectors, options: {
    name: 'vocabulary',
    caption: 'Step 6 \u00b7 demonstration: the toy vocabulary\u2019s vectors',
    corner: 'word',
    rowLabels: vocabulary.words,
    columnLabels: componentLabels('x', width),
    format: fixed(DECIMALS.matrix),
  } });
  const rows = scored.words.map((_, w) => [scored.logits[w], scored.exponentials[w], scored.probabilities[w]]);
  slots.nextWord.show({ matrix: rows, options: {
    name: 'next-word',
    caption: `Step 6 \u00b7 demonstration: out[${trace.tokens[last]}] scored against each word`,
    className: 'softmax',
    corner: 'word',
    rowLabels: scored.words,
    columnLabels: [
      `score x = out \u00b7 word`,
      scored.shifted ? 'e^(x \u2212 max)' : 'e\u02e3',
      'probability',
    ],
    format: [fixed(DECIMALS.matrix), fixed(DECIMALS.softmax), fixed(DECIMALS.softmax)],
    footerRows: [{
      label: 'total',
      values: [null, scored.total, scored.probability_sum],
      format: fixed(DECIMALS.softmax),
    }],
  } });
  demoNote.hidden = !scored.shifted;
  demoNote.textContent = scored.shifted
    ? 'These exponentials were taken after subtracting the largest score, so that none of them overflows; the probabilities are unchanged by it.'
    : '';
  // Which word the prose names: the one the core gave the largest probability.
  const top = scored.most_likely;
  fillText(doc, 'top-word', scored.words[top]);
  fillText(doc, 'top-percent', formatPercent(scored.probabilities[top]));
}

/**
 * Steps 1 to 6, drawn for the reader's current example whenever it changes.
 * @param {Document} doc
 * @param {object} attention  the core's API
 * @param {{words: string[], vectors: number[][]}} vocabulary
 */
export function createSteps(doc, attention, vocabulary) {
  const slots = {
    scores: tableSlot(doc, 'table-scores', { describe: describeScore }),
    scaled: tableSlot(doc, 'table-scaled', { describe: describeScaled }),
    masked: tableSlot(doc, 'table-masked', { describe: describeMasked }),
    softmax: tableSlot(doc, 'table-softmax', { describe: (cell, table) => softmaxDescriber(table.dataset.query)(cell) }),
    weights: tableSlot(doc, 'table-weights', { describe: describeWeight }),
    mix: tableSlot(doc, 'table-mix', {
      describe: ({ row, column, text, note }) => `${column} of ${row}: ${text}${note}`,
    }),
    vocabulary: tableSlot(doc, 'table-vocabulary'),
    nextWord: tableSlot(doc, 'table-next-word'),
  };
  return {
    /** @param {object} trace */
    render(trace) {
      renderProse(doc, trace);
      renderScores(doc, trace, slots);
      renderScale(doc, trace, slots);
      renderMask(doc, trace, slots);
      renderSoftmax(doc, trace, slots);
      renderMix(doc, trace, slots);
      renderDemonstration(doc, attention, trace, vocabulary, slots);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The four-token grid and its worked rows: the article's own second example, which stays put.

/**
 * @param {Document} doc
 * @param {object} trace  the trace of the article's four-token example
 * @param {number[]} workedRows
 * @param {(table: HTMLTableElement) => HTMLElement} withDownloads  adds the picture's downloads
 */
export function renderArticleGrid(doc, trace, workedRows, withDownloads) {
  fillText(doc, 'four-sentence', trace.tokens.join(' '));
  const grid = buildTable(doc, weightsTable(trace, {
    name: 'grid',
    caption: `Causal mask \u00b7 attention weights for \u201c${trace.tokens.join(' ')}\u201d`,
    className: 'grid',
    shade: true,
  }));
  fillSlot(doc, 'grid', presentTable(doc, grid, { describe: describeWeight }), withDownloads(grid));
  fillSlot(doc, 'grid-legend', shadeLegend(doc));

  const [firstWorked] = workedRows;
  const liveShares = trace.weights[firstWorked]
    .filter((_, j) => !isMaskedScore(trace.masked[firstWorked][j]))
    .map((weight) => formatFixed(weight, DECIMALS.split));
  fillText(doc, 'four-first-worked-token', trace.tokens[firstWorked]);
  fillText(doc, 'four-first-worked-split', liveShares.join(' / '));

  const worked = [];
  for (const row of workedRows) {
    worked.push(presentTable(doc, buildTable(doc, softmaxTable(trace, row, {
      name: `worked-row-${row}`,
      caption: `Softmax of the ${trace.tokens[row]} row in \u201c${trace.tokens.join(' ')}\u201d: ` +
        'weight = e\u02e3 \u00f7 total',
    })), { describe: softmaxDescriber(trace.tokens[row]) }));
    if (trace.row_shifted[row]) worked.push(paragraph(doc, 'shift-note', shiftNote(trace, row)));
  }
  fillSlot(doc, 'worked-rows', ...worked);
}

