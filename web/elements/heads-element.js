// <attention-heads>: a layer of several heads over some tokens, computed by the core's
// multiHead() (the full build): the seeded token vectors x, each head's weight matrices, Q, K,
// V, weights grid and output, the heads' outputs side by side, W_O and the layer's output.
// Attributes tokens, seed, d-model, heads, mask and scale make the request (left out: the core's
// defaults, and the article's tokens); `model` names an <attention-model> or
// <attention-explainer> whose tokens, mask and scale it follows instead (an attribute of its own
// still wins for its field). After every new layer it fires `attention-change` with
// `detail.layer`, what multiHead() returned.

import { AttentionElementBase, computingNote, problemOf, syncChildren } from './element-base.js';
import { CORE_CHOICES, ConfigError, formatTokens, parseTokens } from './element-config.js';
import { announceChange } from './change-event.js';
import { adoptHeadsStyles } from './heads-styles.js';
import { ModelFollower } from './model-follower.js';
import { parseWhole, requestFrom, rewordCoreError } from './request-config.js';
import { headsView } from '../views/heads-view.js';

const text = (attribute, value) => String(value).trim();

/** Attribute -> multiHead() request member. */
export const HEADS_ATTRIBUTES = Object.freeze({
  tokens: { key: 'tokens', parse: (attribute, value) => parseTokens(value) },
  seed: { key: 'seed', parse: parseWhole },
  'd-model': { key: 'd_model', parse: parseWhole },
  heads: { key: 'n_heads', parse: parseWhole },
  mask: { key: 'mask', parse: text },
  scale: { key: 'scale', parse: text },
});

/** What a followed model decides unless the element's own attribute does. */
const FOLLOWED_FIELDS = Object.freeze(['tokens', 'mask', 'scale']);

export class AttentionHeadsElement extends AttentionElementBase {
  static observedAttributes = [...Object.keys(HEADS_ATTRIBUTES), 'model'];

  #attention = null;
  #layer = null;
  #view = null;
  #follower = new ModelFollower(this, () => this.scheduleRender());

  constructor() {
    super();
    adoptHeadsStyles(this.shadowRoot);
    this.upgradeProperties(['tokens', 'seed', 'dModel', 'heads', 'mask', 'scale', 'model']);
  }

  /** What multiHead() returned for the layer shown, or null while none is shown. */
  get layer() {
    return this.#layer;
  }

  connectedCallback() {
    this.#follower.resolve();
    this.loadCoreOnce(CORE_CHOICES.full, (attention) => {
      this.#attention = attention;
      this.scheduleRender();
    });
    this.render();
  }

  disconnectedCallback() {
    this.#follower.stop();
  }

  attributeChangedCallback(name) {
    if (name === 'model' && this.isConnected) this.#follower.resolve();
    this.scheduleRender();
  }

  render() {
    const doc = this.ownerDocument;
    if (!this.#attention) {
      syncChildren(this.body, [computingNote(doc)]);
      return;
    }
    let request;
    try {
      request = this.#request();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.#showProblem(problemOf(error));
      return;
    }
    if (request === null) {
      syncChildren(this.body, [computingNote(doc)]);
      return;
    }
    if (request.problem) {
      this.#showProblem(request.problem, { warn: false });
      return;
    }
    let layer;
    try {
      layer = this.#attention.multiHead(request);
    } catch (error) {
      this.#showProblem({ text: this.#reword(String(error?.message ?? error)) });
      return;
    }
    this.showProblem(null);
    this.#view ??= headsView(doc);
    syncChildren(this.body, this.#view.show(layer));
    this.#layer = layer;
    announceChange(this, { result: layer, layer });
  }

  #showProblem(problem, options) {
    this.#layer = null;
    this.showProblem(problem, options);
  }

  // The request of the attributes, the followed model's fields filling in the rest; null while
  // the followed model has no answer yet, {problem} when it has a problem of its own.
  #request() {
    const request = requestFrom(HEADS_ATTRIBUTES, (name) => this.getAttribute(name));
    const id = this.#follower.id;
    if (id === null) {
      request.tokens ??= this.#attention.article().two_words.tokens;
      return request;
    }
    if (this.#follower.missing) throw this.#follower.missing;
    const model = this.#follower.model;
    if (!model?.connected) return null;
    const { problem } = model;
    if (problem) {
      return { problem: { ...problem, text: `the model "${id}" it follows has a problem: ${problem.text}` } };
    }
    const { trace } = model;
    for (const field of FOLLOWED_FIELDS) request[field] ??= trace[field];
    return request;
  }

  // The core's refusal, worded for the attribute that caused it; a value that came from the
  // followed model is said to have come from there.
  #reword(message) {
    const said = rewordCoreError(message, HEADS_ATTRIBUTES, (name) => this.hasAttribute(name));
    if (said !== message || this.#follower.id === null) return said;
    return `${said} (the tokens, mask and scale are those of the model "${this.#follower.id}")`;
  }
}

// Each attribute is a property too: tokens as a list of strings, seed, dModel and heads as
// numbers (null when unset or unreadable), mask, scale and model as text.
const reflections = {
  tokens: {
    attribute: 'tokens',
    read: (value) => { try { return parseTokens(value); } catch { return null; } },
    write: (value) => (Array.isArray(value) ? formatTokens(value) : String(value)),
  },
  seed: { attribute: 'seed' },
  dModel: { attribute: 'd-model' },
  heads: { attribute: 'heads' },
  mask: { attribute: 'mask', read: (value) => value },
  scale: { attribute: 'scale', read: (value) => value },
  model: { attribute: 'model', read: (value) => value },
};
const readWhole = (value) => (/^\s*\d{1,16}\s*$/u.test(value) ? Number(value) : null);
for (const [property, { attribute, read = readWhole, write = String }] of Object.entries(reflections)) {
  Object.defineProperty(AttentionHeadsElement.prototype, property, {
    configurable: true,
    enumerable: true,
    get() {
      const value = this.getAttribute(attribute);
      return value === null ? null : read(value);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, write(value));
    },
  });
}
