// attention-sequel-elements.js: the sequel's embeddable elements, in a module of their own so
// that a page embedding the walkthrough's elements (attention-explainer.js) downloads none of
// this. Importing it registers
//   <attention-variant>, <attention-flash-tiles>, <attention-quantised-cache>, <attention-kv-bill>,
//   <attention-flash-traffic>, <attention-kv-curve>, <attention-layer-inputs>
// which load the core's full build (the sequel's computations are not in the small embed build).
//
//   <script type="module" src="/attention/attention-sequel-elements.js"></script>
//   <attention-kv-bill preset="llama-3-8b" context-length="32768" controls></attention-kv-bill>
//
// In Node (no customElements) nothing is registered and the module stays importable.

import { SEQUEL_ELEMENTS } from './elements/sequel/sequel-elements.js';

export { createAttention } from './api/attention-api.js';
export {
  AttentionFlashTilesElement, AttentionFlashTrafficElement, AttentionKvBillElement, AttentionKvCurveElement,
  AttentionLayerInputsElement, AttentionQuantisedCacheElement, AttentionVariantElement,
} from './elements/sequel/sequel-elements.js';

/**
 * Defines every sequel element in `registry` (the page's customElements by default), leaving a
 * name that is already defined alone.
 * @param {CustomElementRegistry} [registry]
 */
export function defineSequelElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [name, constructor] of Object.entries(SEQUEL_ELEMENTS)) {
    if (!registry.get(name)) registry.define(name, constructor);
  }
}

defineSequelElements();
