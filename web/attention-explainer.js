// attention-explainer.js: the one module a page (or Node 20) imports.
//
//   import { createAttention } from './attention-explainer.js';
//   const attention = await createAttention();
//   const trace = attention.run({ tokens: ['the', 'cat'], q, k, v, mask: 'causal' });
export { createAttention } from './attention-api.js';
