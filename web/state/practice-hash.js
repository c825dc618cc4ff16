// The part of a page's URL hash that fixes a pencil-mode exercise, so a whole class opens the
// same one, and the `practice` attribute of the elements (the same grammar as the hash's
// `practice` value):
//   #…the page's own keys…&practice=scores,weights:3,mix:3.0.1&round=softmax&round_seed=7&level=hard&answers=1
// Pure functions, no DOM and no core. Like page-state.js, a malformed value refuses the whole
// exercise with a message naming the key: a half-applied link would set a different exercise.
//
// The grammar of a blank list (docs/practice.md): items separated by commas, each
//   kind               every cell of that kind ("weights")
//   kind:row           one row of it ("weights:3"; for a kind with one index, that cell)
//   kind:row.col[.c]   one cell ("weights:3.1", "mix:3.0.1"; "flash-max:2.1" is tile 2, query 1)
//   bill:line          one line of the KV bill ("bill:bytes_per_token")
// with kinds from practice-cells.js and whole numbers written without leading zeros.

import { ConfigError } from '../elements/element-config.js';
import { PAGE_LIMITS } from './page-state.js';
import { BILL_LINES, KIND_NAMES, practiceKind } from '../practice/practice-cells.js';
import { LEVEL_NAMES, ROUND_NAMES } from '../practice/rounds.js';
import { quoteText } from './quote-text.js';

/**
 * The hash keys of an exercise, in the order they are written. None is a key of the page's
 * state (tokens, q, k, v, mask, scale, seed, step) or of the embed page (steps, row, editable,
 * hide): tests/web/practice-hash.test.mjs holds that, so the two can share one hash.
 */
export const PRACTICE_KEYS = Object.freeze(['practice', 'round', 'round_seed', 'level', 'answers']);

/** The most blanks one list names, and the longest list text read: far past any page's tables. */
export const PRACTICE_LIMITS = Object.freeze({ maxItems: 256, maxTextLength: 4096, maxIndex: 999 });

const ITEM = /^([a-z][a-z-]*)(?::([0-9a-z_.]+))?$/u;
const WHOLE = /^(0|[1-9]\d{0,2})$/u;

/**
 * Reads a blank list (the `practice` attribute, or the hash's `practice` value).
 * @param {string} text
 * @param {string} [attribute='practice']  the name a refusal is given under
 * @returns {{kind: string, index: (number|string)[]}[]}
 * @throws {ConfigError} naming the item at fault and what is accepted
 */
export function parseBlankList(text, attribute = 'practice') {
  const source = String(text ?? '');
  if (source.length > PRACTICE_LIMITS.maxTextLength) {
    throw new ConfigError(attribute, `is ${source.length} characters long; at most ${PRACTICE_LIMITS.maxTextLength} are read`);
  }
  const trimmed = source.trim();
  if (trimmed === '') return [];
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.length > PRACTICE_LIMITS.maxItems) {
    throw new ConfigError(attribute, `names ${parts.length} items; at most ${PRACTICE_LIMITS.maxItems} are read`);
  }
  const seen = new Set();
  return parts.map((part) => {
    const item = parseItem(part, attribute);
    const canonical = formatItem(item);
    if (seen.has(canonical)) throw new ConfigError(attribute, `names ${quoteText(canonical)} twice`);
    seen.add(canonical);
    return item;
  });
}

function parseItem(part, attribute) {
  if (part === '') throw new ConfigError(attribute, 'has an empty item (two commas in a row, or one at an end)');
  const match = ITEM.exec(part);
  if (!match) {
    throw new ConfigError(attribute, `${quoteText(part)} is not kind, kind:row or kind:row.col (for example weights:3.1)`);
  }
  const [, name, position] = match;
  const kind = practiceKind(name);
  if (!kind) throw new ConfigError(attribute, `${quoteText(name)} is not a kind of cell; known: ${KIND_NAMES.join(', ')}`);
  if (position === undefined) return { kind: name, index: [] };
  const indices = position.split('.');
  if (indices.length > kind.indices.length) {
    throw new ConfigError(attribute, `${quoteText(part)} has ${indices.length} indices; a ${name} cell has ${kind.indices.length} (${kind.indices.join(', ')})`);
  }
  if (kind.source === 'bill') {
    if (!BILL_LINES.includes(indices[0])) {
      throw new ConfigError(attribute, `${quoteText(part)}: the bill's lines are ${BILL_LINES.join(', ')}`);
    }
    return { kind: name, index: indices };
  }
  return {
    kind: name,
    index: indices.map((index) => {
      if (!WHOLE.test(index)) {
        throw new ConfigError(attribute, `${quoteText(part)}: ${quoteText(index)} is not a whole number from 0 to ${PRACTICE_LIMITS.maxIndex}`);
      }
      return Number(index);
    }),
  };
}

const formatItem = ({ kind, index }) => (index.length === 0 ? kind : `${kind}:${index.join('.')}`);

/** The text parseBlankList reads back as `items`. */
export function formatBlankList(items) {
  return items.map(formatItem).join(',');
}

/** One cell's name in the same grammar ("weights:3.1"): the tally's key for it. */
export const cellId = formatItem;

/**
 * @typedef {object} PracticeSettings
 * @property {{kind: string, index: (number|string)[]}[]} [blanks]  which cells are blank
 * @property {string} [round]       one of ROUND_NAMES
 * @property {number} [seed]        the round's seed (the hash's round_seed)
 * @property {string} [level]       one of LEVEL_NAMES
 * @property {boolean} [answerKey]  print the answer key with the working
 */

/**
 * The hash text of an exercise (no "#"; "" for none), its keys in PRACTICE_KEYS order.
 * @param {PracticeSettings} settings
 */
export function formatPracticeHash({ blanks, round, seed, level, answerKey } = {}) {
  const parts = [];
  if (blanks !== undefined) parts.push(`practice=${formatBlankList(blanks)}`);
  if (round !== undefined) parts.push(`round=${round}`);
  if (seed !== undefined) parts.push(`round_seed=${seed}`);
  if (level !== undefined) parts.push(`level=${level}`);
  if (answerKey) parts.push('answers=1');
  return parts.join('&');
}

function oneOf(key, text, names) {
  if (!names.includes(text)) throw new ConfigError(key, `${quoteText(text)} is not one of ${names.join(', ')}`);
  return text;
}

function readValue(key, text, settings) {
  switch (key) {
    case 'practice': settings.blanks = parseBlankList(text, 'practice'); break;
    case 'round': settings.round = oneOf('round', text, ROUND_NAMES); break;
    case 'round_seed':
      if (!/^(0|[1-9]\d{0,9})$/u.test(text) || Number(text) > PAGE_LIMITS.maxSeed) {
        throw new ConfigError('round_seed', `${quoteText(text)} is not a whole number from 0 to ${PAGE_LIMITS.maxSeed}`);
      }
      settings.seed = Number(text);
      break;
    case 'level': settings.level = oneOf('level', text, LEVEL_NAMES); break;
    case 'answers':
      if (!['1', '0'].includes(text)) throw new ConfigError('answers', `${quoteText(text)} should be 1 (show the answer key) or 0`);
      settings.answerKey = text === '1';
      break;
    default: throw new RangeError(`not a practice key: ${key}`);
  }
}

/**
 * Takes the exercise's keys out of a hash. `rest` is the hash without them (no "#"), for the
 * page's own parser (parseStateHash); `settings` what the exercise's keys say.
 * @param {string} hash  location.hash, with or without "#"
 * @returns {{settings: PracticeSettings, problem: string | null, rest: string}}
 */
export function parsePracticeHash(hash) {
  const text = String(hash ?? '').replace(/^#/u, '');
  const rest = [];
  const found = new Map();
  for (const part of text === '' ? [] : text.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!PRACTICE_KEYS.includes(key)) {
      rest.push(part);
    } else if (found.has(key)) {
      return { settings: {}, problem: `${key}: given twice`, rest: rest.join('&') };
    } else {
      found.set(key, eq < 0 ? '' : part.slice(eq + 1));
    }
  }
  const settings = {};
  try {
    for (const key of PRACTICE_KEYS) {
      if (!found.has(key)) continue;
      let value;
      try {
        value = decodeURIComponent(found.get(key));
      } catch {
        throw new ConfigError(key, 'is not valid percent-encoding');
      }
      readValue(key, value, settings);
    }
    for (const key of ['round_seed', 'level']) {
      if (found.has(key) && !found.has('round')) throw new ConfigError(key, 'belongs to a round; the link names none (round=…)');
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { settings: {}, problem: `${error.attribute}: ${error.detail}`, rest: rest.join('&') };
  }
  return { settings, problem: null, rest: rest.join('&') };
}
