// <attention-layer-inputs>: the toy layer's shared inputs as one element: the tokens, the seed
// and the token vectors X, which a reader edits in fields and a table. The core checks every
// value before anything else gets it: an accepted one becomes the element's attributes
// (`tokens`, `seed`, `x`: its state is its attributes, as for the other sequel elements) and
// is handed to the elements its `for` attribute names; a refused one is named in the element's
// message, on the field or cell at fault, while those elements keep the last good input.
// The layer's shape (`d-model`, `n-heads`) is the author's: no field, but the reader's values
// are checked in it and it is handed on with them. After each check it fires the elements'
// `attention-change` event.

import { ConfigError, CORE_CHOICES, formatTokens, parseMatrix, parseNumberText, parseTokens } from '../element-config.js';
import { announceChange } from '../change-event.js';
import { AttentionElementBase, computingNote } from '../element-base.js';
import { REQUEST_ATTRIBUTES, requestFrom, rewordCoreError } from './sequel-config.js';
import { adoptSequelStyles } from './sequel-styles.js';
import {
  cellRefusal, feedFor, fieldRefusal, formatVectors, keptSeed, keptTokens, parseForIds, parseSeedText,
} from './layer-inputs-config.js';
import { quoteTyped } from '../../state/quote-text.js';
import { notANumber } from '../cell-editing.js';
import { formatVectorValue, renderLayerFields, renderVectorTable, updateVectorTable } from '../../views/sequel/layer-inputs-view.js';

/**
 * The attributes that are the layer's inputs, read as <attention-variant> reads them: the
 * reader's (tokens, seed, x) and the author's shape of the layer (d-model, n-heads).
 */
const INPUT_ATTRIBUTES = Object.freeze({
  tokens: REQUEST_ATTRIBUTES.variant.tokens,
  seed: REQUEST_ATTRIBUTES.variant.seed,
  x: REQUEST_ATTRIBUTES.variant.x,
  'd-model': REQUEST_ATTRIBUTES.variant['d-model'],
  'n-heads': REQUEST_ATTRIBUTES.variant['n-heads'],
});

// The core's refusal of one field, without the core's name for it ("tokens[2]: must not be
// empty" -> "token 3 must not be empty").
function withoutPath(message, field) {
  return String(message).replace(new RegExp(`^${field}(?:\\[(\\d+)\\])?: `, 'u'),
    (whole, index) => (index === undefined ? '' : `token ${Number(index) + 1} `));
}

export class AttentionLayerInputsElement extends AttentionElementBase {
  static observedAttributes = ['tokens', 'seed', 'x', 'd-model', 'n-heads', 'for'];

  #attention = null;
  #nodes;
  #layer = null;     // the core's answer for the input in use: the last one that was accepted
  #values = null;    // that input: {tokens, seed, x, d_model, n_heads}, null where the core's default is used
  #problem = null;

  constructor() {
    super({ styles: [adoptSequelStyles], editsCells: false });
    this.#nodes = renderLayerFields(this.ownerDocument);
    this.placeAtTop(this.#nodes.fields);
    this.body.append(computingNote(this.ownerDocument));
    this.#listen();
  }

  /** The core's answer for the input in use (tokens, seed, x, d_model, …): null before the first. */
  get result() {
    return this.#layer;
  }

  /** What was refused last, in the words of the message, or null. */
  get problem() {
    return this.#problem;
  }

  /**
   * The input in use: the tokens and seed (the core's defaults when not set), and the reader's
   * own token vectors x, or null for the seeded ones. Null before the core has answered.
   * @returns {{tokens: string[], seed: number, x: number[][] | null} | null}
   */
  get values() {
    if (!this.#layer) return null;
    return { tokens: [...this.#layer.tokens], seed: this.#layer.seed, x: this.#values.x ? this.#layer.x.map((row) => [...row]) : null };
  }

  /** Sets the attributes from {tokens, seed, x}; a member left out (or null) removes its attribute. */
  set values(values) {
    const { tokens = null, seed = null, x = null } = values ?? {};
    this.#reflect({ tokens, seed, x });
  }

  connectedCallback() {
    this.loadCoreOnce(CORE_CHOICES.full, (attention) => {
      this.#attention = attention;
      this.scheduleRender();
    });
    this.scheduleRender();
  }

  attributeChangedCallback() {
    this.scheduleRender();
  }

  /** A failed load of the core is refused as an author's attribute is. */
  showLoadFailure(error) {
    this.#refuse(`The attention core could not be loaded: ${error?.message ?? error}`, null, { warn: true });
  }

  /** The attributes, checked by the core: accepted, they are the input in use and are handed on. */
  render() {
    if (!this.#attention) return;
    let values;
    let layer;
    try {
      const request = requestFrom(INPUT_ATTRIBUTES, (name) => this.getAttribute(name));
      values = {
        tokens: request.tokens ?? null, seed: request.seed ?? null, x: request.x ?? null,
        d_model: request.d_model ?? null, n_heads: request.n_heads ?? null,
      };
      layer = this.#check(values);
    } catch (error) {
      const text = error instanceof ConfigError
        ? error.message
        : rewordCoreError(String(error?.message ?? error), INPUT_ATTRIBUTES, (name) => this.hasAttribute(name));
      this.#refuseAttributes(text);
      return;
    }
    this.#accept(values, layer, null);
  }

  #check({ tokens, seed, x, d_model: dModel = null, n_heads: nHeads = null }) {
    const request = {};
    if (tokens) request.tokens = tokens;
    if (seed !== null) request.seed = seed;
    if (x) request.x = x;
    if (dModel !== null) request.d_model = dModel;
    if (nHeads !== null) request.n_heads = nHeads;
    return this.#attention.groupedAttention(request);
  }

  // The layer's shape as the author set it: what reader's values are checked and handed on with.
  get #shape() {
    return { d_model: this.#values?.d_model ?? null, n_heads: this.#values?.n_heads ?? null };
  }

  // An author's attribute the core refused. With an input in use, it stays; before the first,
  // the element starts from what the core accepts: the seeded vectors, then the default tokens.
  #refuseAttributes(text) {
    if (this.#layer) {
      this.#refuse(`${text}. Not used: the input stays the last good one.`, null, { warn: true });
      return;
    }
    const loose = this.#readLoosely();
    const shape = { d_model: loose.d_model, n_heads: loose.n_heads };
    const fallbacks = [
      [{ ...loose, x: null }, 'the seeded vectors are used'],
      [{ tokens: null, seed: null, x: null, ...shape }, 'the default tokens and seed are used'],
      [{ tokens: null, seed: null, x: null, d_model: null, n_heads: null }, 'the default tokens, seed and layer shape are used'],
    ];
    for (const [fallback, instead] of fallbacks) {
      let layer;
      try {
        layer = this.#check(fallback);
      } catch {
        continue;  // the next, plainer fallback
      }
      this.#accept(fallback, layer, `${text}. Not used: ${instead}.`);
      return;
    }
    this.#refuse(text, null, { warn: true });
  }

  // The tokens, seed and shape attributes where they can be read at all.
  #readLoosely() {
    const read = (name, parse) => {
      try {
        const text = this.getAttribute(name);
        return text === null ? null : parse(text);
      } catch {
        return null;
      }
    };
    return {
      tokens: read('tokens', (text) => parseTokens(text)), seed: read('seed', parseSeedText),
      d_model: read('d-model', parseSeedText), n_heads: read('n-heads', parseSeedText),
    };
  }

  #accept(values, layer, problem) {
    const redraw = this.#layer === null || !updateVectorTable(this.body, layer, Boolean(values.x));
    this.#layer = layer;
    this.#values = values;
    const { tokens, seed, reset } = this.#nodes;
    tokens.value = formatTokens(layer.tokens);
    seed.value = String(layer.seed);
    for (const field of [tokens, seed]) this.#mark(field, false);
    reset.disabled = !values.x;
    if (redraw) this.body.replaceChildren(renderVectorTable(this.ownerDocument, layer, Boolean(values.x)));
    const notFed = this.#feed(values, layer);
    const said = [problem, notFed].filter(Boolean).join(' ') || null;
    this.#say(said);
    this.warnOnce(said);
    this.#changed(layer);
  }

  // Hands the input to the elements `for` names; says which names it could not use.
  #feed(values, layer) {
    const root = this.getRootNode();
    const unused = [];
    for (const id of parseForIds(this.getAttribute('for'))) {
      const target = root.getElementById?.(id) ?? null;
      const attributes = target ? feedFor(target.localName, values, layer) : null;
      if (!target) unused.push(`no element has the id \u201c${id}\u201d`);
      else if (!attributes) unused.push(`<${target.localName} id="${id}"> takes none of these inputs`);
      else {
        for (const [name, value] of Object.entries(attributes)) {
          if (value === null) target.removeAttribute(name);
          else if (target.getAttribute(name) !== value) target.setAttribute(name, value);
        }
      }
    }
    return unused.length === 0 ? null : `for attribute: ${unused.join('; ')}.`;
  }

  // A reader's value, checked: accepted, it becomes the attributes (and is then handed on).
  #tryReaderValues(values, refusal) {
    let layer;
    try {
      layer = this.#check({ ...this.#shape, ...values });
    } catch (error) {
      refusal(String(error?.message ?? error));
      return false;
    }
    this.#reflect({ tokens: layer.tokens, seed: layer.seed, x: values.x });
    return true;
  }

  #reflect({ tokens, seed, x }) {
    const set = (name, value) => (value === null || value === undefined ? this.removeAttribute(name) : this.setAttribute(name, value));
    set('tokens', tokens ? formatTokens(tokens) : null);
    set('seed', seed === null || seed === undefined ? null : String(seed));
    set('x', x ? formatVectors(x) : null);
    this.scheduleRender();  // also when nothing changed: the message of a refusal goes
  }

  #listen() {
    const { tokens, seed, reset } = this.#nodes;
    tokens.addEventListener('change', () => {
      if (!this.#layer) return;
      const kept = keptTokens(this.#layer.tokens);
      let words;
      try {
        words = parseTokens(tokens.value);
      } catch (error) {
        this.#refuse(fieldRefusal('Tokens', error.detail ?? error.message, kept, 'they were'), tokens);
        return;
      }
      // New tokens need new vectors: the seed draws them.
      this.#tryReaderValues({ tokens: words, seed: this.#layer.seed, x: null },
        (message) => this.#refuse(fieldRefusal('Tokens', withoutPath(message, 'tokens'), kept, 'they were'), tokens));
    });
    seed.addEventListener('change', () => {
      if (!this.#layer) return;
      const kept = keptSeed(this.#layer.seed);
      const value = parseSeedText(seed.value);
      if (value === null) {
        this.#refuse(fieldRefusal('Seed', `${quoteTyped(seed.value)} is not a whole number`, kept), seed);
        return;
      }
      this.#tryReaderValues({ tokens: this.#layer.tokens, seed: value, x: null },
        (message) => this.#refuse(fieldRefusal('Seed', withoutPath(message, 'seed'), kept), seed));
    });
    reset.addEventListener('click', () => {
      if (this.#layer) this.#tryReaderValues({ tokens: this.#layer.tokens, seed: this.#layer.seed, x: null }, (message) => this.#refuse(message));
    });
    this.body.addEventListener('change', (event) => this.#cellChanged(event.target));
    // Escape puts the cell's good value back over what the reader typed, as in part one.
    this.body.addEventListener('keydown', (event) => {
      const input = event.target;
      if (event.key !== 'Escape' || !this.#layer || input?.dataset?.row === undefined) return;
      input.value = this.#cellText(input);
      this.#mark(input, false);
      this.#say(null);
    });
  }

  #cellText(input) {
    return formatVectorValue(this.#layer.x[Number(input.dataset.row)][Number(input.dataset.col)]);
  }

  #cellChanged(input) {
    if (!this.#layer || input?.dataset?.row === undefined) return;
    const row = Number(input.dataset.row);
    const col = Number(input.dataset.col);
    const cell = { col, token: this.#layer.tokens[row], kept: this.#layer.x[row][col] };
    const value = parseNumberText(input.value);
    if (value === null) {
      this.#refuseCell(input, cellRefusal({ ...cell, why: notANumber(input.value) }));
      return;
    }
    if (Math.fround(value) === cell.kept) {
      // The number it already has (typed again after a refusal of it): nothing changes but its
      // text, and the refusal's message goes.
      input.value = formatVectorValue(cell.kept);
      if (input.hasAttribute('aria-describedby')) {
        this.#mark(input, false);
        this.#say(null);
        this.#changed(this.#layer);
      }
      return;
    }
    const x = this.#layer.x.map((values) => [...values]);
    x[row][col] = value;
    this.#tryReaderValues({ tokens: this.#layer.tokens, seed: this.#layer.seed, x },
      (message) => this.#refuseCell(input, cellRefusal({ ...cell, why: message, core: true })));
  }

  // A number counts when the reader leaves its cell (or presses Enter), so a refused one is put
  // back at once, as part one's cells are when a reader leaves a refused one (cell-editing.js):
  // the message says what was refused and the value the cell is back to, and describes the cell.
  #refuseCell(input, text) {
    input.value = this.#cellText(input);
    this.#mark(input, false);
    input.setAttribute('aria-describedby', this.messageId);
    this.#refuse(text);
  }

  // A refusal: said in the message (on `field`, when a reader's field or cell is at fault); the
  // input in use, and so every element it feeds, stays as it was. An author's mistake (`warn`)
  // goes to the console too, as the other elements' do; a reader's typing does not.
  #refuse(text, field = null, { warn = false } = {}) {
    if (field) this.#mark(field, true);
    this.#say(text);
    if (warn) this.warnOnce(text);
    this.#changed(null, text);
  }

  #mark(field, refused) {
    if (refused) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', this.messageId);
    } else {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  }

  #say(text) {
    this.showMessage(text);
    this.#problem = text;
  }

  #changed(result, problem = this.#problem) {
    announceChange(this, { result, problem });
  }
}
