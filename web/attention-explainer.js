// attention-explainer.js: the one module a page (or Node 20) imports.
//
//   import { createAttention } from './attention-explainer.js';
//   const attention = await createAttention();
//   const trace = attention.run({ tokens: ['the', 'cat'], q, k, v, mask: 'causal' });
//
// In a browser, importing it also registers the embeddable elements (<attention-explainer>,
// <attention-model>, <attention-step>, <attention-mask-grid>, <attention-arrows>,
// <attention-working>), so that one <script type="module" src=".../attention-explainer.js">
// is all an article needs. In Node nothing is registered.
import { defineAttentionElements } from './elements/elements.js';

export { createAttention } from './api/attention-api.js';
export { defineAttentionElements } from './elements/elements.js';
export { whenPiecesDrawn } from './elements/draw-when-near.js';

defineAttentionElements();
