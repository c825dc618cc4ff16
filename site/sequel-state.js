// The sequel page's state in its URL hash, e.g.
//   #tokens=the%20cat%20sat&seed=3&gqa.n-kv-heads=1&flash.block-rows=3&bill.preset=deepseek-v3
//   &curve.models=llama-3-8b,qwen-2.5-72b
// Shared keys (tokens, seed, x) are the attributes of the page's <attention-layer-inputs>, which
// hands them to every section; "<section>.<attribute>" keys are the attributes of one section's
// element, so that an element's state is its attributes. An empty value ("bill.preset=") means
// the attribute is removed. Pure functions, no DOM: the page applies what this returns, and the
// elements check the values and report a bad one in their own box.

import { parseMatrix, parseTokens, formatMatrix, formatTokens } from '../web/elements/element-config.js';
import { shortestFloat32 } from '../web/views/format.js';
import { quoteText } from '../web/state/quote-text.js';

/** The sections whose elements keep state, their element ids and the attributes kept. */
export const SECTIONS = Object.freeze({
  gqa: { id: 'variant-gqa', attributes: ['n-kv-heads'] },
  mla: { id: 'variant-mla', attributes: ['d-latent'] },
  flash: { id: 'flash-tiles', attributes: ['block-rows', 'block-cols', 'mask', 'head'] },
  quant: { id: 'quantised-cache', attributes: ['bits', 'rotation', 'level', 'head'] },
  traffic: { id: 'flash-traffic', attributes: ['token-count', 'head-dim', 'dtype-bytes', 'mask', 'block-rows', 'block-cols', 'sram-kib'] },
  bill: {
    id: 'kv-bill',
    attributes: ['preset', 'layers', 'n-heads', 'n-kv-heads', 'head-dim', 'd-latent', 'rope-dim', 'dtype-bytes',
      'kv-bits', 'weight-dtype-bytes', 'parameters', 'context-length', 'batch', 'gpu-memory-gib', 'sliding-window', 'local-layers'],
  },
  curve: { id: 'kv-curve', attributes: ['models'] },
});

export const SHARED_KEYS = Object.freeze(['tokens', 'seed', 'x']);

/**
 * @typedef {object} SequelState
 * @property {{tokens?: string[], seed?: number, x?: number[][]}} shared
 * @property {Record<string, Record<string, string | null>>} sections  section -> attribute -> value (null: removed)
 */

/**
 * Reads the hash. Unknown keys, bad encoding and shared values that cannot be read are left
 * out, each with a warning; the rest is kept.
 * @param {string} hash
 * @returns {SequelState & {warnings: string[]}}
 */
export function parseSequelHash(hash) {
  const result = { shared: {}, sections: {}, warnings: [] };
  const text = String(hash).replace(/^#/u, '');
  if (text === '') return result;
  const seen = new Set();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key;
    let value;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      value = decodeURIComponent((eq < 0 ? '' : part.slice(eq + 1)).replace(/\+/gu, ' '));
    } catch {
      result.warnings.push(`${quoteText(part)} is not valid percent-encoding`);
      continue;
    }
    // Which of two values was meant cannot be known: the first stands, the repeat is said.
    if (seen.has(key)) {
      result.warnings.push(`${quoteText(key)}: given twice; the first is kept`);
      continue;
    }
    seen.add(key);
    if (SHARED_KEYS.includes(key)) {
      try {
        if (key === 'tokens') {
          const tokens = parseTokens(value);
          if (tokens.length === 0) throw new Error('names no token');
          result.shared.tokens = tokens;
        } else if (key === 'seed') {
          if (!/^\d{1,16}$/u.test(value.trim())) throw new Error(`${quoteText(value)} is not a whole number`);
          result.shared.seed = Number(value.trim());
        } else {
          result.shared.x = parseMatrix('x', value);
        }
      } catch (error) {
        result.warnings.push(`${key}: ${error.detail ?? error.message}`);
      }
      continue;
    }
    const dot = key.indexOf('.');
    const section = dot < 0 ? key : key.slice(0, dot);
    const attribute = dot < 0 ? '' : key.slice(dot + 1);
    if (!Object.hasOwn(SECTIONS, section) || !SECTIONS[section].attributes.includes(attribute)) {
      result.warnings.push(`unknown setting ${quoteText(key)}`);
      continue;
    }
    (result.sections[section] ??= {})[attribute] = value === '' ? null : value;
  }
  return result;
}

/**
 * The hash of a state: what differs from the page's own start (`defaults`: the shared tokens
 * and seed, and section -> attribute -> value or null); x whenever it is given.
 * @param {SequelState} state
 * @param {SequelState} defaults
 */
export function formatSequelHash({ shared = {}, sections = {} }, defaults = {}) {
  const encode = (text) => encodeURIComponent(text).replace(/%5B/gu, '[').replace(/%5D/gu, ']').replace(/%2C/gu, ',');
  const parts = [];
  const base = defaults.shared ?? {};
  if (shared.tokens && formatTokens(shared.tokens) !== (base.tokens ? formatTokens(base.tokens) : null)) {
    parts.push(`tokens=${encode(formatTokens(shared.tokens))}`);
  }
  if (shared.seed !== undefined && shared.seed !== base.seed) parts.push(`seed=${shared.seed}`);
  if (shared.x) parts.push(`x=${encode(formatMatrix(shared.x.map((row) => row.map(shortestFloat32))))}`);
  for (const [section, { attributes }] of Object.entries(SECTIONS)) {
    for (const attribute of attributes) {
      const value = sections[section]?.[attribute] ?? null;
      const fallback = defaults.sections?.[section]?.[attribute] ?? null;
      if (value === fallback) continue;
      parts.push(`${section}.${attribute}=${value === null ? '' : encode(value)}`);
    }
  }
  return parts.length > 0 ? `#${parts.join('&')}` : '';
}
