// The working of any computed cell: pointing at a cell, or moving to it with the keyboard,
// shows under its table how the core got that number from the cells before it (the dot
// product term by term, the division, why −∞, e^x ÷ total, the weighted sum) and highlights
// those cells wherever they are on the page. Every number shown is the core's; the working is
// laid out here, never recomputed.

import { formatCompact, formatFixed, formatSignedTerms } from '../web/views/format.js';
import { renderWorking } from '../web/views/step-views.js';
import { hideOpenAnswers } from '../web/views/blank-echoes.js';
import { element } from '../web/views/page-slots.js';
import { keepSignsWithNumbers, renderDotProduct } from '../web/views/render-working.js';
import { isZeroedByMask } from '../web/views/step-tables.js';
import { DECIMALS } from '../web/views/format.js';

const HINT = 'Point at a number in a table of this step, or move to it with the arrow keys, to see how it was worked out.';

const f3 = (x) => formatFixed(x, DECIMALS.matrix);
const f4 = (x) => formatFixed(x, DECIMALS.softmax);

function block(doc, title, lines) {
  const node = element(doc, 'div', 'working');
  node.append(element(doc, 'p', 'working-title', title));
  for (const line of lines) {
    const p = element(doc, 'p', 'working-line');
    p.append(element(doc, 'span', 'equals', '='), ' ', ...[line].flat().map((part) => (typeof part === 'string'
      ? element(doc, 'span', 'term', part) : part)));
    node.append(p);
  }
  return node;
}

const result = (doc, text) => element(doc, 'strong', 'value', text);
// A sum written out term by term; it may wrap between terms (see keepSignsWithNumbers).
const sum = (doc, terms) => element(doc, 'span', 'terms', formatSignedTerms(terms, DECIMALS.softmax).replace(/([+\u2212]) /gu, '$1\u00a0'));

// Cells to highlight: [table name, row, col]; a missing col means the whole row, a missing
// row the whole column.
const allCols = (table, row) => [[table, row, null]];

/**
 * How each kind of table's cells were worked out. Each entry takes the trace and the cell and
 * returns {node, sources}, or null for a cell with nothing to show.
 */
const WORKINGS = {
  scores(doc, trace, { row: i, col: j }) {
    const node = keepSignsWithNumbers(renderDotProduct(doc, {
      queryToken: trace.tokens[i], keyToken: trace.tokens[j], query: trace.q[i], key: trace.k[j],
      products: trace.score_terms[i][j], score: trace.scores[i][j],
      decimals: { factor: DECIMALS.factor, product: DECIMALS.product, score: DECIMALS.matrix },
    }));
    return { node, sources: [...allCols('q', i), ...allCols('k', j)] };
  },
  scaled(doc, trace, { row: i, col: j }, source = 'scores') {
    const divisor = formatCompact(trace.scale_divisor, 3);
    const by = { sqrt_d: 'score \u00f7 \u221ad\u2096', d: 'score \u00f7 d\u2096', none: 'score, not scaled' }[trace.scale] ?? 'score';
    return {
      node: block(doc, `scaled score of ${trace.tokens[i]} against ${trace.tokens[j]}`, [
        `${by} = ${f3(trace.scores[i][j])} \u00f7 ${divisor}`,
        [result(doc, f3(trace.scaled[i][j]))],
      ]),
      sources: [[source, i, j]],
    };
  },
  masked(doc, trace, { row: i, col: j }) {
    const title = `masked score of ${trace.tokens[i]} against ${trace.tokens[j]}`;
    let lines;
    if (trace.masked[i][j] === -Infinity) {
      lines = [`\u2212\u221e: ${trace.tokens[j]} comes after ${trace.tokens[i]}, which may not look at it. ` +
        'In the next step e^\u2212\u221e is exactly 0, so it gets no weight at all.', [result(doc, f3(-Infinity))]];
    } else if (isZeroedByMask(trace, i, j)) {
      lines = [`0 instead of \u2212\u221e (the FAQ's mistake): ${trace.tokens[j]} comes after ${trace.tokens[i]}, ` +
        'but e^0 is 1, so it will still get weight.', [result(doc, f3(trace.masked[i][j]))]];
    } else {
      lines = [`the scaled score, unchanged: ${trace.tokens[i]} may look at ${trace.tokens[j]}`, [result(doc, f3(trace.masked[i][j]))]];
    }
    return { node: block(doc, title, lines), sources: [['scaled', i, j]] };
  },
  weights(doc, trace, { row: i, col: j, extra }) {
    if (extra) {
      return {
        node: block(doc, `row sum of ${trace.tokens[i]}`, [
          [sum(doc, trace.weights[i])], [result(doc, f4(trace.weight_sums[i]))],
        ]),
        sources: allCols('weights', i),
      };
    }
    return { node: renderWorking(doc, trace, { row: i, col: j, of: 'weight' }), sources: allCols('masked', i) };
  },
  softmax(doc, trace, { row: j, col, footer, tableRow: i, table = 'softmax' }) {
    if (footer) {
      const terms = col === 1 ? trace.exponentials[i] : trace.weights[i];
      const total = col === 1 ? trace.row_totals[i] : trace.weight_sums[i];
      return {
        node: block(doc, `${col === 1 ? 'total of the exponentials' : 'sum of the weights'} of the ${trace.tokens[i]} row`, [
          [sum(doc, terms)], [result(doc, f4(total))],
        ]),
        sources: [[table, null, col]],
      };
    }
    if (col === 0) return WORKINGS.masked(doc, trace, { row: i, col: j });
    if (col === 1) {
      const x = trace.masked[i][j];
      const power = trace.row_shifted[i] ? `e^(${f3(x)} \u2212 ${f3(trace.row_max[i])})` : `e^${f3(x)}`;
      return {
        node: block(doc, `e\u02e3 of ${trace.tokens[i]} on ${trace.tokens[j]}`, [power, [result(doc, f4(trace.exponentials[i][j]))]]),
        sources: [[table, j, 0]],
      };
    }
    return { node: renderWorking(doc, trace, { row: i, col: j, of: 'weight' }), sources: [[table, j, 1], [table, null, 1]] };
  },
  mix(doc, trace, { row: j, col: c, footer, tableRow: i }) {
    if (footer) {
      const column = trace.tokens.map((_, n) => trace.weighted_values[i][n][c]);
      return {
        node: block(doc, `out[${trace.tokens[i]}], component ${c}: the column added up`, [
          [sum(doc, column)], [result(doc, f4(trace.out[i][c]))],
        ]),
        sources: [['mix', null, c]],
      };
    }
    return {
      node: block(doc, `weight of ${trace.tokens[i]} on ${trace.tokens[j]} \u00d7 v${c} of ${trace.tokens[j]}`, [
        `${f4(trace.weights[i][j])} \u00d7 ${f3(trace.v[j][c])}`, [result(doc, f4(trace.weighted_values[i][j][c]))],
      ]),
      sources: [['weights', i, j], ['v', j, c]],
    };
  },
};
// The FAQ's copies of the live tables work the same way.
WORKINGS['faq-scaled'] = (doc, trace, cell) => WORKINGS.scaled(doc, trace, cell, 'scores');
WORKINGS['faq-weights'] = WORKINGS.weights;
WORKINGS['live-grid'] = WORKINGS.weights;

// The article's four-token grid and its worked rows: the same kinds of table, of another trace.
const ARTICLE_TABLES = { grid: 'weights', 'worked-row': 'softmax' };
const articleKind = (name) => ARTICLE_TABLES[name.replace(/-\d+$/u, '')];

function cellOf(td) {
  const table = td.closest('table[data-table]');
  const name = table?.dataset.table ?? '';
  const kind = name in WORKINGS ? name : articleKind(name);
  if (!kind) return null;
  const inFooter = Boolean(td.closest('tfoot'));
  return {
    table,
    kind,
    article: !(name in WORKINGS),
    cell: {
      table: name,
      row: td.dataset.row === undefined ? null : Number(td.dataset.row),
      col: td.dataset.col === undefined ? null : Number(td.dataset.col),
      extra: td.classList.contains('extra'),
      footer: inFooter,
      tableRow: table.dataset.row === undefined ? null : Number(table.dataset.row),
    },
  };
}

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 * @param {object} articleTrace  the trace of the article's four-token example (its grid and rows)
 */
export function createWorking(doc, session, articleTrace) {
  const main = doc.querySelector('main');
  let selected = null;  // {kind, cell, host}

  function panelFor(host) {
    let panel = host.querySelector(':scope > .cell-working');
    if (!panel) {
      panel = element(doc, 'div', 'cell-working');
      panel.setAttribute('aria-live', 'polite');
      panel.append(element(doc, 'p', 'cell-working-hint', HINT));
      const stepper = host.querySelector(':scope > .stepper');
      host.insertBefore(panel, stepper);
    }
    return panel;
  }

  function clearHighlights() {
    for (const node of doc.querySelectorAll('.source-cell, .selected-cell')) node.classList.remove('source-cell', 'selected-cell');
  }

  function highlight(sources, td) {
    clearHighlights();
    td?.classList.add('selected-cell');
    for (const [table, row, col] of sources) {
      const rows = row === null ? '' : `[data-row="${row}"]`;
      const cols = col === null ? '' : `[data-col="${col}"]`;
      for (const cell of doc.querySelectorAll(`table[data-table="${table}"] td${rows}${cols}`)) {
        if (!cell.closest('tfoot') || row === null) cell.classList.add('source-cell');
      }
    }
  }

  function show(td) {
    const found = cellOf(td);
    if (!found || !session.trace) return;
    const host = td.closest('.faq-lab, section');
    const working = WORKINGS[found.kind](doc, found.article ? articleTrace : session.trace, found.cell);
    if (!working) return;
    const panel = panelFor(host);
    working.node.classList.add('cell-working-body');
    panel.replaceChildren(working.node);
    hideOpenAnswers(panel);
    // The article's tables come from another trace: only their own cells are its sources.
    highlight(found.article ? working.sources.filter(([name]) => articleKind(name)) : working.sources, td);
    selected = { kind: found.kind, cell: found.cell, host };
  }

  // The pointer counts when it moves onto a cell, not when the page scrolls a cell under a
  // pointer standing still (which would undo what the keyboard just chose); a tap focuses.
  let pointed = null;
  const onPoint = (event) => {
    const td = event.target.closest?.('td.num');
    // A blank of pencil mode keeps its working to itself: its hints reveal it step by step.
    if (!td || !main.contains(td) || td.dataset.blank !== undefined) return;
    if (event.type === 'pointermove') {
      if (td === pointed) return;
      pointed = td;
    }
    show(td);
  };
  main.addEventListener('pointermove', onPoint);
  main.addEventListener('focusin', onPoint);
  // Each step with computed tables, and each of the FAQ's labs, says from the start that its
  // cells can be asked how they were worked out.
  for (const host of doc.querySelectorAll('section.step:not(.demonstration), .faq-lab, section[aria-labelledby="grid-heading"]')) {
    panelFor(host);
  }

  return {
    /** Tables were redrawn: show the selected cell's working again with the new numbers. */
    refresh() {
      if (!selected) return;
      const { cell } = selected;
      const table = doc.querySelector(`table[data-table="${cell.table}"]`);
      const section = cell.footer ? 'tfoot' : 'tbody';
      const rowPart = cell.row === null ? '' : `[data-row="${cell.row}"]`;
      const colPart = cell.col === null ? '' : `[data-col="${cell.col}"]`;
      const extraPart = cell.extra ? '.extra' : '';
      const td = table?.querySelector(`${section} td.num${rowPart}${colPart}${extraPart}`);
      if (td && (table.dataset.row === undefined || Number(table.dataset.row) === cell.tableRow)) {
        show(td);
      } else {
        clearHighlights();
        panelFor(selected.host).replaceChildren(element(doc, 'p', 'cell-working-hint', HINT));
        selected = null;
      }
    },
  };
}
