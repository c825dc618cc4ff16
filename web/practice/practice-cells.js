// Which computed cells pencil mode can turn into blanks: one entry per kind of cell, naming
// where the core's value comes from (the answer of run(), flashTiles() or kvBill(), and the
// key in it), the table the page shows it in (the views' data-table names), the decimals it is
// printed with (format.js), and the working a hint reveals, one step at a time, in order.
// Hints only set the core's own numbers side by side, written by format.js; nothing here
// computes a result.

import { DECIMALS, NEG_INFINITY, formatCompact, formatFixed, formatProduct, formatSignedTerms } from '../views/format.js';
import { formatCount } from '../views/sequel-format.js';
import { quotedToken, tokenText } from '../views/token-text.js';

/** The lines of the KV bill that can be practised, in the order the bill's table lists them. */
export const BILL_LINES = Object.freeze(['bytes_per_token_per_layer', 'bytes_per_token', 'bytes_per_sequence', 'cache_bytes']);

/**
 * The kinds of blank, in the order of the steps. `source` is the core's call whose answer holds
 * the value (`trace`: run(); `flash`: flashTiles(); `bill`: kvBill()); `key` the member of it;
 * `indices` what a cell's position names; `table` the data-table the cell is shown in ("{step}"
 * stands for the tile's index); `hint` the working steps a hint reveals, in order; `exact`
 * whether the value is exact rather than a float32 result (judgeAnswer's `exact` option).
 */
export const PRACTICE_KINDS = Object.freeze([
  { name: 'scores', source: 'trace', key: 'scores', table: 'scores', indices: ['query', 'key'], decimals: DECIMALS.matrix, hint: ['products', 'sum'] },
  { name: 'scaled', source: 'trace', key: 'scaled', table: 'scaled', indices: ['query', 'key'], decimals: DECIMALS.matrix, hint: ['score', 'division'] },
  { name: 'masked', source: 'trace', key: 'masked', table: 'masked', indices: ['query', 'key'], decimals: DECIMALS.matrix, hint: ['visibility', 'result'] },
  { name: 'exponentials', source: 'trace', key: 'exponentials', table: 'softmax', indices: ['query', 'key'], decimals: DECIMALS.softmax, hint: ['exponent', 'power'] },
  { name: 'totals', source: 'trace', key: 'row_totals', table: 'softmax', indices: ['query'], decimals: DECIMALS.softmax, hint: ['exponentials', 'sum'] },
  { name: 'weights', source: 'trace', key: 'weights', table: 'weights', indices: ['query', 'key'], decimals: DECIMALS.softmax, hint: ['exponential', 'total', 'division'] },
  { name: 'mix', source: 'trace', key: 'weighted_values', table: 'mix', indices: ['query', 'key', 'component'], decimals: DECIMALS.softmax, hint: ['weight', 'value', 'product'] },
  { name: 'out', source: 'trace', key: 'out', table: 'out', indices: ['query', 'component'], decimals: DECIMALS.softmax, hint: ['weighted-values', 'sum'] },
  // The flash view prints its running figures with the softmax's four decimals.
  { name: 'flash-max', source: 'flash', key: 'max_after', table: 'tile-{step}-running', indices: ['tile', 'query'], decimals: DECIMALS.softmax, hint: ['before', 'tile-max', 'max'] },
  { name: 'flash-rescale', source: 'flash', key: 'rescale', table: 'tile-{step}-running', indices: ['tile', 'query'], decimals: DECIMALS.softmax, hint: ['maxima', 'power'] },
  { name: 'flash-sum', source: 'flash', key: 'sum_after', table: 'tile-{step}-running', indices: ['tile', 'query'], decimals: DECIMALS.softmax, hint: ['carried', 'added', 'sum'] },
  // The bill's figures are exact whole bytes (doubles, exact to 2^53): judged with no float32 slack.
  { name: 'bill', source: 'bill', key: null, table: 'bill', indices: ['line'], decimals: 0, hint: ['formula', 'working'], exact: true },
].map((kind) => Object.freeze({ exact: false, ...kind, indices: Object.freeze(kind.indices), hint: Object.freeze(kind.hint) })));

export const KIND_NAMES = Object.freeze(PRACTICE_KINDS.map((kind) => kind.name));

/** The kind called `name`, or undefined. */
export const practiceKind = (name) => PRACTICE_KINDS.find((kind) => kind.name === name);

function kindOrThrow(name) {
  const kind = practiceKind(name);
  if (!kind) throw new RangeError(`no practice kind ${JSON.stringify(name)}; known: ${KIND_NAMES.join(', ')}`);
  return kind;
}

/**
 * @typedef {{kind: string, index: (number|string)[]}} Cell   one blank: the kind and its position
 *   (a bill line's position is its line's name)
 * @typedef {{trace?: object, flash?: object, bill?: object}} SourceAnswers   the answers of the
 *   core's run(), flashTiles() and kvBill() that the blanks come from (only those needed)
 */

const SOURCE_CALLS = Object.freeze({ trace: 'run()', flash: 'flashTiles()', bill: 'kvBill()' });

function answerFor(kind, answers) {
  const answer = answers?.[kind.source];
  if (!answer) throw new RangeError(`${kind.name} needs the answer of ${SOURCE_CALLS[kind.source]} (answers.${kind.source})`);
  return answer;
}

// The value at `index` of a flash step's per-query figure; a skipped tile has none.
function flashStep(answer, tile) {
  const step = answer.steps?.[tile];
  if (!step) throw new RangeError(`no tile ${tile}: the answer has ${answer.steps?.length ?? 0}`);
  if (step.skipped) throw new RangeError(`tile ${tile} is skipped: it has no running figures`);
  return step;
}

/**
 * The core's value of one cell, from the answer of the kind's source call.
 * @param {Cell} cell
 * @param {SourceAnswers} answers
 * @returns {number}
 */
export function cellValue({ kind: name, index }, answers) {
  const kind = kindOrThrow(name);
  const answer = answerFor(kind, answers);
  let value;
  if (kind.source === 'bill') {
    if (!BILL_LINES.includes(index[0])) throw new RangeError(`no bill line ${index[0]}; known: ${BILL_LINES.join(', ')}`);
    value = answer[index[0]];
  } else if (kind.source === 'flash') {
    const step = flashStep(answer, index[0]);
    value = step[kind.key][index[1] - step.row_begin];
  } else {
    value = index.reduce((table, i) => table?.[i], answer[kind.key]);
  }
  if (typeof value !== 'number') throw new RangeError(`${name}:${index.join('.')} is outside the answer`);
  return value;
}

/** The data-table name of the table the cell is shown in. */
export function cellTable({ kind: name, index }) {
  return kindOrThrow(name).table.replace('{step}', String(index[0]));
}


/**
 * The working a hint reveals for one cell, one step per entry, in the kind's `hint` order:
 * [{ step, text }]. The numbers are the core's, written as the tables write them.
 * @param {Cell} cell
 * @param {SourceAnswers} answers
 * @returns {{step: string, text: string}[]}
 */
export function hintSteps(cell, answers) {
  const kind = kindOrThrow(cell.kind);
  cellValue(cell, answers);  // names a cell outside the answer before any working is written
  const texts = workingTexts(kind, cell.index, answerFor(kind, answers));
  return kind.hint.map((step, i) => ({ step, text: texts[i] }));
}

function workingTexts(kind, index, answer) {
  const m = (x) => formatFixed(x, DECIMALS.matrix);
  const s = (x) => formatFixed(x, DECIMALS.softmax);
  if (kind.source === 'bill') return billWorking(index[0], answer);
  if (kind.source === 'flash') return flashWorking(kind.name, index, answer, s);
  const t = answer;
  const [i, j, c] = index;
  const who = () => `${quotedToken(t.tokens[i])} on ${quotedToken(t.tokens[j])}`;
  switch (kind.name) {
    case 'scores': return [
      `q[${tokenText(t.tokens[i])}] \u00b7 k[${tokenText(t.tokens[j])}] = ${t.q[i].map((x, n) => formatProduct(x, t.k[j][n], DECIMALS.factor)).join(' + ')}`,
      `${formatSignedTerms(t.score_terms[i][j], DECIMALS.product)} = ${m(t.scores[i][j])}`,
    ];
    case 'scaled': return [
      `the score of ${who()} is ${m(t.scores[i][j])}`,
      `${m(t.scores[i][j])} \u00f7 ${formatCompact(t.scale_divisor, 3)} = ${m(t.scaled[i][j])}`,
    ];
    case 'masked': return t.hidden[i][j]
      ? [`mask \u201c${t.mask}\u201d: ${quotedToken(t.tokens[j])} is hidden from ${quotedToken(t.tokens[i])}`,
        t.masked[i][j] === -Infinity ? `so that e^x is 0, the score becomes ${NEG_INFINITY}` : `the score becomes ${m(t.masked[i][j])}`]
      : [`mask \u201c${t.mask}\u201d: ${quotedToken(t.tokens[i])} may look at ${quotedToken(t.tokens[j])}`, `the scaled score stays: ${m(t.masked[i][j])}`];
    case 'exponentials': return [
      t.row_shifted[i] ? `x \u2212 max = ${m(t.masked[i][j])} \u2212 ${m(t.row_max[i])} (the row's largest score is taken off first)`
        : `x = ${m(t.masked[i][j])}`,
      t.masked[i][j] === -Infinity ? `e^(${NEG_INFINITY}) = ${s(t.exponentials[i][j])}`
        : `e^(${t.row_shifted[i] ? 'x \u2212 max' : m(t.masked[i][j])}) = ${s(t.exponentials[i][j])}`,
    ];
    case 'totals': return [
      `the ${quotedToken(t.tokens[i])} row's e^x: ${t.exponentials[i].map(s).join(', ')}`,
      `${t.exponentials[i].map(s).join(' + ')} = ${s(t.row_totals[i])}`,
    ];
    case 'weights': return [
      `e^x of ${who()}: ${s(t.exponentials[i][j])}`,
      `the ${quotedToken(t.tokens[i])} row's total: ${s(t.row_totals[i])}`,
      `${s(t.exponentials[i][j])} \u00f7 ${s(t.row_totals[i])} = ${s(t.weights[i][j])}`,
    ];
    case 'mix': return [
      `the weight of ${who()}: ${s(t.weights[i][j])}`,
      `component ${c} of V[${tokenText(t.tokens[j])}]: ${formatFixed(t.v[j][c], DECIMALS.matrix)}`,
      `${s(t.weights[i][j])} \u00d7 ${m(t.v[j][c])} = ${s(t.weighted_values[i][j][c])}`,
    ];
    case 'out': {
      const column = t.weighted_values[i].map((row) => row[j]);
      return [
        `component ${j} of the ${quotedToken(t.tokens[i])} row's weight \u00d7 value: ${column.map(s).join(', ')}`,
        `${formatSignedTerms(column, DECIMALS.softmax)} = ${s(t.out[i][j])}`,
      ];
    }
    default: throw new RangeError(`no working for ${kind.name}`);
  }
}

function flashWorking(name, [tile, query], answer, s) {
  const step = flashStep(answer, tile);
  const r = query - step.row_begin;
  const who = quotedToken(answer.tokens[query]);
  switch (name) {
    case 'flash-max': return [
      `m before, the running max of ${who} so far: ${s(step.max_before[r])}`,
      `this tile's largest score for ${who}: ${s(step.tile_max[r])}`,
      `max(${s(step.max_before[r])}, ${s(step.tile_max[r])}) = ${s(step.max_after[r])}`,
    ];
    case 'flash-rescale': return [
      `m before ${s(step.max_before[r])}, m after ${s(step.max_after[r])}`,
      `e^(${s(step.max_before[r])} \u2212 ${s(step.max_after[r])}) = ${s(step.rescale[r])}`
        + (step.max_before[r] === -Infinity ? ': nothing was added up before this tile' : ''),
    ];
    case 'flash-sum': return [
      `l before \u00b7 rescale = ${s(step.sum_before[r])} \u00b7 ${s(step.rescale[r])}`,
      `this tile's e^(score \u2212 m after): ${step.exponentials[r].map(s).join(', ')}`,
      `${s(step.sum_before[r])} \u00b7 ${s(step.rescale[r])} + ${step.exponentials[r].map(s).join(' + ')} = ${s(step.sum_after[r])}`,
    ];
    default: throw new RangeError(`no working for ${name}`);
  }
}

function billWorking(line, b) {
  const count = (x) => formatCount(x);
  switch (line) {
    case 'bytes_per_token_per_layer': return [b.formula, b.working];
    case 'bytes_per_token': return ['bytes per token and layer \u00b7 layers',
      `${count(b.bytes_per_token_per_layer)} \u00b7 ${count(b.layers)} = ${count(b.bytes_per_token)}`];
    case 'bytes_per_sequence': return b.sequence_formula ? [b.sequence_formula, b.sequence_working]
      : ['bytes per token \u00b7 context length', `${count(b.bytes_per_token)} \u00b7 ${count(b.context_length)} = ${count(b.bytes_per_sequence)}`];
    case 'cache_bytes': return ['bytes per sequence \u00b7 batch',
      `${count(b.bytes_per_sequence)} \u00b7 ${count(b.batch)} = ${count(b.cache_bytes)}`];
    default: throw new RangeError(`no bill line ${line}; known: ${BILL_LINES.join(', ')}`);
  }
}

/**
 * Every cell of a kind, in reading order (row by row), as positions.
 * @param {string} name
 * @param {SourceAnswers} answers
 * @returns {(number|string)[][]}
 */
export function allPositions(name, answers) {
  const kind = kindOrThrow(name);
  const answer = answerFor(kind, answers);
  if (kind.source === 'bill') return BILL_LINES.map((line) => [line]);
  if (kind.source === 'flash') {
    return answer.steps.flatMap((step, tile) => (step.skipped ? []
      : Array.from({ length: step.row_end - step.row_begin }, (_, r) => [tile, step.row_begin + r])));
  }
  const walk = (table, prefix) => (Array.isArray(table)
    ? table.flatMap((entry, i) => walk(entry, [...prefix, i])) : [prefix]);
  return walk(answer[kind.key], []);
}

/**
 * The blanks a list of practice items names (a whole kind, a row, or single cells: the
 * `practice` grammar, parsed by practice-hash.js), expanded against an answer into single cells,
 * each once, in the order the items list them. An item past the answer's shape throws a
 * RangeError naming it, for the page to show as it shows a refused link.
 * @param {{kind: string, index: (number|string)[]}[]} items
 * @param {SourceAnswers} answers
 * @returns {Cell[]}
 */
export function expandBlanks(items, answers) {
  const seen = new Set();
  const cells = [];
  for (const item of items) {
    const matching = allPositions(item.kind, answers)
      .filter((position) => item.index.every((x, n) => position[n] === x));
    if (matching.length === 0) {
      throw new RangeError(`${[item.kind, item.index.join('.')].filter(Boolean).join(':')} names no cell of this example`);
    }
    for (const index of matching) {
      const id = `${item.kind}:${index.join('.')}`;
      if (!seen.has(id)) cells.push({ kind: item.kind, index });
      seen.add(id);
    }
  }
  return cells;
}
