// Builds the hand-written working of a dot product: the factors, the products and the sum,
// one line each, the way one would write it on paper. Like the table renderers it only uses
// the `doc` it is given and puts token names in as text. Every number arrives computed (the
// products are the core's score terms, the sum is the core's score); this module only lays
// them out.

import { formatFixed, formatProduct, formatSignedTerms } from './format.js';
import { element } from './page-slots.js';

// "q" with the token name as a subscript: q_cat.
function subscripted(doc, letter, token) {
  const span = element(doc, 'span', 'symbol');
  span.append(letter, element(doc, 'sub', undefined, token));
  return span;
}

/**
 * @param {Document} doc
 * @param {object} working
 * @param {string} working.queryToken
 * @param {string} working.keyToken
 * @param {number[]} working.query     q of the query token [d]
 * @param {number[]} working.key       k of the key token [d]
 * @param {number[]} working.products  q[c] × k[c], as the core computed them [d]
 * @param {number} working.score       their sum, as the core computed it
 * @param {{factor: number, product: number, score: number}} working.decimals
 * @returns {HTMLElement}
 */
export function renderDotProduct(doc, { queryToken, keyToken, query, key, products, score, decimals }) {
  const block = element(doc, 'div', 'working dot-product');
  block.setAttribute('role', 'group');
  block.setAttribute('aria-label', `dot product of the query of ${queryToken} with the key of ${keyToken}`);
  block.dataset.query = queryToken;
  block.dataset.key = keyToken;

  const title = element(doc, 'p', 'working-title');
  title.append(subscripted(doc, 'q', queryToken), ' \u00b7 ', subscripted(doc, 'k', keyToken));
  block.append(title);

  const factors = element(doc, 'p', 'working-line factors');
  factors.append(element(doc, 'span', 'equals', '='));
  Array.from(query).forEach((value, c) => {
    if (c > 0) factors.append(' ', element(doc, 'span', 'operator', '+'), ' ');
    else factors.append(' ');
    factors.append(element(doc, 'span', 'term', formatProduct(value, key[c], decimals.factor)));
  });
  block.append(factors);

  const productLine = element(doc, 'p', 'working-line products');
  productLine.append(
    element(doc, 'span', 'equals', '='),
    ' ',
    element(doc, 'span', 'terms', formatSignedTerms(products, decimals.product)),
  );
  block.append(productLine);

  const result = element(doc, 'p', 'working-line result');
  result.append(
    element(doc, 'span', 'equals', '='),
    ' ',
    element(doc, 'strong', 'value', formatFixed(score, decimals.score)),
  );
  block.append(result);
  return block;
}

/**
 * Ties each sign of a worked sum to the number after it ("− 0.08" with a no-break space), so a
 * long sum wraps between terms, never inside one.
 * @param {HTMLElement} working
 */
export function keepSignsWithNumbers(working) {
  for (const terms of working.querySelectorAll('.terms')) {
    terms.textContent = terms.textContent.replace(/([+\u2212]) /gu, '$1\u00a0');
  }
  return working;
}

/**
 * Writes the text and attributes of `fresh` into `shown`, a node of the same structure on
 * screen (same elements, same children), touching only what differs: a new working of the same
 * cell then moves no node, and the page lays out only the changed numbers. Returns false, with
 * nothing touched, when the structures differ.
 * @param {Node} shown
 * @param {Node} fresh
 */
export function patchInPlace(shown, fresh) {
  if (!sameStructure(shown, fresh)) return false;
  copyInto(shown, fresh);
  return true;
}

function sameStructure(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName || a.childNodes.length !== b.childNodes.length) return false;
  for (let n = 0; n < a.childNodes.length; n += 1) {
    if (!sameStructure(a.childNodes[n], b.childNodes[n])) return false;
  }
  return true;
}

function copyInto(shown, fresh) {
  if (shown.nodeType === 3) {
    if (shown.data !== fresh.data) shown.data = fresh.data;
    return;
  }
  if (shown.nodeType === 1) {
    for (const { name, value } of fresh.attributes) {
      if (shown.getAttribute(name) !== value) shown.setAttribute(name, value);
    }
    for (const name of shown.getAttributeNames()) if (!fresh.hasAttribute(name)) shown.removeAttribute(name);
  }
  for (let n = 0; n < shown.childNodes.length; n += 1) copyInto(shown.childNodes[n], fresh.childNodes[n]);
}
