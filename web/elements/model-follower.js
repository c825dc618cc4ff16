// How an element follows the model element its `model` attribute names (the pieces, which show
// its trace, and <attention-heads>, which takes its tokens, mask and scale): the id is looked up
// in the element's own root and the roots around it, the model's updates are watched, and a
// model that is not there yet is waited for; once the page has been parsed, its absence is a
// problem.

import { AttentionModel } from './attention-model.js';
import { ConfigError, ELEMENT_NAMES } from './element-config.js';
import { MODEL_CONNECTED_EVENT } from './element-explainer.js';

/**
 * The element with this id in `node`'s root node, else in the root around that root's host,
 * and so on outwards. Never a global lookup: an element inside some component's shadow root
 * finds that component's elements first.
 * @param {Node} node
 * @param {string} id
 */
export function findInRoots(node, id) {
  let root = node.getRootNode();
  for (;;) {
    const found = typeof root.getElementById === 'function' ? root.getElementById(id) : null;
    if (found) return found;
    if (!root.host) return null;
    root = root.host.getRootNode();
  }
}

function outermostRoot(node) {
  let root = node.getRootNode();
  while (root.host) root = root.host.getRootNode();
  return root;
}

function missingModel(id, found) {
  return new ConfigError('model', found
    ? `the element with id "${id}" is a <${found.localName}>, not an <${ELEMENT_NAMES.model}> or <${ELEMENT_NAMES.explainer}>`
    : `there is no <${ELEMENT_NAMES.model} id="${id}"> in this page`);
}

export class ModelFollower {
  #host;
  #changed;
  #source = null;
  #watched = null;
  #missing = null;
  #stopWaiting = null;
  #onUpdate = () => this.#changed();

  /**
   * @param {HTMLElement} host  the element with the `model` attribute
   * @param {() => void} changed  called when the followed model changes, appears or is missing
   */
  constructor(host, changed) {
    this.#host = host;
    this.#changed = changed;
  }

  /** The id followed, or null when the host follows none. */
  get id() {
    return this.#host.getAttribute('model');
  }

  /** The followed model (an AttentionModel), or null while there is none. */
  get model() {
    return this.#source?.attentionModel ?? null;
  }

  /** A ConfigError naming the `model` attribute when its id names no model, else null. */
  get missing() {
    return this.#missing;
  }

  /** Reads the `model` attribute again and follows what it names now. */
  resolve() {
    this.stop();
    const id = this.id;
    if (id === null) return;
    const found = findInRoots(this.#host, id);
    if (found?.attentionModel instanceof AttentionModel) {
      this.#source = found;
      this.#watched = found.attentionModel;
      this.#watched.addEventListener('update', this.#onUpdate);
      return;
    }
    this.#waitFor(id, found);
  }

  /** Follows nothing (the host left the page). */
  stop() {
    this.#watched?.removeEventListener('update', this.#onUpdate);
    this.#watched = null;
    this.#source = null;
    this.#missing = null;
    this.#stopWaiting?.();
    this.#stopWaiting = null;
  }

  // The id names nothing (yet): a model element may still connect; once the page has been
  // parsed, say what is missing.
  #waitFor(id, found) {
    const doc = this.#host.ownerDocument;
    const root = outermostRoot(this.#host);
    const retry = () => {
      if (findInRoots(this.#host, id)?.attentionModel instanceof AttentionModel) {
        this.resolve();
        this.#changed();
      }
    };
    const complain = () => {
      this.#missing = missingModel(id, found);
      this.#changed();
    };
    root.addEventListener(MODEL_CONNECTED_EVENT, retry);
    let parsed = null;
    if (doc.readyState === 'loading') {
      parsed = complain;
      doc.addEventListener('DOMContentLoaded', parsed, { once: true });
    } else {
      this.#missing = missingModel(id, found);
    }
    this.#stopWaiting = () => {
      root.removeEventListener(MODEL_CONNECTED_EVENT, retry);
      if (parsed) doc.removeEventListener('DOMContentLoaded', parsed);
    };
  }
}
