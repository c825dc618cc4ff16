// attention-practice-elements.js: pencil mode's embeddable elements, in a module of their own so
// that a page embedding the walkthrough's elements (attention-explainer.js) downloads none of
// this. Importing it registers
//   <attention-worksheet>
// which loads the core's full build (a round's seeded numbers are not in the small embed build).
//
//   <script type="module" src="/attention/attention-practice-elements.js"></script>
//   <attention-worksheet round="softmax" round-seed="7"></attention-worksheet>
//
// In Node (no customElements) nothing is registered and the module stays importable.

import { PRACTICE_ELEMENTS } from './elements/practice/practice-elements.js';

export { createAttention } from './api/attention-api.js';
export { AttentionWorksheetElement } from './elements/practice/practice-elements.js';

/**
 * Defines every practice element in `registry` (the page's customElements by default), leaving
 * a name that is already defined alone.
 * @param {CustomElementRegistry} [registry]
 */
export function definePracticeElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [name, constructor] of Object.entries(PRACTICE_ELEMENTS)) {
    if (!registry.get(name)) registry.define(name, constructor);
  }
}

definePracticeElements();
