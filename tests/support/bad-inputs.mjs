// One table of malformed and extreme inputs, driven through every entry point: the CLI
// (tests/cli/bad-inputs.test.mjs), run(), attend() and tracer() (tests/web/bad-inputs.test.mjs), element
// attributes, the embed page's hash and the walkthrough page's hash and cells
// (tests/browser/bad-inputs.test.mjs). Each entry says what a correct outcome is:
//   outcome: 'valid'               the result must match the float64 reference (checkTrace)
//   outcome: { error: 'q[1][0]' }  refused, with a message that starts with that path
//   outcome: 'attend-only'         an entry about attend()'s own limits (see `attend`)
// and, where an entry point sees the input differently, how:
//   text        the CLI's stdin, when it is not the input written as JSON
//   attend      attend()'s input and outcome ({ input, outcome }, or { lazy: () => input,
//               outcome } for large arrays), or { skip: why }; derived from `input` when left
//               out (attendCase), with `attendOutcome` when attend()'s limits differ
//   tracer      tracer()'s input (attend()'s form plus scale) and outcome, or { skip: why };
//               derived from attend()'s when left out (tracerCase), with `tracerOutcome` when
//               tracer() answers differently (its limits are the trace's; it refuses non-objects)
//   attributes  the elements' attribute text (tokens, q, k, v, mask), or { skip: why };
//               derived from `input` when left out (see attributesOf)
//   cell        { matrix, row, col, text }: the same input reached by typing `text` into one
//               cell of CELL_BASE on the walkthrough page

import assert from 'node:assert/strict';
import { headF64 } from './attention-f64.mjs';
import { gridValues } from './seeded-random.mjs';
import { traceRows } from './tracer.mjs';

/** The documented limits (docs/limits.md; attention_input.h Limits; attend.h AttendLimits). */
export const LIMITS = Object.freeze({
  maxTokens: 64, maxHeadDim: 256, maxAbsValue: 1e15, maxTokenBytes: 256,
  attendMaxTokens: 2 ** 20, attendMaxHeadDim: 4096, attendMaxElements: 2 ** 24,
});

export const MARKUP = '<img src=x onerror=alert(1)>';
export const RIGHT_TO_LEFT = ['שלום', 'مرحبا', '\u202eevil\u202c'];

const tokensOf = (n) => Array.from({ length: n }, (_, i) => `w${i}`);
const grid = (seed, rows, cols) => gridValues(seed, rows, cols, { min: -1, max: 1, decimals: 1 });
const head = (tokens, d, seed = 7) => ({
  tokens, q: grid(seed, tokens.length, d), k: grid(seed + 1, tokens.length, d), v: grid(seed + 2, tokens.length, d),
});
const withCell = (input, matrix, row, col, value) => {
  const copy = structuredClone(input);
  copy[matrix][row][col] = value;
  return copy;
};
const flat = (m) => Float32Array.from(m.flat());

/** The walkthrough-page state the `cell` entries start from: three tokens, head_dim 4. */
export const CELL_BASE = Object.freeze({
  tokens: ['the', 'cat', 'sat'],
  q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2, 0.3], [0.4, 0.6, -0.1, 0.2]],
  k: [[-0.4, -0.3, 0.2, 1.2], [1.6, -0.7, -0.4, -0.5], [0.2, 0.1, 0.9, -0.3]],
  v: [[-0.5, -0.4, 0.1, 1.1], [1.2, -0.3, -0.2, -0.6], [0.7, 0.5, -0.9, 0.0]],
  mask: 'causal',
});
const base = () => structuredClone(CELL_BASE);
const cellEntry = (name, matrix, row, col, value, text, outcome) => ({
  name, input: withCell(base(), matrix, row, col, value), outcome, cell: { matrix, row, col, text },
});

// Extreme but finite: every score is ±1e30-ish or far apart, so float32 and float64 agree on
// the weights (one-hot rows), and the output is v's rows, each 1e15 in size.
const EXTREME = {
  tokens: ['a', 'b', 'c'],
  q: [[1e15, 0], [0, 1e15], [-1e15, 1e15]],
  k: [[1e15, 1e15], [-1e15, 1e15], [0.5, -0.25]],
  v: [[1e15, -1e15], [-1e15, 1e15], [3, 4]],
  mask: 'none',
};

/** @type {Array<{name: string, input: unknown, outcome: 'valid' | {error: string}, [key: string]: unknown}>} */
export const BAD_INPUTS = [
  // --- not JSON, wrong types
  { name: 'not JSON at all', input: 'not json', text: 'not json', outcome: { error: 'input' },
    attend: { input: 'not json', outcome: { error: 'attend' } }, tracerOutcome: { error: 'tracer' },
    attributes: { tokens: '["the", "cat"]', q: 'not json' }, attributesOutcome: { error: 'q' } },
  { name: 'JSON cut short', input: undefined, text: '{"tokens": ["the", "cat"], "q": [[1, 2], [3, 4]', outcome: { error: 'input' },
    attend: { skip: 'attend() takes typed arrays, not text' },
    attributes: { tokens: 'the cat', q: '[[1, 2], [3, 4]', k: '[[1, 2], [3, 4]]', v: '[[1, 2], [3, 4]]' }, attributesOutcome: { error: 'q' } },
  { name: 'bare NaN in the JSON text', input: undefined, outcome: { error: 'input' },
    text: '{"tokens": ["a"], "q": [[NaN]], "k": [[1]], "v": [[1]]}',
    attend: { skip: 'attend() takes typed arrays, not text' }, attributes: { skip: 'covered by "NaN in a cell"' } },
  { name: 'an array instead of an object', input: [], outcome: { error: 'input' },
    attend: { input: [], outcome: { error: 't' } }, tracerOutcome: { error: 'tracer' }, attributes: { skip: 'attributes always belong to an element' } },
  { name: 'null', input: null, outcome: { error: 'input' },
    attend: { input: null, outcome: { error: 'attend' } }, tracerOutcome: { error: 'tracer' }, attributes: { skip: 'attributes always belong to an element' } },
  { name: 'tokens a string, not a list', input: { ...base(), tokens: 'the cat sat' }, outcome: { error: 'tokens' },
    attend: { skip: 'attend() takes no tokens' },
    attributes: { skip: 'the attribute is text by nature: "the cat sat" is its documented form' } },
  { name: 'a token that is a number', input: { ...base(), tokens: ['the', 3, 'sat'] }, outcome: { error: 'tokens[1]' },
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'q a number, not rows', input: { ...base(), q: 5 }, outcome: { error: 'q' },
    attend: { input: { q: 5, k: flat(CELL_BASE.k), v: flat(CELL_BASE.v), t: 3, d: 4 }, outcome: { error: 'q' } } },
  { name: 'a number written as a string', input: withCell(base(), 'q', 0, 1, '2'), outcome: { error: 'q[0][1]' },
    attend: { input: { q: Array.from(CELL_BASE.q.flat()), k: flat(CELL_BASE.k), v: flat(CELL_BASE.v), t: 3, d: 4 }, outcome: { error: 'q' } } },
  { name: 'a cell that is null', input: withCell(base(), 'k', 2, 3, null), outcome: { error: 'k[2][3]' },
    attend: { skip: 'a Float32Array cannot hold null' } },
  { name: 'a cell that is a boolean', input: withCell(base(), 'v', 1, 0, true), outcome: { error: 'v[1][0]' },
    attend: { skip: 'a Float32Array cannot hold a boolean' } },
  { name: 'a cell nested one level too deep', input: withCell(base(), 'q', 2, 0, [1]), outcome: { error: 'q[2][0]' },
    attend: { skip: 'a Float32Array cannot nest' } },
  { name: 'v missing', input: (({ v, ...rest }) => rest)(base()), outcome: { error: 'v' },
    attend: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), t: 3, d: 4 }, outcome: { error: 'v' } } },
  { name: 'an unknown field', input: { ...base(), colour: 'red' }, outcome: { error: 'colour' },
    attend: { skip: 'attend() reads only its own fields' }, attributes: { skip: 'unknown attributes are HTML\u2019s, not ours' } },

  // --- ragged and empty rows, shapes that disagree
  { name: 'a ragged row', input: { ...base(), k: [[1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4]] }, outcome: { error: 'k[1]' },
    attend: { input: { q: flat(CELL_BASE.q), k: new Float32Array(11), v: flat(CELL_BASE.v), t: 3, d: 4 }, outcome: { error: 'k' } } },
  { name: 'one empty row', input: { ...base(), v: [[1, 2, 3, 4], [], [1, 2, 3, 4]] }, outcome: { error: 'v[1]' },
    attend: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), v: new Float32Array(8), t: 3, d: 4 }, outcome: { error: 'v' } } },
  { name: 'more v rows than tokens', input: { ...base(), v: [...CELL_BASE.v, [1, 2, 3, 4]] }, outcome: { error: 'v' },
    attend: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), v: new Float32Array(16), t: 3, d: 4 }, outcome: { error: 'v' } } },
  { name: 'fewer q rows than tokens', input: { ...base(), tokens: ['the', 'cat', 'sat', 'on'] }, outcome: { error: 'q' },
    attend: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), v: flat(CELL_BASE.v), t: 4, d: 4 }, outcome: { error: 'q' } } },
  { name: 'k rows longer than q rows', input: { ...base(), k: CELL_BASE.k.map((row) => [...row, 0]) }, outcome: { error: 'k[0]' },
    attend: { input: { q: flat(CELL_BASE.q), k: new Float32Array(15), v: flat(CELL_BASE.v), t: 3, d: 4 }, outcome: { error: 'k' } } },
  { name: 'zero tokens', input: { tokens: [], q: [], k: [], v: [] }, outcome: { error: 'tokens' },
    attend: { input: { q: new Float32Array(0), k: new Float32Array(0), v: new Float32Array(0), t: 0, d: 4 }, outcome: { error: 't' } } },
  { name: 'head_dim 0', input: { tokens: ['the', 'cat'], q: [[], []], k: [[], []], v: [[], []] }, outcome: { error: 'q[0]' },
    attend: { input: { q: new Float32Array(0), k: new Float32Array(0), v: new Float32Array(0), t: 2, d: 0 }, outcome: { error: 'd' } } },

  // --- values: not finite, too large, signed zero, denormals, ties
  cellEntry('NaN in a cell', 'q', 1, 0, Number.NaN, 'NaN', { error: 'q[1][0]' }),
  cellEntry('+Infinity in a cell', 'k', 0, 1, Number.POSITIVE_INFINITY, 'Infinity', { error: 'k[0][1]' }),
  cellEntry('\u2212Infinity in a cell', 'v', 2, 3, Number.NEGATIVE_INFINITY, '-Infinity', { error: 'v[2][3]' }),
  cellEntry('1e38 (a float, past the limit)', 'q', 0, 0, 1e38, '1e38', { error: 'q[0][0]' }),
  cellEntry('just past 1e15', 'k', 2, 2, -1.0000001e15, '-1.0000001e15', { error: 'k[2][2]' }),
  cellEntry('1e15 exactly, the limit', 'q', 2, 1, 1e15, '1e15', 'valid'),
  cellEntry('1e15 in v: a huge output', 'v', 1, 2, -1e15, '-1e15', 'valid'),
  cellEntry('1e6: a row whose e^x overflows', 'q', 1, 0, 1e6, '1e6', 'valid'),
  { name: 'extreme but finite everywhere (\u00b11e15)', input: EXTREME, outcome: 'valid' },
  { name: '\u22120 everywhere', outcome: 'valid',
    input: { tokens: ['a', 'b'], q: [[-0, -0], [-0, 0]], k: [[-0, -0], [0, -0]], v: [[-0, 1], [2, -0]] } },
  cellEntry('a float32 denormal (1e-40)', 'q', 0, 2, 1e-40, '1e-40', 'valid'),
  { name: 'denormals everywhere, some below float32 (5e-324)', outcome: 'valid',
    input: { tokens: ['a', 'b'], q: [[1e-40, -3e-42], [5e-324, 1e-45]], k: [[1e-39, 2e-44], [-1e-40, 5e-324]], v: [[1e-40, -1e-41], [3e-43, 1e-38]] } },
  { name: 'all scores equal', outcome: 'valid', input: {
    tokens: ['a', 'b', 'c', 'd'], q: Array(4).fill([0.5, -0.5, 0.25]), k: Array(4).fill([1, 1, 1]), v: grid(3, 4, 3), mask: 'none' } },
  { name: 'all scores equal and large', outcome: 'valid', input: {
    tokens: ['a', 'b', 'c'], q: Array(3).fill([1e15, 1e15]), k: Array(3).fill([1e15, 1e15]), v: grid(4, 3, 2), mask: 'none' } },

  // --- T and d at and past the limits
  { name: 'T = 64, the limit', input: head(tokensOf(LIMITS.maxTokens), 2), outcome: 'valid' },
  { name: 'T = 65, past the limit', input: head(tokensOf(LIMITS.maxTokens + 1), 2), outcome: { error: 'tokens' },
    attendOutcome: 'valid', tracerOutcome: { error: 't' } },
  { name: 'd = 256, the limit', input: head(['a', 'b'], LIMITS.maxHeadDim), outcome: 'valid' },
  { name: 'd = 257, past the limit', input: head(['a', 'b'], LIMITS.maxHeadDim + 1), outcome: { error: 'q[0]' },
    attendOutcome: 'valid', tracerOutcome: { error: 'd' } },
  { name: 'T = 64 and d = 256, both limits', input: head(tokensOf(LIMITS.maxTokens), LIMITS.maxHeadDim), outcome: 'valid' },
  { name: 'attend(): d = 4096, its limit', input: undefined, outcome: 'attend-only',
    attend: { input: { q: new Float32Array(8192).fill(0.01), k: new Float32Array(8192).fill(0.02), v: new Float32Array(8192).fill(1), t: 2, d: 4096 }, outcome: 'valid' } },
  { name: 'attend(): d = 4097', input: undefined, outcome: 'attend-only',
    attend: { input: { q: new Float32Array(4097), k: new Float32Array(4097), v: new Float32Array(4097), t: 1, d: 4097 }, outcome: { error: 'd' } } },
  { name: 'attend(): t = 2^20 + 1', input: undefined, outcome: 'attend-only',
    attend: { lazy: () => { const a = new Float32Array(2 ** 20 + 1); return { q: a, k: a, v: a, t: 2 ** 20 + 1, d: 1 }; }, outcome: { error: 't' } } },
  { name: 'attend(): t \u00b7 d = 2^25', input: undefined, outcome: 'attend-only',
    attend: { lazy: () => { const a = new Float32Array(2 ** 25); return { q: a, k: a, v: a, t: 8192, d: 4096 }; }, outcome: { error: 't\u00b7d' } } },

  // --- mask and kernel
  { name: 'an unknown mask', input: { ...base(), mask: 'diagonal' }, outcome: { error: 'mask' } },
  { name: 'a mask that is a number', input: { ...base(), mask: 3 }, outcome: { error: 'mask' } },
  { name: 'mask none', input: { ...base(), mask: 'none' }, outcome: 'valid' },
  { name: 'an unknown scale', input: { ...base(), scale: 'sqrt' }, outcome: { error: 'scale' },
    attend: { skip: 'attend() always divides by \u221ad' },
    tracer: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), v: flat(CELL_BASE.v), t: 3, d: 4, scale: 'sqrt' }, outcome: { error: 'scale' } },
    attributes: { skip: 'elements have no scale attribute' } },
  // tracer() refuses a kernel as it refuses any option it does not have: the trace has one.
  { name: 'an unknown kernel', input: { ...base(), kernel: 'fastest' }, outcome: { error: 'kernel' },
    attend: { input: { q: flat(CELL_BASE.q), k: flat(CELL_BASE.k), v: flat(CELL_BASE.v), t: 3, d: 4, kernel: 'fastest' }, outcome: { error: 'kernel' } },
    attributes: { skip: 'elements have no kernel; unknown attributes are HTML\u2019s, not ours' } },
  { name: 'a kernel that does not support the shape', input: undefined, outcome: 'attend-only',
    attend: { input: { q: new Float32Array(6), k: new Float32Array(6), v: new Float32Array(6), t: 2, d: 3, kernel: 'attend__scalar_4x8' }, outcome: { error: 'kernel' } } },

  // --- token text
  { name: 'an empty token', input: { ...base(), tokens: ['the', '', 'sat'] }, outcome: { error: 'tokens[1]' },
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'a token of 256 bytes, the limit', input: { ...base(), tokens: ['the', '\u00e9'.repeat(LIMITS.maxTokenBytes / 2), 'sat'] }, outcome: 'valid',
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'a token of 257 bytes', input: { ...base(), tokens: ['the', 'x'.repeat(LIMITS.maxTokenBytes + 1), 'sat'] }, outcome: { error: 'tokens[1]' },
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'a very long token (10 000 characters)', input: { ...base(), tokens: ['the', 'cat', '\u05d0'.repeat(10_000)] }, outcome: { error: 'tokens[2]' },
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'markup in a token', input: { ...base(), tokens: [MARKUP, 'cat', '<b>sat</b>'] }, outcome: 'valid', markup: true,
    attend: { skip: 'attend() takes no tokens' } },
  { name: 'right-to-left text in tokens', input: { ...base(), tokens: RIGHT_TO_LEFT }, outcome: 'valid',
    attend: { skip: 'attend() takes no tokens' } },
];

// ---------------------------------------------------------------------------------------------
// How each entry point sees an entry.

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isRows = (m) => Array.isArray(m) && m.every((row) => Array.isArray(row));

/** The entry as the CLI reads it: JSON text, non-finite numbers as strings (as run() sends them). */
export function cliText(entry) {
  if (entry.text !== undefined) return entry.text;
  return JSON.stringify(entry.input === undefined ? null : entry.input,
    (_, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
}

/** The outcome run() and the CLI must give, or null when the entry is for attend() only. */
export const coreOutcome = (entry) => (entry.outcome === 'attend-only' ? null : entry.outcome);

/**
 * attend()'s input and outcome: the entry's own `attend`, else the input flattened (when it is
 * rectangular). `{ skip }` when attend() cannot be given it.
 */
export function attendCase(entry) {
  if (entry.attend?.skip) return { skip: entry.attend.skip };
  if (entry.attend) return { input: entry.attend.lazy ? entry.attend.lazy() : entry.attend.input, outcome: entry.attend.outcome };
  const { input } = entry;
  if (!isObject(input) || !['q', 'k', 'v'].every((m) => isRows(input[m]))) return { skip: 'not an object of matrices' };
  const t = input.q.length;
  const d = input.q[0]?.length ?? 0;
  const outcome = entry.attendOutcome ?? entry.outcome;
  const mask = input.mask ?? 'causal';
  if (typeof outcome === 'object' && ['mask'].includes(outcome.error)) {
    return { input: { q: flat(input.q), k: flat(input.k), v: flat(input.v), t, d, mask }, outcome };
  }
  if (!['causal', 'none'].includes(mask)) return { skip: `attend() has no mask ${mask}` };
  return { input: { q: flat(input.q), k: flat(input.k), v: flat(input.v), t, d, mask }, outcome };
}

/**
 * tracer()'s input and outcome: attend()'s typed arrays (attendCase) given to
 * attention.tracer({ t, d, mask, scale }).run({ q, k, v }) (tests/support/tracer.mjs traceOnce),
 * with `tracerOutcome` where tracer() answers differently, or the entry's own `tracer`.
 * `{ skip }` when tracer() cannot be given it.
 */
export function tracerCase(entry) {
  if (entry.outcome === 'attend-only') return { skip: 'an entry about attend()\u2019s own limits and kernels' };
  if (entry.tracer?.skip) return { skip: entry.tracer.skip };
  if (entry.tracer) return { input: entry.tracer.input, outcome: entry.tracer.outcome };
  const shown = attendCase(entry);
  if (shown.skip) return shown;
  return { input: shown.input, outcome: entry.tracerOutcome ?? shown.outcome };
}

// A matrix as attribute text: JSON, with NaN, Infinity and -0 written as such (parseMatrix reads
// them); anything that is not a number is written as JSON and refused by the attribute parser.
function matrixText(value) {
  if (Array.isArray(value)) return `[${value.map(matrixText).join(', ')}]`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  return JSON.stringify(value) ?? 'null';
}

/** The root field of a path: "q[1][3]" -> "q". */
export const rootOf = (path) => path.replace(/\[.*$/u, '');

/**
 * The entry as attributes of an element (tokens, q, k, v, mask: text, or absent) and the outcome
 * an element must show; `{ skip }` when the entry has no attribute form.
 */
export function attributeCase(entry) {
  if (entry.outcome === 'attend-only') return { skip: 'attend() only' };
  if (entry.attributes?.skip) return { skip: entry.attributes.skip };
  const outcome = entry.attributesOutcome ?? entry.outcome;
  if (entry.attributes) return { attributes: entry.attributes, outcome: outcome === 'valid' ? 'valid' : { error: rootOf(outcome.error) } };
  const { input } = entry;
  if (!isObject(input)) return { skip: 'not an object' };
  const attributes = {};
  if (input.tokens !== undefined) {
    attributes.tokens = Array.isArray(input.tokens) ? JSON.stringify(input.tokens) : String(input.tokens);
  }
  for (const m of ['q', 'k', 'v']) if (input[m] !== undefined) attributes[m] = matrixText(input[m]);
  if (input.mask !== undefined) attributes.mask = String(input.mask);
  return { attributes, outcome: outcome === 'valid' ? 'valid' : { error: rootOf(outcome.error) } };
}

// ---------------------------------------------------------------------------------------------
// Checking a result against float64.

const f32 = (x) => Math.fround(x);
const roundInput = (input) => ({ ...input, q: input.q.map((r) => r.map(f32)), k: input.k.map((r) => r.map(f32)), v: input.v.map((r) => r.map(f32)) });

/**
 * A trace (run(), the CLI's JSON, an element's `trace`) against float64, for an input the core
 * accepts: shapes; scores within float32 accumulation of float64's; weights finite, in [0, 1],
 * exactly 0 where masked, rows adding to 1 and equal to float64's softmax of the core's scaled
 * scores (1e-5); out within 1e-5 of float64's mix of those weights, relative to the size of the
 * terms. Inputs are rounded to float32 first, as the core rounds them.
 * @param {any} trace
 * @param {any} rawInput
 * @param {string} what
 */
export function checkTrace(trace, rawInput, what) {
  const input = roundInput(rawInput);
  const mask = input.mask ?? 'causal';
  const t = input.tokens.length;
  const d = input.q[0].length;
  assert.deepEqual(trace.tokens, input.tokens, `${what}: tokens`);
  assert.equal(trace.token_count, t, `${what}: T`);
  assert.equal(trace.head_dim, d, `${what}: d`);
  const ref = headF64({ ...input, mask });
  const hidden = (i, j) => mask !== 'none' && j > i;
  for (let i = 0; i < t; i += 1) {
    for (let j = 0; j < t; j += 1) {
      const size = input.q[i].reduce((s, x, c) => s + Math.abs(x * input.k[j][c]), 0);
      const score = trace.scores[i][j];
      assert.ok(Number.isFinite(score), `${what}: scores[${i}][${j}] = ${score} is finite`);
      assert.ok(Math.abs(score - ref.scores[i][j]) <= 1e-6 * d * size + 1e-30,
        `${what}: scores[${i}][${j}] = ${score}, float64 says ${ref.scores[i][j]}`);
    }
  }
  // The weights: the softmax of the scores the core computed, in float64.
  const masked = trace.scaled.map((row, i) => row.map((x, j) => (hidden(i, j) ? -Infinity : x)));
  const weights = masked.map((row) => {
    const max = Math.max(...row);
    const e = row.map((x) => Math.exp(x - max));
    const total = e.reduce((s, x) => s + x, 0);
    return e.map((x) => x / total);
  });
  trace.weights.forEach((row, i) => {
    let sum = 0;
    row.forEach((w, j) => {
      assert.ok(Number.isFinite(w) && w >= 0 && w <= 1, `${what}: weights[${i}][${j}] = ${w} is finite, in [0, 1]`);
      if (hidden(i, j)) assert.equal(w, 0, `${what}: weights[${i}][${j}] is masked: exactly 0`);
      assert.ok(Math.abs(w - weights[i][j]) <= 1e-5, `${what}: weights[${i}][${j}] = ${w}, float64 says ${weights[i][j]}`);
      sum += w;
    });
    assert.ok(Math.abs(sum - 1) <= 1e-5, `${what}: weights row ${i} adds up to ${sum}`);
  });
  // Where the float64 scores do not tie within float32 rounding, the weights are float64's own.
  // Where no score is large enough for float32 rounding to move a weight, the weights are also
  // float64's own, computed from the inputs.
  const largestK = input.k.reduce((m, row) => row.reduce((n, x) => Math.max(n, Math.abs(x)), m), 0);
  ref.weights.forEach((row, i) => {
    const spread = input.q[i].reduce((m, x) => Math.max(m, Math.abs(x)), 0) * largestK * d;
    if (spread < 1e3) row.forEach((w, j) => {
      assert.ok(Math.abs(trace.weights[i][j] - w) <= 1e-5, `${what}: weights[${i}][${j}] = ${trace.weights[i][j]}, float64 (from the inputs) says ${w}`);
    });
  });
  trace.out.forEach((row, i) => row.forEach((x, c) => {
    const expected = weights[i].reduce((s, w, j) => s + w * input.v[j][c], 0);
    const size = weights[i].reduce((s, w, j) => s + Math.abs(w * input.v[j][c]), 0);
    assert.ok(Number.isFinite(x), `${what}: out[${i}][${c}] = ${x} is finite`);
    assert.ok(Math.abs(x - expected) <= 1e-5 * size + 1e-30, `${what}: out[${i}][${c}] = ${x}, float64 says ${expected}`);
  }));
}

/**
 * attend()'s output (row-major Float32Array) against float64, as checkTrace checks out; the
 * weights are float64's from float32-rounded inputs (attend() keeps no trace).
 */
export function checkAttendOutput(out, { q, k, v, t, d, mask = 'causal' }, what) {
  const rows = (a) => Array.from({ length: t }, (_, i) => Array.from(a.subarray(i * d, (i + 1) * d)));
  const input = { q: rows(q), k: rows(k), v: rows(v), mask };
  const ref = headF64(input);
  assert.equal(out.length, t * d, `${what}: length`);
  ref.out.forEach((row, i) => row.forEach((x, c) => {
    const got = out[i * d + c];
    const size = ref.weights[i].reduce((s, w, j) => s + Math.abs(w * input.v[j][c]), 0);
    assert.ok(Number.isFinite(got), `${what}: out[${i}][${c}] = ${got} is finite`);
    assert.ok(Math.abs(got - x) <= 1e-5 * size + 1e-30, `${what}: out[${i}][${c}] = ${got}, float64 says ${x}`);
  }));
}

/**
 * A tracer's trace (a snapshot: flat typed arrays) against float64, as checkTrace checks run()'s,
 * for its input in attend()'s form.
 */
export function checkTracerTrace(trace, { q, k, v, t, d, mask = 'causal', scale = 'sqrt_d' }, what) {
  const rows = (a) => Array.from({ length: t }, (_, i) => Array.from(a.subarray(i * d, (i + 1) * d)));
  const tokens = Array.from({ length: t }, (_, i) => `w${i}`);
  checkTrace(traceRows(trace, tokens), { tokens, q: rows(q), k: rows(k), v: rows(v), mask, scale }, what);
}

/** A message that names `path`: it starts with it (after an optional "error: "), then ": ". */
export function assertNames(message, path, what) {
  const text = String(message).replace(/^error: /u, '');
  assert.ok(text.startsWith(`${path}: `), `${what}: "${text.slice(0, 160)}" should start with "${path}: "`);
  assert.ok(!text.includes('\n'), `${what}: one line`);
}
