// What <attention-layer-inputs> says and hands on, as pure functions (no DOM, no core): the
// elements its `for` attribute names and the attributes each kind of them takes, and the words
// of a refused field or cell. The wording of a refused cell is the elements' shared one
// (cell-editing.js): the cell named, why, and what it keeps.

import { formatMatrix, formatTokens } from '../element-config.js';
import { cellName } from '../cell-editing.js';
import { quoteTyped } from '../../state/quote-text.js';
import { shortestFloat32 } from '../../views/format.js';
import { formatVectorValue } from '../../views/sequel/layer-inputs-view.js';

/**
 * @typedef {object} LayerValues
 * @property {string[] | null} tokens  the words, or null: the core's default
 * @property {number | null} seed      the seed, or null: the core's default
 * @property {number[][] | null} x     the reader's own token vectors, or null: the seeded ones
 * @property {number | null} [d_model] the layer's width (the numbers of a token vector), or null:
 *                                     the core's default
 * @property {number | null} [n_heads] its query heads, or null: the core's default
 */

/** The ids `for` lists, separated by spaces or commas, each once. */
export function parseForIds(text) {
  return [...new Set(String(text ?? '').split(/[\s,]+/u).filter(Boolean))];
}

// Which attribute of each kind of element takes which of the inputs. The layer's own elements
// take the values as they are, the layer's shape (d-model, n-heads) with them, so that the
// vectors and the layer they go into agree (null: the attribute is removed, so the element runs
// the core's default as the inputs do); the bill's toy and the toy's traffic take the tokens in
// use.
const whole = (value) => (value === null || value === undefined ? null : String(value));
const LAYER_FEED = (values) => ({
  tokens: values.tokens ? formatTokens(values.tokens) : null,
  seed: whole(values.seed),
  x: values.x ? formatVectors(values.x) : null,
  'd-model': whole(values.d_model),
  'n-heads': whole(values.n_heads),
});
const FEEDS = Object.freeze({
  'attention-variant': LAYER_FEED,
  'attention-flash-tiles': LAYER_FEED,
  'attention-quantised-cache': LAYER_FEED,
  'attention-kv-bill': (values, layer) => ({ 'toy-tokens': formatTokens(layer.tokens) }),
  'attention-flash-traffic': (values, layer) => ({ 'token-count': String(layer.tokens.length) }),
});

/** The tag names `for` may name. */
export const FED_ELEMENTS = Object.freeze(Object.keys(FEEDS));

/**
 * The attributes to set on an element named by `for` (value null: remove it), or null when that
 * kind of element takes none of the inputs.
 * @param {string} localName
 * @param {LayerValues} values  the inputs' own values
 * @param {{tokens: string[]}} layer  the core's answer for them
 * @returns {Record<string, string | null> | null}
 */
export function feedFor(localName, values, layer) {
  const feed = FEEDS[localName];
  return feed ? feed(values, layer) : null;
}

/** Token vectors as the `x` attribute writes them: each number in its shortest float32 form. */
export function formatVectors(x) {
  return formatMatrix(x.map((row) => row.map(shortestFloat32)));
}

/**
 * A refused cell of X, said as it is put back, as part one's cells are when a reader leaves a
 * refused one: "x0 of “the”: “abc” is not a number, so it was not used. The cell is back to
 * −1." `why` is notANumber's text (cell-editing.js), or the core's refusal.
 * @param {{col: number, token: string, kept: number, why: string, core?: boolean}} cell
 */
export function cellRefusal({ col, token, kept, why, core = false }) {
  const reason = core ? `the core refused it (${why})` : why;
  return `${cellName('x', col, token)}: ${reason}, so it was not used. The cell is back to ${formatVectorValue(kept)}.`;
}

/**
 * A refused field: "Seed: “1.5” is not a whole number, so it was not used. The sections keep
 * seed 1 and nothing else changed." `subject`: "it was", or "they were" for the tokens.
 */
export function fieldRefusal(label, why, kept, subject = 'it was') {
  return `${label}: ${why}, so ${subject} not used. The sections keep ${kept} and nothing else changed.`;
}

/** "“the cat sat on”", "seed 1": the kept value as a refusal names it. */
export const keptTokens = (tokens) => quoteTyped(formatTokens(tokens), 60);
export const keptSeed = (seed) => `seed ${seed}`;

/** Text of the seed field that is a whole number of at most 16 digits, or null. */
export function parseSeedText(text) {
  const trimmed = String(text).trim();
  return /^\d{1,16}$/u.test(trimmed) ? Number(trimmed) : null;
}
