// attention-training-elements.js: the training page's embeddable elements, in a module of their
// own so that a page embedding the walkthrough's elements downloads none of this. Importing it
// registers
//   <attention-trainer>, <attention-loss-curve>, <attention-trained-weights>,
//   <attention-trained-grid>, <attention-head-report>
// which load the core's full build (the trainer is not in the small embed build). The pieces
// follow an <attention-trainer> named by their `for` attribute (or the one around them).
//
//   <script type="module" src="/attention/attention-training-elements.js"></script>
//   <attention-trainer id="run" sentence="a dog that hid by the wall barks"></attention-trainer>
//   <attention-loss-curve for="run"></attention-loss-curve>
//
// In Node (no customElements) nothing is registered and the module stays importable.

import { TRAINING_ELEMENTS } from './elements/training/training-elements.js';

export { createAttention } from './api/attention-api.js';
export {
  AttentionHeadReportElement, AttentionLossCurveElement, AttentionTrainedGridElement,
  AttentionTrainedWeightsElement, AttentionTrainerElement,
} from './elements/training/training-elements.js';

/**
 * Defines every training element in `registry` (the page's customElements by default), leaving
 * a name that is already defined alone.
 * @param {CustomElementRegistry} [registry]
 */
export function defineTrainingElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [name, constructor] of Object.entries(TRAINING_ELEMENTS)) {
    if (!registry.get(name)) registry.define(name, constructor);
  }
}

defineTrainingElements();
