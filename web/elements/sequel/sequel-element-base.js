// What the sequel's elements add to the one element base (element-base.js: shadow root,
// frame, message box, render after the current task, loading the core once): the sequel's
// stylesheet, a controls bar (shown with the `controls` attribute) whose changes become the
// element's attributes, problems worded for the attribute or the field at fault, the body where
// a subclass draws the core's answer, the workings of its cells, and the `attention-change`
// event after every computation.
//
// The sequel's requests live in the full build of the core (createAttention(), not the small
// embed build the walkthrough's elements load), which is loaded once per page.

import { ConfigError, CORE_CHOICES } from '../element-config.js';
import { announceChange } from '../change-event.js';
import { AttentionElementBase, computingNote } from '../element-base.js';
import { loadForAttribute, newPractice } from '../on-first-use.js';
import { readerMessage, rewordCoreError } from './sequel-config.js';
import { adoptSequelStyles } from './sequel-styles.js';
import { WorkingRegistry } from '../../views/sequel/working.js';

/**
 * @typedef {object} ControlSpec
 * @property {string} attribute   the attribute a change sets
 * @property {string} label
 * @property {'number' | 'select' | 'text' | 'checks'} type  checks: a labelled group of checkboxes, the value their checked values joined by commas
 * @property {(result: object) => string | string[]} value  the current value, from the result
 * @property {[string, string][] | ((result: object) => [string, string][])} [options]  select, checks: [value, text] (checks: an array)
 * @property {number} [min]
 * @property {(result: object) => number} [max]
 * @property {string} [step]
 * @property {(result: object) => boolean} [disabled]
 * @property {string} [className]       the label's class
 * @property {string} [inputClass]      the field's class ("wide")
 */

export class SequelElement extends AttentionElementBase {
  #controls;
  #attention = null;
  #result = null;
  #problem = null;
  #lastGood = null;  // the last result drawn: a refused value leaves its tables in place
  #controlNodes = null;  // attribute -> {spec, input | inputs}
  #lastChanged = null;   // the control the reader changed last: a refusal it caused is shown there
  #practice = null;     // pencil mode's blanks, once an element with `practice` has drawn

  constructor() {
    super({ styles: [adoptSequelStyles], editsCells: false });
    const doc = this.ownerDocument;
    this.#controls = doc.createElement('div');
    this.#controls.className = 'controls';
    this.#controls.setAttribute('part', 'controls');
    this.#controls.hidden = true;
    this.placeAtTop(this.#controls);
    this.body.append(computingNote(doc));
    this.workings = new WorkingRegistry(this.body);
  }

  /**
   * The core's answer the tables show: the last one that worked. A refused value keeps the
   * tables of the last good one (and this with them); null only before the first answer.
   */
  get result() {
    return this.#result ?? this.#lastGood;
  }

  /** The problem shown instead of the tables, or null. */
  get problem() {
    return this.#problem;
  }

  connectedCallback() {
    this.loadCoreOnce(CORE_CHOICES.full, (attention) => {
      this.#attention = attention;
      this.scheduleRender();
    });
    this.scheduleRender();
  }

  /** A failed load of the core is the element's problem, said as any other. */
  showLoadFailure(error) {
    this.#show(null, `The attention core could not be loaded: ${error?.message ?? error}`);
  }

  attributeChangedCallback(name, previous, value) {
    loadForAttribute(name, value);
    if (name === 'controls' && previous !== value && this.#controlNodes) {
      // Another list of controls: built again on the next render.
      this.#controlNodes = null;
      this.#controls.replaceChildren();
    }
    this.scheduleRender();
  }

  // --- for subclasses
  /**
   * With the `practice` attribute, `nodes` with pencil mode's blanks laid on them before they
   * are shown (the cells it names of `answer`, the core's flashTiles() or kvBill() answer, of
   * `source` 'flash' or 'bill') and its bar in front; without it, `nodes`. While the blanks'
   * code is on its way, the "computing…" note: no answer is shown before it can be hidden.
   */
  layPractice(doc, nodes, answer, source) {
    const attribute = this.getAttribute('practice');
    if (attribute === null && !this.#practice) return nodes;
    this.#practice ??= newPractice(this, doc);
    if (!this.#practice) return [computingNote(doc)];
    return this.#practice.layOnNodes(doc, nodes, attribute, answer, this.localName, source);
  }

  /** The attribute specs of the element's request (sequel-config.js), for wording problems. */
  get requestSpecs() { return {}; }
  /**
   * Runs the core: returns what renderResult draws. Throws ConfigError or the core's Error. A
   * result may carry `refused`, a ConfigError for a value the element refused and drew around
   * (drawing its own fallback): shown as the problem, beside the drawing.
   */
  compute() { return null; }
  /** The nodes of the body for a result. */
  renderResult() { return []; }
  /**
   * The controls shown with the `controls` attribute, built once the core has loaded (so that
   * their options can be the core's names). @param {object} attention @returns {ControlSpec[]}
   */
  controlSpecs() { return []; }
  /** A reader changed a control: by default the attribute follows (an empty value removes it). */
  controlChanged(spec, value) {
    this.#lastChanged = spec.attribute;
    if (value === '' || value === null) this.removeAttribute(spec.attribute);
    else this.setAttribute(spec.attribute, value);
  }
  /** Runs the core on the attributes and shows its answer or its refusal (scheduleRender). */
  render() {
    const showControls = this.hasAttribute('controls');
    if (this.#attention && showControls && !this.#controlNodes) this.#buildControls();
    this.#controls.hidden = !showControls || !this.#controlNodes;
    if (!this.#attention) return;
    let result;
    try {
      result = this.compute(this.#attention, (name) => this.getAttribute(name));
    } catch (error) {
      const text = error instanceof ConfigError
        ? error.message
        : rewordCoreError(String(error?.message ?? error), this.requestSpecs, (name) => this.hasAttribute(name));
      this.#show(null, text);
      return;
    }
    this.#show(result, result?.refused?.message ?? null);
  }

  #show(result, problem) {
    const doc = this.ownerDocument;
    this.#result = result;
    this.#problem = problem;
    if (result) this.#lastGood = result;
    const field = problem ? this.#fieldOf(problem) : null;
    if (problem) {
      // In the reader's words: the field's label, not the attribute's name.
      const said = readerMessage(problem, this.#labels());
      const kept = Boolean(this.#lastGood);
      const strong = doc.createElement('strong');
      strong.textContent = kept ? 'Not used. ' : 'Nothing to show yet. ';
      // A field of the form shows its own message instead (#syncControls); the box says the rest.
      // Drawn around the refused value, the body shows the new figures; else the last that worked.
      this.showMessage(field ? null : [strong, said, kept && !result ? ' The tables keep the last figures that worked.' : '']);
      this.warnOnce(problem);
    } else {
      this.showMessage(null);
      this.warnOnce(null);
    }
    const body = this.body;
    body.hidden = !this.#lastGood;
    if (result) {
      // What the reader unfolded stays unfolded across a redraw.
      const unfolded = new Set([...body.querySelectorAll('details[open]')].map((node) => node.dataset.part));
      body.replaceChildren(...this.renderResult(doc, result));
      for (const node of body.querySelectorAll('details')) if (unfolded.has(node.dataset.part)) node.open = true;
      this.workings.restore();
    }
    if (this.#controlNodes) this.#syncControls(this.#result ?? this.#lastGood, field);
    announceChange(this, { result, problem });
  }

  // The labels of the shown controls by attribute, and by the core's name for the same figure.
  #labels() {
    const labels = {};
    if (!this.#controlNodes) return labels;
    const specs = this.requestSpecs;
    for (const [attribute, { spec }] of this.#controlNodes) {
      labels[attribute] = spec.label;
      if (specs[attribute]) labels[specs[attribute].key] = spec.label;
    }
    return labels;
  }

  // The control whose attribute a problem names, when the controls are shown.
  #fieldOf(problem) {
    if (!this.#controlNodes || this.#controls.hidden) return null;
    const said = readerMessage(problem, this.#labels());
    for (const [attribute, nodes] of this.#controlNodes) {
      if (problem.startsWith(`${attribute} attribute`)) return { attribute, nodes, text: said };
    }
    // A figure the reader left alone refuses the one they changed ("K/V heads: must divide query
    // heads (30)…" after query heads became 30): said at the changed field, with its value.
    const changed = this.#lastChanged && this.#controlNodes.get(this.#lastChanged);
    const value = changed && this.getAttribute(this.#lastChanged);
    if (changed && value !== null) return { attribute: this.#lastChanged, nodes: changed, text: `${value} is not used. ${said}` };
    return null;
  }

  #buildControls() {
    const doc = this.ownerDocument;
    this.#controlNodes = new Map();
    for (const spec of this.controlSpecs(this.#attention)) {
      const label = doc.createElement('label');
      if (spec.className) label.className = spec.className;
      const text = doc.createElement('span');
      text.textContent = spec.label;
      let input;
      if (spec.type === 'select') {
        input = doc.createElement('select');
      } else if (spec.type === 'checks') {
        // One checkbox per option, in a group named by the label.
        const group = doc.createElement('span');
        group.setAttribute('role', 'group');
        group.setAttribute('aria-label', spec.label);
        group.className = 'check-choices';
        const boxes = spec.options.map(([value, caption]) => {
          const box = doc.createElement('input');
          box.type = 'checkbox';
          box.value = value;
          box.dataset.control = spec.attribute;
          const boxLabel = doc.createElement('label');
          boxLabel.append(box, ` ${caption}`);
          group.append(boxLabel);
          return box;
        });
        const fieldLabel = doc.createElement('span');
        fieldLabel.className = 'checks-control';
        fieldLabel.append(text, ' ', group);
        const onChange = () => this.controlChanged(spec, boxes.filter((box) => box.checked).map((box) => box.value).join(','));
        for (const box of boxes) box.addEventListener('change', onChange);
        this.#controls.append(fieldLabel);
        this.#controlNodes.set(spec.attribute, { spec, inputs: boxes, holder: fieldLabel });
        continue;
      } else {
        input = doc.createElement('input');
        input.type = spec.type === 'number' ? 'number' : 'text';
        if (spec.type === 'number') {
          input.inputMode = 'numeric';
          if (spec.min !== undefined) input.min = String(spec.min);
          input.step = spec.step ?? '1';
        }
        input.autocomplete = 'off';
        input.spellcheck = false;
      }
      input.dataset.control = spec.attribute;
      input.setAttribute('part', 'input');
      if (spec.inputClass) input.className = spec.inputClass;
      input.addEventListener('change', () => this.controlChanged(spec, input.value.trim()));
      label.append(text, ' ', input);
      this.#controls.append(label);
      this.#controlNodes.set(spec.attribute, { spec, input, holder: label });
    }
  }

  #syncControls(result, field) {
    const active = this.shadowRoot.activeElement;
    for (const [attribute, { spec, input, inputs, holder }] of this.#controlNodes) {
      this.#fieldMessage(holder, input, field?.attribute === attribute ? field.text : null);
      const attributeValue = this.getAttribute(attribute);
      if (inputs) {
        // The boxes of what is drawn; refused, of the names the value gave.
        const chosen = this.#result ? spec.value(this.#result)
          : attributeValue !== null ? attributeValue.split(/[\s,]+/u) : (result ? spec.value(result) : []);
        for (const box of inputs) box.checked = chosen.includes(box.value);
        continue;
      }
      if (spec.type === 'select') {
        const options = typeof spec.options === 'function' ? (result ? spec.options(result) : null) : spec.options;
        if (options) {
          const current = [...input.options].map((option) => `${option.value}\u0001${option.textContent}`).join('\u0000');
          if (current !== options.map((option) => option.join('\u0001')).join('\u0000')) {
            input.replaceChildren(...options.map(([value, caption]) => {
              const option = this.ownerDocument.createElement('option');
              option.value = value;
              option.textContent = caption;
              return option;
            }));
          }
        }
      }
      if (spec.max && result) input.max = String(spec.max(result));
      input.disabled = Boolean(result && spec.disabled?.(result));
      // The field whose attribute the problem names is marked.
      if (this.#problem?.startsWith(`${attribute} attribute`) || field?.attribute === attribute) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (input === active) continue;
      const value = attributeValue ?? (result ? spec.value(result) : '');
      if (spec.type === 'select' && ![...input.options].some((option) => option.value === value)) {
        const option = this.ownerDocument.createElement('option');
        option.value = value;
        option.textContent = value;
        input.append(option);
      }
      input.value = value ?? '';
    }
  }

  // The message under a refused field (role alert, so it is heard), tied to it by aria-describedby.
  #fieldMessage(holder, input, text) {
    let note = holder.nextElementSibling?.classList.contains('field-message') ? holder.nextElementSibling : null;
    if (!text) {
      note?.remove();
      input?.removeAttribute('aria-describedby');
      return;
    }
    if (!note) {
      note = this.ownerDocument.createElement('p');
      note.className = 'field-message';
      note.setAttribute('role', 'alert');
      note.id = `field-message-${holder.querySelector('[data-control]')?.dataset.control ?? 'field'}`;
      holder.after(note);
    }
    note.textContent = text;
    input?.setAttribute('aria-describedby', note.id);
  }
}
