// The training page: registers the training elements (each owns its part: the trainer its run
// and controls, the pieces their drawing) and says when the trainer is ready, or why it is not.

import { articleState, stateToHash } from '../web/state/page-state.js';

const page = document;
const trainer = page.getElementById('trainer');
const partOne = page.getElementById('part-one-link');

// Part one reads tokens, Q, K and V from its address: the link carries the trained head's, for
// the sentence and step shown, so part one's whole walkthrough runs on them.
function linkPartOne() {
  const { layer } = trainer.view ?? {};
  if (!layer) {
    partOne.removeAttribute('href');
    return;
  }
  const { q, k, v } = layer.heads[0].trace;
  const state = articleState({ tokens: layer.tokens, q, k, v });
  partOne.href = `./index.html${stateToHash(state)}`;
}
const status = page.getElementById('load-status');

function showProblem(message) {
  const problem = page.getElementById('load-problem');
  problem.textContent = message;
  problem.hidden = false;
  status.hidden = true;
}

if (typeof globalThis.WebAssembly !== 'object' || globalThis.WebAssembly === null) {
  showProblem('This page trains its model with WebAssembly, and this browser does not provide it (it may be turned off).');
} else {
  // Written when training pauses, and whenever the reader is about to follow the link.
  trainer.addEventListener('attention-change', () => { if (!trainer.playing) linkPartOne(); });
  for (const type of ['focus', 'pointerenter', 'click']) partOne.addEventListener(type, linkPartOne);
  trainer.addEventListener('attention-change', () => {
    status.textContent = 'Ready: press Train.';
    status.classList.add('done');
  }, { once: true });
  import('../web/attention-training-elements.js').then(({ createAttention }) => createAttention()).catch((error) => {
    showProblem(`The WebAssembly module failed to load, so nothing can be trained. (${error?.message ?? error})`);
  });
}
