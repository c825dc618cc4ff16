// A printed worksheet of an exercise, as data: its title, the inputs, and for each step up to
// the last one holding a blank, the step's instruction and its tables, where a blank cell is
// left empty (or, in the answer key, filled with the core's value as the table prints it) and
// every other cell holds the core's value. The key adds, per step, each blank's value and the
// working a hint would reveal (exercise.js's answerKey). Pure: no DOM, no core; the element
// (elements/practice/worksheet-element.js) draws it, tests read it in Node.
//
// A value that is a blank is left empty wherever the worksheet would print it (a weight is in
// its row's softmax table; an out figure only in the out table), so no table gives an answer
// away, and a cell printing the same quantity by definition (echo-places.js's echoCells: a
// visible masked score is the scaled score) prints "?" on the worksheet. Values the blanks'
// answers follow from are printed only when they come before them: the steps after the last
// blank's are not printed at all.

import { cellId, parsePracticeHash } from '../state/practice-hash.js';
import { echoCells } from './echo-places.js';
import { answerKey, exerciseBlanks } from './exercise.js';
import { roundNamed } from './rounds.js';
import { DECIMALS, NEG_INFINITY, formatCompact, formatFixed } from '../views/format.js';
import { quoteText } from '../state/quote-text.js';
import { quotedToken, tokenText } from '../views/token-text.js';

/** The walkthrough's steps a worksheet prints, in order, with the kinds of blank each holds. */
export const WORKSHEET_STEPS = Object.freeze([
  { number: 1, title: 'Score: query against key', kinds: ['scores'] },
  { number: 2, title: 'Scale', kinds: ['scaled'] },
  { number: 3, title: 'Mask', kinds: ['masked'] },
  { number: 4, title: 'Softmax: scores become shares', kinds: ['exponentials', 'totals', 'weights'] },
  { number: 5, title: 'Mix the values', kinds: ['mix', 'out'] },
].map((step) => Object.freeze({ ...step, kinds: Object.freeze(step.kinds) })));

const STEP_OF_KIND = new Map(WORKSHEET_STEPS.flatMap((step) => step.kinds.map((kind) => [kind, step.number])));

/** The kinds of blank a worksheet of part one can print (the sequel's flash and bill cells cannot). */
export const WORKSHEET_KINDS = Object.freeze([...STEP_OF_KIND.keys()]);

/** The attributes of the worksheet element that name the exercise, and the hash key of each. */
export const EXERCISE_ATTRIBUTES = Object.freeze([
  ['practice', 'practice'], ['round', 'round'], ['round-seed', 'round_seed'], ['level', 'level'],
]);

/** The attributes that give the walkthrough's inputs when there is no round. */
export const INPUT_ATTRIBUTES = Object.freeze(['tokens', 'q', 'k', 'v', 'mask', 'scale']);

/**
 * Reads the element's attributes with the practice link's own rules (parsePracticeHash), so an
 * attribute is refused with the same message as the hash's key, under the attribute's name.
 * `answers` is a boolean attribute ("", "1" or "true" turn the key on; "0" or "false" off).
 * @param {(name: string) => (string | null)} attribute  getAttribute
 * @returns {{settings: import('../state/practice-hash.js').PracticeSettings, answers: boolean, problem: string | null}}
 */
export function readWorksheetAttributes(attribute) {
  const parts = [];
  for (const [name, key] of EXERCISE_ATTRIBUTES) {
    const value = attribute(name);
    if (value !== null) parts.push(`${key}=${encodeURIComponent(value)}`);
  }
  const refuse = (problem) => ({ settings: {}, answers: false, problem });
  const parsed = parsePracticeHash(parts.join('&'));
  if (parsed.problem) {
    const renamed = EXERCISE_ATTRIBUTES.reduce((text, [name, key]) => text.replace(new RegExp(`(^|\\b)${key}\\b`, 'gu'), `$1${name}`), parsed.problem);
    return refuse(renamed);
  }
  const { settings } = parsed;
  if (settings.blanks === undefined && settings.round === undefined) {
    return refuse('practice: names no blanks and round names no round: give one of them (practice="weights:1" or round="softmax")');
  }
  if (settings.round !== undefined) {
    const given = INPUT_ATTRIBUTES.find((name) => attribute(name) !== null);
    if (given) return refuse(`${given}: a round draws its own inputs; give either round or the inputs (tokens, q, k, v, mask, scale)`);
  }
  const answers = attribute('answers');
  if (answers !== null && !['', '1', '0', 'true', 'false'].includes(answers)) {
    return refuse(`answers: ${quoteText(answers)} should be present (the answer key) or absent (the worksheet)`);
  }
  return { settings, answers: answers !== null && answers !== '0' && answers !== 'false', problem: null };
}

/**
 * The blanks of an exercise on a trace, checked for a worksheet of part one: a RangeError names
 * an item past the example's shape or a kind that part one does not print.
 * @returns {{kind: string, index: number[]}[]}
 */
export function worksheetBlanks(settings, trace) {
  const foreign = (settings.blanks ?? []).find((item) => !STEP_OF_KIND.has(item.kind));
  if (foreign) {
    throw new RangeError(`practice: ${foreign.kind} cells are part two's; a worksheet prints part one's steps (${WORKSHEET_KINDS.join(', ')})`);
  }
  const cells = exerciseBlanks(settings, { trace });
  if (cells.length === 0) throw new RangeError('practice: names no cell to leave blank');
  return cells;
}

/** Each step's instruction, in the project's words, with this trace's head size and divisor. */
export function stepInstructions(trace) {
  const d = trace.head_dim;
  const divisor = formatCompact(trace.scale_divisor, 3);
  const scale = {
    sqrt_d: `scaled = score \u00f7 \u221ad_k: divide every score by the square root of the head size, \u221a${d} = ${divisor}.`,
    d: `scaled = score \u00f7 d_k: divide every score by the head size, ${divisor}.`,
    none: `scaled = score: this run does not scale (it divides by ${divisor}), so copy each score.`,
  }[trace.scale] ?? `scaled = score \u00f7 ${divisor}.`;
  const hides = trace.hidden.some((row) => row.some(Boolean));
  const written = trace.masked.flat().find((_, n) => trace.hidden.flat()[n]);
  const mask = !hides ? 'masked = the scaled score: this run hides nothing, so copy each scaled score.'
    : `masked = the scaled score where the row's token may look at the column's token, and ${written === -Infinity ? NEG_INFINITY : `${formatCompact(written, 3)} (the FAQ's mistake, not ${NEG_INFINITY})`} where the ${trace.mask} mask hides the column's token from it.`;
  const shifted = trace.row_shifted.some(Boolean)
    ? ' In a row headed e^(x \u2212 max), take the row\u2019s largest score off x before raising e to it.' : '';
  return {
    1: `score = q \u00b7 k: for each row's query and each column's key, multiply their ${d} components pairwise and add the ${d} products.`,
    2: scale,
    3: mask,
    4: `For each row: e^x of every masked score x (e^(${NEG_INFINITY}) = 0), the row's total of them, then weight = e^x \u00f7 total.${shifted}`,
    5: 'weight \u00d7 value: multiply each component of a token\u2019s value vector by the row\u2019s weight on that token; out = the sum, component by component, of the row\u2019s weight \u00d7 value.',
  };
}

// How the inputs' line names the scale: what a score is divided by.
const SCALE_TEXT = Object.freeze({
  sqrt_d: (divisor) => `\u00f7 \u221ad_k = ${divisor}`,
  d: (divisor) => `\u00f7 d_k = ${divisor}`,
  none: () => 'none (\u00f7 1)',
});

const components = (letter, count) => Array.from({ length: count }, (_, c) => `${letter}${c}`);

// One table of the worksheet. `value(i, j)` is the core's number, `cellOf(i, j)` the blank's
// id it would be (or null: never a blank), `decimals` how it prints.
function table(name, caption, corner, rowLabels, columnLabels, cellAt) {
  return {
    name, caption, corner, columns: columnLabels,
    rows: rowLabels.map((label, i) => ({ label, cells: columnLabels.map((_, j) => cellAt(i, j)) })),
  };
}

// The cells that print a blank's quantity again (echo-places.js's echoCells: a visible masked
// score is the scaled score), by id, with the blank's number and its answer as printed. The
// worksheet prints "?" there when the cell's text is the answer's, as the page hides it.
function echoesOf(cells, key) {
  const echoes = new Map();
  cells.forEach((blank, n) => {
    for (const echo of echoCells(blank)) echoes.set(cellId(echo), { number: n + 1, text: key[n].answer });
  });
  return echoes;
}

/**
 * The worksheet of an exercise.
 * @param {object} trace  run()'s answer for the exercise's inputs
 * @param {{kind: string, index: number[]}[]} cells  worksheetBlanks()
 * @param {{answers?: boolean, round?: string, seed?: number, level?: string}} [options]
 */
export function worksheetLayout(trace, cells, { answers = false, round, seed, level } = {}) {
  const key = answerKey(cells, { trace });
  const numberOf = new Map(key.map((entry, n) => [entry.id, n + 1]));
  const m = (x) => formatFixed(x, DECIMALS.matrix);
  const s = (x) => formatFixed(x, DECIMALS.softmax);
  const echoes = echoesOf(cells, key);
  const cell = (kind, index, value, format) => {
    const id = `${kind}:${index.join('.')}`;
    const masked = value === -Infinity;
    if (!numberOf.has(id)) {
      const text = format(value);
      const echo = answers ? undefined : echoes.get(id);
      return echo !== undefined && echo.text === text ? { text: '?', echoOf: echo.number, masked } : { text, masked };
    }
    return { blank: numberOf.get(id), id, masked, ...(answers ? { answer: key[numberOf.get(id) - 1].answer } : {}) };
  };
  const given = (value, format) => ({ text: format(value), masked: value === -Infinity });
  const { tokens } = trace;
  const d = trace.head_dim;
  const last = Math.max(...cells.map((c) => STEP_OF_KIND.get(c.kind)));
  const pair = (kind, matrix, caption) => table(kind, caption, 'query \u2193 key \u2192', tokens, tokens,
    (i, j) => cell(kind, [i, j], trace[matrix][i][j], m));
  const tablesOf = {
    1: () => [pair('scores', 'scores', 'Step 1 \u00b7 scores: q \u00b7 k')],
    2: () => [pair('scaled', 'scaled', `Step 2 \u00b7 scaled: score \u00f7 ${formatCompact(trace.scale_divisor, 3)}`)],
    3: () => [pair('masked', 'masked', 'Step 3 \u00b7 masked scores')],
    4: () => tokens.map((token, i) => {
      const softmax = table(`softmax-${i}`, `Step 4 \u00b7 softmax of the ${quotedToken(token)} row`, 'key', tokens,
        ['score x', trace.row_shifted[i] ? 'e^(x \u2212 max)' : 'e^x', 'weight'],
        (j, col) => [
          () => cell('masked', [i, j], trace.masked[i][j], m),
          () => cell('exponentials', [i, j], trace.exponentials[i][j], s),
          () => cell('weights', [i, j], trace.weights[i][j], s),
        ][col]());
      softmax.footer = { label: 'total', cells: [{ text: '' }, cell('totals', [i], trace.row_totals[i], s), { text: '' }] };
      return softmax;
    }),
    5: () => [
      ...tokens.map((token, i) => table(`mix-${i}`, `Step 5 \u00b7 weight \u00d7 value for the ${quotedToken(token)} row`,
        'weight \u00d7 value', tokens.map((t) => `w \u00d7 V[${tokenText(t)}]`), components('v', d),
        (j, c) => cell('mix', [i, j, c], trace.weighted_values[i][j][c], s))),
      table('out', 'Step 5 \u00b7 out: the sum of a row\u2019s weight \u00d7 value', 'token', tokens, components('out', d),
        (i, c) => cell('out', [i, c], trace.out[i][c], s)),
    ],
  };
  const instructions = stepInstructions(trace);
  const steps = WORKSHEET_STEPS.filter((step) => step.number <= last).map((step) => ({
    number: step.number,
    title: step.title,
    instruction: instructions[step.number],
    tables: tablesOf[step.number](),
    key: answers ? key.map((entry, n) => ({ number: n + 1, ...entry }))
      .filter((entry, n) => STEP_OF_KIND.get(cells[n].kind) === step.number) : [],
  }));
  const matrixTable = (matrix) => table(matrix, `${matrix.toUpperCase()}: one row per token`, 'token', tokens,
    components(matrix, d), (i, c) => given(trace[matrix][i][c], m));
  return {
    title: round === undefined ? 'One attention head by hand' : roundNamed(round).title,
    answers,
    exercise: round === undefined ? null : { round, seed, level: level ?? 'easy' },
    blankCount: cells.length,
    inputs: {
      tokens: [...tokens],
      mask: trace.mask,
      scale: SCALE_TEXT[trace.scale]?.(formatCompact(trace.scale_divisor, 3)) ?? trace.scale,
      tables: ['q', 'k', 'v'].map(matrixTable),
    },
    steps,
  };
}
