// How each computed cell of part one's tables was worked out, from the cells before it: the dot
// product term by term, the division, why −∞, e^x ÷ total, the weighted sum. Each working is
// laid out with the `doc` given, from the trace; no number is computed here. `sources` names
// the cells a working reads, for whoever shows it to highlight them.

import { DECIMALS, formatCompact, formatFixed, formatSignedTerms } from './format.js';
import { element } from './page-slots.js';
import { keepSignsWithNumbers, renderDotProduct } from './render-working.js';
import { isZeroedByMask } from './step-tables.js';
import { renderWorking } from './step-views.js';
import { tokenText } from './token-text.js';

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
// row the whole column. A source named as the pointed cell's own table is that table alone
// (pencil mode shows several tables of one step, a grid's row sum adds up its own row).
const allCols = (table, row) => [[table, row, null]];

/**
 * How each kind of table's cells were worked out. Each entry takes the trace and the cell and
 * returns {node, sources}, or null for a cell with nothing to show.
 */
export const WORKINGS = {
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
      node: block(doc, `scaled score of ${tokenText(trace.tokens[i])} against ${tokenText(trace.tokens[j])}`, [
        `${by} = ${f3(trace.scores[i][j])} \u00f7 ${divisor}`,
        [result(doc, f3(trace.scaled[i][j]))],
      ]),
      sources: [[source, i, j]],
    };
  },
  masked(doc, trace, { row: i, col: j }) {
    const title = `masked score of ${tokenText(trace.tokens[i])} against ${tokenText(trace.tokens[j])}`;
    let lines;
    if (trace.masked[i][j] === -Infinity) {
      lines = [`\u2212\u221e: ${tokenText(trace.tokens[j])} comes after ${tokenText(trace.tokens[i])}, which may not look at it. ` +
        'In the next step e^\u2212\u221e is exactly 0, so it gets no weight at all.', [result(doc, f3(-Infinity))]];
    } else if (isZeroedByMask(trace, i, j)) {
      lines = [`0 instead of \u2212\u221e (the FAQ's mistake): ${tokenText(trace.tokens[j])} comes after ${tokenText(trace.tokens[i])}, ` +
        'but e^0 is 1, so it will still get weight.', [result(doc, f3(trace.masked[i][j]))]];
    } else {
      lines = [`the scaled score, unchanged: ${tokenText(trace.tokens[i])} may look at ${tokenText(trace.tokens[j])}`, [result(doc, f3(trace.masked[i][j]))]];
    }
    return { node: block(doc, title, lines), sources: [['scaled', i, j]] };
  },
  weights(doc, trace, { row: i, col: j, extra, table = 'weights' }) {
    if (extra) {
      return {
        node: block(doc, `row sum of ${tokenText(trace.tokens[i])}`, [
          [sum(doc, trace.weights[i])], [result(doc, f4(trace.weight_sums[i]))],
        ]),
        sources: allCols(table, i),
      };
    }
    return { node: renderWorking(doc, trace, { row: i, col: j, of: 'weight' }), sources: allCols('masked', i) };
  },
  softmax(doc, trace, { row: j, col, footer, tableRow: i, table = 'softmax' }) {
    if (footer) {
      const terms = col === 1 ? trace.exponentials[i] : trace.weights[i];
      const total = col === 1 ? trace.row_totals[i] : trace.weight_sums[i];
      return {
        node: block(doc, `${col === 1 ? 'total of the exponentials' : 'sum of the weights'} of the ${tokenText(trace.tokens[i])} row`, [
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
        node: block(doc, `e\u02e3 of ${tokenText(trace.tokens[i])} on ${tokenText(trace.tokens[j])}`, [power, [result(doc, f4(trace.exponentials[i][j]))]]),
        sources: [[table, j, 0]],
      };
    }
    return { node: renderWorking(doc, trace, { row: i, col: j, of: 'weight' }), sources: [[table, j, 1], [table, null, 1]] };
  },
  mix(doc, trace, { row: j, col: c, footer, tableRow: i, table = 'mix' }) {
    if (footer) {
      const column = trace.tokens.map((_, n) => trace.weighted_values[i][n][c]);
      return {
        node: block(doc, `out[${tokenText(trace.tokens[i])}], component ${c}: the column added up`, [
          [sum(doc, column)], [result(doc, f4(trace.out[i][c]))],
        ]),
        sources: [[table, null, c]],
      };
    }
    return {
      node: block(doc, `weight of ${tokenText(trace.tokens[i])} on ${tokenText(trace.tokens[j])} \u00d7 v${c} of ${tokenText(trace.tokens[j])}`, [
        `${f4(trace.weights[i][j])} \u00d7 ${f3(trace.v[j][c])}`, [result(doc, f4(trace.weighted_values[i][j][c]))],
      ]),
      sources: [['weights', i, j], ['v', j, c]],
    };
  },
};
// The FAQ's copies of the live tables work the same way, and a grid is the weights, shaded.
WORKINGS['faq-scaled'] = (doc, trace, cell) => WORKINGS.scaled(doc, trace, cell, 'scores');
WORKINGS['faq-weights'] = WORKINGS.weights;
WORKINGS['live-grid'] = WORKINGS.weights;
WORKINGS.grid = WORKINGS.weights;

/**
 * What a cell of a table with a working is: the kind of working and where it sits. The kind is
 * the step of the step view the table is drawn in (a table an author renamed with `table-name`
 * keeps its step's working), else the table's name.
 * @param {HTMLTableCellElement} td
 */
export function cellOf(td) {
  const table = td.closest('table[data-table]');
  const name = table?.dataset.table ?? '';
  const step = table?.closest('[data-step]')?.dataset.step;
  const kind = [step, name].find((candidate) => candidate !== undefined && Object.hasOwn(WORKINGS, candidate));
  if (!kind) return null;
  const inFooter = Boolean(td.closest('tfoot'));
  return {
    table,
    kind,
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
