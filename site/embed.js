// The embed page (embed.html): one <attention-explainer> configured from the URL hash, for
// other sites to show in an <iframe>, sandboxed or not. Whenever the page's height changes it
// posts { type: 'attention-by-hand:height', height } to its parent, so that the parent can
// size the iframe (embed-resize.js is the parent's side). When the parent posts
// { type: 'attention-by-hand:height-request' } it answers with its height at once, so a parent
// whose listener starts after the first report still learns the height.
//
// Hash keys (percent-encoded, joined with &):
//   tokens  words separated by spaces, or a JSON list of strings
//   q, k, v JSON arrays of rows
//   mask    causal | none
//   steps   a comma-separated list of steps (q,k,v,scores,scaled,masked,softmax,weights,mix,out,grid,arrows)
//   row     the token whose softmax and mix are worked out (0 = first, -1 = last)
//   editable=0   cells cannot be edited (they can by default)
//   hide=controls,footer   leaves out the mask/reset controls and the credit line
// Unset keys fall back to the article's example. A bad value is reported inside the
// explainer's box, like a bad attribute on any page.

import '../web/attention-explainer.js';
import { HASH_ATTRIBUTE_KEYS, HEIGHT_MESSAGE_TYPE, HEIGHT_REQUEST_TYPE, parseEmbedHash } from '../web/state/embed-hash.js';

const slot = document.querySelector('[data-embed-slot]');
const notes = document.querySelector('[data-embed-notes]');
const footer = document.querySelector('[data-embed-footer]');
const explainer = document.createElement('attention-explainer');
explainer.id = 'embedded';

function configure() {
  const settings = parseEmbedHash(window.location.hash);
  for (const key of HASH_ATTRIBUTE_KEYS) {
    if (Object.hasOwn(settings.attributes, key)) explainer.setAttribute(key, settings.attributes[key]);
    else explainer.removeAttribute(key);
  }
  explainer.editable = settings.editable;
  explainer.controls = settings.editable && !settings.hide.includes('controls');
  footer.hidden = settings.hide.includes('footer');
  notes.textContent = settings.warnings.join(' ');
  notes.hidden = settings.warnings.length === 0;
  for (const warning of settings.warnings) console.warn(warning);
}

// The page's own height: the root element's box, which (with no height set on html or body)
// is as tall as the content, whatever the height of the iframe around it.
let reported = -1;
function reportHeight({ always = false } = {}) {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === reported && !always) return;
  reported = height;
  document.documentElement.dataset.height = String(height);
  if (window.parent !== window) window.parent.postMessage({ type: HEIGHT_MESSAGE_TYPE, height }, '*');
}

// Listening before the first report: a request that arrives before it needs no answer (the
// report follows), one that arrives after it is answered.
window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.source === window) return;
  if (event.data?.type === HEIGHT_REQUEST_TYPE) reportHeight({ always: true });
});

configure();
slot.append(explainer);
window.addEventListener('hashchange', configure);
new ResizeObserver(() => reportHeight()).observe(document.documentElement);
explainer.addEventListener('attention-change', () => reportHeight());
