// What every embeddable element shares, part one's, the sequel's, the trainer's and the
// worksheet's alike: an open shadow root with the adopted stylesheet (and a family's own, such
// as the sequel's) and a `.frame` wrapper (see element-styles.js) holding the element's
// controls, a message box for problems (also said once on the console), the message of a
// reader's edit and the body; the render after the current task's changes; loading the core
// once; and the editing of Q/K/V cells (cell-editing.js). The `attention-change` event every
// element fires after it drew is change-event.js.
//
// Components never look anything up in the global document: they render into their own
// shadow root (or, with `light-dom`, into their own light children; see placeFrame) and find a
// shared model through their own root node (see element-pieces.js).

import { loadAttention } from './core-load.js';
import { ConfigError } from './element-config.js';
import { adoptStyles } from './element-styles.js';
import { listenForCellEdits } from './cell-editing.js';

/** HTMLElement where there is one; in Node the module still loads, and defines nothing. */
export const ElementBase = globalThis.HTMLElement ?? class {};

let messageIds = 0;  // for the ids of the message boxes fields are described by

/**
 * Makes `parent`'s children exactly `desired`, in order, without moving a child that stays
 * (moving the focused cell input would take the reader's focus away mid-edit).
 * @param {Element} parent
 * @param {Node[]} desired
 */
export function syncChildren(parent, desired) {
  const keep = new Set(desired);
  for (const child of [...parent.childNodes]) if (!keep.has(child)) child.remove();
  desired.forEach((node, i) => {
    const current = parent.childNodes[i];
    if (current !== node) parent.insertBefore(node, current ?? null);
  });
}

/** The placeholder shown until the core has answered. */
export function computingNote(doc) {
  const note = doc.createElement('p');
  note.className = 'computing';
  note.textContent = 'computing\u2026';
  return note;
}

/** A problem of this element's own attributes, worded as describeInputError words the core's. */
export function problemOf(error) {
  if (error instanceof ConfigError) {
    return { attribute: error.attribute, path: '', detail: error.detail, text: error.message };
  }
  const text = String(error?.message ?? error);
  return { attribute: 'configuration', path: '', detail: text, text };
}

export class AttentionElementBase extends ElementBase {
  #frame;
  #message;
  #editMessage = null;
  #body;
  #warned = '';
  #renderQueued = false;
  #coreLoad = null;

  /**
   * @param {{styles?: ((root: ShadowRoot) => void)[], editsCells?: boolean}} [options]
   *   styles: what adopts a family's own stylesheet beside the shared one (the sequel's, the
   *   trainer's); editsCells: false for an element with no Q, K or V cells to edit, which then
   *   has no edit message (its one `.message` is its problems' box) and no edit listeners
   */
  constructor({ styles = [], editsCells = true } = {}) {
    super();
    const root = this.attachShadow({ mode: 'open' });
    adoptStyles(root);
    for (const adopt of styles) adopt(root);
    const doc = this.ownerDocument;
    const box = (className, role) => {
      const node = doc.createElement('div');
      node.className = className;
      node.setAttribute('part', 'message');
      node.setAttribute('role', role);
      node.hidden = true;
      return node;
    };
    this.#frame = doc.createElement('div');
    this.#frame.className = 'frame';
    this.#frame.setAttribute('part', 'frame');
    this.#message = box('message', 'alert');
    this.#body = doc.createElement('div');
    this.#body.className = 'body';
    this.#frame.append(this.#message, this.#body);
    root.append(this.#frame);
    if (!editsCells) return;
    // The edit message is there from the start, so that a screen reader hears it change.
    this.#editMessage = box('message edit-message', 'status');
    this.#message.after(this.#editMessage);
    // Events from light children pass through the slot that shows them, so these listeners
    // hear the cells in either place.
    listenForCellEdits(root, {
      model: () => this.shownModel,
      say: (text, options) => this.showEditMessage(text, options),
      message: () => this.#editMessage,
    });
  }

  /**
   * Puts the element's frame where the `light-dom` attribute says. Without it (the default) the
   * frame is in the shadow root, styled by the element's own stylesheet and out of reach of the
   * page's CSS. With it the frame becomes the element's only light child, shown through a
   * slot: the page's stylesheet styles it and the page's scripts reach its cells, which a page
   * whose features span several elements needs (the walkthrough's practice mode writes blanks
   * into every step's table). Children the author wrote inside the element are dropped in
   * both cases (a shadow root without a slot does not show them either).
   */
  placeFrame() {
    const light = this.hasAttribute('light-dom');
    const root = this.shadowRoot;
    if (light ? this.#frame.parentNode === this : this.#frame.parentNode === root) return;
    if (light) {
      root.replaceChildren(this.ownerDocument.createElement('slot'));
      this.replaceChildren(this.#frame);
    } else {
      this.#frame.remove();
      root.replaceChildren(this.#frame);
    }
  }

  /** The focused element inside this element's frame, wherever the frame is; or null. */
  get focusedElement() {
    if (this.#frame.parentNode === this) {
      const active = this.ownerDocument.activeElement;
      return active && this.#frame.contains(active) ? active : null;
    }
    return this.shadowRoot.activeElement;
  }

  /** Where subclasses put what they show (inside the frame, under the messages). */
  get body() {
    return this.#body;
  }

  /** Puts `nodes` (an element's own controls) at the top of its frame, above the messages. */
  placeAtTop(...nodes) {
    this.#message.before(...nodes);
  }

  /** The model this element shows, whose Q, K and V cells it edits; null while it has none. */
  get shownModel() {
    return null;
  }

  // Values set on an instance before the element was defined hide the class's accessors;
  // hand them to the accessors instead.
  upgradeProperties(names) {
    for (const name of names) {
      if (Object.prototype.hasOwnProperty.call(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
  }

  /** Re-renders after the current task's attribute and property changes. */
  scheduleRender() {
    if (this.#renderQueued) return;
    this.#renderQueued = true;
    queueMicrotask(() => {
      if (!this.#renderQueued) return;  // drawn at once since (renderNow)
      this.#renderQueued = false;
      if (this.isConnected) this.render();
    });
  }

  /**
   * Draws at once, and a render scheduled before is then not needed: a piece a page creates,
   * gives its attributes and places draws once when placed, not again at the end of the task.
   */
  renderNow() {
    this.#renderQueued = false;
    this.render();
  }

  /** Subclasses draw here. */
  render() {}

  /**
   * Shows what is wrong in this element's own box instead of its body (or, with null, the
   * body again), and says it on the console once.
   * @param {{text: string, training?: boolean} | null} problem
   * @param {{warn?: boolean}} [options]  warn: false when another element already said it
   */
  showProblem(problem, { warn = true } = {}) {
    if (!problem) {
      this.showMessage(null);
      this.#body.hidden = false;
      this.warnOnce(null);
      return;
    }
    const strong = this.ownerDocument.createElement('strong');
    // The trained head still training (attention-model.js) is a wait, said politely, not a fault.
    strong.textContent = problem.training ? '' : `<${this.localName}> not shown. `;
    this.showMessage([strong, problem.text], { role: problem.training ? 'status' : 'alert' });
    this.#body.hidden = true;
    this.showEditMessage(null);
    if (warn && !problem.training) this.warnOnce(problem.text);
  }

  /**
   * Shows `content` (text or nodes) in the element's message box, leaving the body as it is (a
   * problem said beside what the element still shows); null hides the box. `role`: 'alert' (the
   * default) for a refusal, 'status' for a wait.
   * @param {string | Node | (string | Node)[] | null} content
   * @param {{role?: 'alert' | 'status'}} [options]
   */
  showMessage(content, { role = 'alert' } = {}) {
    const box = this.#message;
    box.hidden = content === null;
    box.setAttribute('role', role);
    box.replaceChildren(...(content === null ? [] : [content].flat()));
  }

  /** The id of the message box, given one on first use: for a field's aria-describedby. */
  get messageId() {
    this.#message.id ||= `attention-message-${++messageIds}`;
    return this.#message.id;
  }

  /** Says `text` on the console, naming this element, unless it was the last said (null forgets). */
  warnOnce(text) {
    if (this.#warned === (text ?? '')) return;
    this.#warned = text ?? '';
    if (text === null) return;
    console.warn(`${this.describe()}: ${text}`);
  }

  /** "<attention-explainer id="intro">", to say which element a console warning is about. */
  describe() {
    return this.id ? `<${this.localName} id="${this.id}">` : `<${this.localName}>`;
  }

  /**
   * A note about a reader's edit, above the tables (null clears it). `kind`: 'refused' (the
   * default) or 'note' (said after an accepted edit); `input`: the cell it is about, which then
   * names the message as its description.
   * @param {string | null} text
   * @param {{kind?: 'refused' | 'note', input?: HTMLInputElement}} [options]
   */
  showEditMessage(text, { kind = 'refused', input } = {}) {
    const box = this.#editMessage;
    if (!box) return;
    box.hidden = text === null;
    box.textContent = text ?? '';
    box.dataset.kind = text === null ? '' : kind;
    if (input) {
      box.id ||= `attention-edit-message-${++messageIds}`;
      input.setAttribute('aria-describedby', box.id);
    }
  }

  /** Clears the edit message if it tells of a refused cell. */
  clearRefusal() {
    if (this.#editMessage?.dataset.kind === 'refused') this.showEditMessage(null);
  }

  /**
   * Loads the core's `build` for this element once: `ready(attention)` gets it; a failure is
   * said in the element's box, and the next call tries again.
   * @param {'embed' | 'simd' | 'scalar'} build  CORE_CHOICES.full for the full build
   * @param {(attention: object) => void} ready
   */
  loadCoreOnce(build, ready) {
    if (this.#coreLoad) return;
    this.#coreLoad = loadAttention(build).then(ready, (error) => {
      this.#coreLoad = null;
      this.showLoadFailure(error);
    });
  }

  /** Says the core could not load, in this element's box (a subclass may say it its own way). */
  showLoadFailure(error) {
    this.showProblem({ text: `The attention core could not be loaded: ${error?.message ?? error}` });
  }
}
