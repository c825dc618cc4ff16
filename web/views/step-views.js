// The pieces the embeddable elements show, each built from a trace with the `doc` it is handed:
// one step's table, the mask grid, the arrows view, the working of one cell. The tables are the
// walkthrough page's own (step-tables.js, shown through table-block.js), so a table reads the
// same in an article as on the page. A step view shown again for a new trace of the same shape
// updates its cells in place. Every number comes from the trace; this only lays it out.

import { renderArrows, updateArrows } from './arrows.js';
import { DECIMALS, fixed, formatCompact, formatFixed } from './format.js';
import { labelCells } from './cell-navigation.js';
import { makeEditable, refreshField } from './cell-field.js';
import { element } from './page-slots.js';
import { renderScrollable } from './render-tables.js';
import { keepSignsWithNumbers, renderDotProduct, updateDotProduct } from './render-working.js';
import { tableView } from './live-table.js';
import { navigableScroller, presentTable } from './table-block.js';
import {
  componentLabels, describeMasked, describeMix, describeScaled, describeScore, describeSoftmax, describeWeight,
  isMaskedScore, maskSummary, maskedCaption, mixTable, outTable, scaleSummary, scaledCaption, shadeLegend, shiftNote,
  softmaxTable, tokenMatrixTable, weightsTable,
} from './step-tables.js';
import { tokenText, tokenTexts } from './token-text.js';

export { hiddenScore, maskSummary } from './step-tables.js';

/**
 * The mask control of an element's toolbar: a labelled select of `choices` ([name, label] pairs,
 * the core's vocabulary), calling `choose(name)` when the reader picks one.
 */
export function maskSelect(doc, choices, choose) {
  const label = doc.createElement('label');
  const select = doc.createElement('select');
  select.dataset.control = 'mask';
  for (const [value, text] of choices) {
    const option = doc.createElement('option');
    option.value = value;
    option.textContent = text;
    select.append(option);
  }
  select.addEventListener('change', () => choose(select.value));
  label.append('Mask ', select);
  return label;
}

/**
 * Sets a mask <select> to `mask`, adding an option for a mask the core knows but the control
 * does not list (an author may configure any mask the core accepts).
 * @param {HTMLSelectElement} select
 * @param {string} mask
 */
export function selectMask(select, mask) {
  if (![...select.options].some((option) => option.value === mask)) {
    const option = select.ownerDocument.createElement('option');
    option.value = mask;
    option.textContent = mask;
    select.append(option);
  }
  select.value = mask;
}

/** How an editable cell shows a value of the trace: as briefly as it reads, up to 6 decimals. */
export const formatEditable = (value) => formatCompact(value, 6);

// Marks a table for ::part styling, names its cells and wraps it so that it scrolls inside its
// own box; with `tools`, as the page shows its tables: walked with the arrow keys and with the
// "Copy table" menu under it (table-block.js).
function presentPart(doc, table, describe, { tools = false, navigable = false } = {}) {
  table.setAttribute('part', 'table');
  table.caption?.setAttribute('part', 'caption');
  if (tools) return presentTable(doc, table, { describe });
  labelCells(table, describe);
  if (navigable) return navigableScroller(doc, table);
  return renderScrollable(doc, table, table.caption?.textContent ?? 'table');
}

const MATRIX_CAPTIONS = {
  q: 'Q \u00b7 queries: what each token is looking for',
  k: 'K \u00b7 keys: what each token offers to be found by',
  v: 'V \u00b7 values: what each token hands over',
};

/** Q, K or V as a table spec. */
function inputTable(trace, matrix) {
  return { matrix: trace[matrix], options: {
    name: matrix,
    caption: MATRIX_CAPTIONS[matrix],
    corner: 'token',
    rowLabels: trace.tokens,
    columnLabels: componentLabels(matrix, trace.head_dim),
    format: fixed(DECIMALS.matrix),
  } };
}

// One sentence per step saying what it does; numbers in it come from the trace.
function stepNote(step, trace) {
  switch (step) {
    case 'scores': return 'Each score is the dot product of a query (row) with a key (column).';
    case 'scaled': return `Every score divided by ${scaledCaption(trace, '').replace(/^scores \u00f7\u00a0/u, '')}.`;
    case 'masked':
      return `Mask \u201c${trace.mask}\u201d: ${maskSummary(trace)}.`;
    case 'softmax': return 'e to the power of each score, divided by their total: the shares add up to one.';
    case 'weights': return 'Softmax of every row: how each token divides its attention.';
    case 'mix': return 'Each value scaled by its weight and added up: the head\u2019s output for this token.';
    case 'out': return 'The head\u2019s output: for every token, the weighted mix of the values.';
    case 'grid': return 'Attention weights, darker for a larger share; hatched cells are masked.';
    case 'arrows': return 'Each token\u2019s arrows to the tokens it can see, thicker for a larger weight.';
    default: return null;
  }
}

// A caption an author wrote (for a step's table, or an arrows figure), its placeholders filled
// from the trace so that it follows the model as it changes: `{tokens}` the tokens
// (space-separated), `{token}` the token of the row worked out, `{mask}` the mask as the core
// labels it, `{scale}` what the scores were divided by ("√dₖ = 2"). One pass: a token that reads
// "{token}" stays as it is.
export function fillCaption(template, trace, row, maskLabel = trace.mask) {
  const fills = {
    tokens: () => tokenTexts(trace.tokens).join(' '),
    token: () => tokenText(trace.tokens[row] ?? ''),
    mask: () => maskLabel,
    scale: () => scaleSummary(trace),
  };
  return template.replace(/\{(tokens|token|mask|scale)\}/gu, (_, which) => fills[which]());
}

const gridCaption = (trace) => `Mask \u201c${trace.mask}\u201d \u00b7 attention weights for \u201c${tokenTexts(trace.tokens).join(' ')}\u201d`;

// Each table step: its spec for a trace (and the row worked out), and how its cells are named.
const TABLE_STEPS = {
  q: { spec: (trace) => inputTable(trace, 'q') },
  k: { spec: (trace) => inputTable(trace, 'k') },
  v: { spec: (trace) => inputTable(trace, 'v') },
  scores: {
    spec: (trace) => tokenMatrixTable(trace, trace.scores, { name: 'scores', caption: 'Step 1 \u00b7 scores: q \u00b7 k' }),
    describe: describeScore,
  },
  scaled: {
    spec: (trace) => tokenMatrixTable(trace, trace.scaled, { name: 'scaled', caption: scaledCaption(trace, 'Step 2 \u00b7 scaled: ') }),
    describe: describeScaled,
  },
  masked: {
    spec: (trace) => tokenMatrixTable(trace, trace.masked, {
      name: 'masked', caption: maskedCaption(trace, 'Step 3 \u00b7 masked: '), masked: true,
    }),
    describe: describeMasked,
  },
  softmax: { spec: (trace, row) => softmaxTable(trace, row), describe: describeSoftmax },
  weights: {
    spec: (trace) => weightsTable(trace, { name: 'weights', caption: 'Step 4 \u00b7 weights: softmax of every row' }),
    describe: describeWeight,
  },
  mix: { spec: (trace, row) => mixTable(trace, row), describe: describeMix },
  out: { spec: (trace) => outTable(trace) },
  grid: {
    spec: (trace) => weightsTable(trace, { name: 'grid', caption: gridCaption(trace), className: 'grid', shade: true }),
    describe: describeWeight,
  },
};

/**
 * One step of the walkthrough as a <div class="step-view" part="step" data-step=…>, kept on
 * screen and brought up to each new trace: cells in place while the table keeps its shape, a
 * new table when it changes (other tokens, another head size). (A div, not a section: in a page
 * the step element sits inside the article's own step sections.)
 * @param {Document} doc
 * @param {string} step  one of STEPS (element-config.js)
 * @param {{tools?: boolean, navigable?: boolean}} [options]  tools: a printed table as the page
 *        shows it, with the arrow keys and the "Copy table" menu; navigable: the arrow keys
 *        without the menu (an element whose cells show their workings; an editable table is
 *        walked anyway)
 */
export function stepView(doc, step, { tools = false, navigable = false } = {}) {
  const section = element(doc, 'div', 'step-view');
  section.setAttribute('part', 'step');
  section.dataset.step = step;
  const note = element(doc, 'p', 'step-note');
  // Under a softmax table whose row was computed shifted by its largest score (its eˣ column
  // then holds e^(x − max)): why, and that the weights are the same.
  const shiftParagraph = element(doc, 'p', 'shift-note');
  shiftParagraph.dataset.shiftNote = '';
  const table = TABLE_STEPS[step];
  if (!table && step !== 'arrows') throw new RangeError(`unknown step ${step}`);
  let view = null;
  let viewEditable = false;  // whether `view` shows an editable table (a field of its own)
  let legend = null;
  let arrows = null;
  let shown = null;  // the table's box on screen
  return {
    element: section,
    /**
     * @param {object} trace
     * @param {{row: number, editable?: boolean, notes?: boolean, active?: Element | null,
     *          tableName?: string | null, caption?: string | null, legend?: boolean}} options
     *        row: the token whose softmax / mix is worked out; active: the focused element of the
     *        view's root (an editable cell being typed in keeps its text); tableName, caption:
     *        the table's data-table name and caption instead of the step's (the caption filled
     *        in by fillCaption, with `maskLabel` for {mask}); legend: whether a grid shows its
     *        key to the shades
     */
    show(trace, {
      row, editable = false, notes = true, active = null, tableName = null, caption = null, legend: withLegend = true,
      maskLabel = trace.mask,
    }) {
      const text = notes ? stepNote(step, trace) : null;
      if (text) {
        if (note.textContent !== text) note.textContent = text;
        if (!note.isConnected) section.prepend(note);
      } else {
        note.remove();
      }
      if (step === 'arrows') {
        if (!arrows || !updateArrows(arrows.querySelector('svg'), trace, { row: null, weightDecimals: DECIMALS.softmax })) {
          arrows?.remove();
          arrows = renderArrowsFigure(doc, trace, { row: null });
          section.append(arrows);
        }
        return section;
      }
      const spec = table.spec(trace, row);
      if (tableName !== null || caption !== null) {
        spec.options = { ...spec.options };
        if (tableName !== null) spec.options.name = tableName;
        if (caption !== null) spec.options.caption = fillCaption(caption, trace, row, maskLabel);
      }
      const inputs = editable && ['q', 'k', 'v'].includes(step);
      // An editable table prints its numbers as its field shows them (cell-field.js).
      if (inputs) spec.options = { ...spec.options, format: formatEditable };
      if (!view || inputs !== viewEditable) {
        view = tableView(doc, {
          describe: table.describe,
          // The field goes in first: the arrow keys walk the cells it moves between.
          present: (built) => {
            if (inputs) makeEditable(doc, built, step);
            return [presentPart(doc, built, table.describe, { tools, navigable: navigable || inputs })];
          },
        });
        viewEditable = inputs;
      }
      const nodes = view.show(spec);
      if (inputs) refreshField(view.table, active);
      if (nodes) {
        shown?.remove();
        [shown] = nodes;
        section.insertBefore(shown, legend);
      }
      if (step === 'grid' && withLegend && !legend) {
        legend = shadeLegend(doc);
        legend.setAttribute('part', 'legend');
        section.append(legend);
      } else if (legend && !withLegend) {
        legend.remove();
        legend = null;
      }
      if (step === 'softmax' && trace.row_shifted[row]) {
        const text = shiftNote(trace, row);
        if (shiftParagraph.textContent !== text) shiftParagraph.textContent = text;
        if (shown.nextSibling !== shiftParagraph) shown.after(shiftParagraph);
      } else {
        shiftParagraph.remove();
      }
      return section;
    },
  };
}

/** The arrows view in a scrolling figure. */
export function renderArrowsFigure(doc, trace, { row = null } = {}) {
  const figure = element(doc, 'figure', 'arrows-figure');
  const scroller = element(doc, 'div', 'table-scroll');
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('tabindex', '0');
  scroller.setAttribute('aria-label', 'arrows view');
  scroller.append(renderArrows(doc, trace, { row, weightDecimals: DECIMALS.softmax }));
  figure.append(scroller);
  return figure;
}

// The dot product of query `row` with key `col`, as renderDotProduct writes it out.
const dotProductOf = (trace, row, col) => ({
  queryToken: trace.tokens[row],
  keyToken: trace.tokens[col],
  query: trace.q[row],
  key: trace.k[col],
  products: trace.score_terms[row][col],
  score: trace.scores[row][col],
  decimals: { factor: DECIMALS.factor, product: DECIMALS.product, score: DECIMALS.workedScore },
});

/**
 * Brings a working renderWorking built up to date in place (a reader's edit changes its numbers,
 * not its shape). False when it cannot: a weight's working, or another head size.
 * @param {HTMLElement} block
 * @param {object} trace
 * @param {{row: number, col: number, of?: 'score' | 'weight'}} cell
 */
export function updateWorking(block, trace, { row, col, of = 'score' }) {
  if (of !== 'score' || !block.classList.contains('dot-product')) return false;
  return updateDotProduct(block, dotProductOf(trace, row, col), { keepSigns: true });
}

/**
 * The working of one cell. `score`: the dot product of query `row` with key `col`, factor by
 * factor. `weight`: that cell's e^x divided by its row's total.
 * @param {Document} doc
 * @param {object} trace
 * @param {{row: number, col: number, of?: 'score' | 'weight'}} cell
 */
export function renderWorking(doc, trace, { row, col, of = 'score' }) {
  const queryToken = trace.tokens[row];
  const keyToken = trace.tokens[col];
  if (of === 'score') {
    // A sum of terms may wrap between terms, never between a sign and its number.
    const block = keepSignsWithNumbers(renderDotProduct(doc, dotProductOf(trace, row, col)));
    block.setAttribute('part', 'working');
    return block;
  }
  const block = element(doc, 'div', 'working softmax-working');
  block.setAttribute('part', 'working');
  block.setAttribute('role', 'group');
  block.setAttribute('aria-label', `weight of ${queryToken} on ${keyToken}`);
  block.dataset.query = queryToken;
  block.dataset.key = keyToken;
  const title = element(doc, 'p', 'working-title', `weight of ${tokenText(queryToken)} on ${tokenText(keyToken)}`);
  const line = (...parts) => {
    const p = element(doc, 'p', 'working-line');
    p.append(element(doc, 'span', 'equals', '='), ' ', ...parts);
    return p;
  };
  block.append(title);
  if (isMaskedScore(trace.masked[row][col])) {
    block.append(line(element(doc, 'span', 'term', `e^(${formatFixed(-Infinity, 0)}) \u00f7 total`)),
      line(element(doc, 'strong', 'value', formatFixed(trace.weights[row][col], DECIMALS.softmax))));
    return block;
  }
  const power = trace.row_shifted[row]
    ? `e^(${formatFixed(trace.masked[row][col], DECIMALS.matrix)} \u2212 ${formatFixed(trace.row_max[row], DECIMALS.matrix)})`
    : `e^${formatFixed(trace.masked[row][col], DECIMALS.matrix)}`;
  block.append(
    line(element(doc, 'span', 'term', `${power} \u00f7 ${formatFixed(trace.row_totals[row], DECIMALS.softmax)}`)),
    line(element(doc, 'span', 'term',
      `${formatFixed(trace.exponentials[row][col], DECIMALS.softmax)} \u00f7 ${formatFixed(trace.row_totals[row], DECIMALS.softmax)}`)),
    line(element(doc, 'strong', 'value', formatFixed(trace.weights[row][col], DECIMALS.softmax))),
  );
  return block;
}
