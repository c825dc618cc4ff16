// Registers the embeddable elements. Importing attention-explainer.js does this once; calling
// it again, or in a page that already defined a name, leaves the existing definitions alone.
// In Node (no customElements) it does nothing, so the module stays importable there. The layer
// of heads and the head_dim study are defined when the first of them is in the page
// (define-on-sight.js).

import { ELEMENT_NAMES } from './element-config.js';
import { AttentionExplainerElement, AttentionModelElement } from './element-explainer.js';
import { AttentionArrowsElement, AttentionMaskGridElement, AttentionStepElement } from './element-pieces.js';
import { AttentionWorkingElement } from './working-element.js';
import { AttentionNextWordElement } from './next-word-element.js';
import { defineOnSight } from './define-on-sight.js';

// Model owners first: when the pieces upgrade, the models they point at already have theirs.
const DEFINITIONS = [
  [ELEMENT_NAMES.model, AttentionModelElement],
  [ELEMENT_NAMES.explainer, AttentionExplainerElement],
  [ELEMENT_NAMES.step, AttentionStepElement],
  [ELEMENT_NAMES.maskGrid, AttentionMaskGridElement],
  [ELEMENT_NAMES.arrows, AttentionArrowsElement],
  [ELEMENT_NAMES.working, AttentionWorkingElement],
  [ELEMENT_NAMES.nextWord, AttentionNextWordElement],
];
const loadOnFirstUse = () => import('./loaded-on-first-use.js');
const DEFINED_ON_SIGHT = [
  [ELEMENT_NAMES.heads, () => loadOnFirstUse().then((module) => module.AttentionHeadsElement)],
  [ELEMENT_NAMES.headDimStudy, () => loadOnFirstUse().then((module) => module.AttentionHeadDimStudyElement)],
];

/**
 * Defines every element in `registry` (the page's customElements by default): most at once,
 * the layer of heads and the head_dim study when one of them is in the document or in `root`
 * (a shadow root of the author's, where the document's watch does not reach).
 * @param {CustomElementRegistry} [registry]
 * @param {ShadowRoot} [root]
 */
export function defineAttentionElements(registry = globalThis.customElements, root = undefined) {
  if (!registry) return;
  for (const [name, constructor] of DEFINITIONS) {
    if (!registry.get(name)) registry.define(name, constructor);
  }
  for (const place of [globalThis.document, root]) {
    if (place) defineOnSight(registry, place, DEFINED_ON_SIGHT);
  }
}

export {
  AttentionArrowsElement, AttentionExplainerElement, AttentionMaskGridElement,
  AttentionModelElement, AttentionNextWordElement, AttentionStepElement, AttentionWorkingElement,
};
