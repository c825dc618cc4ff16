// One live attention input and its trace, shared by every view that shows it. The model keeps
// what an author configured (field by field: tokens, q, k, v, mask, scale), what a reader edited since,
// and the core's trace of the result; it recomputes through the core and tells its listeners.
// No DOM here, and no attention arithmetic: `run()` of the core computes every number.

import { EDITABLE_MATRICES, INPUT_FIELDS, describeInputError, usesTrainedHead } from './element-config.js';

// Tokens without q, k and v take the trained head's (api/trained-input.js, loaded on first use,
// so that an element that never needs it downloads none of the trainer).
let trainedInput = null;
const loadTrainedInput = () => import('../api/trained-input.js').then((module) => { trainedInput = module; return module; });

/**
 * @typedef {{attribute: string, path: string, detail: string, text: string}} Problem
 *   what is wrong with the configuration, worded for its author (see describeInputError)
 */

const clone = (value) => (value === undefined ? undefined : structuredClone(value));

export class AttentionModel extends EventTarget {
  /** @type {{run: Function, article: Function} | null} */
  #attention = null;
  /** The article's example: what an unset field stands for. */
  #base = null;
  /** field -> {value} or {error: Problem}; a missing field means "the article's". */
  #settings = new Map();
  /** The input behind the current trace, reader edits included. */
  #live = null;
  #trace = null;
  #maskChoices = [];
  /** mask name -> the core's label of it, every mask the core knows. */
  #maskLabels = new Map();
  /** @type {Problem | null} */
  #problem = null;
  #dirty = true;
  #scheduled = false;
  /** Who applies a reader's edit of a cell, when not the model itself (see `editor`). */
  #editor = null;
  /** Whether a reader's edit of one cell is being applied, and whether the latest trace came from one. */
  #inCellEdit = false;
  #byCellEdit = false;

  /**
   * Hands the model the core's API (from createAttention()); the first trace is computed on
   * the next microtask, or at once when `trace` is read.
   * @param {{run: Function, article: Function}} attention
   */
  connect(attention) {
    this.#attention = attention;
    this.#base = attention.article().two_words;
    // The masks a reader may pick, as the core names and labels them: those real models use
    // (the vocabulary's "kernels", hidden with −∞), not the FAQ's 0-filled mistake.
    const { masks } = attention.vocabulary();
    this.#maskChoices = masks.filter((mask) => mask.kernels).map((mask) => [mask.name, mask.label]);
    this.#maskLabels = new Map(masks.map((mask) => [mask.name, mask.label]));
    this.#invalidate();
  }

  /**
   * The core's API the model computes with (null before connect()). A piece that asks the core
   * more than the trace holds asks this one, so that a page runs one core.
   */
  get attention() {
    return this.#attention;
  }

  /** [name, label] of each mask a reader may pick; empty before connect(). */
  get maskChoices() {
    return this.#maskChoices;
  }

  /** The core's label of mask `name` ("causal (−∞)"), or the name itself if the core has none. */
  maskLabel(name) {
    return this.#maskLabels.get(name) ?? name;
  }

  /** Whether the core is connected. */
  get connected() {
    return this.#attention !== null;
  }

  /**
   * Sets one field as configured by an author (an attribute or a property). `undefined`
   * returns it to the article's value. Reader edits are dropped: the configuration changed.
   * @param {'tokens'|'q'|'k'|'v'|'mask'|'scale'} field
   * @param {unknown} value
   */
  configure(field, value) {
    this.#checkField(field);
    if (value === undefined) this.#settings.delete(field);
    else this.#settings.set(field, { value: clone(value) });
    this.#invalidate();
  }

  /**
   * Records that an author's setting of `field` could not be read (bad JSON, say); the model
   * shows that problem until the field is configured again.
   * @param {string} field
   * @param {Problem} problem
   */
  configureError(field, problem) {
    this.#checkField(field);
    this.#settings.set(field, { error: problem });
    this.#invalidate();
  }

  /** Whether `field` was configured (rather than taken from the article's example). */
  isConfigured(field) {
    return this.#settings.has(field);
  }

  /** The configured value of `field`, or undefined when it is unset or unreadable. */
  configured(field) {
    return clone(this.#settings.get(field)?.value);
  }

  /** The current value of `field`: the input behind the trace, else the configured value. */
  current(field) {
    this.flush();
    if (this.#live) return clone(this.#live[field]);
    return this.configured(field);
  }

  /** The input behind the current trace (a copy), or null when there is none. */
  get input() {
    this.flush();
    return clone(this.#live);
  }

  /** The latest trace of the core (same shape as run() returns), or null. Treat as read-only. */
  get trace() {
    this.flush();
    return this.#trace;
  }

  /** Whether the latest update came from a reader's edit of one cell (editCell), the change a
   *  reader makes keystroke after keystroke; pieces far off screen draw such a trace later. */
  get changedByCellEdit() {
    return this.#byCellEdit;
  }

  /** @returns {Problem | null} */
  get problem() {
    this.flush();
    return this.#problem;
  }

  /**
   * A reader's edit of one cell of q, k or v. Applied only if the core accepts the result;
   * otherwise the model is unchanged and the core's objection is returned, worded for a reader.
   * @returns {Problem | null}
   */
  setCell(matrix, row, col, value) {
    if (!EDITABLE_MATRICES.includes(matrix)) throw new RangeError(`not an editable matrix: ${matrix}`);
    this.flush();
    if (!this.#live) return this.#problem;
    const candidate = clone(this.#live);
    if (!candidate[matrix][row] || col >= candidate[matrix][row].length) {
      throw new RangeError(`${matrix}[${row}][${col}] is outside the input`);
    }
    candidate[matrix][row][col] = value;
    return this.#tryLive(candidate);
  }

  /**
   * Who applies a reader's edit of a cell (editCell). By default (null) the model itself, with
   * setCell. A page that keeps the state itself (a history, a link to share) sets a function
   * `(matrix, row, col, value, {history}) => Problem | null` that checks and records the edit
   * and shows the result with show(); the editable steps then edit the page's state.
   * @type {((matrix: string, row: number, col: number, value: number,
   *          options: {history: 'push' | 'replace'}) => Problem | null) | null}
   */
  get editor() {
    return this.#editor;
  }

  set editor(apply) {
    this.#editor = apply ?? null;
  }

  /**
   * A reader's edit of one cell, from an editable step: applied by the editor if one is set,
   * else by setCell. `history`: 'push' for the first change to a cell being typed in,
   * 'replace' for the keystrokes after it (one edit, one history entry).
   * @returns {Problem | null}
   */
  editCell(matrix, row, col, value, { history = 'push' } = {}) {
    this.#inCellEdit = true;
    try {
      if (this.#editor) return this.#editor(matrix, row, col, value, { history });
      return this.setCell(matrix, row, col, value);
    } finally {
      this.#inCellEdit = false;
    }
  }

  /**
   * A reader's choice of mask (one of maskChoices).
   * @returns {Problem | null}
   */
  setMask(mask) {
    this.flush();
    if (!this.#live) return this.#problem;
    return this.#tryLive({ ...clone(this.#live), mask });
  }

  /**
   * Shows `input`, which the caller has already run through the core, with `trace`, the core's
   * answer: for a page that checks a reader's change itself (against limits of its own) before
   * showing it, so that the core computes it once. Undone, like any reader's edit, by reset()
   * or a new configuration.
   * @param {object} input  tokens, q, k, v, mask and scale
   * @param {object} trace  what run(input) returned
   */
  show(input, trace) {
    if (!this.#attention) throw new Error('show() needs the core: connect() the model first');
    this.#dirty = false;  // what the configuration would compute is replaced, so not computed
    this.#publish(clone(input), trace, null);
  }

  /** Drops the reader's edits: back to the configured input. */
  reset() {
    this.#invalidate();
    this.flush();
  }

  /** Computes now if anything changed since the last trace (needs the core). */
  flush() {
    if (!this.#dirty || !this.#attention) return;
    this.#dirty = false;
    this.#recompute();
  }

  #checkField(field) {
    if (!INPUT_FIELDS.includes(field)) throw new RangeError(`not an input field: ${field}`);
  }

  // Several attributes usually change together (tokens and q, say): compute once, after all
  // of them, instead of reporting the shape mismatch of a half-applied change.
  #invalidate() {
    this.#dirty = true;
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.flush();
    });
  }

  #recompute() {
    const unreadable = INPUT_FIELDS.map((field) => this.#settings.get(field)?.error).find(Boolean);
    if (unreadable) {
      this.#publish(null, null, unreadable);
      return;
    }
    const input = {};
    for (const field of INPUT_FIELDS) {
      input[field] = this.#settings.has(field) ? clone(this.#settings.get(field).value) : clone(this.#base[field]);
    }
    if (usesTrainedHead((field) => this.#settings.has(field))) {
      const trained = trainedInput?.knownTrainedHeadInput(input.tokens);
      if (!trained) {
        this.#train(input.tokens);
        return;
      }
      if (trained.error) {
        this.#publish(null, null, this.#describe(trained.error));
        return;
      }
      Object.assign(input, { q: trained.q, k: trained.k, v: trained.v });
    }
    try {
      const trace = this.#attention.run(input);
      // An unset variant is the core's default: the input says which one the trace used.
      input.mask ??= trace.mask;
      input.scale ??= trace.scale;
      this.#publish(input, trace, null);
    } catch (error) {
      this.#publish(null, null, this.#describe(error));
    }
  }

  // Says that the trained head is training (as the model's problem, with `training: true`,
  // so the element shows it where a problem goes), then computes again once it answers.
  #train(tokens) {
    const say = (progress) => {
      const detail = trainedInput ? trainedInput.describeTraining(progress) : 'loading the trained head\u2026';
      this.#publish(null, null, { attribute: 'tokens', path: 'tokens', detail, text: detail, training: true });
    };
    say({ step: 0, steps: null });
    const again = () => {
      if (JSON.stringify(this.configured('tokens')) === JSON.stringify(tokens)) this.#invalidate();
    };
    loadTrainedInput().then((module) => module.trainedHeadInput(tokens, { onProgress: say })).then(again, (error) => {
      // A refusal of the tokens is kept and shown by the next computation; a failure to load
      // the trainer is said here (computing again would only try again and again).
      if (trainedInput?.knownTrainedHeadInput(tokens)) {
        again();
        return;
      }
      const detail = `the trained head these tokens need could not be loaded (${error?.message ?? error})`;
      this.#publish(null, null, { attribute: 'tokens', path: 'tokens', detail, text: `tokens attribute: ${detail}` });
    });
  }

  #tryLive(candidate) {
    let trace;
    try {
      trace = this.#attention.run(candidate);
    } catch (error) {
      return describeInputError(error?.message ?? String(error));
    }
    this.#publish(candidate, trace, null);
    return null;
  }

  #describe(error) {
    return describeInputError(error?.message ?? String(error), {
      configured: (field) => this.#settings.has(field),
    });
  }

  #publish(input, trace, problem) {
    this.#live = input;
    this.#trace = trace;
    this.#problem = problem;
    this.#byCellEdit = this.#inCellEdit;
    this.dispatchEvent(new Event('update'));
  }
}
