// How the embeddable elements read their configuration: attribute text (tokens, q, k, v, mask, scale,
// steps, row), numbers a reader types into a cell, and how an error of the core
// ("q[1][3]: must be a finite number") is told to an author in terms of the attribute they
// wrote. Pure functions: no DOM, no core, testable in Node. Nothing here checks shapes or
// limits; the core does that and names the field, and this module only rewords it.

import { quoteText } from '../state/quote-text.js';

/** The fields of an attention input, in the order their problems are reported. */
export const INPUT_FIELDS = Object.freeze(['tokens', 'q', 'k', 'v', 'mask', 'scale']);

/**
 * Whether an input gives tokens and none of q, k, v: then they come from part three's trained
 * head on those tokens (api/trained-input.js), not from the article's example.
 * @param {(field: string) => boolean} given
 */
export const usesTrainedHead = (given) => given('tokens') && !['q', 'k', 'v'].some(given);

/** The matrices a reader may edit cell by cell. */
export const EDITABLE_MATRICES = Object.freeze(['q', 'k', 'v']);

/**
 * Every step an element can show, in walkthrough order. `softmax` and `mix` work out one row
 * (the `row` attribute, the last token by default); the others show every row.
 */
export const STEPS = Object.freeze([
  'q', 'k', 'v', 'scores', 'scaled', 'masked', 'softmax', 'weights', 'mix', 'out', 'grid', 'arrows',
]);

/** What `<attention-explainer>` shows without a `steps` attribute: the walkthrough's steps. */
export const DEFAULT_STEPS = Object.freeze([
  'q', 'k', 'v', 'scores', 'scaled', 'masked', 'softmax', 'weights', 'mix', 'out',
]);

/** The tag names the module registers. */
export const ELEMENT_NAMES = Object.freeze({
  explainer: 'attention-explainer',
  model: 'attention-model',
  step: 'attention-step',
  maskGrid: 'attention-mask-grid',
  arrows: 'attention-arrows',
  working: 'attention-working',
  nextWord: 'attention-next-word',
  heads: 'attention-heads',
  headDimStudy: 'attention-head-dim-study',
});

/** A configuration problem: which attribute, and a sentence an author can act on. */
export class ConfigError extends Error {
  /**
   * @param {string} attribute
   * @param {string} detail  what is wrong, without the attribute's name
   */
  constructor(attribute, detail) {
    super(`${attribute} attribute: ${detail}`);
    this.name = 'ConfigError';
    this.attribute = attribute;
    this.detail = detail;
  }
}

/** The builds of the core a model-owning element may load, by the `core` attribute's value. */
export const CORE_CHOICES = Object.freeze({ embed: 'embed', full: 'simd' });

/**
 * The build named by a `core` attribute: absent means the small embed build; "full" is the
 * build the page's own scripts load with createAttention(), so that page and elements share one.
 * @param {string | null} text
 */
export function parseCoreChoice(text) {
  if (text === null) return CORE_CHOICES.embed;
  const name = text.trim();
  if (!Object.hasOwn(CORE_CHOICES, name)) {
    throw new ConfigError('core', `must be "embed" or "full", got ${quoteText(name)}`);
  }
  return CORE_CHOICES[name];
}

/**
 * The `tokens` attribute: words separated by white space ("the cat sat"), or a JSON list of
 * strings for tokens that contain spaces (["New York", "is"]). Token text is kept as it is:
 * it is only ever shown as text. The core refuses an empty list, an empty token or more than
 * its limit, naming the token.
 * @param {string} text
 * @returns {string[]}
 */
export function parseTokens(text) {
  const trimmed = String(text).trim();
  if (!trimmed.startsWith('[')) return trimmed === '' ? [] : trimmed.split(/\s+/u);
  let list;
  try {
    list = JSON.parse(trimmed);
  } catch {
    throw new ConfigError('tokens', 'starts with "[" but is not a JSON list of strings');
  }
  if (!Array.isArray(list) || !list.every((token) => typeof token === 'string')) {
    throw new ConfigError('tokens', 'a JSON list here must hold only strings');
  }
  return list;
}

/** The `tokens` attribute text that parseTokens reads back as `tokens`. */
export function formatTokens(tokens) {
  const plain = tokens.every((token) => token !== '' && !/\s/u.test(token) && !token.startsWith('['));
  return plain ? tokens.join(' ') : JSON.stringify(tokens);
}

const MAX_NESTING = 3;  // a matrix is two levels deep; one more lets the core name the cell

/**
 * A `q`, `k` or `v` attribute: a JSON array of rows, [[0.3, -0.2], [1.1, -0.8]]. Besides JSON's
 * numbers it accepts NaN, Infinity and -Infinity, so that the core can name the cell holding
 * one ("must be a finite number") instead of the author getting a bare syntax error. Shapes
 * are not checked here: ragged rows or the wrong number of rows reach the core, which names
 * the row.
 * @param {string} name  the attribute, for messages
 * @param {string} text
 * @returns {unknown[]}
 */
export function parseMatrix(name, text) {
  const source = String(text);
  let at = 0;
  const fail = (expected) => {
    const found = at < source.length ? `found ${quoteText(source.slice(at), 8)}` : 'the text ends';
    throw new ConfigError(name, `is not a JSON array of rows: expected ${expected} at character ${at + 1}, ${found}`);
  };
  const skipSpace = () => {
    while (at < source.length && /\s/u.test(source[at])) at += 1;
  };
  const number = () => {
    const rest = source.slice(at);
    const match = /^-?(?:Infinity|(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/u.exec(rest) ?? /^NaN/u.exec(rest);
    if (!match) fail('a number or "["');
    at += match[0].length;
    return Number(match[0]);
  };
  const value = (depth) => {
    skipSpace();
    if (source[at] !== '[') return number();
    if (depth >= MAX_NESTING) fail('a number');
    at += 1;
    const list = [];
    skipSpace();
    if (source[at] === ']') {
      at += 1;
      return list;
    }
    for (;;) {
      list.push(value(depth + 1));
      skipSpace();
      if (source[at] === ',') {
        at += 1;
      } else if (source[at] === ']') {
        at += 1;
        return list;
      } else {
        fail('"," or "]"');
      }
    }
  };
  skipSpace();
  if (source[at] !== '[') fail('"["');
  const matrix = value(0);
  skipSpace();
  if (at < source.length) fail('nothing more');
  return matrix;
}

/** The attribute text of a matrix (JSON; non-finite values written as parseMatrix reads them). */
export function formatMatrix(matrix) {
  return `[${matrix.map((row) => `[${row.map((x) => String(x)).join(',')}]`).join(',')}]`;
}

/**
 * The `steps` attribute: step names separated by commas or spaces ("scores,masked,weights").
 * @param {string} text
 * @param {{attribute?: string, allowed?: readonly string[]}} [options]
 * @returns {string[]}
 */
export function parseSteps(text, { attribute = 'steps', allowed = STEPS } = {}) {
  const names = String(text).split(/[\s,]+/u).filter(Boolean);
  if (names.length === 0) {
    throw new ConfigError(attribute, `names no step; use one or more of ${allowed.join(', ')}`);
  }
  for (const name of names) {
    if (!allowed.includes(name)) {
      throw new ConfigError(attribute, `unknown step ${quoteText(name)}; the steps are ${allowed.join(', ')}`);
    }
  }
  return [...new Set(names)];
}

/**
 * A `row` or `col` attribute: a token position counting from 0, or a negative number counting
 * back from the last token (-1 is the last). Whether it exists is known only with the tokens:
 * see resolveIndex.
 * @param {string} name
 * @param {string} text
 * @returns {number}
 */
export function parseIndex(name, text) {
  const trimmed = String(text).trim();
  if (!/^-?\d{1,3}$/u.test(trimmed)) {
    throw new ConfigError(name, `${quoteText(trimmed)} is not a whole number (a token position counting from 0, or -1 for the last)`);
  }
  return Number(trimmed);
}

/**
 * Turns a parsed position into a row of a trace with `count` tokens.
 * @param {string} name
 * @param {number | null | undefined} index  null: `fallback`
 * @param {number} count
 * @param {number} fallback
 */
export function resolveIndex(name, index, count, fallback) {
  if (index === null || index === undefined) return fallback;
  const resolved = index < 0 ? count + index : index;
  if (resolved < 0 || resolved >= count) {
    throw new ConfigError(name, `there is no token ${index}: the tokens are numbered 0 to ${count - 1}`);
  }
  return resolved;
}

/**
 * A number as a reader types it into a cell: a decimal with a hyphen or a real minus sign
 * (U+2212), a decimal comma, surrounding spaces and exponents are accepted. Returns null when
 * the text is not one finite number.
 * @param {string} text
 * @returns {number | null}
 */
export function parseNumberText(text) {
  const normal = String(text).trim().replace(/^[\u2212\u2013]/u, '-').replace(/^\+/u, '')
    .replace(/^(-?\d*),(\d+)$/u, '$1.$2');
  if (!/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/u.test(normal)) return null;
  const value = Number(normal);
  return Number.isFinite(value) ? value : null;
}

// "q[1][3]" -> { field: "q", indices: [1, 3] }
function splitPath(path) {
  const match = /^([A-Za-z_]+)((?:\[\d+\])*)$/u.exec(path);
  if (!match) return null;
  const indices = [...match[2].matchAll(/\[(\d+)\]/gu)].map((m) => Number(m[1]));
  return { field: match[1], indices };
}

function whereInField(field, indices) {
  if (indices.length === 0) return '';
  if (field === 'tokens') return `, token ${indices[0] + 1}`;
  if (indices.length === 1) return `, row ${indices[0] + 1}`;
  return `, row ${indices[0] + 1}, column ${indices[1] + 1}`;
}

/**
 * Rewords an error of the core, whose message starts with the JSON path of the problem
 * ("q[1][3]: must be a finite number, got \"NaN\""), as a problem of the attribute an author
 * wrote: "q attribute, row 2, column 4: must be a finite number, got "NaN"". Rows and columns
 * are counted from 1 there, as a reader counts; the path itself is kept in `path`.
 * @param {string} message  the core's message
 * @param {{configured?: (field: string) => boolean}} [options]
 *        configured(field) false: the field was not set, so the article's value was used
 * @returns {{attribute: string, path: string, detail: string, text: string}}
 */
export function describeInputError(message, { configured = () => true } = {}) {
  const text = String(message);
  const colon = text.indexOf(': ');
  const parsed = colon > 0 ? splitPath(text.slice(0, colon)) : null;
  if (!parsed || !INPUT_FIELDS.includes(parsed.field)) {
    return { attribute: 'configuration', path: '', detail: text, text: `configuration: ${text}` };
  }
  const { field, indices } = parsed;
  let detail = text.slice(colon + 2);
  if (!configured(field)) detail += ` (${field} is not set, so the article's example is used for it)`;
  return {
    attribute: field,
    path: text.slice(0, colon),
    detail,
    text: `${field} attribute${whereInField(field, indices)}: ${detail}`,
  };
}
