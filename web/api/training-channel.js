// The way to the training engine (training-engine.js): a module Web Worker that loads the
// core's full build (training-worker.js), or, where a worker cannot start (no Worker, a
// Content-Security-Policy that forbids it, a browser without module workers) or cannot load the
// core, the same engine on the page, working in slices of 12 ms between which the page draws.
//
// The worker's URL is resolved from this module's own URL, so it is found wherever the package
// is served: the source tree, the production site (where this file stays a file of its own,
// next to the bundled worker) and an author's page that imports the elements from elsewhere.

/** Milliseconds the engine works at a time when it shares the page's thread. */
export const PAGE_SLICE_MS = 12;

function pageChannel(attention) {
  const listeners = new Set();
  const post = (message) => {
    // A copy, as a worker's message would be, delivered after the engine's turn.
    const copy = structuredClone(message);
    queueMicrotask(() => { for (const listener of listeners) listener(copy); });
  };
  return import('./training-engine.js').then(({ createTrainingEngine }) => {
    const engine = createTrainingEngine(attention, post, { budget: PAGE_SLICE_MS });
    return {
      inWorker: false,
      send: (message) => engine.receive(structuredClone(message)),
      listen(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close() { listeners.clear(); },
    };
  });
}

// Resolves to a channel over a started worker, or null when none could start.
function workerChannel() {
  if (typeof Worker !== 'function') return Promise.resolve(null);
  let worker;
  try {
    worker = new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module', name: 'attention-training' });
  } catch {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const listeners = new Set();
    const give = (channel) => {
      resolve(channel);
      if (!channel) worker.terminate();
    };
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      give(null);
    });
    worker.addEventListener('message', (event) => {
      const message = event.data;
      if (message?.type === 'ready') {
        give({
          inWorker: true,
          send: (m) => worker.postMessage(m),
          listen(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
          close() {
            listeners.clear();
            worker.terminate();
          },
        });
      } else if (message?.type === 'failed') {
        give(null);
      } else {
        for (const listener of listeners) listener(message);
      }
    });
  });
}

/**
 * Opens a channel to a training engine: { inWorker, send(message), listen(fn) -> unlisten,
 * close() }. `loadAttention` loads the core on the page, called only when no worker starts.
 * @param {() => Promise<object>} loadAttention
 * @param {{worker?: boolean}} [options] worker: false trains on the page
 */
export async function openTrainingChannel(loadAttention, { worker = true } = {}) {
  const channel = worker ? await workerChannel() : null;
  return channel ?? pageChannel(await loadAttention());
}
