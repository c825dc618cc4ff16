// Pencil mode's numbers in float64, written from the formulas and the rounds' rules
// (docs/practice.md), for the suites to hold a worksheet's printed values against: a round's
// inputs (the core's seeded grid, redrawn by gridValues), every step's values, each blank's
// value by its name, and the text a table prints for it.

import { headF64 } from './attention-f64.mjs';
import { gridValues } from './seeded-random.mjs';

/** The rounds' levels as docs/practice.md states them. */
export const LEVELS_F64 = Object.freeze({
  easy: { tokens: 3, headDim: 4, decimals: 1, min: -1, max: 1 },
  hard: { tokens: 4, headDim: 4, decimals: 2, min: -2, max: 2 },
});

/** q, k and v of a round: one grid row per token, q | k | v side by side. */
export function roundInputsF64(seed, level = 'easy') {
  const { tokens, headDim, decimals, min, max } = LEVELS_F64[level];
  const grid = gridValues(seed, tokens, 3 * headDim, { min, max, decimals });
  const block = (n) => grid.map((row) => row.slice(n * headDim, (n + 1) * headDim));
  return { q: block(0), k: block(1), v: block(2) };
}

/**
 * Every step of one head with the causal mask and ÷ √d: headF64's, plus e^x (unshifted: the
 * rounds' numbers are far from overflowing), the rows' totals and weight × value.
 */
export function headStepsF64(input) {
  const head = headF64({ ...input, mask: 'causal', scale: 'sqrt_d' });
  const exponentials = head.masked.map((row) => row.map(Math.exp));
  const totals = exponentials.map((row) => row.reduce((a, b) => a + b, 0));
  const mix = head.weights.map((row) => row.map((w, j) => input.v[j].map((x) => w * x)));
  return { ...head, exponentials, totals, mix, hidden: head.masked.map((row) => row.map((x) => x === -Infinity)) };
}

const KIND_DECIMALS = { scores: 3, scaled: 3, masked: 3, exponentials: 4, totals: 4, weights: 4, mix: 4, out: 4 };

/** The value and decimals of a blank named as the practice grammar names it ("weights:2.1"). */
export function blankF64(id, steps) {
  const [kind, position] = id.split(':');
  const index = position.split('.').map(Number);
  const value = index.reduce((table, i) => table[i], steps[kind]);
  return { value, decimals: KIND_DECIMALS[kind] };
}

/** A number as the tables print it: fixed decimals, U+2212 minus, no sign on a zero, −∞. */
export function printed(value, decimals) {
  if (value === -Infinity) return '\u2212\u221e';
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 && /[1-9]/u.test(text) ? `\u2212${text}` : text;
}

/**
 * The texts a float32 computation of `value` may print: the float64 value's, and its
 * neighbour's when the value lies within `tolerance` of a rounding boundary.
 */
export function printedCandidates(value, decimals, tolerance = 1e-6) {
  return [...new Set([printed(value, decimals), printed(value - tolerance, decimals), printed(value + tolerance, decimals)])];
}

/** The blanks of a round in its order (docs/practice.md's table): row by row, the kinds in step order. */
export function roundBlankIdsF64(round, steps) {
  const kinds = {
    step1: ['scores'], step2: ['scaled'], step3: ['masked'], softmax: ['exponentials', 'totals', 'weights'],
    mix: ['mix', 'out'], all: ['scores', 'scaled', 'masked', 'exponentials', 'totals', 'weights', 'mix', 'out'],
  }[round];
  const t = steps.scores.length;
  const d = steps.out[0].length;
  const ids = [];
  for (let i = 0; i < t; i += 1) {
    for (const kind of kinds) {
      if (kind === 'totals') ids.push(`totals:${i}`);
      else if (kind === 'out') for (let c = 0; c < d; c += 1) ids.push(`out:${i}.${c}`);
      else {
        for (let j = 0; j < t; j += 1) {
          const zeroByMask = ['exponentials', 'weights', 'mix'].includes(kind) && steps.hidden[i][j];
          if (zeroByMask) continue;
          if (kind === 'mix') for (let c = 0; c < d; c += 1) ids.push(`mix:${i}.${j}.${c}`);
          else ids.push(`${kind}:${i}.${j}`);
        }
      }
    }
  }
  return ids;
}
