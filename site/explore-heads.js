// "More than one head": the page's <attention-heads> computes a layer of several heads over the
// reader's tokens. The page hands it the tokens, the seed, the mask and the scale of the example
// above (not its Q, K and V cells: a head's Q, K and V are x · W there), and quotes the layer's
// shape in its prose from the element's `attention-change` event.

import { formatTokens } from '../web/elements/element-config.js';
import { fillText, slot } from '../web/views/page-slots.js';
import { tokenTexts } from '../web/views/token-text.js';

/** Whether the layer must be computed again after a change of state. */
export function layerInputChanged(previous, state) {
  return !previous || previous.seed !== state.seed || previous.mask !== state.mask ||
    previous.scale !== state.scale || previous.tokens.length !== state.tokens.length ||
    previous.tokens.some((token, i) => token !== state.tokens[i]);
}

/** @param {Document} doc */
export function createHeads(doc) {
  const place = slot(doc, 'heads');
  const heads = place.querySelector('attention-heads');
  heads.addEventListener('attention-change', (event) => {
    const { layer } = event.detail;
    fillText(doc, 'heads-sentence', tokenTexts(layer.tokens).join(' '));
    fillText(doc, 'heads-count', String(layer.n_heads));
    fillText(doc, 'heads-d-model', String(layer.d_model));
    fillText(doc, 'heads-head-dim', String(layer.head_dim));
    place.removeAttribute('aria-busy');
  });
  return {
    /** Hands the element the state's tokens, seed, mask and scale; it computes once for all four. */
    render(state) {
      heads.setAttribute('tokens', formatTokens(state.tokens));
      heads.setAttribute('seed', String(state.seed));
      heads.setAttribute('mask', state.mask);
      heads.setAttribute('scale', state.scale);
    },
  };
}
