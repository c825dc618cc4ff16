// Registers the embeddable elements. Importing attention-explainer.js does this once; calling
// it again, or in a page that already defined a name, leaves the existing definitions alone.
// In Node (no customElements) it does nothing, so the module stays importable there.

import { ELEMENT_NAMES } from './element-config.js';
import { AttentionExplainerElement, AttentionModelElement } from './element-explainer.js';
import { AttentionArrowsElement, AttentionMaskGridElement, AttentionStepElement } from './element-pieces.js';
import { AttentionWorkingElement } from './working-element.js';
import { AttentionNextWordElement } from './next-word-element.js';
import { AttentionHeadsElement } from './heads-element.js';
import { AttentionHeadDimStudyElement } from './head-dim-study-element.js';

// Model owners first: when the pieces upgrade, the models they point at already have theirs.
const DEFINITIONS = [
  [ELEMENT_NAMES.model, AttentionModelElement],
  [ELEMENT_NAMES.explainer, AttentionExplainerElement],
  [ELEMENT_NAMES.step, AttentionStepElement],
  [ELEMENT_NAMES.maskGrid, AttentionMaskGridElement],
  [ELEMENT_NAMES.arrows, AttentionArrowsElement],
  [ELEMENT_NAMES.working, AttentionWorkingElement],
  [ELEMENT_NAMES.nextWord, AttentionNextWordElement],
  [ELEMENT_NAMES.heads, AttentionHeadsElement],
  [ELEMENT_NAMES.headDimStudy, AttentionHeadDimStudyElement],
];

/**
 * Defines every element in `registry` (the page's customElements by default).
 * @param {CustomElementRegistry} [registry]
 */
export function defineAttentionElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [name, constructor] of DEFINITIONS) {
    if (!registry.get(name)) registry.define(name, constructor);
  }
}

export {
  AttentionArrowsElement, AttentionExplainerElement, AttentionHeadDimStudyElement, AttentionHeadsElement, AttentionMaskGridElement,
  AttentionModelElement, AttentionNextWordElement, AttentionStepElement, AttentionWorkingElement,
};
