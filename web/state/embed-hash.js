// The embed page's URL hash (embed.html): which explainer to show and what to leave out, e.g.
//   #tokens=the%20cat&q=[[...]]&mask=none&steps=scores,weights&hide=controls
// Pure functions, no DOM: the page turns the result into attributes of its explainer, which
// checks the values and reports a bad one in its own box.

import { quoteText } from './quote-text.js';

/** The message an embed page posts to its parent whenever its height changes. */
export const HEIGHT_MESSAGE_TYPE = 'attention-by-hand:height';
/**
 * The message a parent posts to an embed to ask for its height now. The parent's listener may
 * start after the embed's first report (a late script, or one queued behind other modules), so
 * the parent asks when it starts and the embed answers, whatever ran first.
 */
export const HEIGHT_REQUEST_TYPE = 'attention-by-hand:height-request';

/** Hash keys that become attributes of the embedded explainer, as they are. */
export const HASH_ATTRIBUTE_KEYS = Object.freeze(['tokens', 'q', 'k', 'v', 'mask', 'steps', 'row']);
/** Parts of the embed page that `hide=` can remove. */
export const HIDEABLE = Object.freeze(['controls', 'footer']);

/**
 * Reads an embed page's hash. Values are percent-decoded text; they are checked by the
 * element that receives them, which reports a bad one in its own box.
 * @param {string} hash  location.hash, with or without the leading "#"
 * @returns {{attributes: Record<string, string>, editable: boolean, hide: string[],
 *            warnings: string[]}}
 */
export function parseEmbedHash(hash) {
  const result = { attributes: {}, editable: true, hide: [], warnings: [] };
  const text = String(hash).replace(/^#/u, '');
  if (text === '') return result;
  const seen = new Set();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key;
    let value;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue.replace(/\+/gu, ' '));
    } catch {
      result.warnings.push(`hash: ${quoteText(part)} is not valid percent-encoding; ignored`);
      continue;
    }
    // A key given twice is a link made by hand or cut and pasted together: which value was meant
    // cannot be known, so the first one stands and the repeat is said.
    const known = HASH_ATTRIBUTE_KEYS.includes(key) || key === 'editable' || key === 'hide';
    if (known && seen.has(key)) {
      result.warnings.push(`hash: ${key}: given twice; ignored`);
      continue;
    }
    if (known) seen.add(key);
    if (HASH_ATTRIBUTE_KEYS.includes(key)) {
      result.attributes[key] = value;
    } else if (key === 'editable') {
      if (!['', '1', 'true', '0', 'false'].includes(value)) {
        result.warnings.push(`hash: editable=${quoteText(value)} should be 1 or 0; ignored`);
      } else {
        result.editable = ['', '1', 'true'].includes(value);
      }
    } else if (key === 'hide') {
      for (const name of value.split(',').filter(Boolean)) {
        if (HIDEABLE.includes(name)) result.hide.push(name);
        else result.warnings.push(`hash: hide=${quoteText(name)} is unknown (known: ${HIDEABLE.join(', ')}); ignored`);
      }
    } else {
      result.warnings.push(`hash: unknown key ${quoteText(key)} (known: ${[...HASH_ATTRIBUTE_KEYS, 'editable', 'hide'].join(', ')}); ignored`);
    }
  }
  return result;
}

/**
 * The hash an embed page reads back as these settings (the inverse of parseEmbedHash).
 * @param {{attributes?: Record<string, string>, editable?: boolean, hide?: string[]}} settings
 */
export function formatEmbedHash({ attributes = {}, editable = true, hide = [] }) {
  // Keep JSON's brackets and commas readable in a link; encode everything else that matters.
  const encode = (text) => encodeURIComponent(text).replace(/%5B/gu, '[').replace(/%5D/gu, ']')
    .replace(/%2C/gu, ',');
  const parts = HASH_ATTRIBUTE_KEYS.filter((key) => attributes[key] !== undefined)
    .map((key) => `${key}=${encode(attributes[key])}`);
  if (!editable) parts.push('editable=0');
  if (hide.length > 0) parts.push(`hide=${hide.join(',')}`);
  return parts.length > 0 ? `#${parts.join('&')}` : '';
}
