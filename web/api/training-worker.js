// The training worker: a module Web Worker that loads the core's full build and runs the
// training engine (training-engine.js), so that the optimiser steps never hold up the page.
// training-channel.js starts it from its own URL (import.meta.url), so it is found wherever the
// package is served. It says `ready` once the core is loaded, or `failed` with the reason;
// messages that arrive while the core loads are kept and handled in order.
//
// The core's answers are decoded into ordinary JavaScript strings (heap-string-decoder.js):
// Chromium's own TextDecoder makes strings whose collection in this worker held up the page's
// frames. The glue reads the global TextDecoder when it loads, so it is replaced first.

import { createAttention } from './attention-api.js';
import { HeapStringDecoder } from './heap-string-decoder.js';
import { createTrainingEngine } from './training-engine.js';

globalThis.TextDecoder = HeapStringDecoder;

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
