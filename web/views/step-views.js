// The pieces the embeddable elements show, each built from a trace with the `doc` it is handed:
// one step table, the mask grid, the arrows view, the working of one cell. They reuse the
// walkthrough's renderers, so a table reads the same in an article as on the walkthrough page.
// Every number comes from the trace; these functions only choose captions and formats.

import { renderArrows } from './arrows.js';
import { DECIMALS, fixed, formatCompact, formatFixed } from './format.js';
import { element } from './page-slots.js';
import { renderMatrixTable, renderScrollable, renderShadeLegend } from './render-tables.js';
import { renderDotProduct } from './render-working.js';

const SHADE_LEVELS = 5;

const isMaskedScore = (value) => value === -Infinity;
const componentLabels = (letter, headDim) => Array.from({ length: headDim }, (_, c) => `${letter}${c}`);

/**
 * Sets a mask <select> to `mask`, adding an option for a mask the core knows but the control
 * does not list (an author may configure any mask the core accepts).
 * @param {HTMLSelectElement} select
 * @param {string} mask
 */
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

// Marks a table for ::part styling and wraps it so that it scrolls inside its own box.
function scrollable(doc, table) {
  table.setAttribute('part', 'table');
  table.caption?.setAttribute('part', 'caption');
  return renderScrollable(doc, table, table.caption?.textContent ?? 'table');
}

const MATRIX_CAPTIONS = {
  q: 'Q \u00b7 queries: what each token is looking for',
  k: 'K \u00b7 keys: what each token offers to be found by',
  v: 'V \u00b7 values: what each token hands over',
};

function inputTable(doc, trace, matrix, editable) {
  const table = renderMatrixTable(doc, trace[matrix], {
    name: matrix,
    caption: MATRIX_CAPTIONS[matrix],
    corner: 'token',
    rowLabels: trace.tokens,
    columnLabels: componentLabels(matrix, trace.head_dim),
    format: fixed(DECIMALS.matrix),
  });
  if (editable) {
    table.classList.add('editable');
    for (const cell of table.querySelectorAll('td[data-row][data-col]')) {
      const row = Number(cell.dataset.row);
      const col = Number(cell.dataset.col);
      const input = element(doc, 'input', 'cell-input');
      Object.assign(input, { type: 'text', inputMode: 'decimal', spellcheck: false, autocomplete: 'off' });
      input.size = 7;
      input.value = formatEditable(trace[matrix][row][col]);
      input.dataset.matrix = matrix;
      input.dataset.row = String(row);
      input.dataset.col = String(col);
      input.setAttribute('part', 'input');
      input.setAttribute('aria-label', `${matrix}${col} of ${trace.tokens[row]}`);
      cell.replaceChildren(input);
    }
  }
  return table;
}

/**
 * Writes the trace's values into an editable table built by renderStep, leaving the cell the
 * reader is typing in alone. Returns false when the table no longer fits the trace (other
 * tokens or head size), and the caller builds a new one.
 * @param {Element} view  what renderStep returned
 * @param {object} trace
 * @param {Element | null} active  the focused element of the view's root
 */
export function refreshEditable(view, trace, active) {
  if (view.dataset.shape !== shapeKey(trace)) return false;
  for (const input of view.querySelectorAll('input[data-matrix]')) {
    if (input === active) continue;
    input.value = formatEditable(trace[input.dataset.matrix][Number(input.dataset.row)][Number(input.dataset.col)]);
    input.removeAttribute('aria-invalid');
  }
  return true;
}

const shapeKey = (trace) => JSON.stringify([trace.tokens, trace.head_dim]);

function tokenMatrixTable(doc, trace, matrix, { name, caption, masked = false }) {
  return renderMatrixTable(doc, matrix, {
    name,
    caption,
    corner: 'query \u2193 key \u2192',
    rowLabels: trace.tokens,
    columnLabels: trace.tokens,
    format: fixed(DECIMALS.matrix),
    isMasked: masked ? (i, j) => isMaskedScore(trace.masked[i][j]) : undefined,
  });
}

function softmaxTable(doc, trace, row) {
  const shifted = Boolean(trace.row_shifted[row]);
  return renderMatrixTable(doc, trace.tokens.map((_, j) => [
    trace.masked[row][j], trace.exponentials[row][j], trace.weights[row][j],
  ]), {
    name: 'softmax',
    caption: `Step 4 \u00b7 softmax of the ${trace.tokens[row]} row: weight = e\u02e3 \u00f7 total`,
    className: 'softmax',
    corner: 'key',
    rowLabels: trace.tokens,
    columnLabels: ['score x', shifted ? 'e^(x \u2212 max)' : 'e\u02e3', 'weight'],
    format: [fixed(DECIMALS.matrix), fixed(DECIMALS.softmax), fixed(DECIMALS.softmax)],
    isMasked: (j) => isMaskedScore(trace.masked[row][j]),
    footerRows: [{
      label: 'total',
      values: [null, trace.row_totals[row], trace.weight_sums[row]],
      format: fixed(DECIMALS.softmax),
    }],
  });
}

function weightsTable(doc, trace, { name, caption, className, shade = false }) {
  return renderMatrixTable(doc, trace.weights, {
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
      label: 'row sum', values: trace.weight_sums, format: fixed(DECIMALS.softmax), className: 'row-sum',
    }],
  });
}

function mixTable(doc, trace, row) {
  const weightOf = (j) => formatFixed(trace.weights[row][j], DECIMALS.softmax);
  return renderMatrixTable(doc, trace.weighted_values[row], {
    name: 'mix',
    caption: `Step 5 \u00b7 mix: weight \u00d7 value for the ${trace.tokens[row]} row`,
    className: 'mix',
    corner: 'weight \u00d7 value',
    rowLabels: trace.tokens.map((token, j) => `${weightOf(j)} \u00d7 V[${token}]`),
    columnLabels: componentLabels('v', trace.head_dim),
    format: fixed(DECIMALS.softmax),
    isMasked: (j) => isMaskedScore(trace.masked[row][j]),
    footerRows: [{ label: `out[${trace.tokens[row]}]`, values: trace.out[row], format: fixed(DECIMALS.softmax) }],
  });
}

// One sentence per step saying what it does; numbers in it come from the trace.
function stepNote(step, trace) {
  switch (step) {
    case 'scores': return 'Each score is the dot product of a query (row) with a key (column).';
    case 'scaled': return `Every score divided by \u221ad\u2096 = ${formatCompact(trace.scale_divisor, 3)}.`;
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

/**
 * One step of the walkthrough as a <section part="step" data-step=…>.
 * @param {Document} doc
 * @param {string} step  one of STEPS (element-config.js)
 * @param {object} trace
 * @param {{row: number, editable?: boolean, notes?: boolean}} options
 *        row: the token whose softmax / mix / arrows are worked out (arrows: null for all)
 */
export function renderStep(doc, step, trace, { row, editable = false, notes = true }) {
  const section = element(doc, 'section', 'step');
  section.setAttribute('part', 'step');
  section.dataset.step = step;
  const note = notes ? stepNote(step, trace) : null;
  if (note) section.append(element(doc, 'p', 'step-note', note));
  switch (step) {
    case 'q':
    case 'k':
    case 'v':
      section.dataset.shape = shapeKey(trace);
      section.append(scrollable(doc, inputTable(doc, trace, step, editable)));
      break;
    case 'scores':
      section.append(scrollable(doc, tokenMatrixTable(doc, trace, trace.scores, {
        name: 'scores', caption: 'Step 1 \u00b7 scores: q \u00b7 k',
      })));
      break;
    case 'scaled':
      section.append(scrollable(doc, tokenMatrixTable(doc, trace, trace.scaled, {
        name: 'scaled', caption: `Step 2 \u00b7 scaled: scores \u00f7\u00a0${formatCompact(trace.scale_divisor, 3)}`,
      })));
      break;
    case 'masked':
      section.append(scrollable(doc, tokenMatrixTable(doc, trace, trace.masked, {
        name: 'masked', caption: 'Step 3 \u00b7 masked: \u2212\u221e where a token may not look', masked: true,
      })));
      break;
    case 'softmax':
      section.append(scrollable(doc, softmaxTable(doc, trace, row)));
      break;
    case 'weights':
      section.append(scrollable(doc, weightsTable(doc, trace, {
        name: 'weights', caption: 'Step 4 \u00b7 weights: softmax of every row',
      })));
      break;
    case 'mix':
      section.append(scrollable(doc, mixTable(doc, trace, row)));
      break;
    case 'out':
      section.append(scrollable(doc, renderMatrixTable(doc, trace.out, {
        name: 'out',
        caption: 'Step 5 \u00b7 out: the head\u2019s output',
        corner: 'token',
        rowLabels: trace.tokens,
        columnLabels: componentLabels('out', trace.head_dim),
        format: fixed(DECIMALS.softmax),
      })));
      break;
    case 'grid':
      section.append(renderMaskGrid(doc, trace));
      break;
    case 'arrows':
      section.append(renderArrowsFigure(doc, trace, { row: null }));
      break;
    default:
      throw new RangeError(`unknown step ${step}`);
  }
  return section;
}

/** The mask grid: the weights, shaded by size, masked cells hatched, with its legend. */
export function renderMaskGrid(doc, trace) {
  const fragment = element(doc, 'div', 'mask-grid');
  const caption = `Mask \u201c${trace.mask}\u201d \u00b7 attention weights for \u201c${trace.tokens.join(' ')}\u201d`;
  fragment.append(scrollable(doc, weightsTable(doc, trace, { name: 'grid', caption, className: 'grid', shade: true })));
  const legend = renderShadeLegend(doc, {
    levels: SHADE_LEVELS, decimals: 1, title: 'Shading of a live cell by its weight', maskedLabel: 'masked, weight 0',
  });
  legend.setAttribute('part', 'legend');
  fragment.append(legend);
  return fragment;
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
    const block = renderDotProduct(doc, {
      queryToken,
      keyToken,
      query: trace.q[row],
      key: trace.k[col],
      products: trace.score_terms[row][col],
      score: trace.scores[row][col],
      decimals: { factor: DECIMALS.factor, product: DECIMALS.product, score: DECIMALS.workedScore },
    });
    block.setAttribute('part', 'working');
    return block;
  }
  const block = element(doc, 'div', 'working softmax-working');
  block.setAttribute('part', 'working');
  block.setAttribute('role', 'group');
  block.setAttribute('aria-label', `weight of ${queryToken} on ${keyToken}`);
  block.dataset.query = queryToken;
  block.dataset.key = keyToken;
  const title = element(doc, 'p', 'working-title', `weight of ${queryToken} on ${keyToken}`);
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
