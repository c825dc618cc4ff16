// Keeps a blank's answer from being read elsewhere while it is blank. The places that print the
// same quantity (web/practice/echo-places.js) show a placeholder instead of the printed answer:
// a "?" read to screen readers as "hidden while you practise", and a cell's accessible name
// loses the number the same way. Only the answer's exact printing is replaced, as a whole
// number (not the digits of a longer one); the rest of a place's text stays. Restoring puts the
// text back as it was. Working panels are drawn later, when a cell is pointed at: they call
// hideOpenAnswers, which masks the answers of every blank open in the panel's document or
// shadow root.

import { element } from './page-slots.js';

export const HIDDEN_NAME = 'hidden while you practise';

// Nodes the masking never touches: a blank's own cell (its value is hidden already and shown
// again when solved), a solved cell and the placeholders themselves.
const UNTOUCHED = 'td[data-blank], td.blank-solved, .blank-echo';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

// The printed answer as a whole number: not preceded by a digit, point or sign, not followed
// by a digit (so "0.280" is not found inside "10.2801" or "−0.280").
const wholeNumber = (text) => new RegExp(`(?<![\\d.\\u2212-])${escapeRegExp(text)}(?![\\d])`, 'gu');

function placeholder(doc) {
  const span = element(doc, 'span', 'blank-echo');
  const sign = element(doc, 'span', undefined, '?');
  sign.setAttribute('aria-hidden', 'true');
  span.append(sign, element(doc, 'span', 'visually-hidden', HIDDEN_NAME));
  return span;
}

function maskTextNode(node, pattern, records) {
  const text = node.nodeValue;
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return;
  pattern.lastIndex = 0;
  const doc = node.ownerDocument;
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(doc.createTextNode(text.slice(last, match.index)));
    const span = placeholder(doc);
    span.dataset.echo = match[0];
    parts.push(span);
    records.push({ span });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(doc.createTextNode(text.slice(last)));
  node.replaceWith(...parts);
}

function maskLabel(node, pattern, records) {
  const label = node.getAttribute('aria-label');
  if (label === null) return;
  const masked = label.replace(pattern, HIDDEN_NAME);
  if (masked === label) return;
  records.push({ node, label });
  node.setAttribute('aria-label', masked);
}

/**
 * Replaces every printing of `text` inside `place` (its text and the accessible names of it
 * and its descendants) with the placeholder.
 * @param {Element} place
 * @param {string} text  the answer as its table prints it
 * @returns {object[]}  what to give restoreEchoes to put it back
 */
export function maskPrinted(place, text, { untouched = UNTOUCHED } = {}) {
  const records = [];
  if (!text || place.closest(untouched)) return records;
  const pattern = wholeNumber(text);
  const doc = place.ownerDocument;
  const walker = doc.createTreeWalker(place, 4 /* NodeFilter.SHOW_TEXT */);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(untouched)) found.push(node);
  }
  for (const node of found) maskTextNode(node, pattern, records);
  for (const node of [place, ...place.querySelectorAll('[aria-label]')]) {
    if (!node.closest(untouched)) maskLabel(node, pattern, records);
  }
  return records;
}

// A hint's working writes a sum's terms with their signs apart ("0.1234 \u2212 0.0567"): there a
// negative answer is its minus, a space and its magnitude.
const termForms = (text) => (text.startsWith('\u2212') ? [text, `\u2212 ${text.slice(1)}`] : [text]);

/**
 * Hides, in a blank's hint list, the answers of the other blanks still open: a hint works with
 * the numbers before its cell, and one of them may be another blank. The list is drawn again
 * whole when a hint is added or a blank solved, so nothing needs putting back.
 * @param {Element} list  the hint list (inside the blank's own cell)
 * @param {string[]} answers  the other open blanks' answers as printed
 */
export function maskInWorking(list, answers) {
  for (const text of answers.flatMap(termForms)) maskPrinted(list, text, { untouched: '.blank-echo' });
}

/** `text` (a hint announced) with the other open blanks' answers said as hidden. */
export function hideInText(text, answers) {
  return answers.flatMap(termForms).reduce((said, answer) => said.replace(wholeNumber(answer), HIDDEN_NAME), text);
}

/** Puts back what maskPrinted replaced. */
export function restoreEchoes(records) {
  for (const record of records) {
    if (record.span) {
      const parent = record.span.parentNode;
      record.span.replaceWith(record.span.dataset.echo);
      parent?.normalize();
    } else {
      record.node.setAttribute('aria-label', record.label);
    }
  }
}

// The practice views with blanks open: each says which answers to hide in a given root.
const openViews = new Set();

/**
 * @param {{answersIn: (root: Node) => {id: string, text: string}[], panelRecords: (id: string, records: object[]) => void}} view
 * @returns {() => void}  unregisters the view
 */
export function registerOpenBlanks(view) {
  openViews.add(view);
  return () => openViews.delete(view);
}

/**
 * Hides, in a working panel just drawn, the answers of the blanks open in its document or
 * shadow root. Call after filling the panel.
 * @param {Element} panel
 */
export function hideOpenAnswers(panel) {
  const root = panel.getRootNode();
  for (const view of openViews) {
    for (const { id, text } of view.answersIn(root)) view.panelRecords(id, maskPrinted(panel, text));
  }
}
