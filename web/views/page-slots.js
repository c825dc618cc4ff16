// The page's plumbing: slots that hold tables (data-slot), spans that hold a value quoted in
// the prose (data-fill), and prose that belongs to one variant only (data-when-mask="none").
// Every page module writes into the page through these, so the HTML stays the one place that
// says where things go.

import { renderScrollable } from './render-tables.js';

/** @param {Document} doc */
export function slot(doc, name) {
  const target = doc.querySelector(`[data-slot="${name}"]`);
  if (!target) throw new Error(`the page has no slot "${name}"`);
  return target;
}

/** Replaces a slot's content and says it is no longer computing. */
export function fillSlot(doc, name, ...nodes) {
  const target = slot(doc, name);
  target.replaceChildren(...nodes);
  target.removeAttribute('aria-busy');
  return target;
}

// The prose's places are fixed in the HTML, so each is looked up once: a reader's edit
// refills them all, and searching a page of thousands of cells for each one adds up.
const places = new WeakMap();  // document -> Map(selector -> elements)
function placesOf(doc, selector) {
  if (!places.has(doc)) places.set(doc, new Map());
  const known = places.get(doc);
  if (!known.has(selector)) known.set(selector, Array.from(doc.querySelectorAll(selector)));
  return known.get(selector);
}

/** Writes `text` into every place the prose quotes `name`. */
export function fillText(doc, name, text) {
  const targets = placesOf(doc, `[data-fill="${name}"]`);
  if (targets.length === 0) throw new Error(`the page has no place for "${name}"`);
  for (const target of targets) {
    if (target.textContent !== text) target.textContent = text;
    target.classList.add('filled');
  }
}

/**
 * Shows the prose written for `value` of a variant and hides the rest, e.g.
 * showVariant(doc, 'mask', 'none') for the elements with data-when-mask.
 */
export function showVariant(doc, variant, value) {
  for (const element of placesOf(doc, `[data-when-${variant}]`)) {
    const hidden = element.getAttribute(`data-when-${variant}`) !== value;
    if (element.hidden !== hidden) element.hidden = hidden;
  }
}

/** A table in a box that scrolls sideways on a narrow screen, labelled by its caption. */
export function scrollable(doc, table) {
  return renderScrollable(doc, table, table.caption?.textContent ?? 'table');
}

/** A paragraph with a class. */
export function paragraph(doc, className, text) {
  const p = doc.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

/** An element with a class and text, the way every page module builds its nodes. */
export function element(doc, tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
