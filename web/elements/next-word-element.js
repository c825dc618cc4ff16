// <attention-next-word>: the walkthrough's step 6, the demonstration after attention. One
// token's output (the last by default, or `row`) is scored by the core against its toy
// vocabulary, whose vectors have a fixed width: for a head of another head_dim the element says
// why there is nothing to score instead of drawing tables. A piece like the others: it shows the
// model its `model` attribute names (see element-pieces.js), asking the model's own core.

import { AttentionPiece, PIECE_ATTRIBUTES, reflectString } from './element-pieces.js';
import { element } from '../views/page-slots.js';
import { SHIFTED_NOTE, nextWordView } from '../views/next-word-view.js';

export class AttentionNextWordElement extends AttentionPiece {
  static observedAttributes = [...PIECE_ATTRIBUTES, 'row'];

  #view = null;
  #vocabulary = null;
  #scored = null;

  constructor() {
    super();
    this.upgradeProperties(['row']);
  }

  // A page reads `scored` as soon as its model changes: it answers for the latest trace.
  get drawsOnlyWhenNear() {
    return false;
  }

  /**
   * What the core answered for the output shown (words, logits, exponentials, probabilities,
   * total, probability_sum, shifted, most_likely), or null when nothing is scored.
   */
  get scored() {
    return this.#scored;
  }

  /** The toy vocabulary (words and their vectors), or null before the core has answered. */
  get vocabulary() {
    return this.#vocabulary;
  }

  renderPiece(doc, trace) {
    const { attention } = this.shownModel;
    this.#vocabulary ??= attention.article().vocabulary;
    const width = this.#vocabulary.vectors[0].length;
    const row = this.indexAttribute('row', trace.token_count, trace.token_count - 1);
    if (trace.head_dim !== width) {
      this.#scored = null;
      return [element(doc, 'p', 'note', `The toy vocabulary\u2019s vectors have ${width} numbers, so this ` +
        `demonstration runs only when head_dim is ${width}; it is ${trace.head_dim} here.`)];
    }
    this.#scored = attention.scoreNextWord(trace.out[row]);
    this.#view ??= nextWordView(doc);
    const nodes = this.#view.show(trace, this.#vocabulary, this.#scored, row);
    return this.#scored.shifted ? [...nodes, element(doc, 'p', 'shift-note', SHIFTED_NOTE)] : nodes;
  }
}
reflectString(AttentionNextWordElement, 'row');
