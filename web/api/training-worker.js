// The training worker: a module Web Worker that loads the core's full build and runs the
// training engine (training-engine.js), so that the optimiser steps never hold up the page.
// training-channel.js starts it from its own URL (import.meta.url), so it is found wherever the
// package is served. It says `ready` once the core is loaded, or `failed` with the reason;
// messages that arrive while the core loads are kept and handled in order.

import { createAttention } from './attention-api.js';
import { createTrainingEngine } from './training-engine.js';

const waiting = [];
let engine = null;

self.addEventListener('message', (event) => {
  if (engine) engine.receive(event.data);
  else waiting.push(event.data);
});

createAttention().then((attention) => {
  engine = createTrainingEngine(attention, (message) => self.postMessage(message));
  self.postMessage({ type: 'ready' });
  for (const message of waiting.splice(0)) engine.receive(message);
}, (error) => {
  self.postMessage({ type: 'failed', message: String(error?.message ?? error) });
});
