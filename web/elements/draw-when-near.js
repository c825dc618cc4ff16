// Pieces far from the screen draw a reader's edit a moment later. An edit of one cell changes a
// row or a column of most tables on a page, keystroke after keystroke, and at sixteen tokens
// laying out and painting the tables the reader cannot see was most of what an edit cost. So
// after such an edit (element-pieces.js asks the model) a piece more than a screen's height away
// from the viewport keeps what it shows and draws the new trace when it comes near (an
// IntersectionObserver) or when the browser is next idle, whichever is first: a reader scrolling
// to it finds it current. A piece whose distance is not known yet draws at once. Printing draws
// every piece first; whenPiecesDrawn() waits until every piece shows its model's latest trace
// (for a page or a test that reads their cells).
//
// The state lives on the document under a registered symbol: an author's page may load the
// elements twice (the main bundle and a module of its own), and both copies must share one
// queue and one observer.

const STATE = Symbol.for('attention-by-hand.draw-when-near');
// How far off screen a piece still counts as near: one viewport's height above and below.
const NEAR = '100% 0px';
// The budget an idle period must still have to draw a piece; a piece takes 1 to 10 ms.
const IDLE_SLACK_MS = 4;

function stateOf(doc) {
  if (doc[STATE]) return doc[STATE];
  const view = doc.defaultView;
  const state = {
    pending: new Map(),  // piece -> its draw function
    near: new WeakMap(),  // piece -> whether it is near the viewport, once observed
    observer: null,
    idleQueued: false,
    waiters: [],
    /** Resolves once no piece waits to draw (what whenPiecesDrawn returns; a test reaches it by the symbol). */
    whenDrawn() {
      if (state.pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => { state.waiters.push(resolve); });
    },
  };
  if (typeof view?.IntersectionObserver === 'function') {
    state.observer = new view.IntersectionObserver((entries) => {
      for (const entry of entries) {
        state.near.set(entry.target, entry.isIntersecting);
        if (entry.isIntersecting) drawNow(state, entry.target);
      }
      settle(state);
    }, { rootMargin: NEAR });
  }
  view?.addEventListener('beforeprint', () => drawAll(doc));
  doc[STATE] = state;
  return state;
}

function drawNow(state, piece) {
  const draw = state.pending.get(piece);
  if (!draw) return;
  state.pending.delete(piece);
  draw();
}

function settle(state) {
  if (state.pending.size > 0) return;
  for (const resolve of state.waiters.splice(0)) resolve();
}

// Draws pending pieces while the browser is idle, a few at a time, then settles.
function queueIdle(doc, state) {
  if (state.idleQueued) return;
  state.idleQueued = true;
  const view = doc.defaultView;
  const run = (deadline) => {
    state.idleQueued = false;
    for (const piece of state.pending.keys()) {
      if (!deadline.didTimeout && deadline.timeRemaining() < IDLE_SLACK_MS) break;
      drawNow(state, piece);
    }
    if (state.pending.size > 0) queueIdle(doc, state);
    else settle(state);
  };
  if (typeof view.requestIdleCallback === 'function') {
    view.requestIdleCallback(run, { timeout: 1000 });
  } else {
    // No idle callbacks (Safari): a task after the frame the edit is shown in, drawing for
    // about half a frame before it hands back to the browser.
    view.setTimeout(() => {
      const end = view.performance.now() + 8;
      run({ didTimeout: false, timeRemaining: () => end - view.performance.now() });
    }, 50);
  }
}

/**
 * Starts watching how far `piece` is from the viewport (call when it connects).
 * @param {Element} piece
 */
export function watchDistance(piece) {
  stateOf(piece.ownerDocument).observer?.observe(piece);
}

/**
 * Stops watching `piece` and forgets a draw it was waiting for (call when it disconnects).
 * @param {Element} piece
 */
export function stopWatching(piece) {
  const state = stateOf(piece.ownerDocument);
  state.observer?.unobserve(piece);
  state.near.delete(piece);
  state.pending.delete(piece);
  settle(state);
}

/**
 * Draws `piece` now when it is near the viewport (or not known to be far), else when it comes
 * near or the browser is idle. A later call replaces a draw still waiting.
 * @param {Element} piece
 * @param {() => void} draw
 */
export function drawWhenNear(piece, draw) {
  const doc = piece.ownerDocument;
  const state = stateOf(doc);
  if (state.near.get(piece) !== false) {
    state.pending.delete(piece);
    draw();
    settle(state);
    return;
  }
  state.pending.set(piece, draw);
  queueIdle(doc, state);
}

/**
 * Forgets a draw `piece` was waiting for: it has just drawn the model's latest trace anyway.
 * @param {Element} piece
 */
export function drawn(piece) {
  const state = piece.ownerDocument[STATE];
  if (state?.pending.delete(piece)) settle(state);
}

/**
 * Draws every piece still waiting, now.
 * @param {Document} doc
 */
export function drawAll(doc) {
  const state = stateOf(doc);
  for (const piece of [...state.pending.keys()]) drawNow(state, piece);
  settle(state);
}

/**
 * Resolves once every piece of `doc` shows its model's latest trace.
 * @param {Document} [doc]
 * @returns {Promise<void>}
 */
export function whenPiecesDrawn(doc = document) {
  return stateOf(doc).whenDrawn();
}
