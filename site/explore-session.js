// The reader's session: the current page state, the core's trace of it, and the one way to
// change them. A proposed state is shown only if the core accepts it and it fits the page's
// limits; otherwise nothing changes and the caller gets the reason to show. Listeners hear a
// "change" event after every accepted state, with what it replaced and how the browser's
// history should record it.

import {
  POOL_REQUEST, articleState, attentionInput, pageLimitProblem, poolFromMatrix, sameInput,
} from '../web/state/page-state.js';

export class ExploreSession extends EventTarget {
  #attention;
  #pools = new Map();

  /** @param {object} attention  the core's API (createAttention()) */
  constructor(attention) {
    super();
    this.#attention = attention;
    this.article = attention.article();
    /** The core's names, labels and defaults (attention.vocabulary()), read once. */
    this.vocabulary = attention.vocabulary();
    /** The article's example as a state: what "reset" returns to. */
    this.articleState = articleState(this.article.two_words);
    /** @type {import('../web/state/page-state.js').PageState | null} */
    this.state = null;
    this.trace = null;
  }

  get attention() {
    return this.#attention;
  }

  /** The seeded values new cells take, for `seed` (drawn by the core, kept per seed). */
  pool(seed = this.state.seed) {
    if (!this.#pools.has(seed)) {
      this.#pools.set(seed, poolFromMatrix(this.#attention.randomMatrix({ ...POOL_REQUEST, seed })));
    }
    return this.#pools.get(seed);
  }

  /** Whether the reader's example is the article's (cells, tokens, mask and scale). */
  get isArticle() {
    return this.state !== null && sameInput(this.state, this.articleState);
  }

  /**
   * Tries `next`. Returns null when it is now the state, or the reason it was refused (the
   * core's message, which starts with the path of the problem, or a page limit).
   * @param {import('../web/state/page-state.js').PageState} next
   * @param {{history?: 'push' | 'replace' | 'none', origin?: string}} [how]
   *        history: how the hash records the change; origin: what made it, for listeners
   * @returns {string | null}
   */
  propose(next, { history = 'push', origin = 'control' } = {}) {
    // The core first: its message names the cell or row at fault; the page's narrower limits
    // (at most 16 tokens, say) are checked on an input the core has accepted.
    let trace;
    try {
      trace = this.#attention.run(attentionInput(next));
    } catch (error) {
      return error?.message ?? String(error);
    }
    const limit = pageLimitProblem(next);
    if (limit) return limit;
    const previous = this.state;
    this.state = next;
    this.trace = trace;
    this.dispatchEvent(new CustomEvent('change', { detail: { previous, history, origin } }));
    return null;
  }
}
