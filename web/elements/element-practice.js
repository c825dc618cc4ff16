// The `practice` attribute of the elements that show the step tables (<attention-explainer>,
// <attention-step>): the cells it names become blanks of pencil mode, laid by the same view as
// on the walkthrough page (web/views/practice-view.js). A list that cannot be read, or names a
// cell past the example, is said in the element's practice bar, naming the item; the numbers
// are shown all the same. An empty attribute asks for the default blanks of the answer shown
// (exercise.js: one cell of each step; a tile's running figures; the bill's lines).

import { ConfigError } from './element-config.js';
import { defaultBillItems, defaultBlankItems, defaultFlashItems, exerciseBlanks } from '../practice/exercise.js';
import { cellId, parseBlankList } from '../state/practice-hash.js';
import { practiceView } from '../views/practice-view.js';
import { visuallyHidden } from '../views/render-tables.js';

/** What an element with a `practice` attribute keeps: its bar, its blanks and their tally. */
export class ElementPractice {
  #bar;
  #tally;
  #message;
  #view;
  #laid = null;  // {trace, key}: the same cells on the same trace keep what was typed

  /** @param {Document} doc */
  constructor(doc) {
    this.#bar = doc.createElement('div');
    this.#bar.className = 'practice';
    this.#bar.setAttribute('part', 'practice');
    this.#tally = doc.createElement('p');
    this.#tally.className = 'practice-tally';
    this.#message = doc.createElement('p');
    this.#message.className = 'message practice-message';
    this.#message.setAttribute('role', 'alert');
    this.#message.hidden = true;
    const announcer = visuallyHidden(doc, '');
    announcer.classList.add('practice-announcer');
    announcer.setAttribute('aria-live', 'polite');
    this.#bar.append(this.#message, this.#tally, announcer);
    this.#view = practiceView({
      announce: (text) => { announcer.textContent = text; },
      onTally: (text, total) => {
        this.#tally.textContent = text;
        this.#tally.hidden = total === 0;
      },
    });
  }

  /**
   * For the sequel's elements, which draw their nodes anew for every answer: lays the blanks on
   * `nodes` before they are shown, and returns them with the bar in front.
   * @param {Document} doc
   * @param {Node[]} nodes
   * @param {string | null} attribute
   * @param {object} answer
   * @param {string} host
   * @param {'flash' | 'bill'} source
   */
  layOnNodes(doc, nodes, attribute, answer, host, source) {
    const drawn = doc.createDocumentFragment();
    drawn.append(...nodes);
    this.lay(attribute, answer, drawn, host, { source });
    return [...this.barFor(attribute), ...drawn.childNodes];
  }

  /** The bar to show above the tables (the tally, the attribute's problem), or none. */
  barFor(attribute) {
    return attribute === null ? [] : [this.#bar];
  }

  #say(text) {
    this.#message.textContent = text ?? '';
    this.#message.hidden = !text;
  }

  /**
   * Lays the attribute's blanks on the tables now in `root`; call after the tables are drawn.
   * @param {string | null} attribute  the `practice` attribute's text
   * @param {object} trace  the answer the tables show: run()'s, or (with `source`) flashTiles()' or kvBill()'s
   * @param {ShadowRoot | DocumentFragment} root
   * @param {string} host  the element's name, for its message ("<attention-explainer> practice: …")
   * @param {{source?: 'trace' | 'flash' | 'bill'}} [options]
   */
  lay(attribute, trace, root, host, { source = 'trace' } = {}) {
    if (attribute === null || !trace) {
      if (this.#laid) this.#view.clear();
      this.#laid = null;
      return;
    }
    let cells = [];
    try {
      const defaults = { trace: defaultBlankItems, flash: defaultFlashItems, bill: defaultBillItems }[source];
      const items = attribute.trim() === '' ? defaults(trace) : parseBlankList(attribute);
      cells = exerciseBlanks({ blanks: items }, { [source]: trace });
      this.#say(null);
    } catch (error) {
      if (!(error instanceof RangeError) && !(error instanceof ConfigError)) throw error;
      const detail = error instanceof ConfigError ? `${error.attribute}: ${error.detail}` : `practice: ${error.message}`;
      this.#say(`<${host}> ${detail}. The numbers are shown without blanks.`);
    }
    const key = cells.map(cellId).join(',');
    const fresh = this.#laid?.trace !== trace || this.#laid?.key !== key;
    if (!fresh && this.#view.stillLaid()) return;
    this.#view.set(cells, { [source]: trace }, { fresh });
    this.#view.lay(root);
    this.#laid = { trace, key };
  }
}
