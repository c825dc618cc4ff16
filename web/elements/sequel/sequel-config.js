// How the sequel's elements read their attributes and turn them into the core's requests
// (attention-api.js: groupedAttention, latentAttention, flashTiles, quantisedCache, kvBill), and
// how an error of the core ("block_rows: must be a whole number from 1 to 4, got 5") is told to
// an author in terms of the attribute they wrote ("block-rows attribute: …"; the reading and
// rewording every such element shares is request-config.js's, re-exported here). Pure functions:
// no DOM, no core, testable in Node. Ranges and consistency are the core's to check; this module
// only reads text.

import { ConfigError, parseMatrix, parseNumberText, parseTokens } from '../element-config.js';
import { LAYER_DEFAULTS } from '../../state/variant-names.js';
import { parseWhole } from '../request-config.js';
import { quoteText } from '../../state/quote-text.js';

export { parseWhole, requestFrom, rewordCoreError } from '../request-config.js';

/** The tag names attention-sequel-elements.js registers. */
export const SEQUEL_ELEMENT_NAMES = Object.freeze({
  variant: 'attention-variant',
  flash: 'attention-flash-tiles',
  quantised: 'attention-quantised-cache',
  bill: 'attention-kv-bill',
  traffic: 'attention-flash-traffic',
  curve: 'attention-kv-curve',
  inputs: 'attention-layer-inputs',
});

/** The variants <attention-variant> runs. */
export const VARIANTS = Object.freeze(['mha', 'gqa', 'mqa', 'mla']);
/** What the core calls them. */
export const VARIANT_LABELS = Object.freeze({ mha: 'MHA', gqa: 'GQA', mqa: 'MQA', mla: 'MLA' });
/** The query heads of the toy layer when n-heads is not set (the core's default too). */
export const DEFAULT_HEADS = LAYER_DEFAULTS.n_heads;

/** What <attention-variant> can show, in order; `show` picks some. */
export const VARIANT_PARTS = Object.freeze(['x', 'sharing', 'cache', 'weights', 'heads', 'layer', 'bill']);
export const DEFAULT_VARIANT_PARTS = Object.freeze(['sharing', 'cache', 'weights', 'heads', 'layer', 'bill']);
/** What <attention-kv-bill> can show; `show` picks some. */
export const BILL_PARTS = Object.freeze(['variants', 'compare', 'presets']);
export const DEFAULT_BILL_PARTS = Object.freeze(['compare']);

/** A number attribute: decimals and exponents allowed ("0.5", "8.03e9"). */
export function parseDecimal(attribute, text) {
  const value = parseNumberText(text);
  if (value === null) throw new ConfigError(attribute, `${quoteText(String(text).trim())} is not a number`);
  return value;
}

/** A list of whole numbers separated by commas or spaces: bits="8,4,3,2". */
export function parseWholeList(attribute, text) {
  const parts = String(text).split(/[\s,]+/u).filter(Boolean);
  if (parts.length === 0) throw new ConfigError(attribute, 'names no number');
  return parts.map((part) => parseWhole(attribute, part));
}

/** One of a few words. */
export function parseChoice(attribute, text, choices) {
  const trimmed = String(text).trim();
  if (!choices.includes(trimmed)) {
    throw new ConfigError(attribute, `${quoteText(trimmed)} is not one of ${choices.join(', ')}`);
  }
  return trimmed;
}

/** Parts to show, from `allowed`. */
export function parseParts(attribute, text, allowed) {
  const names = String(text).split(/[\s,]+/u).filter(Boolean);
  if (names.length === 0) throw new ConfigError(attribute, `names nothing; use one or more of ${allowed.join(', ')}`);
  for (const name of names) {
    if (!allowed.includes(name)) throw new ConfigError(attribute, `unknown part ${quoteText(name)}; the parts are ${allowed.join(', ')}`);
  }
  return [...new Set(names)];
}

const text = (attribute, value) => String(value).trim();
/** A sliding window in tokens, or "none": no window, every layer caches the whole context. */
export function parseWindow(attribute, value) {
  return String(value).trim() === 'none' ? null : parseWhole(attribute, value);
}
const matrix = (attribute, value) => parseMatrix(attribute, value);
const tokens = (attribute, value) => parseTokens(value);

/** The toy layer's attributes, shared by every element that runs it. */
const LAYER = {
  tokens: { key: 'tokens', parse: tokens },
  seed: { key: 'seed', parse: parseWhole },
  x: { key: 'x', parse: matrix },
  'd-model': { key: 'd_model', parse: parseWhole },
  'n-heads': { key: 'n_heads', parse: parseWhole },
};

/** Attribute -> request member, per element. */
export const REQUEST_ATTRIBUTES = Object.freeze({
  variant: {
    ...LAYER,
    'n-kv-heads': { key: 'n_kv_heads', parse: parseWhole },
    'd-latent': { key: 'd_latent', parse: parseWhole },
  },
  flash: {
    ...LAYER,
    head: { key: 'head', parse: parseWhole },
    'block-rows': { key: 'block_rows', parse: parseWhole },
    'block-cols': { key: 'block_cols', parse: parseWhole },
    mask: { key: 'mask', parse: text },
    decimals: { key: 'decimals', parse: parseWhole },
  },
  quantised: {
    ...LAYER,
    head: { key: 'head', parse: parseWhole },
    bits: { key: 'bits', parse: parseWholeList },
    rotation: { key: 'rotation', parse: text },
    mask: { key: 'mask', parse: text },
  },
  traffic: {
    'token-count': { key: 'token_count', parse: parseWhole },
    'head-dim': { key: 'head_dim', parse: parseWhole },
    'dtype-bytes': { key: 'dtype_bytes', parse: parseWhole },
    mask: { key: 'mask', parse: text },
    'block-rows': { key: 'block_rows', parse: parseWhole },
    'block-cols': { key: 'block_cols', parse: parseWhole },
    'sram-kib': { key: 'sram_kib', parse: parseDecimal },
  },
  bill: {
    preset: { key: 'preset', parse: text },
    layers: { key: 'layers', parse: parseWhole },
    'n-heads': { key: 'n_heads', parse: parseWhole },
    'n-kv-heads': { key: 'n_kv_heads', parse: parseWhole },
    'head-dim': { key: 'head_dim', parse: parseWhole },
    'd-latent': { key: 'd_latent', parse: parseWhole },
    'rope-dim': { key: 'rope_dim', parse: parseWhole },
    'dtype-bytes': { key: 'dtype_bytes', parse: parseWhole },
    'kv-bits': { key: 'kv_bits', parse: parseWhole },
    'scale-bytes': { key: 'scale_bytes', parse: parseWhole },
    'weight-dtype-bytes': { key: 'weight_dtype_bytes', parse: parseDecimal },
    parameters: { key: 'parameters', parse: parseDecimal },
    'context-length': { key: 'context_length', parse: parseWhole },
    batch: { key: 'batch', parse: parseWhole },
    'gpu-memory-gib': { key: 'gpu_memory_gib', parse: parseDecimal },
    'sliding-window': { key: 'sliding_window', parse: parseWindow },
    'local-layers': { key: 'local_layers', parse: parseWhole },
  },
});

/** The bill's toy side: which toy layer, its tokens and its latent size. */
export const TOY_ATTRIBUTES = Object.freeze({
  toy: { key: 'toy', parse: (attribute, value) => parseChoice(attribute, value, VARIANTS) },
  'toy-tokens': { key: 'tokens', parse: tokens },
  'toy-d-latent': { key: 'd_latent', parse: parseWhole },
});

/**
 * The groupedAttention or latentAttention request of <attention-variant>: MHA runs with as many
 * K/V heads as query heads, MQA with one, GQA with n-kv-heads (the core's default: half);
 * n-kv-heads belongs to GQA and d-latent to MLA only.
 * @param {string} variant
 * @param {Record<string, unknown>} request  requestFrom(REQUEST_ATTRIBUTES.variant, …)
 * @returns {{method: 'groupedAttention' | 'latentAttention', request: object}}
 */
export function variantRequest(variant, request) {
  const { n_kv_heads: kvHeads, d_latent: latent, ...layer } = request;
  if (variant !== 'gqa' && kvHeads !== undefined) {
    throw new ConfigError('n-kv-heads', `applies to variant="gqa" only; ${VARIANT_LABELS[variant]} fixes the K/V heads itself`);
  }
  if (variant !== 'mla' && latent !== undefined) {
    throw new ConfigError('d-latent', 'applies to variant="mla" only');
  }
  switch (variant) {
    case 'mha': return { method: 'groupedAttention', request: { ...layer, n_kv_heads: layer.n_heads ?? DEFAULT_HEADS } };
    case 'mqa': return { method: 'groupedAttention', request: { ...layer, n_kv_heads: 1 } };
    case 'gqa': return { method: 'groupedAttention', request: kvHeads === undefined ? layer : { ...layer, n_kv_heads: kvHeads } };
    case 'mla': return { method: 'latentAttention', request: latent === undefined ? layer : { ...layer, d_latent: latent } };
    default: throw new ConfigError('variant', `${quoteText(String(variant))} is not one of ${VARIANTS.join(', ')}`);
  }
}

/**
 * A problem in a reader's words: "n-kv-heads attribute: must divide n-heads (30) …" with the
 * form's labels ({'n-kv-heads': 'K/V heads', 'n-heads': 'query heads'}) becomes "K/V heads: must
 * divide query heads (30) …". A figure is found by its attribute or by the core's name
 * (n_heads); names without a label are kept.
 * @param {string} problem
 * @param {Record<string, string>} labels  attribute or the core's member -> the field's label
 */
export function readerMessage(problem, labels) {
  const text = String(problem);
  const lead = /^([a-z-]+) attribute(, [^:]*)?: /u.exec(text);
  const start = lead ? (labels[lead[1]] ? `${labels[lead[1]]}${lead[2] ?? ''}: ` : lead[0]) : '';
  // The rest names other figures by the attribute (rewordCoreError) or by the core's name.
  const rest = text.slice(lead ? lead[0].length : 0)
    .replace(/\b[a-z]+(?:[-_][a-z]+)+\b/gu, (name) => labels[name] ?? name);
  const said = `${start}${rest}`;
  return /[.!?]$/u.test(said) ? said : `${said}.`;
}
