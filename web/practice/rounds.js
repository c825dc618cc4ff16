// Rounds of pencil mode: "do step 1 by hand", "do the softmax by hand", ... Each round draws
// fresh inputs from the core's seeded generator (randomMatrix: the same numbers for the same
// seed in every browser and in Node), on a grid that is easy to work by hand, and walks the
// reader through its blanks in the order of the steps. The core computes every value; this
// module only chooses the request and orders the cells.

import { NEW_TOKEN_WORDS, PAGE_LIMITS } from '../state/page-state.js';
import { DEFAULT_VARIANT } from '../state/variant-names.js';
import { allPositions } from './practice-cells.js';

/**
 * How hard a round's numbers are. `easy` (the default): three tokens, head_dim 4 (so the scale
 * divides by √4 = 2) and values with one decimal in [−1, 1]; `hard`: four tokens and two
 * decimals in [−2, 2].
 */
export const LEVELS = Object.freeze({
  easy: Object.freeze({ tokens: 3, headDim: 4, decimals: 1, min: -1, max: 1 }),
  hard: Object.freeze({ tokens: 4, headDim: 4, decimals: 2, min: -2, max: 2 }),
});
export const LEVEL_NAMES = Object.freeze(Object.keys(LEVELS));
export const DEFAULT_LEVEL = 'easy';

/**
 * The rounds, in the order of the walkthrough's steps, each with the kinds of cell it blanks
 * (practice-cells.js) in the order they are worked.
 */
export const ROUNDS = Object.freeze([
  { name: 'step1', title: 'Do step 1 by hand: the scores', kinds: ['scores'] },
  { name: 'step2', title: 'Do step 2 by hand: the scaling', kinds: ['scaled'] },
  { name: 'step3', title: 'Do step 3 by hand: the mask', kinds: ['masked'] },
  { name: 'softmax', title: 'Do the softmax by hand: e^x, the totals, the weights', kinds: ['exponentials', 'totals', 'weights'] },
  { name: 'mix', title: 'Do step 5 by hand: weight \u00d7 value, and out', kinds: ['mix', 'out'] },
  { name: 'all', title: 'Do the whole head by hand', kinds: ['scores', 'scaled', 'masked', 'exponentials', 'totals', 'weights', 'mix', 'out'] },
].map((round) => Object.freeze({ ...round, kinds: Object.freeze(round.kinds) })));
export const ROUND_NAMES = Object.freeze(ROUNDS.map((round) => round.name));

// The kinds whose hidden cells are 0 by the mask's −∞, not by any working: a round skips them.
const ZERO_WHERE_HIDDEN = new Set(['exponentials', 'weights', 'mix']);

function checkSeed(seed) {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > PAGE_LIMITS.maxSeed) {
    throw new RangeError(`seed: must be a whole number from 0 to ${PAGE_LIMITS.maxSeed}, got ${seed}`);
  }
}

function levelOrThrow(level) {
  if (!Object.hasOwn(LEVELS, level)) throw new RangeError(`level: must be one of ${LEVEL_NAMES.join(', ')}, got ${level}`);
  return LEVELS[level];
}

/** The randomMatrix request a round's numbers are drawn from: one row per token, q | k | v side by side. */
export function roundRequest({ seed, level = DEFAULT_LEVEL }) {
  checkSeed(seed);
  const { tokens, headDim, decimals, min, max } = levelOrThrow(level);
  return { rows: tokens, cols: 3 * headDim, seed, min, max, decimals };
}

/**
 * The inputs of a round: seeded q, k and v for the level's tokens, the article's mask and scale.
 * @param {{randomMatrix: function}} attention  the API (createAttention())
 * @param {{seed: number, level?: string}} options
 * @returns {{tokens: string[], q: number[][], k: number[][], v: number[][], mask: string, scale: string}}
 */
export function roundInputs(attention, { seed, level = DEFAULT_LEVEL }) {
  const request = roundRequest({ seed, level });
  const { headDim } = LEVELS[level];
  const drawn = attention.randomMatrix(request);
  const block = (n) => drawn.map((row) => row.slice(n * headDim, (n + 1) * headDim));
  return {
    tokens: NEW_TOKEN_WORDS.slice(0, request.rows),
    q: block(0), k: block(1), v: block(2),
    ...DEFAULT_VARIANT,
  };
}

/** The round called `name`, or a RangeError naming the known rounds. */
export function roundNamed(name) {
  const round = ROUNDS.find((entry) => entry.name === name);
  if (!round) throw new RangeError(`round: must be one of ${ROUND_NAMES.join(', ')}, got ${name}`);
  return round;
}

/**
 * The blanks of a round on a trace, in the order a reader works them: row by row (a row's
 * softmax needs only that row), and within a row the round's kinds in the order of the steps.
 * Cells the mask zeroes (e^x, weight and weight × value of a hidden key) are left filled.
 * @param {string} name  one of ROUND_NAMES
 * @param {object} trace  run()'s answer for the round's inputs
 * @returns {{kind: string, index: number[]}[]}
 */
export function roundBlanks(name, trace) {
  const round = roundNamed(name);
  const cells = [];
  for (let row = 0; row < trace.token_count; row += 1) {
    for (const kind of round.kinds) {
      for (const index of allPositions(kind, { trace })) {
        if (index[0] !== row) continue;
        if (ZERO_WHERE_HIDDEN.has(kind) && trace.hidden[index[0]][index[1]]) continue;
        cells.push({ kind, index });
      }
    }
  }
  return cells;
}

/**
 * A whole exercise: the round's inputs, the core's trace of them, and the blanks in order.
 * @param {{randomMatrix: function, run: function}} attention
 * @param {{round: string, seed: number, level?: string}} options
 */
export function roundExercise(attention, { round, seed, level = DEFAULT_LEVEL }) {
  roundNamed(round);
  const input = roundInputs(attention, { seed, level });
  const trace = attention.run(input);
  return { round, seed, level, input, trace, blanks: roundBlanks(round, trace) };
}
