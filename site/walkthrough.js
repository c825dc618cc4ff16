// The walkthrough page: loads the WebAssembly attention core, runs the article's examples and
// puts every number into the page. This is the only module that touches the page's document;
// the renderers build elements with the document they are handed. No number is computed here
// that the core owns: the page formats the trace. The only additions are the row sums shown
// as a check (the shares of a row, added up to show they make one).

import { formatCompact, formatFixed, formatPercent, formatVector } from './format.js';
import { renderMatrixTable, renderScrollable, renderShadeLegend } from './render-tables.js';
import { renderDotProduct } from './render-working.js';

// Decimals as the article prints them.
const DECIMALS = {
  matrix: 3,        // Q, K, V, scores, scaled, masked
  factor: 3,        // the factors of a worked dot product
  product: 2,       // its products
  workedScore: 2,   // and its sum
  softmax: 4,       // exponentials, totals, weights, weighted values, out
  vector: 3,        // vectors quoted in a sentence
  split: 3,         // the shares quoted for the longer sentence
};
const SHADE_LEVELS = 5;

const page = document;
const fixed = (decimals) => (value) => formatFixed(value, decimals);
const isMaskedScore = (value) => value === -Infinity;

// ---------------------------------------------------------------------------------------------
// Page plumbing: slots that hold tables, spans that hold a value quoted in the prose.

function slot(name) {
  const target = page.querySelector(`[data-slot="${name}"]`);
  if (!target) throw new Error(`the page has no slot "${name}"`);
  return target;
}

function fillSlot(name, ...nodes) {
  const target = slot(name);
  target.replaceChildren(...nodes);
  target.removeAttribute('aria-busy');
}

function fillText(name, text) {
  const targets = page.querySelectorAll(`[data-fill="${name}"]`);
  if (targets.length === 0) throw new Error(`the page has no place for "${name}"`);
  for (const target of targets) {
    target.textContent = text;
    target.classList.add('filled');
  }
}

function scrollable(table) {
  return renderScrollable(page, table, table.caption?.textContent ?? 'table');
}

function paragraph(className, text) {
  const p = page.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

// Column labels for the components of a head_dim-wide vector: q0, q1, …
function componentLabels(letter, headDim) {
  return Array.from({ length: headDim }, (_, c) => `${letter}${c}`);
}

// ---------------------------------------------------------------------------------------------
// Tables shared by several sections.

function vectorTable(trace, matrix, { name, letter, caption }) {
  return renderMatrixTable(page, matrix, {
    name,
    caption,
    corner: 'token',
    rowLabels: trace.tokens,
    columnLabels: componentLabels(letter, trace.head_dim),
    format: fixed(DECIMALS.matrix),
  });
}

function tokenMatrixTable(trace, matrix, { name, caption, masked = false }) {
  return renderMatrixTable(page, matrix, {
    name,
    caption,
    corner: 'query \u2193 key \u2192',
    rowLabels: trace.tokens,
    columnLabels: trace.tokens,
    format: fixed(DECIMALS.matrix),
    isMasked: masked ? (i, j) => isMaskedScore(trace.masked[i][j]) : undefined,
  });
}

// One row's softmax laid out as a table: for each key token its score x, e^x and the weight
// e^x ÷ total, then the total of the exponentials and the sum of the weights.
function softmaxTable(trace, row, { name, caption }) {
  const shifted = Boolean(trace.row_shifted[row]);
  const rows = trace.tokens.map((_, j) => [
    trace.masked[row][j],
    trace.exponentials[row][j],
    trace.weights[row][j],
  ]);
  return renderMatrixTable(page, rows, {
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
  });
}

function shiftNote(trace, row) {
  return `The exponentials of this row would not fit in a 32-bit float as they are, so every ` +
    `score was first reduced by the row's largest score, ${formatFixed(trace.row_max[row], DECIMALS.matrix)}. ` +
    `That shrinks the exponentials and their total by the same factor and leaves the weights unchanged.`;
}

// ---------------------------------------------------------------------------------------------
// The two-token walkthrough, steps 1 to 5.

function renderInputs(trace) {
  fillText('two-sentence', trace.tokens.join(' '));
  fillText('head-dim', String(trace.head_dim));
  fillText('first-token', trace.tokens[0]);
  fillText('second-token', trace.tokens[1] ?? trace.tokens[0]);
  fillText('last-token', trace.tokens[trace.token_count - 1]);
  fillSlot('table-q', scrollable(vectorTable(trace, trace.q, {
    name: 'q', letter: 'q', caption: 'Q \u00b7 queries: what each token is looking for',
  })));
  fillSlot('table-k', scrollable(vectorTable(trace, trace.k, {
    name: 'k', letter: 'k', caption: 'K \u00b7 keys: what each token offers to be found by',
  })));
  fillSlot('table-v', scrollable(vectorTable(trace, trace.v, {
    name: 'v', letter: 'v', caption: 'V \u00b7 values: what each token hands over',
  })));
}

function renderScores(trace) {
  const last = trace.token_count - 1;
  // The last token against itself first, then against the tokens before it.
  const keyOrder = [last, ...Array.from({ length: last }, (_, n) => last - 1 - n)];
  fillSlot('dot-products', ...keyOrder.map((j) => renderDotProduct(page, {
    queryToken: trace.tokens[last],
    keyToken: trace.tokens[j],
    query: trace.q[last],
    key: trace.k[j],
    products: trace.score_terms[last][j],
    score: trace.scores[last][j],
    decimals: { factor: DECIMALS.factor, product: DECIMALS.product, score: DECIMALS.workedScore },
  })));
  fillText('score-self', formatFixed(trace.scores[last][last], DECIMALS.workedScore));
  fillText('score-other', formatFixed(trace.scores[last][0], DECIMALS.workedScore));
  fillSlot('table-scores', scrollable(tokenMatrixTable(trace, trace.scores, {
    name: 'scores', caption: 'Step 1 \u00b7 scores: q \u00b7 k',
  })));
}

function renderScale(trace) {
  const divisor = formatCompact(trace.scale_divisor, 3);
  fillText('scale-divisor', divisor);
  fillSlot('table-scaled', scrollable(tokenMatrixTable(trace, trace.scaled, {
    name: 'scaled', caption: `Step 2 \u00b7 scaled: scores \u00f7\u00a0${divisor}`,
  })));
}

function renderMask(trace) {
  fillSlot('table-masked', scrollable(tokenMatrixTable(trace, trace.masked, {
    name: 'masked', caption: 'Step 3 \u00b7 masked: \u2212\u221e where a token may not look', masked: true,
  })));
}

function renderSoftmax(trace) {
  const last = trace.token_count - 1;
  const lastToken = trace.tokens[last];
  fillSlot('table-softmax', scrollable(softmaxTable(trace, last, {
    name: 'softmax',
    caption: `Step 4 \u00b7 softmax of the ${lastToken} row: weight = e\u02e3 \u00f7 total`,
  })));
  const note = page.querySelector('[data-shift-note]');
  if (trace.row_shifted[last]) {
    note.textContent = shiftNote(trace, last);
    note.hidden = false;
  }
  fillText('percent-self', formatPercent(trace.weights[last][last]));
  fillText('percent-other', formatPercent(trace.weights[last][0]));

  fillSlot('table-weights', scrollable(renderMatrixTable(page, trace.weights, {
    name: 'weights',
    caption: 'Step 4 \u00b7 weights: softmax of every row',
    corner: 'query \u2193 key \u2192',
    rowLabels: trace.tokens,
    columnLabels: trace.tokens,
    format: fixed(DECIMALS.softmax),
    isMasked: (i, j) => isMaskedScore(trace.masked[i][j]),
    extraColumns: [{
      label: 'row sum',
      values: trace.weight_sums,
      format: fixed(DECIMALS.softmax),
      className: 'row-sum',
    }],
  })));
}

function renderMix(trace) {
  const last = trace.token_count - 1;
  const weightOf = (j) => formatFixed(trace.weights[last][j], DECIMALS.softmax);
  fillSlot('table-mix', scrollable(renderMatrixTable(page, trace.weighted_values[last], {
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
  })));
  fillText('value-in', formatVector(trace.v[last], DECIMALS.vector));
  fillText('value-out', formatVector(trace.out[last], DECIMALS.vector));
}

// ---------------------------------------------------------------------------------------------
// Step 6, the demonstration.

function renderDemonstration(attn, trace, vocabulary) {
  const last = trace.token_count - 1;
  const scored = attn.scoreNextWord(trace.out[last]);
  fillText('vocabulary-size', String(scored.words.length));
  fillSlot('table-vocabulary', scrollable(renderMatrixTable(page, vocabulary.vectors, {
    name: 'vocabulary',
    caption: 'Step 6 \u00b7 demonstration: the toy vocabulary\u2019s vectors',
    corner: 'word',
    rowLabels: vocabulary.words,
    columnLabels: componentLabels('x', trace.head_dim),
    format: fixed(DECIMALS.matrix),
  })));
  const rows = scored.words.map((_, w) => [scored.logits[w], scored.exponentials[w], scored.probabilities[w]]);
  fillSlot('table-next-word', scrollable(renderMatrixTable(page, rows, {
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
  })));
  if (scored.shifted) {
    const note = page.querySelector('[data-demo-shift-note]');
    note.textContent = 'These exponentials were taken after subtracting the largest score, ' +
      'so that none of them overflows; the probabilities are unchanged by it.';
    note.hidden = false;
  }
  // Which word the prose names: the one the core gave the largest probability.
  const top = scored.most_likely;
  fillText('top-word', scored.words[top]);
  fillText('top-percent', formatPercent(scored.probabilities[top]));
}

// ---------------------------------------------------------------------------------------------
// The four-token grid and its worked rows.

function renderGrid(trace, workedRows) {
  fillText('four-sentence', trace.tokens.join(' '));
  const grid = renderMatrixTable(page, trace.weights, {
    name: 'grid',
    caption: `Causal mask \u00b7 attention weights for \u201c${trace.tokens.join(' ')}\u201d`,
    className: 'grid',
    corner: 'query \u2193 key \u2192',
    rowLabels: trace.tokens,
    columnLabels: trace.tokens,
    format: fixed(DECIMALS.softmax),
    isMasked: (i, j) => isMaskedScore(trace.masked[i][j]),
    shade: { levels: SHADE_LEVELS, weight: (i, j) => trace.weights[i][j] },
    extraColumns: [{
      label: 'row sum',
      values: trace.weight_sums,
      format: fixed(DECIMALS.softmax),
      className: 'row-sum',
    }],
  });
  fillSlot('grid', scrollable(grid));
  fillSlot('grid-legend', renderShadeLegend(page, {
    levels: SHADE_LEVELS,
    decimals: 1,
    title: 'Shading of a live cell by its weight',
    maskedLabel: 'masked, weight 0',
  }));

  const [firstWorked] = workedRows;
  const liveShares = trace.weights[firstWorked]
    .filter((_, j) => !isMaskedScore(trace.masked[firstWorked][j]))
    .map((weight) => formatFixed(weight, DECIMALS.split));
  fillText('four-first-worked-token', trace.tokens[firstWorked]);
  fillText('four-first-worked-split', liveShares.join(' / '));

  const worked = [];
  for (const row of workedRows) {
    worked.push(scrollable(softmaxTable(trace, row, {
      name: `worked-row-${row}`,
      caption: `Softmax of the ${trace.tokens[row]} row in \u201c${trace.tokens.join(' ')}\u201d: ` +
        'weight = e\u02e3 \u00f7 total',
    })));
    if (trace.row_shifted[row]) worked.push(paragraph('shift-note', shiftNote(trace, row)));
  }
  fillSlot('worked-rows', ...worked);
}

// ---------------------------------------------------------------------------------------------
// Loading, and what the page says when it cannot compute.

function showProblem(message) {
  const problem = page.getElementById('load-problem');
  problem.textContent = message;
  problem.hidden = false;
  page.getElementById('load-status').hidden = true;
  page.documentElement.classList.add('results-unavailable');
  for (const target of page.querySelectorAll('[data-slot]')) {
    target.replaceChildren(paragraph('not-computed', 'Not computed.'));
    target.removeAttribute('aria-busy');
  }
  for (const target of page.querySelectorAll('[data-fill]')) target.classList.add('unavailable');
}

async function loadAttention() {
  if (typeof globalThis.WebAssembly !== 'object' || globalThis.WebAssembly === null) {
    throw new Error('This page computes its numbers with WebAssembly, and this browser does ' +
      'not provide it (it may be turned off). None of the tables below could be computed.');
  }
  try {
    const { createAttention } = await import('./attention-explainer.js');
    return await createAttention();
  } catch (error) {
    throw new Error('The WebAssembly attention module failed to load, so none of the tables ' +
      `below could be computed. (${error?.message ?? error})`);
  }
}

async function main() {
  let attn;
  try {
    attn = await loadAttention();
  } catch (error) {
    showProblem(error.message);
    return;
  }
  try {
    const article = attn.article();
    const twoWords = attn.run(article.two_words);
    renderInputs(twoWords);
    renderScores(twoWords);
    renderScale(twoWords);
    renderMask(twoWords);
    renderSoftmax(twoWords);
    renderMix(twoWords);
    renderDemonstration(attn, twoWords, article.vocabulary);
    renderGrid(attn.run(article.four_words), article.four_words_worked_rows);
  } catch (error) {
    showProblem(`The numbers could not be computed: ${error?.message ?? error}`);
    return;
  }
  const status = page.getElementById('load-status');
  status.textContent = 'Every number below was computed just now, in this browser.';
  status.classList.add('done');
}

main();
