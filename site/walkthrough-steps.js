// The prose of the walkthrough's steps 1 to 6 and the four-token grid, drawn from the core's
// traces. Called again whenever the reader changes the example. The steps' tables are
// <attention-step model="walk"> elements in the page (they show the page's model); this writes
// the numbers the prose quotes. No number is computed here that the core owns.

import { DECIMALS, formatCompact, formatFixed, formatPercent, formatVector } from '../web/views/format.js';
import { fillSlot, fillText, showVariant, slot } from '../web/views/page-slots.js';
import { isMaskedScore, shadeLegend } from '../web/views/step-tables.js';
import { tokenText, tokenTexts } from '../web/views/token-text.js';

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
  fillText(doc, 'two-sentence', tokenTexts(trace.tokens).join(' '));
  fillText(doc, 'head-dim', String(trace.head_dim));
  fillText(doc, 'first-token', tokenText(trace.tokens[0]));
  fillText(doc, 'second-token', tokenText(trace.tokens[1] ?? trace.tokens[0]));
  fillText(doc, 'last-token', tokenText(trace.tokens[last]));
  fillText(doc, 'dot-products-intro', dotProductsIntro(trace.token_count));
  showVariant(doc, 'mask', trace.mask);
  showVariant(doc, 'scale', trace.scale);
  // One token has no later token to hide: the usual example sentence would name it twice.
  showVariant(doc, 'tokens', trace.token_count === 1 ? 'one' : 'many');
}

// The worked dot products of the last row, as <attention-working> elements: the last token
// against itself first, then against the tokens before it, nearest first (col -1, -2, …, so
// that the elements on screen stay right when a token is added).
function showWorkings(doc, trace) {
  const target = doc.querySelector('[data-slot="dot-products"]');
  const shown = target.querySelectorAll(':scope > attention-working');
  if (shown.length === trace.token_count) return;
  const pieces = Array.from({ length: trace.token_count }, (_, n) => shown[n] ?? pieceFor(doc, 'attention-working', { row: '-1', col: String(-1 - n) }));
  fillSlot(doc, 'dot-products', ...pieces);
}

function renderScores(doc, trace) {
  const last = trace.token_count - 1;
  showWorkings(doc, trace);
  fillText(doc, 'score-self', formatFixed(trace.scores[last][last], DECIMALS.workedScore));
  fillText(doc, 'score-other', formatFixed(trace.scores[last][0], DECIMALS.workedScore));
}

function renderScale(doc, trace) {
  fillText(doc, 'scale-divisor', formatCompact(trace.scale_divisor, 3));
}

function renderSoftmax(doc, trace) {
  const last = trace.token_count - 1;
  fillText(doc, 'percent-self', formatPercent(trace.weights[last][last]));
  fillText(doc, 'percent-other', formatPercent(trace.weights[last][0]));
}

function renderMix(doc, trace) {
  const last = trace.token_count - 1;
  fillText(doc, 'value-in', formatVector(trace.v[last], DECIMALS.vector));
  fillText(doc, 'value-out', formatVector(trace.out[last], DECIMALS.vector));
}

// Step 6, the demonstration, is the <attention-next-word> element (it shows the page's model);
// the prose around it names the word it ranks first, or is hidden when it scores nothing.
function renderDemonstrationProse(doc) {
  const { scored, vocabulary } = doc.getElementById('next-word');
  if (vocabulary) fillText(doc, 'vocabulary-size', String(vocabulary.words.length));
  showVariant(doc, 'demo', scored ? 'on' : 'off');
  if (!scored) return;
  const top = scored.most_likely;
  fillText(doc, 'top-word', scored.words[top]);
  fillText(doc, 'top-percent', formatPercent(scored.probabilities[top]));
}

// A piece the page places itself (a worked dot product, a row pencil mode asks for, a worked
// row of the four-token example), showing the reader's example unless `attributes` name
// another model, in the page's own tree as the pieces written in the HTML do.
function pieceFor(doc, name, attributes) {
  const piece = doc.createElement(name);
  for (const [attribute, value] of Object.entries({ model: 'walk', ...attributes, 'light-dom': '' })) {
    piece.setAttribute(attribute, value);
  }
  return piece;
}

const stepElement = (doc, step, row, attributes = {}) => pieceFor(doc, 'attention-step', { step, row: String(row), tools: '', ...attributes });

/**
 * Takes out the pieces the page placed for a token the next example no longer has, before the
 * model shows it (they would say that token is missing until the page placed new ones).
 * @param {Document} doc
 * @param {number} tokenCount  the next example's
 */
export function dropPlacedPieces(doc, tokenCount) {
  for (const piece of doc.querySelectorAll('[data-slot] > attention-working[model="walk"], [data-slot] > attention-step[model="walk"][row]')) {
    const indices = ['row', 'col'].map((name) => piece.getAttribute(name)).filter((text) => text !== null).map(Number);
    if (indices.some((index) => (index < 0 ? -index > tokenCount : index >= tokenCount))) piece.remove();
  }
}

/**
 * Steps 1 to 6, drawn for the reader's current example whenever it changes.
 * @param {Document} doc
 */
export function createSteps(doc) {
  // The slots of the step elements: computing until the first trace reaches them.
  const stepSlots = [...doc.querySelectorAll('[data-slot]:has(> attention-step[model="walk"])')];
  return {
    /**
     * Draws the softmax and mix tables of the rows other than the last token's that pencil mode
     * asks for (an exercise's blanks in those rows need a table to be written in), below the
     * last token's; none when `rows` names no other row.
     * @param {object} trace
     * @param {number[]} rows  the rows holding blanks of the softmax or the mix, in order
     */
    showPracticeRows(trace, rows) {
      const others = rows.filter((row) => row !== trace.token_count - 1);
      fillSlot(doc, 'practice-softmax-rows', ...others.map((row) => stepElement(doc, 'softmax', row)));
      fillSlot(doc, 'practice-mix-rows', ...others.map((row) => stepElement(doc, 'mix', row)));
    },
    /** @param {object} trace */
    render(trace) {
      renderProse(doc, trace);
      renderScores(doc, trace);
      renderScale(doc, trace);
      renderSoftmax(doc, trace);
      renderMix(doc, trace);
      renderDemonstrationProse(doc);
      for (const place of stepSlots.splice(0)) place.removeAttribute('aria-busy');
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The four-token grid and its worked rows: the article's own second example, which stays put.
// The grid and the rows' tables are <attention-step model="four-words"> elements; this writes
// the prose around them, the grid's key to its shades and its downloads.

// The caption of a worked row's table; the element fills in the tokens (step-views.js).
const WORKED_ROW_CAPTION = 'Softmax of the {token} row in \u201c{tokens}\u201d: weight = e\u02e3 \u00f7 total';

/**
 * @param {Document} doc
 * @param {object} trace  the trace of the article's four-token example (its model's)
 * @param {number[]} workedRows
 * @param {(tableOf: () => HTMLTableElement | null) => HTMLElement} downloads  the grid picture's
 *        downloads, made from the table the grid element shows when asked
 */
export function renderArticleGrid(doc, trace, workedRows, downloads) {
  fillText(doc, 'four-sentence', tokenTexts(trace.tokens).join(' '));
  const gridSlot = slot(doc, 'grid');
  const grid = gridSlot.querySelector('attention-step');
  gridSlot.append(downloads(() => grid.querySelector('table[data-table]')));
  fillSlot(doc, 'grid-legend', shadeLegend(doc));

  const [firstWorked] = workedRows;
  const liveShares = trace.weights[firstWorked]
    .filter((_, j) => !isMaskedScore(trace.masked[firstWorked][j]))
    .map((weight) => formatFixed(weight, DECIMALS.split));
  fillText(doc, 'four-first-worked-token', tokenText(trace.tokens[firstWorked]));
  fillText(doc, 'four-first-worked-split', liveShares.join(' / '));

  fillSlot(doc, 'worked-rows', ...workedRows.map((row) =>
    stepElement(doc, 'softmax', row, { model: 'four-words', 'table-name': `worked-row-${row}`, caption: WORKED_ROW_CAPTION })));
  gridSlot.removeAttribute('aria-busy');
}
