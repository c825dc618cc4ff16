// Builds the hand-written working of a dot product: the factors, the products and the sum,
// one line each, the way one would write it on paper. Like the table renderers it only uses
// the `doc` it is given and puts token names in as text. Every number arrives computed (the
// products are the core's score terms, the sum is the core's score); this module only lays
// them out.

import { formatFixed, formatProduct, formatSignedTerms } from './format.js';
import { element } from './page-slots.js';
import { tokenText } from './token-text.js';

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
  title.append(subscripted(doc, 'q', tokenText(queryToken)), ' \u00b7 ', subscripted(doc, 'k', tokenText(keyToken)));
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
  for (const terms of working.querySelectorAll('.terms')) terms.textContent = signsKeptWithNumbers(terms.textContent);
  return working;
}

const signsKeptWithNumbers = (text) => text.replace(/([+\u2212]) /gu, '$1\u00a0');

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Writes a new dot product into a working renderDotProduct built for as many components,
 * changing only the text that changed (a reader's edit changes numbers, not the layout of the
 * working). Returns false, touching nothing, when the component count differs.
 * @param {HTMLElement} block  what renderDotProduct returned
 * @param {object} working  as for renderDotProduct
 * @param {{keepSigns?: boolean}} [options]  keepSigns: the block went through keepSignsWithNumbers
 */
export function updateDotProduct(block, { queryToken, keyToken, query, key, products, score, decimals }, { keepSigns = false } = {}) {
  const terms = block.querySelectorAll('.factors .term');
  if (terms.length !== query.length) return false;
  const [querySub, keySub] = block.querySelectorAll('.working-title sub');
  setText(querySub, tokenText(queryToken));
  setText(keySub, tokenText(keyToken));
  const label = `dot product of the query of ${queryToken} with the key of ${keyToken}`;
  if (block.getAttribute('aria-label') !== label) block.setAttribute('aria-label', label);
  block.dataset.query = queryToken;
  block.dataset.key = keyToken;
  Array.from(query).forEach((value, c) => setText(terms[c], formatProduct(value, key[c], decimals.factor)));
  const sum = block.querySelector('.products .terms');
  const written = formatSignedTerms(products, decimals.product);
  setText(sum, keepSigns ? signsKeptWithNumbers(written) : written);
  setText(block.querySelector('.result .value'), formatFixed(score, decimals.score));
  return true;
}

