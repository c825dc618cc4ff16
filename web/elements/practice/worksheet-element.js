// <attention-worksheet>: a pencil-mode exercise laid out to be printed. Given the exercise as a
// practice link fixes it (the attributes practice, round, round-seed, level mirror the hash's
// keys; without a round, tokens, q, k, v, mask and scale give the walkthrough's inputs, the
// article's example for any not given), it shows the title, the inputs, each step's
// instruction and its tables with the blanks empty and boxed; with `answers`, the answer key:
// each blank's value as its table prints it and the working a hint reveals.
//
// The core computes every number (run(), and randomMatrix() for a round's inputs: the full
// build); web/practice/worksheet.js lays them out; this file only draws. The print styles are
// in worksheet-styles.js.

import { CORE_CHOICES, ConfigError, describeInputError, parseMatrix, parseTokens } from '../element-config.js';
import { AttentionElementBase } from '../element-base.js';
import { roundInputs } from '../../practice/rounds.js';
import {
  EXERCISE_ATTRIBUTES, INPUT_ATTRIBUTES, readWorksheetAttributes, worksheetBlanks, worksheetLayout,
} from '../../practice/worksheet.js';
import { adoptWorksheetStyles } from './worksheet-styles.js';
import { renderWorksheet } from './worksheet-view.js';

/** Fired (bubbling, composed) after every rendering: detail {ok, problem, blanks, answers}. */
export const WORKSHEET_EVENT = 'attention-worksheet';

function readInputs(element) {
  const input = {};
  for (const name of INPUT_ATTRIBUTES) {
    const text = element.getAttribute(name);
    if (text === null) continue;
    if (name === 'tokens') input.tokens = parseTokens(text);
    else if (['q', 'k', 'v'].includes(name)) input[name] = parseMatrix(name, text);
    else input[name] = text;
  }
  return input;
}

export class AttentionWorksheetElement extends AttentionElementBase {
  static get observedAttributes() {
    return [...EXERCISE_ATTRIBUTES.map(([name]) => name), 'answers', ...INPUT_ATTRIBUTES];
  }

  #attention = null;
  #layout = null;
  #problem = null;

  constructor() {
    super({ styles: [adoptWorksheetStyles], editsCells: false });
  }

  /** The laid-out worksheet (web/practice/worksheet.js) shown, or null. */
  get layout() {
    return this.#layout;
  }

  /** Why nothing is shown, naming the attribute at fault; null when the worksheet is. */
  get problem() {
    return this.#problem;
  }

  connectedCallback() {
    if (this.#attention) {
      this.scheduleRender();
      return;
    }
    this.body.replaceChildren();
    // The full build: a round draws its numbers with randomMatrix(), which the embed build lacks.
    this.loadCoreOnce(CORE_CHOICES.full, (attention) => {
      this.#attention = attention;
      if (this.isConnected) this.render();
    });
  }

  showLoadFailure(error) {
    this.#problem = `The attention core could not be loaded: ${error?.message ?? error}`;
    super.showLoadFailure(error);
    this.#announce();
  }

  attributeChangedCallback() {
    if (this.#attention) this.scheduleRender();
  }

  render() {
    if (!this.#attention) return;
    try {
      this.#layout = this.#lay();
      this.#problem = null;
      this.body.replaceChildren(renderWorksheet(this.ownerDocument, this.#layout));
      this.showProblem(null);
    } catch (error) {
      this.#layout = null;
      this.#problem = error.message;
      this.body.replaceChildren();
      this.showProblem({ text: error.message });
    }
    this.#announce();
  }

  // The exercise's layout, or an Error whose message names the attribute at fault.
  #lay() {
    const { settings, answers, problem } = readWorksheetAttributes((name) => this.getAttribute(name));
    if (problem) throw new Error(problem);
    let input;
    try {
      input = settings.round === undefined
        ? { ...this.#attention.article().two_words, ...readInputs(this) }
        : roundInputs(this.#attention, { seed: settings.seed ?? 0, level: settings.level });
    } catch (error) {
      throw new Error(error instanceof ConfigError ? `${error.attribute}: ${error.detail}` : error.message);
    }
    let trace;
    try {
      trace = this.#attention.run(input);
    } catch (error) {
      throw new Error(describeInputError(error.message, { configured: (field) => this.hasAttribute(field) }).text);
    }
    const cells = worksheetBlanks(settings, trace);
    return worksheetLayout(trace, cells, { answers, round: settings.round, seed: settings.seed ?? (settings.round ? 0 : undefined), level: settings.level });
  }

  #announce() {
    this.dispatchEvent(new CustomEvent(WORKSHEET_EVENT, {
      bubbles: true,
      composed: true,
      detail: {
        ok: this.#layout !== null,
        problem: this.#problem,
        blanks: this.#layout?.blankCount ?? 0,
        answers: this.#layout?.answers ?? false,
      },
    }));
  }
}
