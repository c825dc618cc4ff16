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
