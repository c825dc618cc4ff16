// The elements that own a model: <attention-explainer> (a whole walkthrough, or the steps it
// lists, in one box) and <attention-model> (shows nothing but its problems; the per-piece
// elements render it wherever they sit). Both read tokens, q, k, v, mask and scale from attributes or
// properties, expose the current `trace`, and fire a bubbling `attention-change` event with
// the new trace after every change, an author's or a reader's.

import { AttentionModel } from './attention-model.js';
import { announceChange } from './change-event.js';
import {
  AttentionElementBase, computingNote, problemOf, syncChildren,
} from './element-base.js';
import {
  DEFAULT_STEPS, INPUT_FIELDS, parseCoreChoice, parseIndex, parseMatrix, parseSteps, parseTokens, resolveIndex,
} from './element-config.js';
import { maskSelect, selectMask, stepView } from '../views/step-views.js';
import { loadForAttribute, newPractice } from './on-first-use.js';

/** Fired on a model element or explainer, bubbling, after every new trace. */
export { CHANGE_EVENT } from './change-event.js';
/** Fired by a model element when it connects, so pieces waiting for its id can find it. */
export const MODEL_CONNECTED_EVENT = 'attention-model-connected';

function readInputAttribute(field, text) {
  if (field === 'tokens') return parseTokens(text);
  if (field === 'mask' || field === 'scale') return text.trim();
  return parseMatrix(field, text);
}

/** What the model-owning elements share; `Base` is AttentionElementBase. */
class ModelOwner extends AttentionElementBase {
  #model = new AttentionModel();
  #announcedTrace = null;

  constructor() {
    super();
    this.#model.addEventListener('update', () => this.#onUpdate());
    this.upgradeProperties(INPUT_FIELDS);
  }

  /** The live model: what per-piece elements with model="this element's id" show. */
  get attentionModel() {
    return this.#model;
  }

  get shownModel() {
    return this.#model;
  }

  /** The current trace of the model (same shape as run() returns), or null. */
  get trace() {
    return this.#model.trace ?? null;
  }

  connectedCallback() {
    let unreadableCore = null;
    if (!this.#model.connected) {
      try {
        const build = parseCoreChoice(this.getAttribute('core'));
        this.loadCoreOnce(build, (attention) => {
          if (!this.#model.connected) this.#model.connect(attention);
        });
      } catch (error) {
        // Which core to load is unreadable: say so and load none (nothing can be computed).
        unreadableCore = problemOf(error);
      }
    }
    this.render();
    if (unreadableCore) this.showProblem(unreadableCore);
    this.dispatchEvent(new Event(MODEL_CONNECTED_EVENT, { bubbles: true, composed: true }));
  }

  attributeChangedCallback(name, previous, value) {
    loadForAttribute(name, value);
    if (INPUT_FIELDS.includes(name)) {
      if (value === null) {
        this.#model.configure(name, undefined);
        return;
      }
      try {
        this.#model.configure(name, readInputAttribute(name, value));
      } catch (error) {
        this.#model.configureError(name, problemOf(error));
      }
    } else if (name === 'id') {
      if (this.isConnected) this.dispatchEvent(new Event(MODEL_CONNECTED_EVENT, { bubbles: true, composed: true }));
    } else {
      this.scheduleRender();
    }
  }

  /** Drops a reader's edits: back to the configured numbers, and no message about them. */
  reset() {
    this.showEditMessage(null);
    this.#model.reset();
  }

  #onUpdate() {
    if (this.isConnected) this.render();
    const { trace } = this.#model;
    if (trace && trace !== this.#announcedTrace) {
      this.#announcedTrace = trace;
      announceChange(this, { result: trace, trace });
    }
  }
}

// tokens, q, k, v, mask and scale as properties: reading gives the current value (a reader's edits
// included), writing configures the model as the attribute would.
for (const field of INPUT_FIELDS) {
  Object.defineProperty(ModelOwner.prototype, field, {
    configurable: true,
    enumerable: true,
    get() {
      return this.attentionModel.current(field) ?? null;
    },
    set(value) {
      this.attentionModel.configure(field, value ?? undefined);
    },
  });
}

export class AttentionModelElement extends ModelOwner {
  static observedAttributes = [...INPUT_FIELDS, 'id'];

  constructor() {
    super();
    // The pieces may also sit inside the model element; show them.
    this.shadowRoot.append(this.ownerDocument.createElement('slot'));
  }

  render() {
    const model = this.attentionModel;
    if (!model.connected) return;
    this.showProblem(model.problem);
  }
}

export class AttentionExplainerElement extends ModelOwner {
  static observedAttributes = [...INPUT_FIELDS, 'steps', 'row', 'editable', 'controls', 'practice'];

  #sections = new Map();
  #controls = null;
  #practice = null;

  constructor() {
    super();
    this.upgradeProperties(['steps', 'row', 'editable', 'controls', 'practice']);
  }

  /** The cells shown as blanks of pencil mode (docs/practice.md), or null for none. */
  get practice() {
    return this.getAttribute('practice');
  }

  set practice(value) {
    if (value === null || value === undefined) this.removeAttribute('practice');
    else this.setAttribute('practice', String(value));
  }

  get steps() {
    try {
      return this.hasAttribute('steps') ? parseSteps(this.getAttribute('steps')) : [...DEFAULT_STEPS];
    } catch {
      return [];
    }
  }

  set steps(value) {
    if (value === null || value === undefined) this.removeAttribute('steps');
    else this.setAttribute('steps', Array.isArray(value) ? value.join(',') : String(value));
  }

  get row() {
    const text = this.getAttribute('row');
    return text === null || !/^-?\d+$/u.test(text.trim()) ? null : Number(text);
  }

  set row(value) {
    if (value === null || value === undefined) this.removeAttribute('row');
    else this.setAttribute('row', String(value));
  }

  get editable() {
    return this.hasAttribute('editable');
  }

  set editable(value) {
    this.toggleAttribute('editable', Boolean(value));
  }

  get controls() {
    return this.hasAttribute('controls');
  }

  set controls(value) {
    this.toggleAttribute('controls', Boolean(value));
  }

  render() {
    const model = this.attentionModel;
    const doc = this.ownerDocument;
    if (!model.connected) {
      syncChildren(this.body, [computingNote(doc)]);
      return;
    }
    if (model.problem) {
      this.showProblem(model.problem);
      return;
    }
    const { trace } = model;
    let steps;
    let row;
    try {
      steps = this.hasAttribute('steps') ? parseSteps(this.getAttribute('steps')) : DEFAULT_STEPS;
      const index = this.hasAttribute('row') ? parseIndex('row', this.getAttribute('row')) : null;
      row = resolveIndex('row', index, trace.token_count, trace.token_count - 1);
    } catch (error) {
      this.showProblem(problemOf(error));
      return;
    }
    const practice = this.getAttribute('practice');
    if (practice !== null) {
      this.#practice ??= newPractice(this, doc);
      if (!this.#practice) {
        syncChildren(this.body, [computingNote(doc)]);
        return;
      }
    }
    this.showProblem(null);

    const editable = this.editable;
    const active = this.shadowRoot.activeElement;
    // One view per step shown, kept across traces so that their cells update in place.
    const sections = new Map();
    for (const step of steps) sections.set(step, this.#sections.get(step) ?? stepView(doc, step));
    this.#sections = sections;
    const children = [...sections.values()].map((view) => view.show(trace, { row, editable, active }));
    children.unshift(...(this.#practice?.barFor(practice) ?? []));
    if (this.controls) children.unshift(this.#controlsFor(trace));
    syncChildren(this.body, children);
    this.#practice?.lay(practice, trace, this.shadowRoot, this.localName);
  }

  // The toolbar: the mask, and a way back to the configured numbers. Built once, so that a
  // control keeps its focus while the tables under it change.
  #controlsFor(trace) {
    if (!this.#controls) {
      const doc = this.ownerDocument;
      const bar = doc.createElement('div');
      bar.className = 'controls';
      bar.setAttribute('part', 'controls');
      const label = maskSelect(doc, this.attentionModel.maskChoices, (mask) => {
        const problem = this.attentionModel.setMask(mask);
        this.showEditMessage(problem ? problem.text : null);
      });
      const reset = doc.createElement('button');
      reset.type = 'button';
      reset.dataset.control = 'reset';
      reset.textContent = 'Reset the numbers';
      reset.addEventListener('click', () => this.reset());
      bar.append(label, reset);
      this.#controls = bar;
    }
    selectMask(this.#controls.querySelector('select'), trace.mask);
    return this.#controls;
  }
}
