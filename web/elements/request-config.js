// How an element whose attributes make a request of the core reads them: each attribute maps to
// one member of the request, parsed from its text, and an error of the core, which names the
// member ("n_heads: must divide …"), is told to an author in terms of the attribute they wrote
// ("heads attribute: must divide …"). Pure functions: no DOM, no core, testable in Node.
// <attention-heads> and the sequel's elements (sequel/sequel-config.js) read theirs through here.

import { ConfigError } from './element-config.js';
import { quoteText } from '../state/quote-text.js';

/** A whole number attribute (the core checks its range and names it). */
export function parseWhole(attribute, text) {
  const trimmed = String(text).trim();
  if (!/^\d{1,16}$/u.test(trimmed)) throw new ConfigError(attribute, `${quoteText(trimmed)} is not a whole number`);
  return Number(trimmed);
}

/**
 * @typedef {object} AttributeSpec
 * @property {string} key  the request's member
 * @property {(attribute: string, text: string) => unknown} parse
 */

/**
 * The request of the attributes that are set (`read(name)` gives an attribute's text or null).
 * Throws a ConfigError naming the first attribute that cannot be read.
 * @param {Record<string, AttributeSpec>} specs
 * @param {(name: string) => string | null} read
 */
export function requestFrom(specs, read) {
  const request = {};
  for (const [attribute, spec] of Object.entries(specs)) {
    const value = read(attribute);
    if (value === null || value === undefined) continue;
    request[spec.key] = spec.parse(attribute, value);
  }
  return request;
}

/**
 * Rewords an error of the core, whose message starts with the request's path
 * ("block_rows: must be …", "x[1][2]: must be …"), as a problem of an attribute:
 * "block-rows attribute: must be …"; the core's names of the element's other attributes in it
 * become theirs too ("must divide d_model 16" -> "must divide d-model 16"), so that the message
 * speaks the author's vocabulary only. A path the element did not set (the core's default was
 * used) or that no attribute names is kept as the core wrote it.
 * @param {string} message
 * @param {Record<string, AttributeSpec>} specs
 * @param {(attribute: string) => boolean} isSet
 */
export function rewordCoreError(message, specs, isSet) {
  const textOf = String(message);
  const match = /^([a-z_]+)((?:\[\d+\])*): (.*)$/su.exec(textOf);
  if (!match) return textOf;
  const [, key, indices, detail] = match;
  const attribute = Object.entries(specs).find(([, spec]) => spec.key === key)?.[0];
  if (!attribute || !isSet(attribute)) return textOf;
  const where = [...indices.matchAll(/\[(\d+)\]/gu)].map((m) => Number(m[1]) + 1);
  const place = where.length === 0 ? '' : where.length === 1 ? `, item ${where[0]}` : `, row ${where[0]}, column ${where[1]}`;
  const named = detail.replace(/\b[a-z]+(?:_[a-z]+)+\b/gu,
    (name) => Object.entries(specs).find(([, spec]) => spec.key === name)?.[0] ?? name);
  return `${attribute} attribute${place}: ${named}`;
}
