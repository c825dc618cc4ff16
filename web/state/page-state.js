// The walkthrough page's state, and the URL hash that carries it. The state is everything a
// reader can change: the tokens, the Q, K and V cells, the mask and the scale, the seed that
// new cells are drawn from, and where the step-through stands. Pure functions, no DOM and no
// core: every change returns a new state, which the page hands to the core before it shows
// it (the core checks the values; this module only keeps the shape within the page's limits).
//
// The hash uses the embed page's keys and encoding (embed-hash.js) for what the two share, so
// that a walkthrough link's tokens, q, k, v and mask read the same in embed.html:
//   #tokens=the%20cat&q=[[1.1,-0.8],[…]]&k=…&v=…&mask=causal&scale=sqrt_d&seed=1&step=2

import { formatEmbedHash, parseEmbedHash } from './embed-hash.js';
import { DEFAULT_VARIANT, MASK_NAMES, SCALE_NAMES } from './variant-names.js';
import { shortestFloat32 } from '../views/format.js';
import {
  ConfigError, formatMatrix, formatTokens, parseMatrix, parseTokens, usesTrainedHead,
} from '../elements/element-config.js';
import { quoteText } from './quote-text.js';

/** Whether parsed settings give tokens only: part one then shows the trained head on them. */
export const needsTrainedHead = (settings) => usesTrainedHead((field) => settings[field] !== undefined);

/** What the page lets a reader build (the core itself allows more; the tables would not fit). */
export const PAGE_LIMITS = Object.freeze({
  minTokens: 1,
  maxTokens: 16,
  minHeadDim: 1,
  maxHeadDim: 16,
  // The longest legitimate hash: 16 tokens of up to 256 bytes, percent-encoded, and 768
  // numbers of up to ~24 characters stay well below this.
  maxHashLength: 32768,
  maxSeed: 2 ** 32 - 1,
});

/** The core's mask and scale names (variant-names.js, checked against attention.vocabulary()). */
export const MASKS = MASK_NAMES;
export const SCALES = SCALE_NAMES;
/** The stops of the step-through, in order: the inputs, steps 1 to 5, and step 6. */
export const WALK_STEPS = Object.freeze(['inputs', 'score', 'scale', 'mask', 'softmax', 'mix', 'demo']);
export const MATRICES = Object.freeze(['q', 'k', 'v']);

/**
 * Names for tokens a reader adds, by position: adding to "the cat" gives "sat", then "on", ….
 * Any text will do; a sentence reads better in the tables than "token 3".
 */
export const NEW_TOKEN_WORDS = Object.freeze([
  'the', 'cat', 'sat', 'on', 'the', 'mat', 'and', 'then', 'it', 'slept', 'in', 'the', 'warm', 'sun',
  'all', 'day',
]);

/** The seeded values every new cell is drawn from: randomMatrix's size and grid. */
export const POOL_REQUEST = Object.freeze({
  rows: PAGE_LIMITS.maxTokens, cols: 3 * PAGE_LIMITS.maxHeadDim, min: -1, max: 1, decimals: 1,
});

/**
 * @typedef {object} PageState
 * @property {string[]} tokens
 * @property {number[][]} q
 * @property {number[][]} k
 * @property {number[][]} v
 * @property {'causal'|'none'|'causal_zero'} mask
 * @property {'sqrt_d'|'d'|'none'} scale
 * @property {number} seed         the seed of the pool new cells come from
 * @property {number | null} step  the step-through's position in WALK_STEPS, null when off
 *
 * @typedef {{q: number[][], k: number[][], v: number[][]}} ValuePool
 *   seeded values by position: a new cell [row][col] of q takes pool.q[row][col]
 */

const copyRows = (matrix) => matrix.map((row) => [...row]);

function copyState(state) {
  return {
    ...state,
    tokens: [...state.tokens],
    q: copyRows(state.q),
    k: copyRows(state.k),
    v: copyRows(state.v),
  };
}

/**
 * The article's example as a page state.
 * @param {{tokens: string[], q: number[][], k: number[][], v: number[][]}} example
 * @returns {PageState}
 */
export function articleState(example) {
  const short = (matrix) => matrix.map((row) => row.map(shortestFloat32));
  return copyState({
    tokens: example.tokens, q: short(example.q), k: short(example.k), v: short(example.v),
    ...DEFAULT_VARIANT, seed: 1, step: null,
  });
}

/** The input the core's run() takes for this state. */
export function attentionInput(state) {
  const { tokens, q, k, v, mask, scale } = copyState(state);
  return { tokens, q, k, v, mask, scale };
}

export const headDimOf = (state) => state.q[0]?.length ?? 0;

/**
 * Splits randomMatrix(POOL_REQUEST)'s answer (16 rows of 48 values) into one 16 × 16 block of
 * candidates per matrix.
 * @param {number[][]} matrix
 * @returns {ValuePool}
 */
export function poolFromMatrix(matrix) {
  const { maxHeadDim } = PAGE_LIMITS;
  const block = (index) => matrix.map((row) => row.slice(index * maxHeadDim, (index + 1) * maxHeadDim));
  return { q: block(0), k: block(1), v: block(2) };
}

/**
 * Whether a state breaks the page's limits (the core checks everything else). Returns the
 * problem as a sentence, or null.
 * @param {PageState} state
 */
export function pageLimitProblem(state) {
  const { minTokens, maxTokens, minHeadDim, maxHeadDim } = PAGE_LIMITS;
  const count = state.tokens.length;
  if (count < minTokens || count > maxTokens) {
    return `tokens: this page shows ${minTokens} to ${maxTokens} tokens, not ${count}`;
  }
  const headDim = headDimOf(state);
  if (headDim < minHeadDim || headDim > maxHeadDim) {
    return `head_dim: this page shows head_dim ${minHeadDim} to ${maxHeadDim}, not ${headDim}`;
  }
  if (!MASKS.includes(state.mask)) return `mask: must be one of ${MASKS.join(', ')}`;
  if (!SCALES.includes(state.scale)) return `scale: must be one of ${SCALES.join(', ')}`;
  if (!Number.isSafeInteger(state.seed) || state.seed < 0 || state.seed > PAGE_LIMITS.maxSeed) {
    return `seed: must be a whole number from 0 to ${PAGE_LIMITS.maxSeed}`;
  }
  if (state.step !== null && !(Number.isInteger(state.step) && state.step >= 0 && state.step < WALK_STEPS.length)) {
    return `step: must be a whole number from 0 to ${WALK_STEPS.length - 1}`;
  }
  return null;
}

/** One cell of q, k or v set to `value`. */
export function withCell(state, matrix, row, col, value) {
  if (!MATRICES.includes(matrix)) throw new RangeError(`not an editable matrix: ${matrix}`);
  if (state[matrix][row]?.[col] === undefined) throw new RangeError(`${matrix}[${row}][${col}] is outside the input`);
  const next = copyState(state);
  next[matrix][row][col] = value;
  return next;
}

/** Token `index` renamed to `text` (kept as typed; the core refuses an empty one). */
export function withTokenRenamed(state, index, text) {
  if (index < 0 || index >= state.tokens.length) throw new RangeError(`no token ${index}`);
  const next = copyState(state);
  next.tokens[index] = String(text);
  return next;
}

/**
 * A token added at the end, named from NEW_TOKEN_WORDS, with q, k and v rows from the pool.
 * @param {PageState} state
 * @param {ValuePool} pool
 */
export function withTokenAdded(state, pool) {
  const next = copyState(state);
  const row = state.tokens.length;
  const headDim = headDimOf(state);
  next.tokens.push(NEW_TOKEN_WORDS[row % NEW_TOKEN_WORDS.length]);
  for (const matrix of MATRICES) {
    const source = pool[matrix][row];
    if (!source) throw new RangeError(`the pool has no row ${row}`);
    next[matrix].push(source.slice(0, headDim));
  }
  return next;
}

/** Token `index` and its rows of q, k and v removed. */
export function withTokenRemoved(state, index) {
  if (index < 0 || index >= state.tokens.length) throw new RangeError(`no token ${index}`);
  const next = copyState(state);
  next.tokens.splice(index, 1);
  for (const matrix of MATRICES) next[matrix].splice(index, 1);
  return next;
}

/**
 * head_dim changed: columns past `headDim` are dropped, new columns come from the pool.
 * @param {PageState} state
 * @param {number} headDim
 * @param {ValuePool} pool
 */
export function withHeadDim(state, headDim, pool) {
  if (!Number.isInteger(headDim) || headDim < 1) throw new RangeError(`head_dim must be a positive integer, got ${headDim}`);
  const next = copyState(state);
  for (const matrix of MATRICES) {
    next[matrix] = next[matrix].map((row, r) => {
      if (row.length >= headDim) return row.slice(0, headDim);
      const source = pool[matrix][r];
      if (!source || source.length < headDim) throw new RangeError(`the pool has no ${matrix}[${r}][${headDim - 1}]`);
      return [...row, ...source.slice(row.length, headDim)];
    });
  }
  return next;
}

/** Every cell of q, k and v from the pool of `seed` (the "re-roll"); tokens stay. */
export function withValuesFromPool(state, pool, seed) {
  const next = copyState(state);
  const headDim = headDimOf(state);
  for (const matrix of MATRICES) {
    next[matrix] = state.tokens.map((_, row) => pool[matrix][row].slice(0, headDim));
  }
  next.seed = seed;
  return next;
}

export const withMask = (state, mask) => ({ ...copyState(state), mask });
export const withScale = (state, scale) => ({ ...copyState(state), scale });
export const withStep = (state, step) => ({ ...copyState(state), step });

const sameRows = (a, b) => a.length === b.length &&
  a.every((row, i) => row.length === b[i].length && row.every((x, j) => x === b[i][j]));

/** Whether two states give the core the same input (tokens, cells, mask and scale). */
export function sameInput(a, b) {
  return a.mask === b.mask && a.scale === b.scale &&
    a.tokens.length === b.tokens.length && a.tokens.every((token, i) => token === b.tokens[i]) &&
    MATRICES.every((matrix) => sameRows(a[matrix], b[matrix]));
}

// ---------------------------------------------------------------------------------------------
// The hash.

const PAGE_KEYS = Object.freeze(['scale', 'seed', 'step']);
const SHARED_KEYS = Object.freeze(['tokens', 'q', 'k', 'v', 'mask']);
// Keys the embed page reads and this page does not: named as the embed page's, not as unknown.
const EMBED_ONLY_KEYS = Object.freeze(['steps', 'row', 'editable', 'hide']);

// The first key of the hash that neither page knows, decoded (undefined when there is none;
// a key that is not valid percent-encoding is left for parseEmbedHash to name).
function unknownKey(parts) {
  for (const part of parts) {
    const eq = part.indexOf('=');
    let key;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    } catch {
      continue;
    }
    if (part !== '' && ![...PAGE_KEYS, ...SHARED_KEYS, ...EMBED_ONLY_KEYS].includes(key)) return key;
  }
  return undefined;
}

/**
 * The hash of a state: the embed page's keys first, then the page's own.
 * @param {PageState} state
 */
export function stateToHash(state) {
  const shared = formatEmbedHash({
    attributes: {
      tokens: formatTokens(state.tokens),
      q: formatMatrix(state.q),
      k: formatMatrix(state.k),
      v: formatMatrix(state.v),
      mask: state.mask,
    },
  });
  const own = [`scale=${state.scale}`, `seed=${state.seed}`];
  if (state.step !== null) own.push(`step=${state.step}`);
  return `${shared}&${own.join('&')}`;
}

function wholeNumber(key, text, max) {
  if (!/^\d{1,10}$/u.test(text) || Number(text) > max) {
    throw new ConfigError(key, `${quoteText(text, 12)} is not a whole number from 0 to ${max}`);
  }
  return Number(text);
}

/**
 * Reads a hash into the settings it names, to be laid over the article's state. Anything wrong
 * (too long, a key the page does not know, text that does not parse) makes the whole hash
 * unusable: a half-applied link would show something its sender never saw.
 * @param {string} hash  location.hash, with or without "#"
 * @returns {{settings: Partial<PageState>, problem: string | null, empty: boolean}}
 */
export function parseStateHash(hash) {
  const text = String(hash).replace(/^#/u, '');
  if (text === '') return { settings: {}, problem: null, empty: true };
  const refuse = (problem) => ({ settings: {}, problem, empty: false });
  if (text.length > PAGE_LIMITS.maxHashLength) {
    return refuse(`the link's settings are ${text.length} characters long; the page reads at most ${PAGE_LIMITS.maxHashLength}`);
  }
  // The page's own keys are taken out here; the rest is the embed page's format.
  const own = {};
  const shared = [];
  for (const part of text.split('&')) {
    const key = part.slice(0, part.indexOf('=') < 0 ? part.length : part.indexOf('='));
    if (!PAGE_KEYS.includes(key)) shared.push(part);
    else if (Object.hasOwn(own, key)) return refuse(`${key}: given twice`);
    else own[key] = part.slice(key.length + 1);
  }
  // The whole link is refused, so the message lists every key this page writes and reads,
  // and does not say "ignored" as the embed page's (which skips one key and uses the rest) does.
  const stranger = unknownKey(shared);
  if (stranger !== undefined) {
    return refuse(`unknown key ${quoteText(stranger)} (this page reads ${[...SHARED_KEYS, ...PAGE_KEYS].join(', ')})`);
  }
  const parsed = parseEmbedHash(shared.join('&'));
  if (parsed.warnings.length > 0) return refuse(parsed.warnings[0].replace(/^hash: /u, '').replace(/; ignored$/u, ''));
  const unused = Object.keys(parsed.attributes).find((key) => !SHARED_KEYS.includes(key));
  if (unused) return refuse(`"${unused}" belongs to the embed page, not to this one`);
  if (!parsed.editable || parsed.hide.length > 0) return refuse('"editable" and "hide" belong to the embed page, not to this one');

  const settings = {};
  try {
    const { attributes } = parsed;
    if (attributes.tokens !== undefined) settings.tokens = parseTokens(attributes.tokens);
    for (const matrix of MATRICES) {
      if (attributes[matrix] !== undefined) settings[matrix] = parseMatrix(matrix, attributes[matrix]);
    }
    if (attributes.mask !== undefined) {
      if (!MASKS.includes(attributes.mask)) throw new ConfigError('mask', `must be one of ${MASKS.join(', ')}`);
      settings.mask = attributes.mask;
    }
    if (own.scale !== undefined) {
      if (!SCALES.includes(own.scale)) throw new ConfigError('scale', `must be one of ${SCALES.join(', ')}`);
      settings.scale = own.scale;
    }
    if (own.seed !== undefined) settings.seed = wholeNumber('seed', own.seed, PAGE_LIMITS.maxSeed);
    if (own.step !== undefined) settings.step = wholeNumber('step', own.step, WALK_STEPS.length - 1);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return refuse(`${error.attribute}: ${error.detail}`);
  }
  return { settings, problem: null, empty: false };
}

/**
 * `base` with a parsed hash's settings laid over it (a link may name only some fields).
 * @param {PageState} base
 * @param {Partial<PageState>} settings
 * @returns {PageState}
 */
export function withSettings(base, settings) {
  return copyState({ ...base, ...structuredClone(settings) });
}
